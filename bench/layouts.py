"""Queue table layouts compared by bench/row_life.py: their DDL and their statements, which
mirror jobs/queue/mysql.py and jobs/wake_index.py (JSON_TABLE batches joined on the
primary key, guarded UPDATEs fenced by attempt, claims with FOR UPDATE SKIP LOCKED).

A lean layout keeps one `wake_at` column, "when this row next needs attention": the due time
while pending, the lease expiry while running, the time it may be archived once finished.
"""

from __future__ import annotations

from dataclasses import dataclass

PRIORITIES = ", ".join(str(p) for p in range(10))


@dataclass(frozen=True)
class Layout:
    key: str
    label: str
    indexes: tuple[str, ...]
    lean: bool = False
    dead_letters: bool = False  # dead jobs listed per tenant from a small table
    tenant_counts: bool = True  # the claim counts each tenant's running jobs in SQL
    unique_run_key: bool = True
    # wake_at computed by the database from the state (as jobs/models.py has it), read by
    # (priority, tenant) group as jobs/wake_index.py does
    generated: bool = False
    by_tenant: bool = False  # the lean index with the tenant in it, read by group
    virtual: bool = False  # the generated wake_at VIRTUAL (only the index stores it)

    @property
    def table(self) -> str:
        return f"jobs_{self.key}"

    @property
    def trees(self) -> int:
        return 1 + len(self.indexes) + self.unique_run_key


TODAY = Layout(
    "a",
    "today: 6 B-trees",
    (
        "KEY claim_idx (status, priority, tenant_id, next_attempt_at)",
        "KEY reconcile_idx (status, lease_expires_at)",
        "KEY archive_idx (status, finished_at)",
        "KEY dlq_idx (tenant_id, status)",
    ),
)
WAKE = "KEY wake_idx (status, priority, wake_at)"
LEAN = Layout("b", "lean + dead-letter table", (WAKE,), True, True, False)
LEAN_TENANT = Layout(
    "c", "lean + (tenant_id, status)", (WAKE, "KEY tenant_idx (tenant_id, status)"), True
)
# The run key as the primary key's source (a UUIDv5 of task and time): the insert's
# ON DUPLICATE KEY then dedupes on the primary key and the unique B-tree goes, at the price
# of ids in random order.
LEAN_NO_RUN_KEY = Layout("d", "lean, id from run key, no unique", (WAKE,), True, True, False, False)
# What main adopted: the lean layout with the tenant in the index (the claim's fair share
# and the tenant's running count need it), wake_at generated, dead letters read from the
# index (priority IN (0..9) per tenant) instead of a table.
MAIN = Layout(
    "e",
    "main: generated wake_at, by tenant",
    ("KEY wake_idx (status, priority, tenant_id, wake_at)",),
    lean=True,
    generated=True,
    by_tenant=True,
)
WRITTEN = Layout(
    "f",
    "main's index, wake_at written",
    ("KEY wake_idx (status, priority, tenant_id, wake_at)",),
    lean=True,
    by_tenant=True,
)
# VIRTUAL is added to a live table without a copy (STORED copies it); is its index dearer?
MAIN_VIRTUAL = Layout(
    "g",
    "main, wake_at VIRTUAL",
    ("KEY wake_idx (status, priority, tenant_id, wake_at)",),
    lean=True,
    generated=True,
    by_tenant=True,
    virtual=True,
)
LAYOUTS = {
    layout.key: layout
    for layout in (TODAY, LEAN, LEAN_TENANT, LEAN_NO_RUN_KEY, MAIN, WRITTEN, MAIN_VIRTUAL)
}
GENERATED_WAKE = """wake_at DATETIME(6) GENERATED ALWAYS AS (CASE
    WHEN status IN ('pending', 'held') THEN next_attempt_at
    WHEN status = 'running' THEN lease_expires_at ELSE finished_at END) STORED,"""


def writes_wake(layout: Layout) -> bool:
    return layout.lean and not layout.generated


def create_table(layout: Layout) -> list[str]:
    keys = list(layout.indexes)
    if layout.unique_run_key:
        keys.insert(0, "UNIQUE KEY run_uniq (task_id, scheduled_at)")
    wake = "wake_at DATETIME(6) NOT NULL," if layout.lean else ""
    wake = GENERATED_WAKE if layout.generated else wake
    wake = wake.replace("STORED", "VIRTUAL") if layout.virtual else wake
    statements = [
        f"DROP TABLE IF EXISTS {layout.table}, dead_{layout.key}",
        f"""CREATE TABLE {layout.table} (
    id UUID NOT NULL, tenant_id UUID NOT NULL, task_id UUID NOT NULL,
    scheduled_at DATETIME(6) NOT NULL, priority SMALLINT UNSIGNED NOT NULL,
    status VARCHAR(16) NOT NULL, attempt INT UNSIGNED NOT NULL, max_attempts INT UNSIGNED NOT NULL,
    next_attempt_at DATETIME(6) NOT NULL, {wake}
    timeout_seconds INT UNSIGNED NOT NULL, backoff_base_seconds INT UNSIGNED NOT NULL,
    worker_id VARCHAR(100), lease_expires_at DATETIME(6), started_at DATETIME(6),
    finished_at DATETIME(6), http_status SMALLINT UNSIGNED, error VARCHAR(500),
    response_body LONGTEXT, duration_ms INT UNSIGNED,
    created_at DATETIME(6) NOT NULL, updated_at DATETIME(6) NOT NULL,
    PRIMARY KEY (id), {", ".join(keys)}
) ENGINE=InnoDB""",
    ]
    if layout.dead_letters:
        statements.append(
            f"""CREATE TABLE dead_{layout.key} (
    job_id UUID NOT NULL PRIMARY KEY, tenant_id UUID NOT NULL, task_id UUID NOT NULL,
    died_at DATETIME(6) NOT NULL, error VARCHAR(500), KEY tenant_idx (tenant_id, died_at)
) ENGINE=InnoDB"""
        )
    return statements


def insert(layout: Layout) -> str:
    """One batch of new jobs (the tick's insert), rows as [id, tenant, task, at, priority]."""
    wake_column, wake_value = (", wake_at", ", r.at") if writes_wake(layout) else ("", "")
    return f"""
INSERT INTO {layout.table} (id, tenant_id, task_id, scheduled_at, priority, status, attempt,
    max_attempts, next_attempt_at, timeout_seconds, backoff_base_seconds, created_at,
    updated_at{wake_column})
SELECT r.id, r.tenant_id, r.task_id, r.at, r.priority, 'pending', 0, 3, r.at, 30, 10,
    NOW(6), NOW(6){wake_value}
FROM JSON_TABLE(%s, '$[*]' COLUMNS (id CHAR(36) PATH '$[0]', tenant_id CHAR(36) PATH '$[1]',
    task_id CHAR(36) PATH '$[2]', at DATETIME(6) PATH '$[3]', priority INT PATH '$[4]')) AS r
ON DUPLICATE KEY UPDATE {layout.table}.id = {layout.table}.id"""


def due_tenants(layout: Layout, status: str = "pending") -> str:
    """The fair share's first read: which tenants have due jobs per priority (a loose index
    scan); main's reconciler and archiver find their groups the same way."""
    when = "wake_at" if layout.lean else "next_attempt_at"
    return f"""
SELECT priority, tenant_id, MIN({when}) FROM {layout.table}
WHERE status BETWEEN '{status}' AND '{status}' AND {when} <= NOW(6)
GROUP BY status, priority, tenant_id"""


def due_priorities(layout: Layout) -> str:
    """The lean claim's first read: which priorities have due jobs (a loose index scan)."""
    return f"""
SELECT priority, MIN(wake_at) FROM {layout.table}
WHERE status BETWEEN 'pending' AND 'pending' AND wake_at <= NOW(6)
GROUP BY status, priority"""


def claim_part(layout: Layout, index: int, priority: int, by_tenant: bool) -> str:
    """One range, stopping at its LIMIT: per (priority, tenant) today, per priority lean."""
    when = "wake_at" if layout.lean else "next_attempt_at"
    tenant = " AND tenant_id = %s" if by_tenant else ""
    return f"""
SELECT * FROM (SELECT id, tenant_id FROM {layout.table}
    WHERE status = 'pending' AND priority = {priority}{tenant} AND {when} <= NOW(6)
    ORDER BY {when} LIMIT %s FOR UPDATE SKIP LOCKED) AS c{index}"""


def tenant_budgets(layout: Layout, count: int) -> str:
    marks = ", ".join(["%s"] * count)
    if layout.by_tenant:
        # one statement planned once: every (priority, tenant) pair a range of the index
        return f"""
SELECT n.id, n.concurrency_limit, COALESCE(r.running, 0)
FROM tenants_bench AS n LEFT JOIN (
    SELECT tenant_id, COUNT(*) AS running FROM {layout.table}
    WHERE status = 'running' AND priority IN ({PRIORITIES}) AND tenant_id IN ({marks})
    GROUP BY tenant_id) AS r ON r.tenant_id = n.id
WHERE n.id IN ({marks})"""
    return f"""
SELECT n.id, n.concurrency_limit,
    (SELECT COUNT(*) FROM {layout.table} AS j WHERE j.tenant_id = n.id AND j.status = 'running')
FROM tenants_bench AS n WHERE n.id IN ({marks})"""


def mark_running(layout: Layout) -> str:
    lease = "GREATEST(j.next_attempt_at, NOW(6)) + INTERVAL (j.timeout_seconds + %s) SECOND"
    wake = f", j.wake_at = {lease}" if writes_wake(layout) else ""
    return f"""
UPDATE JSON_TABLE(%s, '$[*]' COLUMNS (id CHAR(36) PATH '$')) AS c
STRAIGHT_JOIN {layout.table} AS j FORCE INDEX (PRIMARY) ON j.id = c.id
SET j.status = 'running', j.worker_id = %s, j.attempt = j.attempt + 1,
    j.started_at = NOW(6), j.updated_at = NOW(6), j.lease_expires_at = {lease}{wake}
WHERE j.status = 'pending'"""


def claimed_details(layout: Layout) -> str:
    return f"""
SELECT j.id, j.tenant_id, j.task_id, j.scheduled_at, j.attempt, j.max_attempts,
    j.next_attempt_at, j.timeout_seconds, j.backoff_base_seconds, j.priority, j.lease_expires_at
FROM JSON_TABLE(%s, '$[*]' COLUMNS (id CHAR(36) PATH '$')) AS c
STRAIGHT_JOIN {layout.table} AS j ON j.id = c.id
WHERE j.status = 'running' AND j.worker_id = %s"""


RESULT_COLUMNS = """id CHAR(36) PATH '$[0]', attempt INT PATH '$[1]',
    status VARCHAR(16) PATH '$[2]', next_attempt_at DATETIME(6) PATH '$[3]',
    finished_at DATETIME(6) PATH '$[4]', http_status INT PATH '$[5]',
    error VARCHAR(500) PATH '$[6]', response_body TEXT PATH '$[7]', duration_ms INT PATH '$[8]'"""


def record_results(layout: Layout) -> str:
    # Finished rows may be archived at once here (no retention delay), so wake_at = finished.
    wake = ", j.wake_at = COALESCE(r.next_attempt_at, r.finished_at)" if writes_wake(layout) else ""
    return f"""
UPDATE JSON_TABLE(%s, '$[*]' COLUMNS ({RESULT_COLUMNS})) AS r
STRAIGHT_JOIN {layout.table} AS j FORCE INDEX (PRIMARY) ON j.id = r.id
SET j.status = r.status, j.next_attempt_at = COALESCE(r.next_attempt_at, j.next_attempt_at),
    j.finished_at = r.finished_at, j.http_status = r.http_status, j.error = r.error,
    j.response_body = r.response_body, j.duration_ms = r.duration_ms,
    j.lease_expires_at = NULL, j.worker_id = IF(r.status = 'pending', NULL, j.worker_id),
    j.updated_at = NOW(6){wake}
WHERE j.status = 'running' AND j.worker_id = %s AND j.attempt = r.attempt"""


def record_dead(layout: Layout) -> str:
    """The dead-letter row, written in the result's transaction, only when a job dies."""
    return f"""
INSERT INTO dead_{layout.key} (job_id, tenant_id, task_id, died_at, error)
SELECT j.id, j.tenant_id, j.task_id, j.finished_at, j.error
FROM JSON_TABLE(%s, '$[*]' COLUMNS (id CHAR(36) PATH '$')) AS c
STRAIGHT_JOIN {layout.table} AS j FORCE INDEX (PRIMARY) ON j.id = c.id
WHERE j.status = 'dead'"""


def archivable_group(layout: Layout) -> str:
    """Main's archiver: one group's finished jobs (after due_tenants found the groups)."""
    return f"""SELECT * FROM {layout.table} WHERE status = %s AND priority = %s
    AND tenant_id = %s AND wake_at <= NOW(6) ORDER BY wake_at LIMIT %s"""


def archivable(layout: Layout) -> str:
    """Finished jobs of one status the archiver may take (it reads every column)."""
    if layout.lean:
        # priority sits between status and wake_at: naming every priority keeps this a few
        # short ranges instead of a walk over every row of the status.
        where = f"status = %s AND priority IN ({PRIORITIES}) AND wake_at <= NOW(6)"
        return f"SELECT * FROM {layout.table} WHERE {where} LIMIT %s"
    where = "status = %s AND finished_at < NOW(6)"
    return f"SELECT * FROM {layout.table} WHERE {where} ORDER BY finished_at LIMIT %s"


def archive_delete(layout: Layout) -> str:
    return f"""
DELETE j FROM JSON_TABLE(%s, '$[*]' COLUMNS (
    id CHAR(36) PATH '$[0]', status VARCHAR(16) PATH '$[1]', attempt INT PATH '$[2]')) AS c
STRAIGHT_JOIN {layout.table} AS j FORCE INDEX (PRIMARY)
    ON j.id = c.id AND j.status = c.status AND j.attempt = c.attempt"""


def dead_letter_delete(layout: Layout) -> str:
    return f"""
DELETE d FROM JSON_TABLE(%s, '$[*]' COLUMNS (id CHAR(36) PATH '$')) AS c
STRAIGHT_JOIN dead_{layout.key} AS d FORCE INDEX (PRIMARY) ON d.job_id = c.id"""
