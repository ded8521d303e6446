"""The rows of the scale benchmark, loaded by the database itself (MariaDB's SEQUENCE engine
and `INSERT ... SELECT`): a million tasks load in seconds, where the ORM takes minutes.

Tasks: 1,000 distinct cron expressions (a quarter H-jittered hourly, a quarter H-jittered
daily, a quarter H steps, a quarter fixed), each in one of 100 zones, spread over the
tenants; next_run_at puts 10,000 tasks in each minute from T0 on (slot k holds the tasks
k*10,000 to k*10,000+9,999), so any minute has 10,000 due. Finished jobs: succeeded, one in
50 dead (the DLQ), all old enough to archive, spread over the tasks and tenants.

Everything that writes `tasks` or `jobs` is in this file (`load`, `make_slot_due`), so a
change of where the next runs are kept (issue 23's tick work) is adjusted here only.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import UTC, datetime

from scheduler_site.sqltools import datetime_param
from tasks import schedule
from tasks.models import Tenant

T0 = datetime(2026, 1, 1, tzinfo=UTC)  # slot 0: the minute every measured tick finds due
PER_MINUTE = 10_000
PAIRS = 1_000  # distinct (expression, zone)
ZONE_COUNT = 100
TENANTS = 10
DEAD_EVERY = 50
CHUNK = 500_000  # rows per INSERT ... SELECT: one statement's undo stays small
URL = "https://93.184.216.34/hook"


@dataclass(frozen=True)
class Size:
    tasks: int
    finished: int


def hour_windows() -> list[tuple[int, int]]:
    return [(a, b) for a in range(24) for b in range(a + 1, 24)]


def expression(i: int) -> str:
    """The i-th of the PAIRS distinct expressions (0 <= i < PAIRS)."""
    j, kind = divmod(i, 4)
    a, b = hour_windows()[j]
    if kind == 0:
        return f"H {a}-{b} * * *"  # hourly at a jittered minute, within a window of hours
    if kind == 1:
        return f"H H({a}-{b}) * * *"  # daily at a jittered time
    if kind == 2:
        return f"H/{5 + j % 25} {j // 25}-23 * * *"  # jittered steps
    return f"{j % 60} {j // 60} * * *"


def zones() -> list[str]:
    names = sorted(z for z in schedule._zone_names() if "/" in z and not z.startswith("Etc"))
    step = len(names) // ZONE_COUNT
    return names[::step][:ZONE_COUNT]


def pairs() -> list[tuple[str, str]]:
    """Each expression with its zone, checked by the schedule's own validation."""
    names = zones()
    result = [(expression(i), names[i % ZONE_COUNT]) for i in range(PAIRS)]
    for cron, zone in result:
        schedule.validate(cron, zone)
    return result


def tenant_ids() -> list[uuid.UUID]:
    """Fixed ids: every database of one run has the same tenants, so one token reads each."""
    return [uuid.UUID(int=(0x5CA1E << 96) + n) for n in range(TENANTS)]


def id_sql(column: str, base_ms: int) -> str:
    """A time-ordered (version 7 layout) UUID from a sequence number, in SQL."""
    hex_ms = f"LPAD(HEX({base_ms} + {column}), 12, '0')"
    return (
        f"CONCAT(LEFT({hex_ms}, 8), '-', RIGHT({hex_ms}, 4), '-7',"
        f" LPAD(HEX(MOD({column}, 4096)), 3, '0'), '-8000-', LPAD(HEX({column}), 12, '0'))"
    )


TASK_BASE_MS = int(T0.timestamp() * 1000) - 10**9  # the tasks were made before T0
JOB_BASE_MS = int(T0.timestamp() * 1000) - 2 * 10**9
TASK_ID = id_sql("seq", TASK_BASE_MS)


def task_id(n: int) -> uuid.UUID:
    """The id `id_sql` gives task n, computed in Python (cursors of the list benchmark)."""
    ms = TASK_BASE_MS + n
    return uuid.UUID(f"{ms:012x}"[:8] + f"{ms:012x}"[8:] + f"7{n % 4096:03x}8000{n:012x}")


def create_helpers(cursor, tenants: list[Tenant]) -> None:
    """The pairs and tenants by number, joined by the loads. TEMPORARY: gone with the
    connection, and (unlike CREATE TABLE) no implicit commit inside a test's transaction."""
    cursor.execute(
        "CREATE TEMPORARY TABLE scale_pairs"
        " (n INT PRIMARY KEY, cron VARCHAR(200), zone VARCHAR(64))"
    )
    cursor.executemany(
        "INSERT INTO scale_pairs VALUES (%s, %s, %s)",
        [(n, cron, zone) for n, (cron, zone) in enumerate(pairs())],
    )
    cursor.execute("CREATE TEMPORARY TABLE scale_tenants (n INT PRIMARY KEY, id UUID)")
    cursor.executemany(
        "INSERT INTO scale_tenants VALUES (%s, %s)", [(n, str(t.id)) for n, t in enumerate(tenants)]
    )


def make_tenants() -> list[Tenant]:
    return [
        Tenant.objects.create(id=tenant_id, name=f"scale{n}", concurrency_limit=1_000_000)
        for n, tenant_id in enumerate(tenant_ids())
    ]


def chunks(total: int) -> list[tuple[int, int]]:
    return [(low, min(low + CHUNK, total) - 1) for low in range(0, total, CHUNK)]


def insert_tasks(cursor, low: int, high: int) -> None:
    created = datetime_param(T0)
    cursor.execute(
        "INSERT INTO tasks (id, tenant_id, name, cron, timezone, url, method, headers, body,"
        " priority, timeout_seconds, max_attempts, backoff_base_seconds, misfire_policy,"
        " status, next_run_at, bucket, version, request_hash, created_at, updated_at)"
        " SELECT s.id, t.id, CONCAT('t', s.seq), p.cron, p.zone, %s, 'POST', '{}', '',"
        " MOD(s.seq, 10), 30, 5, 10, 'run_all', 'active',"
        f" %s + INTERVAL (s.seq DIV {PER_MINUTE}) MINUTE,"
        " MOD(CRC32(UNHEX(REPLACE(s.id, '-', ''))), 1024), 1, '', %s, %s"
        f" FROM (SELECT seq, {TASK_ID} AS id FROM seq_{low}_to_{high}) s"
        f" JOIN scale_pairs p ON p.n = MOD(s.seq, {PAIRS})"
        f" JOIN scale_tenants t ON t.n = MOD(s.seq, {TENANTS})",
        [URL, datetime_param(T0), created, created],
    )


def insert_finished(cursor, low: int, high: int, tasks: int) -> None:
    """Job n: task n % tasks (so its tenant), an hour earlier per lap over the tasks; dead
    by runs of TENANTS jobs, one tenant each (every n % 50 would all be tenant 0's)."""
    cursor.execute(
        "INSERT INTO jobs (id, tenant_id, task_id, scheduled_at, priority, status, attempt,"
        " max_attempts, next_attempt_at, timeout_seconds, backoff_base_seconds, started_at,"
        " finished_at, http_status, duration_ms, created_at, updated_at)"
        " SELECT s.id, t.id, s.task, s.at, MOD(s.task_n, 10),"
        f" IF(MOD(s.seq DIV {TENANTS}, {DEAD_EVERY}) = 0, 'dead', 'succeeded'),"
        " 1, 5, s.at, 30, 10, s.at,"
        " s.at + INTERVAL 1 SECOND, 200, 12, s.at, s.at"
        f" FROM (SELECT seq, {id_sql('seq', JOB_BASE_MS)} AS id, MOD(seq, {tasks}) AS task_n,"
        f" {id_sql(f'MOD(seq, {tasks})', TASK_BASE_MS)} AS task,"
        f" %s - INTERVAL (seq DIV {tasks} + 1) HOUR AS at FROM seq_{low}_to_{high}) s"
        f" JOIN scale_tenants t ON t.n = MOD(s.task_n, {TENANTS})",
        [datetime_param(T0)],
    )


def load(cursor, size: Size) -> list[Tenant]:
    """The tenants, size.tasks tasks and size.finished finished jobs (empty tables first)."""
    tenants = make_tenants()
    create_helpers(cursor, tenants)
    for low, high in chunks(size.tasks):
        insert_tasks(cursor, low, high)
    for low, high in chunks(size.finished):
        insert_finished(cursor, low, high, size.tasks)
    cursor.execute("DROP TEMPORARY TABLE scale_pairs, scale_tenants")
    return tenants


def analyze(cursor) -> None:
    """Fresh index statistics after a bulk load, as a live table's would be."""
    cursor.execute("ANALYZE TABLE tasks, jobs")
    cursor.fetchall()


def make_slot_due(cursor) -> None:
    """Undo a measured tick: slot 0's tasks due at T0 again, the queue's unfinished jobs
    (the tick's and the claim's) gone."""
    cursor.execute("DELETE FROM jobs WHERE status IN ('pending', 'running')")
    cursor.execute(
        "UPDATE tasks t JOIN (SELECT " + TASK_ID + f" AS id FROM seq_0_to_{PER_MINUTE - 1}) s"
        " ON t.id = s.id SET t.next_run_at = %s, t.status = 'active', t.runs_made = 0",
        [datetime_param(T0)],
    )
