"""Django's MySQL backend, less chatty: a transaction costs no `SET autocommit` either side
of it. On a fast local database a create is a handful of round trips, and these two were
about a sixth of its time (BENCHMARKS.md, issue 23's second round)."""

from __future__ import annotations

from functools import cached_property

from django.db.backends.mysql import base
from django.db.backends.utils import debug_transaction
from django.db.utils import DatabaseErrorWrapper, Error


class DatabaseWrapper(base.DatabaseWrapper):
    def _start_transaction_under_autocommit(self) -> None:
        # Django turns autocommit off for a transaction and on again after it, a round
        # trip each; an explicit START TRANSACTION is one, and the session stays in
        # autocommit. So a transaction the server ends early (a deadlock victim's, error
        # 1213, or one a DDL statement commits) would leave the rest of the atomic block
        # autocommitting statement by statement, where Django's way groups them in a new
        # implicit transaction: such an error therefore marks the block for rollback
        # (`TransactionErrors`), and no DDL may run inside a block (the project runs
        # none; its retries wrap the block). Django's `SET autocommit=1` after the block
        # is no round trip: mysqlclient skips a mode the server's last answer reported.
        logged = debug_transaction(self, "START TRANSACTION")
        with logged, self.wrap_database_errors, self.connection.cursor() as cursor:
            cursor.execute("START TRANSACTION")  # BEGIN is a block under sql_mode=ORACLE

    @cached_property
    def wrap_database_errors(self) -> DatabaseErrorWrapper:
        return TransactionErrors(self)


class TransactionErrors(DatabaseErrorWrapper):
    """Django's error translation, and one more rule: an error after which the server is
    no longer in the block's transaction (a deadlock victim's, 1213; a full lock table's,
    1206; a lock wait timeout under innodb_rollback_on_timeout; a lost connection) marks
    the block for rollback, so a caller that catches it there gets
    TransactionManagementError on its next statement instead of statements that each
    commit alone. MariaDB is asked (`@@in_transaction`), only after an error."""

    def __exit__(self, exc_type, exc_value, traceback) -> None:
        wrapper = self.wrapper
        driver_error = isinstance(exc_value, base.Database.DatabaseError)
        if driver_error and wrapper.in_atomic_block and not wrapper.needs_rollback:
            wrapper.needs_rollback = not _still_in_transaction(wrapper, exc_value)
        super().__exit__(exc_type, exc_value, traceback)


# On MySQL, which has no @@in_transaction: the errors after which InnoDB has rolled the
# whole transaction back (deadlock, lock table full) or the session is gone.
ENDS_TRANSACTION = frozenset({1206, 1213, 2006, 2013})


def _still_in_transaction(wrapper: DatabaseWrapper, error: Exception) -> bool:
    try:
        if not wrapper.mysql_is_mariadb:  # the server's version, read once per connection
            return not (error.args and error.args[0] in ENDS_TRANSACTION)
        with wrapper.connection.cursor() as cursor:  # the driver's: no wrapping again
            cursor.execute("SELECT @@in_transaction")
            return bool(cursor.fetchone()[0])
    except (base.Database.Error, Error):  # the connection is gone: so is the transaction
        return False
