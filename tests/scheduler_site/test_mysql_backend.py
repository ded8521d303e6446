"""The MySQL backend's saving (scheduler_site/mysql/base.py) keeps what the project relies
on: a transaction is still one, and a session left after it still autocommits. MariaDB
only: the server counts the statements."""

from __future__ import annotations

import pytest
from django.db import connection, connections, transaction

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
