"""The flows' gauges for Prometheus, read with the queue gauges (execution/metrics.py): each
flow's circuit, the jobs it holds parked and its calls in flight.

Bounded: only flows with something to report (a circuit not closed, a pause, a parked job,
a call out) get series, at most MAX_FLOW_SERIES of them (open circuits first, then the most
jobs waiting). A flow deleted, or back to closed and idle, has no series from the next
reading on; `scheduler_flows_unreported` counts those left out by the cap.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Q
from prometheus_client.core import GaugeMetricFamily

from flows.counts import IN_FLIGHT
from flows.models import CircuitState, Flow
from scheduler_site.sqltools import uuid_text

MAX_FLOW_SERIES = 1000
# Only the waits of jobs still throttled, as the API counts them (flows/selectors.py): the
# row of a job cancelled or released meanwhile stays until the reconciler removes it.
PARKED = """
SELECT w.flow_id, COUNT(*) FROM flow_waits AS w JOIN jobs AS j ON j.id = w.job_id
WHERE j.status = 'throttled' GROUP BY w.flow_id
"""
# The value of scheduler_flow_circuit_state: one series per flow, alerting on `== 2`.
STATE_VALUES = {CircuitState.CLOSED: 0, CircuitState.HALF_OPEN: 1, CircuitState.OPEN: 2}


@dataclass(frozen=True)
class FlowGauge:
    tenant: str
    key: str
    circuit: int  # STATE_VALUES
    waiting: int
    in_flight: int


@dataclass(frozen=True)
class FlowsReading:
    flows: list[FlowGauge]
    unreported: int = 0


def read_flows(cursor) -> FlowsReading:
    """Parked jobs and calls out by flow, then the flows to report: the busy ones, and of
    the idle ones stopped (paused or not closed) only as many as the cap can show, with
    their count: never every flow a tenant paused into the reading."""
    cursor.execute(PARKED)
    waiting = dict(cursor.fetchall())
    out = _in_flight(cursor)
    busy = set(waiting) | set(out)
    fields = ("id", "tenant_id", "key", "circuit_state", "paused")
    stopped = Flow.objects.filter(~Q(circuit_state=CircuitState.CLOSED) | Q(paused=True))
    busy_rows = list(Flow.objects.filter(id__in=sorted(busy)).values_list(*fields)) if busy else []
    # Idle ones rank by circuit (open, half_open, closed: their names' order) and key; as
    # many more as there are busy ones, which the list may hold too.
    idle_rows = stopped.order_by("-circuit_state", "key").values_list(*fields)
    rows = {row[0]: row for row in idle_rows[: MAX_FLOW_SERIES + len(busy_rows)]}
    rows.update((row[0], row) for row in busy_rows)
    listed = stopped.count() + sum(
        1 for row in busy_rows if row[3] == CircuitState.CLOSED and not row[4]
    )
    gauges = [
        FlowGauge(uuid_text(tenant), key, STATE_VALUES[state], waiting.get(id_, 0), out.get(id_, 0))
        for id_, tenant, key, state, _ in rows.values()
    ]
    gauges.sort(key=lambda gauge: (-gauge.circuit, -gauge.waiting, -gauge.in_flight, gauge.key))
    return FlowsReading(gauges[:MAX_FLOW_SERIES], max(0, listed - MAX_FLOW_SERIES))


def _in_flight(cursor) -> dict[int, int]:
    cursor.execute("SELECT DISTINCT flow_id FROM flow_calls")
    ids = [row[0] for row in cursor.fetchall()]
    if not ids:
        return {}
    # The flows' own count of calls out (a row left by a hand-back or a lost lease is not one).
    cursor.execute(IN_FLIGHT.format(placeholders=", ".join(["%s"] * len(ids))), ids)
    return dict(cursor.fetchall())


def flow_families(reading: FlowsReading):
    labels = ["tenant", "flow"]
    circuit = GaugeMetricFamily(
        "scheduler_flow_circuit_state",
        "A flow's circuit: 0 closed, 1 half_open, 2 open.",
        labels=labels,
    )
    waiting = GaugeMetricFamily(
        "scheduler_flow_waiting", "Jobs a flow holds parked (throttled).", labels=labels
    )
    in_flight = GaugeMetricFamily(
        "scheduler_flow_in_flight", "Calls of a flow out now, across executors.", labels=labels
    )
    for gauge in reading.flows:
        names = [gauge.tenant, gauge.key]
        circuit.add_metric(names, gauge.circuit)
        waiting.add_metric(names, gauge.waiting)
        in_flight.add_metric(names, gauge.in_flight)
    yield circuit
    yield waiting
    yield in_flight
    yield GaugeMetricFamily(
        "scheduler_flows_unreported",
        f"Flows with something to report left out past the cap of {MAX_FLOW_SERIES} series.",
        value=reading.unreported,
    )
