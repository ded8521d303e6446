"""How many more calls a flow may let out now: its pause, its circuit, its parallelism and
its rate, as one claim reads them (under the flow's row lock) or one release estimates them.

Rate: at most `rate` calls start in any window of `period_seconds`. A claim counts the
calls let out in the last period plus a guard (FLOW_RATE_GUARD_SECONDS): a call starts a
little after its claim, and the guard keeps one executor's late start and another's prompt
one out of the same window.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings

from flows.models import CircuitState, Flow

UNLIMITED = 1 << 30


@dataclass
class Room:
    flow: Flow
    in_flight: int  # calls out now (their jobs running with the attempt let out)
    started: int  # calls started in the rate's window (0 without a rate)
    window_opens_at: datetime | None  # when the oldest start of the window leaves it
    now: datetime
    probing: bool = False  # this claim let the half-open probe out

    def free(self) -> int:
        """Calls that may go now, for jobs already due."""
        flow = self.flow
        if flow.paused:
            return 0
        if self._breaker_on() and flow.circuit_state != CircuitState.CLOSED:
            return 1 if self._probe_due() and self.in_flight == 0 and not self.probing else 0
        left = UNLIMITED
        if self._breaker_on() and flow.failures:
            # Suspect: never more calls out than it takes to open the circuit. At least one:
            # a breaker lowered below the failures counted (a PUT) would else let none out,
            # and with no call to end the circuit would never open nor the jobs go.
            left = max(flow.breaker_failures - flow.failures, 1) - self.in_flight
        if flow.parallelism is not None:
            left = min(left, flow.parallelism - self.in_flight)
        if flow.rate is not None:
            left = min(left, flow.rate - self.started)
        return max(left, 0)

    def admits(self, due_at: datetime) -> bool:
        """Whether one job due at `due_at` may go now; if so, it is counted in."""
        if due_at > self.now and (self.flow.rate is not None or self.probe_next()):
            # A rate counts starts, and a probe held on a timer would keep the circuit
            # half-open, uncalled: their calls are let out only when due.
            return False
        if self.free() <= 0:
            return False
        if self.probe_next():
            self.probing = True
        self.in_flight += 1
        if self.flow.rate is not None:
            self.started += 1
            if self.window_opens_at is None:  # this claim opens the window: it ends a period on
                self.window_opens_at = self.now + window_span(self.flow.period_seconds)
        return True

    def reopens_at(self) -> datetime | None:
        """When this flow next may have room without a call ending (None: only then)."""
        flow = self.flow
        if flow.paused:
            return None
        if self._breaker_on() and flow.circuit_state == CircuitState.OPEN and not self._probe_due():
            return flow.retry_at
        if flow.rate is not None and self.started >= flow.rate:
            return self.window_opens_at
        return None

    def probe_next(self) -> bool:
        """Whether the next call let out is the circuit's probe (it is not closed)."""
        return self._breaker_on() and self.flow.circuit_state != CircuitState.CLOSED

    def _breaker_on(self) -> bool:
        return self.flow.breaker_failures > 0

    def _probe_due(self) -> bool:
        flow = self.flow
        if flow.circuit_state == CircuitState.HALF_OPEN:
            return True
        return flow.retry_at is None or flow.retry_at <= self.now


def window_span(period_seconds: int) -> timedelta:
    """How long a start counts in its flow's rate window: the period and the guard."""
    return timedelta(seconds=period_seconds + settings.FLOW_RATE_GUARD_SECONDS)


def earliest(a: datetime | None, b: datetime | None) -> datetime | None:
    """The sooner of two instants, either of which may be unknown (None)."""
    if a is None or b is None:
        return a or b
    return min(a, b)
