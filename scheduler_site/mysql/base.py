"""Django's MySQL backend, less chatty: a transaction costs no `SET autocommit` either side
of it. On a fast local database a create is a handful of round trips, and these two were
about a sixth of its time (BENCHMARKS.md, issue 23's second round)."""

from __future__ import annotations

from django.db.backends.mysql import base
from django.db.backends.utils import debug_transaction


class DatabaseWrapper(base.DatabaseWrapper):
    def _start_transaction_under_autocommit(self) -> None:
        # Django turns autocommit off for a transaction and on again after it, a round
        # trip each; an explicit BEGIN is one, and the session stays in autocommit. So a
        # transaction the server ends early (a deadlock victim's, error 1213, or one a DDL
        # statement commits) leaves the rest of the atomic block autocommitting each
        # statement, where Django's way would group them in a new implicit transaction:
        # never catch a database error inside an atomic block without a savepoint, and
        # run no DDL inside one (the project does neither; its retries wrap the block).
        # Django's `SET autocommit=1` after the block is then no round trip: mysqlclient
        # skips a mode the server's last answer already reported.
        logged = debug_transaction(self, "BEGIN")
        with logged, self.wrap_database_errors, self.connection.cursor() as cursor:
            cursor.execute("BEGIN")
