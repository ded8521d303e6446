"""What an operator may do to a flow from the console: pause it, resume it, close its
circuit. Each change and its audit entry commit together, under the flow's row lock (the
lock the claim and the result write take), and a change that changes nothing records none.
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from audit.record import record
from flows.breaker import close
from flows.models import CircuitState, Flow

CIRCUIT_FIELDS = ["circuit_state", "failures", "reopens", "opened_at", "retry_at", "updated_at"]


@transaction.atomic
def flow_pause(*, flow_id: int, actor: str) -> Flow:
    flow = Flow.objects.select_for_update().get(id=flow_id)
    if flow.paused:
        return flow
    flow.paused = True
    flow.stopped_at = timezone.now()  # executors holding its jobs give them back unfired
    flow.save(update_fields=["paused", "stopped_at", "updated_at"])
    _record(flow, actor, "flow.pause", {"paused": {"old": False, "new": True}})
    return flow


@transaction.atomic
def flow_resume(*, flow_id: int, actor: str) -> Flow:
    """Its parked jobs go back in their place at the next claim (flows/release.py)."""
    flow = Flow.objects.select_for_update().get(id=flow_id)
    if not flow.paused:
        return flow
    flow.paused = False
    flow.save(update_fields=["paused", "updated_at"])
    _record(flow, actor, "flow.resume", {"paused": {"old": True, "new": False}})
    return flow


@transaction.atomic
def flow_close_circuit(*, flow_id: int, actor: str) -> Flow:
    """Closed, its failures forgotten: the destination is known to be back."""
    flow = Flow.objects.select_for_update().get(id=flow_id)
    if flow.circuit_state == CircuitState.CLOSED and flow.failures == 0:
        return flow
    was = {"circuit_state": str(flow.circuit_state), "failures": flow.failures}
    close(flow)
    flow.save(update_fields=CIRCUIT_FIELDS)
    now = {"circuit_state": str(flow.circuit_state), "failures": flow.failures}
    changes = {name: {"old": was[name], "new": now[name]} for name in was}
    _record(flow, actor, "flow.close_circuit", changes)
    return flow


def _record(flow: Flow, actor: str, action: str, changes: dict) -> None:
    record(tenant_id=flow.tenant_id, actor=actor, action=action, target=flow.key, changes=changes)
