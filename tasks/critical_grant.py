"""Priority 0 is an operator's grant (`Tenant.allow_critical`); without it, work is priority 1.

Withdrawing the grant demotes rather than holds: the tenant's calls keep going out, on the
ordinary slots. The tasks keep priority 0 (they run at it again if the grant comes back);
their jobs are demoted at three points, none of them a query per job:
- at withdrawal, every waiting job of the tenant, in one UPDATE;
- when a job is made: the tick's insert reads the grant per task row of priority 0 only
  (tasks/sql.py), run now reads it once;
- at the claim, for what a withdrawal raced with (a tick's insert in flight): the tenants of
  the priority-0 groups due are checked in one statement, and the jobs of those without the
  grant demoted in another, in the claim's transaction, before any is taken.
"""

from __future__ import annotations

from django.db import transaction

from jobs.models import Job, JobStatus
from jobs.wake_index import DueGroup
from tasks.models import CRITICAL_PRIORITY, Task, Tenant

DEMOTED_PRIORITY = 1

# The priority of a job the tick makes from task row `t`: the subquery runs only for rows of
# priority 0 (CASE stops at the first test that fails).
JOB_PRIORITY_SQL = f"""CASE WHEN t.priority = {CRITICAL_PRIORITY} AND NOT EXISTS (
        SELECT 1 FROM tenants AS g WHERE g.id = t.tenant_id AND g.allow_critical
    ) THEN {DEMOTED_PRIORITY} ELSE t.priority END"""

UNGRANTED = "SELECT id FROM tenants WHERE allow_critical = FALSE AND id IN ({placeholders})"
DEMOTE_DUE = f"""UPDATE jobs SET priority = {DEMOTED_PRIORITY}
WHERE status = 'pending' AND priority = {CRITICAL_PRIORITY} AND tenant_id IN ({{placeholders}})"""


@transaction.atomic
def critical_grant_withdraw(*, tenant: Tenant) -> int:
    """Take priority 0 from the tenant; returns how many of its waiting jobs were demoted."""
    Tenant.objects.filter(id=tenant.id).update(allow_critical=False)
    tenant.allow_critical = False
    waiting = Job.objects.filter(
        status__in=[JobStatus.PENDING, JobStatus.HELD, JobStatus.THROTTLED],
        priority=CRITICAL_PRIORITY,
        tenant=tenant,
    )
    return waiting.update(priority=DEMOTED_PRIORITY)


def job_priority(task: Task) -> int:
    """The priority a job of `task` is made with now."""
    if task.priority != CRITICAL_PRIORITY:
        return task.priority
    granted = Tenant.objects.filter(id=task.tenant_id, allow_critical=True).exists()
    return task.priority if granted else DEMOTED_PRIORITY


def demote_ungranted(cursor, groups: list[DueGroup]) -> list[DueGroup]:
    """The claim's due groups, with the priority-0 jobs of tenants without the grant moved
    to priority 1 (in the database and in the groups)."""
    tenants = [group.tenant for group in groups if group.priority == CRITICAL_PRIORITY]
    if not tenants:
        return groups
    placeholders = ", ".join(["%s"] * len(tenants))
    cursor.execute(UNGRANTED.format(placeholders=placeholders), tenants)
    ungranted = {group.tenant for group in groups} & {str(row[0]) for row in cursor.fetchall()}
    if not ungranted:
        return groups
    placeholders = ", ".join(["%s"] * len(ungranted))
    cursor.execute(DEMOTE_DUE.format(placeholders=placeholders), sorted(ungranted))
    return _regrouped(groups, ungranted)


def _regrouped(groups: list[DueGroup], ungranted: set[str]) -> list[DueGroup]:
    oldest: dict[tuple[int, str], DueGroup] = {}
    for group in groups:
        if group.priority == CRITICAL_PRIORITY and group.tenant in ungranted:
            group = DueGroup(DEMOTED_PRIORITY, group.tenant, group.oldest)
        key = (group.priority, group.tenant)
        if key not in oldest or group.oldest < oldest[key].oldest:
            oldest[key] = group
    return sorted(oldest.values(), key=lambda group: group.oldest)
