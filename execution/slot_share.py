"""No tenant takes the last of an executor's call slots while another tenant's jobs are due.

The pool fills as jobs come due: with 4 slots, 8 slow calls of one tenant due a second
before another tenant's call took every slot, and that call waited 39 s for them. So while
other tenants have jobs due here (waiting for a slot, or on the timers for a coming second:
the claim holds them a few seconds ahead), a tenant holds at most all but the last tenth
(at least one) of the slots its priority may use. Alone, a tenant may use every slot.
"""

from __future__ import annotations

from collections import Counter

from jobs.queue import ClaimedJob
from tasks.models import CRITICAL_PRIORITY


class SlotShare:
    def __init__(self, *, concurrency: int, reserved_for_critical: int) -> None:
        kept = max(1, concurrency // 10)
        self.most = max(1, concurrency - kept)  # of all slots (priority 0 may use any)
        self.most_normal = max(1, concurrency - reserved_for_critical - kept)
        self._calls: Counter[str] = Counter()  # in flight, by tenant
        self._normal_calls: Counter[str] = Counter()  # of them below priority 0
        self._due: Counter[str] = Counter()  # told of and not started yet, by tenant
        self._due_normal: Counter[str] = Counter()
        self._told: set[str] = set()  # keys of the jobs counted in _due

    def coming(self, job: ClaimedJob) -> None:
        """The job is due here now or soon (the timers hold it, or it waits for a slot)."""
        if job.key in self._told:
            return
        self._told.add(job.key)
        self._due[job.tenant_id] += 1
        if job.priority != CRITICAL_PRIORITY:
            self._due_normal[job.tenant_id] += 1

    def gone(self, job: ClaimedJob) -> None:
        """The job started, or went back unfired."""
        if job.key not in self._told:
            return
        self._told.discard(job.key)
        _less(self._due, job.tenant_id)
        if job.priority != CRITICAL_PRIORITY:
            _less(self._due_normal, job.tenant_id)

    def forget_due(self) -> None:
        self._due.clear()
        self._due_normal.clear()
        self._told.clear()

    def may_start(self, priority: int, tenant: str) -> bool:
        if priority == CRITICAL_PRIORITY:
            return not _others_in(self._due, tenant) or self._calls[tenant] < self.most
        normal_slots_wanted = _others_in(self._due_normal, tenant)
        return not normal_slots_wanted or self._normal_calls[tenant] < self.most_normal

    def started(self, job: ClaimedJob) -> None:
        self.gone(job)
        self._calls[job.tenant_id] += 1
        if job.priority != CRITICAL_PRIORITY:
            self._normal_calls[job.tenant_id] += 1

    def ended(self, job: ClaimedJob) -> None:
        _less(self._calls, job.tenant_id)
        if job.priority != CRITICAL_PRIORITY:
            _less(self._normal_calls, job.tenant_id)


def _others_in(counts: Counter[str], tenant: str) -> bool:
    return len(counts) - (tenant in counts) > 0


def _less(counts: Counter[str], tenant: str) -> None:
    counts[tenant] -= 1
    if counts[tenant] <= 0:
        del counts[tenant]
