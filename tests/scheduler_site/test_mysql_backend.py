"""The MySQL backend's saving (scheduler_site/mysql/base.py) keeps what the project relies
on: a transaction is still one, and a session left after it still autocommits. MariaDB
only: the server counts the statements."""

from __future__ import annotations

import threading
import time

import pytest
from django.db import OperationalError, connection, connections, transaction
from django.db.transaction import TransactionManagementError

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _mariadb_only():
    assert connection.vendor == "mysql", "these tests count a MariaDB server's statements"


@pytest.fixture
def scratch_table():
    with connection.cursor() as cursor:
        cursor.execute("CREATE TABLE backend_scratch (n INT) ENGINE=InnoDB")
    yield "backend_scratch"
    with connection.cursor() as cursor:
        cursor.execute("DROP TABLE backend_scratch")


def session_counts(*names: str) -> dict[str, int]:
    with connection.cursor() as cursor:
        cursor.execute("SHOW SESSION STATUS")
        status = dict(cursor.fetchall())
    return {name: int(status[name]) for name in names}


def counts_during(work, *names: str) -> dict[str, int]:
    before = session_counts(*names)
    work()
    after = session_counts(*names)
    return {name: after[name] - before[name] for name in names}


def rows_seen_by_another_session(table: str) -> int:
    other = connections.create_connection("default")
    try:
        with other.cursor() as cursor:
            cursor.execute(f"SELECT COUNT(*) FROM {table}")
            return cursor.fetchone()[0]
    finally:
        other.close()


def test_a_transaction_begins_and_commits_without_setting_autocommit(scratch_table):
    def one_transaction():
        with transaction.atomic(), connection.cursor() as cursor:
            cursor.execute(f"INSERT INTO {scratch_table} VALUES (1)")

    counts = counts_during(one_transaction, "Com_set_option", "Com_begin", "Com_commit")
    assert counts == {"Com_set_option": 0, "Com_begin": 1, "Com_commit": 1}


def test_rows_written_in_a_transaction_are_hidden_until_it_commits(scratch_table):
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(f"INSERT INTO {scratch_table} VALUES (1)")
        assert rows_seen_by_another_session(scratch_table) == 0
    assert rows_seen_by_another_session(scratch_table) == 1


def test_a_rolled_back_transaction_writes_nothing(scratch_table):
    with pytest.raises(RuntimeError), transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(f"INSERT INTO {scratch_table} VALUES (1)")
        raise RuntimeError("the work failed")
    assert rows_seen_by_another_session(scratch_table) == 0


def test_the_session_autocommits_again_after_a_transaction(scratch_table):
    with pytest.raises(RuntimeError), transaction.atomic():
        raise RuntimeError("the work failed")
    with connection.cursor() as cursor:
        cursor.execute(f"INSERT INTO {scratch_table} VALUES (2)")
    assert rows_seen_by_another_session(scratch_table) == 1


def test_turning_autocommit_off_by_hand_still_holds_writes_back(scratch_table):
    transaction.set_autocommit(False)
    try:
        with connection.cursor() as cursor:
            cursor.execute(f"INSERT INTO {scratch_table} VALUES (3)")
        assert rows_seen_by_another_session(scratch_table) == 0
        transaction.commit()
    finally:
        transaction.set_autocommit(True)
    assert rows_seen_by_another_session(scratch_table) == 1


@pytest.fixture
def two_rows():
    with connection.cursor() as cursor:
        cursor.execute("CREATE TABLE backend_rows (id INT PRIMARY KEY, n INT) ENGINE=InnoDB")
        cursor.execute("INSERT INTO backend_rows VALUES (1, 0), (2, 0)")
    yield "backend_rows"
    with connection.cursor() as cursor:
        cursor.execute("DROP TABLE backend_rows")


def lock_waits() -> int:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT COUNT(*) FROM information_schema.innodb_trx WHERE trx_state = 'LOCK WAIT'"
        )
        return cursor.fetchone()[0]


def deadlocked_inside_a_block(table: str, after_the_catch) -> Exception:
    """This session updates row 1, a heavier one (it wrote 100 rows more) row 2 and then
    waits on row 1; this session's update of row 2 closes the cycle, and InnoDB rolls back
    the smaller transaction, this one. The caller's block catches the deadlock without a
    savepoint, then runs `after_the_catch`; what that raises is returned."""
    other = connections.create_connection("default")
    other.inc_thread_sharing()  # its last statement waits in a thread of its own
    other_cursor = other.cursor()

    def heavier() -> None:
        other_cursor.execute(f"UPDATE {table} SET n = 1 WHERE id = 1")
        other.commit()

    other.set_autocommit(False)
    other_cursor.execute(f"UPDATE {table} SET n = 2 WHERE id = 2")
    other_cursor.execute(f"INSERT INTO {table} SELECT seq + 10, 0 FROM seq_1_to_100")
    waiter = threading.Thread(target=heavier)
    try:
        with transaction.atomic(), connection.cursor() as cursor:
            cursor.execute(f"UPDATE {table} SET n = 3 WHERE id = 1")
            waiter.start()
            wait_until(lambda: lock_waits() == 1)
            with pytest.raises(OperationalError) as deadlock:
                cursor.execute(f"UPDATE {table} SET n = 3 WHERE id = 2")
            assert deadlock.value.args[0] == 1213
            with pytest.raises(Exception) as refused:
                after_the_catch(cursor)
        return refused.value
    finally:
        waiter.join(timeout=30)
        other.close()


def wait_until(predicate, timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, "the other session never waited on the lock"
        # InnoDB refreshes information_schema.innodb_trx only when it was not read for
        # 0.1 s: a faster poll would read the same old answer for ever.
        time.sleep(0.15)


def test_a_statement_after_a_deadlock_caught_inside_a_block_is_refused(two_rows):
    def write(cursor) -> None:
        cursor.execute(f"INSERT INTO {two_rows} VALUES (3, 3)")

    refused = deadlocked_inside_a_block(two_rows, write)
    assert isinstance(refused, TransactionManagementError)
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT id, n FROM {two_rows} WHERE id <= 3 ORDER BY id")
        assert cursor.fetchall() == ((1, 1), (2, 2))  # the other session's, nothing of ours
