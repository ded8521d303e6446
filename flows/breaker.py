"""The circuit breaker, in the transaction that writes the results: each flow counts its
consecutive failed calls (no connection, a timeout, a 5xx), and at `breaker_failures` the
circuit opens for `breaker_cooldown_seconds`, doubled on each re-open up to 10 minutes.
Then the claim lets one probe out (half-open): its success closes the circuit, its
failure opens it again.
"""

from __future__ import annotations

import uuid
from collections import defaultdict
from datetime import datetime, timedelta

from flows.models import MAX_COOLDOWN_SECONDS, CircuitState, Flow, FlowCall, FlowWait

CHANGED = [
    "circuit_state",
    "failures",
    "opened_at",
    "retry_at",
    "reopens",
    "stopped_at",
    "release_at",
    "updated_at",
]


def count_calls(ended: list[tuple[str, int, bool | None]], now: datetime) -> list[Flow]:
    """`ended`: (job id, flow id, failed or None when the destination was never reached),
    in the order the calls ended. Returns the flows whose circuit opened from closed."""
    if not ended:
        return []
    FlowCall.objects.filter(job_id__in=[uuid.UUID(job) for job, _, _ in ended]).delete()
    outcomes = defaultdict(list)
    for _, flow_id, failed in ended:
        outcomes[flow_id] += [] if failed is None else [failed]
    opened, changed = [], []
    parked = set(
        FlowWait.objects.filter(flow_id__in=list(outcomes)).values_list("flow_id", flat=True)
    )
    for flow in Flow.objects.select_for_update().filter(id__in=list(outcomes)).order_by("id"):
        was = flow.circuit_state
        for failed in outcomes[flow.id]:
            step(flow, failed, now)
        flow.updated_at = now
        if flow.id in parked:  # a call ended: its room may let a parked job go
            flow.release_at = now
        changed.append(flow)
        if was == CircuitState.CLOSED and flow.circuit_state == CircuitState.OPEN:
            opened.append(flow)
    Flow.objects.bulk_update(changed, CHANGED)
    return opened


def step(flow: Flow, failed: bool, now: datetime) -> None:
    """One call's end as the circuit counts it."""
    if flow.breaker_failures == 0:  # off: a circuit left open by the setting before closes
        flow.failures = flow.failures + 1 if failed else 0
        if flow.circuit_state != CircuitState.CLOSED:
            close(flow)
        return
    if flow.circuit_state == CircuitState.HALF_OPEN:
        if failed:
            flow.failures += 1
            flow.reopens += 1
            open_circuit(flow, now)
        else:
            close(flow)
    elif flow.circuit_state == CircuitState.CLOSED:
        flow.failures = flow.failures + 1 if failed else 0
        if flow.failures >= flow.breaker_failures:
            open_circuit(flow, now)
    elif failed:  # a call let out before it opened, ending while it is open
        flow.failures += 1


def open_circuit(flow: Flow, now: datetime) -> None:
    base = flow.breaker_cooldown_seconds
    # Doubling stops at 10 minutes (or at the cooldown itself, when it is set longer).
    cooldown = min(base * 2 ** min(flow.reopens, 20), max(base, MAX_COOLDOWN_SECONDS))
    flow.circuit_state = CircuitState.OPEN
    flow.opened_at = now
    flow.retry_at = now + timedelta(seconds=cooldown)
    flow.stopped_at = now


def close(flow: Flow) -> None:
    flow.circuit_state = CircuitState.CLOSED
    flow.failures = 0
    flow.reopens = 0
    flow.opened_at = None
    flow.retry_at = None
