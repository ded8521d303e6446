"""Reads of the queue's one secondary index, `(status, priority, tenant_id, wake_at)`.

`wake_at` is when a row next needs attention (jobs/models.py). Every process that looks for
work reads the index the same way: first which (priority, tenant) groups hold rows of one
status that need attention by a time, one jump per group however many rows it holds; then
one tight range per group, oldest first, stopping at its LIMIT. The claim does it for
pending rows due within its horizon (locking as it reads), the reconciler for running rows
whose lease ran out, the archiver for finished rows old enough to leave (both without
locking; they lock or check again through the primary key).

A plain `status = ? AND wake_at <= ?` would walk every row of the status (priority and
tenant sit between the two columns) and, in a locking read, lock each one it walks.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from scheduler_site.sqltools import datetime_from_db
from tasks.models import MAX_PRIORITY, MIN_PRIORITY

# Readers by tenant name every priority, so that the index's ranges reach the tenant column.
PRIORITIES = ", ".join(str(p) for p in range(MIN_PRIORITY, MAX_PRIORITY + 1))

# MariaDB only considers the loose scan for a range on status: with `status = ?` it walks
# every entry of the status instead, hence the BETWEEN of one value.
GROUPS = """
SELECT priority, tenant_id, MIN(wake_at) FROM jobs
WHERE status BETWEEN %s AND %s AND wake_at <= {until}
GROUP BY status, priority, tenant_id
"""

PART = """
SELECT * FROM (
    SELECT id, tenant_id, priority, wake_at FROM jobs
    WHERE status = %s AND priority = {priority} AND tenant_id = %s AND wake_at <= {until}
    ORDER BY wake_at LIMIT %s{lock}
) AS p{index}"""

Until = tuple[str, list]  # SQL for an instant ("NOW(6)", "%s") and its parameters
Row = tuple[object, str, int, datetime]  # (key, tenant as the database spells it, priority, wake)


@dataclass(frozen=True)
class DueGroup:
    priority: int
    tenant: str  # as the database spells it
    oldest: datetime


def due_groups(cursor, status: str, until: Until) -> list[DueGroup]:
    """The groups holding rows of `status` that need attention by `until`, oldest first."""
    sql, params = until
    cursor.execute(GROUPS.format(until=sql), [status, status, *params])
    rows = cursor.fetchall()
    groups = [DueGroup(row[0], str(row[1]), datetime_from_db(row[2])) for row in rows]
    return sorted(groups, key=lambda group: group.oldest)


def part(status: str, priority: int, tenant: str, count: int, until: Until, lock: str, index: int):
    """One group's range as SQL and parameters; parts of one round join with UNION ALL."""
    sql, params = until
    fields = {"priority": priority, "until": sql, "lock": lock, "index": index}
    return PART.format(**fields), [status, tenant, *params, count]


def read_rows(cursor, sql: str, params: list) -> list[Row]:
    cursor.execute(sql, params)
    return [(r[0], str(r[1]), r[2], datetime_from_db(r[3])) for r in cursor.fetchall()]


def oldest_rows(cursor, status: str, until: Until, limit: int) -> list[Row]:
    """Up to `limit` rows of `status` that need attention by `until`, group by group, oldest
    group first, one statement per group; read without locking (the caller locks what it
    takes through the primary key, checking again)."""
    rows: list[Row] = []
    for index, group in enumerate(due_groups(cursor, status, until)):
        if len(rows) >= limit:
            break
        left = limit - len(rows)
        sql, params = part(status, group.priority, group.tenant, left, until, "", index)
        rows += read_rows(cursor, sql, params)
    return rows
