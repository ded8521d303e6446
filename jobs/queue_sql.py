"""The statements both queue engines share (jobs/queue_mysql.py, jobs/queue_sqlite.py).

Every state change is a guarded UPDATE. Batches travel as one JSON parameter (JSON_TABLE on
MySQL, json_each on SQLite) and updates reach their rows through the primary key: a batched
fenced UPDATE that MariaDB planned on the status index deadlocked in the measurements.
"""

from __future__ import annotations

from jobs.wake_index import PRIORITIES

# Each tenant's running jobs counted inside the wake index: naming every priority turns
# the count into ten tight ranges (without them it walks every running row).
TENANT_BUDGETS = f"""
SELECT n.id, n.concurrency_limit,
    (SELECT COUNT(*) FROM jobs AS j WHERE j.status = 'running'
        AND j.priority IN ({PRIORITIES}) AND j.tenant_id = n.id)
FROM tenants AS n WHERE n.id IN ({{placeholders}})
"""

# The task's status as the executor should read it: a run-now job goes out even while its
# task is paused (so to the executor its task counts as active); a deleted task stops it.
TASK_STATUS = "CASE WHEN j.run_now AND t.status = 'paused' THEN 'active' ELSE t.status END"
