"""Flows paused or opened since an instant: what an executor reads once a round, beside the
tasks stopped (tasks/recent_stops.py), to give back the jobs of theirs it claimed ahead of
their second. One range of `flows_stopped_idx`, whatever the number of jobs held."""

from __future__ import annotations

from datetime import datetime

from django.db.models import Q

from flows.models import CircuitState, Flow


def flows_stopped_since(*, since: datetime) -> frozenset[int]:
    """Ids of the flows paused, or with an open circuit, that stopped from `since` on."""
    stopped = Q(paused=True) | Q(circuit_state=CircuitState.OPEN)
    rows = Flow.objects.filter(stopped, stopped_at__gte=since).values_list("id", flat=True)
    return frozenset(rows)
