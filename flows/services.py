"""Flow use cases of the API and the console: put (create or replace the settings), pause,
resume, delete, and the console's close of a circuit. Each writes its audit entry in its own
transaction, under the flow's row lock (the lock the claim and the result write take)."""

from __future__ import annotations

from django.utils import timezone

from audit.changes import field_changes, fields_of
from audit.record import record
from flows.breaker import close
from flows.fields import DEFAULTS
from flows.key_rule import is_flow_key
from flows.models import CircuitState, Flow, FlowCall, FlowStart, FlowWait
from flows.retried import retried
from jobs.models import Job, JobStatus
from scheduler_site.errors import NotFound, ValidationFailed
from tasks.models import Tenant

SETTINGS = tuple(DEFAULTS)


def checked_key(key: str) -> str:
    if not is_flow_key(key):
        message = "1 to 100 of letters, digits, `_`, `.`, `:` and `-` (not `.` or `..`)"
        raise ValidationFailed(f"key is not valid: {message}", fields={"key": message})
    return key


def flow_put(*, tenant: Tenant, actor: str, key: str, settings: dict) -> tuple[Flow, bool]:
    """Replace the flow's settings (left out: the defaults); returns it and whether it was
    made by this call. Its pause and its circuit stay as they are."""
    values, key = {**DEFAULTS, **settings}, checked_key(key)
    # Made by a claim (first use) or another PUT meanwhile: the retry replaces it.
    return retried(lambda: _put(tenant, actor, key, values))


def _put(tenant: Tenant, actor: str, key: str, values: dict) -> tuple[Flow, bool]:
    flow = Flow.objects.select_for_update().filter(tenant=tenant, key=key).first()
    if flow is None:
        flow = Flow.objects.create(tenant=tenant, key=key, **values)
        _record(flow, actor, "flow.put", {"created": True, **fields_of(flow, SETTINGS)})
        return flow, True
    changed = field_changes(fields_of(flow, SETTINGS), values)
    if changed:  # a PUT of the settings the flow has: no save, no entry
        for field, value in values.items():
            setattr(flow, field, value)
        flow.release_at = timezone.now()  # new limits may give its parked jobs room
        flow.save(update_fields=[*SETTINGS, "release_at", "updated_at"])
        _record(flow, actor, "flow.put", {"created": False, **changed})
    return flow, False


def flow_pause(*, tenant: Tenant, actor: str, key: str) -> Flow:
    """Its jobs wait; executors holding some give them back (stopped_at). A key that names
    no flow yet makes one (no limits, the default breaker), paused: a destination can be
    stopped before its first job."""
    key = checked_key(key)
    return retried(lambda: _pause(tenant, actor, key))


def _pause(tenant: Tenant, actor: str, key: str) -> Flow:
    flow = Flow.objects.select_for_update().filter(tenant=tenant, key=key).first()
    now = timezone.now()
    if flow is None:
        flow = Flow.objects.create(tenant=tenant, key=key, paused=True, stopped_at=now)
        _record(flow, actor, "flow.pause", {"created": True, **_paused(False, True)})
        return flow
    if flow.paused:
        return flow
    flow.paused, flow.stopped_at = True, now
    flow.save(update_fields=["paused", "stopped_at", "updated_at"])
    _record(flow, actor, "flow.pause", _paused(False, True))
    return flow


def flow_resume(*, tenant: Tenant, actor: str, key: str) -> Flow:
    """Its parked jobs go back, in their place, at the executors' next claim."""
    return retried(lambda: _resume(tenant, actor, key))


def _resume(tenant: Tenant, actor: str, key: str) -> Flow:
    flow = _locked(tenant, key)
    if flow.paused:
        flow.paused, flow.release_at = False, timezone.now()  # its parked jobs may go
        flow.save(update_fields=["paused", "release_at", "updated_at"])
        _record(flow, actor, "flow.resume", _paused(True, False))
    return flow


CIRCUIT_FIELDS = ["circuit_state", "failures", "reopens", "opened_at", "retry_at", "updated_at"]


def flow_close_circuit(*, tenant: Tenant, actor: str, key: str) -> Flow:
    """Closed, its failures forgotten: an operator knows the destination is back."""
    return retried(lambda: _close_circuit(tenant, actor, key))


def _close_circuit(tenant: Tenant, actor: str, key: str) -> Flow:
    flow = _locked(tenant, key)
    if flow.circuit_state == CircuitState.CLOSED and flow.failures == 0:
        return flow
    was = {"circuit_state": str(flow.circuit_state), "failures": flow.failures}
    close(flow)
    flow.release_at = timezone.now()  # its parked jobs may go
    flow.save(update_fields=[*CIRCUIT_FIELDS, "release_at"])
    now = {"circuit_state": str(flow.circuit_state), "failures": flow.failures}
    _record(flow, actor, "flow.close_circuit", {k: {"old": was[k], "new": now[k]} for k in was})
    return flow


def flow_delete(*, tenant: Tenant, actor: str, key: str) -> int:
    """The flow goes, and the jobs it held back go back to pending in their place; tasks
    naming its key keep it (the flow is made anew, with the defaults, when next used).
    Returns how many jobs went back."""
    return retried(lambda: _delete(tenant, actor, key))


def _delete(tenant: Tenant, actor: str, key: str) -> int:
    flow = _locked(tenant, key)
    # The waits first, locked: the claim's release skips locked waits, so it never holds a
    # job this needs while waiting for a wait this holds.
    parked = list(
        FlowWait.objects.select_for_update()
        .filter(flow_id=flow.id)
        .values_list("job_id", flat=True)
    )
    released = _unpark(parked)
    FlowWait.objects.filter(flow_id=flow.id).delete()
    FlowCall.objects.filter(flow_id=flow.id).delete()
    FlowStart.objects.filter(flow_id=flow.id).delete()
    settings = fields_of(flow, SETTINGS)
    flow.delete()
    _record(flow, actor, "flow.delete", {**settings, "released": released})
    return released


UNPARK_BATCH = 500


def _unpark(job_ids: list) -> int:
    now, released = timezone.now(), 0
    for start in range(0, len(job_ids), UNPARK_BATCH):
        released += Job.objects.filter(
            id__in=job_ids[start : start + UNPARK_BATCH], status=JobStatus.THROTTLED
        ).update(status=JobStatus.PENDING, updated_at=now)
    return released


def _locked(tenant: Tenant, key: str) -> Flow:
    if not is_flow_key(key):
        raise NotFound("flow not found")  # a key no flow can have names none
    flow = Flow.objects.select_for_update().filter(tenant=tenant, key=key).first()
    if flow is None:
        raise NotFound("flow not found")
    return flow


def _paused(old: bool, new: bool) -> dict:
    return {"paused": {"old": old, "new": new}}


def _record(flow: Flow, actor: str, action: str, changes: dict) -> None:
    record(tenant_id=flow.tenant_id, actor=actor, action=action, target=flow.key, changes=changes)
