"""A process whose MariaDB stops answering mid-statement (a primary lost without closing
its connections) gives up within DATABASE_READ_TIMEOUT_SECONDS and comes back by itself
once the database answers again, instead of waiting on the dead connection for hours."""

import time

import MySQLdb
import pytest
from django.conf import settings
from django.core.management import call_command
from django.db import connection

from scheduler_site.database import database_settings
from tests.processes import ManagedProcess, wait_until
from tests.tcp_proxy import TcpProxy

pytestmark = pytest.mark.django_db(transaction=True)


def test_mysql_connections_get_a_read_and_a_write_timeout(tmp_path):
    options = database_settings("mysql://u:p@db:3306/n", tmp_path, read_timeout=7)["OPTIONS"]
    assert options["read_timeout"] == 7 and options["write_timeout"] == 7


def test_a_reconciler_whose_database_stops_answering_reconnects_by_itself(tmp_path):
    if connection.vendor != "mysql":
        pytest.fail("this fault test needs MariaDB (DATABASE_URL=mysql://...)")
    db = settings.DATABASES["default"]
    proxy = TcpProxy(db["HOST"], int(db["PORT"] or 3306))
    url = f"mysql://{db['USER']}:{db['PASSWORD']}@127.0.0.1:{proxy.port}/{db['NAME']}"
    env = {"DATABASE_URL": url, "DATABASE_READ_TIMEOUT_SECONDS": "2"}
    reconciler = ManagedProcess(
        ["run_reconciler", "--interval", "0.2"], tmp_path / "reconciler.log", env=env
    )
    try:
        turns = "reconcile returned="
        wait_until(lambda: turns in reconciler.log(), timeout=30, message="it did not start")
        proxy.hang()
        wait_until(
            lambda: "unavailable (" in reconciler.log(),
            timeout=30,
            message="the reconciler waited on a database that stopped answering",
        )
        proxy.restore()
        after = len(reconciler.log())
        wait_until(
            lambda: turns in reconciler.log()[after:], timeout=30, message="it did not recover"
        )
    finally:
        assert reconciler.stop() == 0
        proxy.close()


def test_migrate_waits_past_the_read_timeout_instead_of_losing_its_connection(tmp_path):
    # A migration legitimately runs longer than the timeout (an ALTER TABLE on a big table,
    # or a wait on a metadata lock behind a live process): here the wait, on a lock held
    # for three times the timeout on the table every migrate reads first.
    if connection.vendor != "mysql":
        pytest.fail("this fault test needs MariaDB (DATABASE_URL=mysql://...)")
    db = settings.DATABASES["default"]
    holder = MySQLdb.connect(
        host=db["HOST"],
        port=int(db["PORT"] or 3306),
        user=db["USER"],
        password=db["PASSWORD"],
        database=db["NAME"],
    )
    try:
        holder.cursor().execute("LOCK TABLES django_migrations WRITE")
        migrate = ManagedProcess(
            ["migrate", "--plan"],
            tmp_path / "migrate.log",
            env={"DATABASE_READ_TIMEOUT_SECONDS": "1"},
        )
        time.sleep(3)
        holder.cursor().execute("UNLOCK TABLES")
        assert migrate.wait_stopped(timeout=60) == 0, migrate.log()
    finally:
        holder.close()


def test_migrate_called_in_a_process_gives_the_timeouts_back_afterwards():
    # A bench calls migrate in-process and goes on with the same connection settings.
    before = dict(settings.DATABASES["default"]["OPTIONS"])
    call_command("migrate", "--plan", verbosity=0)
    assert settings.DATABASES["default"]["OPTIONS"] == before


def test_a_statement_queued_on_a_metadata_lock_is_ended_by_the_server_not_left_waiting(
    tmp_path,
):
    # Behind a migration's ALTER TABLE (here LOCK TABLES) a process's statement waits on
    # the table's metadata lock: the server must give up on it before the client's read
    # timeout does, else the server thread keeps waiting (and runs it later, for nobody).
    if connection.vendor != "mysql":
        pytest.fail("this fault test needs MariaDB (DATABASE_URL=mysql://...)")
    holder = raw_connection()
    try:
        holder.cursor().execute("LOCK TABLES django_migrations WRITE")
        query = ManagedProcess(
            ["shell", "-c", COUNT_MIGRATIONS],
            tmp_path / "query.log",
            env={"DATABASE_READ_TIMEOUT_SECONDS": "2"},
        )
        query.wait_stopped(timeout=30)
        assert "1205" in query.log(), query.log()
        assert metadata_lock_waiters(holder) == 0
    finally:
        holder.close()


COUNT_MIGRATIONS = (
    "from django.db import connection\n"
    "connection.cursor().execute('SELECT COUNT(*) FROM django_migrations')"
)


def raw_connection() -> MySQLdb.Connection:
    db = settings.DATABASES["default"]
    return MySQLdb.connect(
        host=db["HOST"],
        port=int(db["PORT"] or 3306),
        user=db["USER"],
        password=db["PASSWORD"],
        database=db["NAME"],
    )


def metadata_lock_waiters(holder: MySQLdb.Connection) -> int:
    cursor = holder.cursor()
    cursor.execute(
        "SELECT COUNT(*) FROM information_schema.processlist"
        " WHERE state LIKE %s AND db = DATABASE()",
        ["%metadata lock%"],
    )
    return cursor.fetchone()[0]
