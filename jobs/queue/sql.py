"""The statements both queue engines share (jobs/queue/mysql.py, jobs/queue/sqlite.py).

Every state change is a guarded UPDATE. Batches travel as one JSON parameter (JSON_TABLE on
MySQL, json_each on SQLite) and updates reach their rows through the primary key: a batched
fenced UPDATE that MariaDB planned on the status index deadlocked in the measurements.
"""

from __future__ import annotations

from jobs.minute_buckets import COLUMNS as DELAY_COLUMNS
from jobs.models import CALLBACK_PRIORITY
from jobs.wake_index import PRIORITIES

# Each tenant's running jobs, counted inside the wake index: naming every priority makes
# each (priority, tenant) pair one tight range (without them the count walks every running
# row). One grouped statement planned once: as a subquery per tenant row MariaDB planned
# the ranges again for each tenant, which cost more than the claim itself. Runs and
# callbacks are counted apart: each lane has its own budget of the tenant's concurrency
# limit, so callbacks never take a run's slot and never crowd out other tenants either.
TENANT_BUDGETS = f"""
SELECT n.id, n.concurrency_limit, COALESCE(r.running, 0), COALESCE(r.calling, 0),
    n.uses_flows OR n.per_host_flows, n.per_host_flows
FROM tenants AS n LEFT JOIN (
    SELECT tenant_id, SUM(priority <> {CALLBACK_PRIORITY}) AS running,
        SUM(priority = {CALLBACK_PRIORITY}) AS calling
    FROM jobs
    WHERE status = 'running' AND priority IN ({PRIORITIES}, {CALLBACK_PRIORITY})
        AND tenant_id IN ({{placeholders}})
    GROUP BY tenant_id
) AS r ON r.tenant_id = n.id
WHERE n.id IN ({{placeholders}})
"""

# The task's status as the executor should read it: a run-now job goes out even while its
# task is paused (so to the executor its task counts as active); a deleted task stops it.
TASK_STATUS = "CASE WHEN j.run_now AND t.status = 'paused' THEN 'active' ELSE t.status END"


# The per-minute counts' row (jobs/queue/minute_counts.py): its key, then its counters.
MINUTE_FIELDS = ("tenant_id", "minute", "writer", "delivered", "failed", "dead", *DELAY_COLUMNS)


def minute_counts_upsert(source: str, columns: str, conflict: str, assignment: str) -> str:
    """The per-minute counts' upsert from `source` (the batch's JSON rows read as a table,
    its `columns` in MINUTE_FIELDS' order): a row already there gets each counter added
    (`assignment` spells that for one counter, `{0}`)."""
    added = ", ".join(assignment.format(name) for name in MINUTE_FIELDS[3:])
    fields = ", ".join(MINUTE_FIELDS)
    return f"INSERT INTO minute_counts ({fields}) SELECT {columns} FROM {source} {conflict} {added}"
