"""The claim's statements both engines share (jobs/queue_mysql.py, jobs/queue_sqlite.py).

Every state change is a guarded UPDATE. Batches travel as one JSON parameter (JSON_TABLE on
MySQL, json_each on SQLite) and updates reach their rows through the primary key: a batched
fenced UPDATE that MariaDB planned on the status index deadlocked in the measurements.
"""

from __future__ import annotations

# Which tenants have due jobs at which priority, and the oldest due time of each: one row
# per (priority, tenant). The claim index leads (status, priority, tenant_id,
# next_attempt_at), so MariaDB can read this with a loose index scan, one jump per group,
# however many jobs a group holds. It only considers that scan for a range on status:
# with `status = 'pending'` it walks every pending entry instead, hence the BETWEEN.
DUE_TENANTS = """
SELECT priority, tenant_id, MIN(next_attempt_at) FROM jobs
WHERE status BETWEEN 'pending' AND 'pending' AND next_attempt_at <= {horizon}
GROUP BY status, priority, tenant_id
"""

# One tight range per (priority, tenant) the fair share asks of, each stopping at its LIMIT
# (a range over next_attempt_at alone would walk every not-yet-due row before it).
CLAIM_PART = """
SELECT * FROM (
    SELECT id, tenant_id, priority, next_attempt_at FROM jobs
    WHERE status = 'pending' AND priority = {priority} AND tenant_id = %s
        AND next_attempt_at <= {horizon}
    ORDER BY next_attempt_at LIMIT %s{lock}
) AS c{index}"""

TENANT_BUDGETS = """
SELECT n.id, n.concurrency_limit,
    (SELECT COUNT(*) FROM jobs AS j WHERE j.tenant_id = n.id AND j.status = 'running')
FROM tenants AS n WHERE n.id IN ({placeholders})
"""

# The task's status as the executor should read it: a run-now job goes out even while its
# task is paused (so to the executor its task counts as active); a deleted task stops it.
TASK_STATUS = "CASE WHEN j.run_now AND t.status = 'paused' THEN 'active' ELSE t.status END"
