"""A busy executor checks its database connection at most every half second, not every turn
(execution/runtime.py), and still gets over a connection the server ended (MariaDB only:
pings are counted by the server, and only a server ends a connection)."""

from __future__ import annotations

import pytest
from django.db import connection, connections

from execution.executor_process import ExecutorProcess
from tests.executor import conftest as executor_fixtures
from tests.executor.conftest import wait_for_status

pytestmark = pytest.mark.django_db(transaction=True)
run_executor = executor_fixtures.run_executor  # an executor in a thread of the test


def pings_so_far() -> int:
    """The server's count of this session's pings (COM_PING is an admin command)."""
    with connection.cursor() as cursor:
        cursor.execute("SHOW SESSION STATUS LIKE 'Com_admin_commands'")
        return int(cursor.fetchone()[1])


def end_the_executors_sessions() -> None:
    """What a database restart does to the executor's connections (not to the test's)."""
    connection.ensure_connection()
    mine = connection.connection.thread_id()
    killer = connections.create_connection("default")
    try:
        with killer.cursor() as cursor:
            cursor.execute(
                "SELECT id FROM information_schema.processlist"
                " WHERE db = DATABASE() AND id NOT IN (CONNECTION_ID(), %s)",
                [mine],
            )
            for (session,) in cursor.fetchall():
                cursor.execute("KILL CONNECTION %s", [session])
    finally:
        killer.close()


@pytest.fixture(autouse=True)
def _mariadb_only():
    assert connection.vendor == "mysql", "these tests count a MariaDB server's pings"


def test_turns_close_together_do_not_ping_the_database_again():
    executor = ExecutorProcess(worker_id="pings", concurrency=10)
    executor._check_connection()
    before = pings_so_far()
    for _ in range(20):  # twenty turns within a few milliseconds
        executor._check_connection()
        pings_so_far()
    assert pings_so_far() - before == 0


def test_a_turn_after_the_interval_pings_again():
    executor = ExecutorProcess(worker_id="pings", concurrency=10)
    executor._check_connection()
    before = pings_so_far()
    executor._checked_at -= executor.connection_check_seconds  # the interval has passed
    executor._check_connection()
    assert pings_so_far() - before == 1


def test_an_executor_whose_connection_was_ended_goes_on_delivering(
    endpoint, make_job, run_executor
):
    run_executor()
    first = make_job(endpoint.url("/ok?n=1"))
    wait_for_status([first], {"succeeded"})
    end_the_executors_sessions()
    second = make_job(endpoint.url("/ok?n=2"))
    wait_for_status([second], {"succeeded"})
