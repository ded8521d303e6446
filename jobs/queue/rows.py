"""The rows the queue's use cases pass around: a claimed job as the executor holds it, a
result as it writes it, a hand-back, and what a claim returns."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from scheduler_site.sqltools import datetime_param


@dataclass(slots=True)
class ClaimedJob:
    key: str  # the id as the database spells it
    id: str  # canonical UUID text: the Idempotency-Key
    tenant_id: str
    task_id: str
    scheduled_at: datetime
    attempt: int
    max_attempts: int
    next_attempt_at: datetime
    timeout_seconds: int
    backoff_base_seconds: int
    priority: int
    url: str
    method: str
    headers: dict
    body: str
    secret_ref: str | None
    signing_secret: str
    task_status: str
    lease_expires_at: datetime
    # The secret before a rotation, while calls are still signed with it as well.
    previous_signing_secret: str | None = None
    run_now: bool = False  # asked for by hand: it goes out even while its task is paused
    # Its task buffers one run behind it (overlap buffer_one): its end may release that run.
    buffers: bool = False
    # Its task or tenant has a callback URL: its end makes a callback (jobs/callbacks/).
    calls_back: bool = False
    # The flow (flows/) the claim let its call out through: its result counts for the
    # flow's circuit, and its flow's pause or opening gives it back unfired.
    flow_id: int | None = None
    # Its flow's (rate, period_seconds) when the flow has a rate: the executor paces the
    # flow's calls by when it really sends them too (execution/flow_pace.py).
    flow_pace: tuple[int, int] | None = None


@dataclass(slots=True)
class JobResult:
    key: str
    attempt: int
    status: str
    next_attempt_at: datetime | None = None
    finished_at: datetime | None = None
    http_status: int | None = None
    error: str | None = None
    response_body: str | None = None
    duration_ms: int | None = None
    started_at: datetime | None = None  # of the attempt; None when there was none (a cancel)
    releases: bool = False  # a finished run of a buffer_one task: its waiting run may go
    calls_back: bool = False  # a finished run whose task or tenant has a callback URL
    # The start of the reply as its bytes, kept only for a run that calls back (its
    # callback carries them as text or base64); never written to the jobs table.
    response_raw: bytes | None = None
    flow_id: int | None = None  # the flow its call went through (flows/breaker.py)
    # Whether the destination failed the call (a flow's breaker counts it); None: no call.
    flow_failed: bool | None = None

    def as_row(self) -> list:
        return [
            self.key,
            self.attempt,
            self.status,
            datetime_param(self.next_attempt_at) if self.next_attempt_at else None,
            datetime_param(self.finished_at) if self.finished_at else None,
            self.http_status,
            self.error,
            self.response_body,
            self.duration_ms,
            datetime_param(self.started_at) if self.started_at else None,
        ]


HandBack = tuple[str, int, str]  # (key, attempt, pending or held)


@dataclass
class ClaimBatch:
    jobs: list[ClaimedJob] = field(default_factory=list)
    saturated_tenants: frozenset[str] = frozenset()
    # Candidates a limit held back: left pending by a tenant's, or parked by a flow's.
    held_back: int = 0
    # Tenants an operator stopped (canonical ids): none of their jobs is claimed or fired.
    inactive_tenants: frozenset[str] = frozenset()
    # Tasks paused or deleted since the round's `stopped_since` (task id -> status): the
    # jobs of theirs claimed earlier are not to be called.
    stopped_tasks: dict[str, str] = field(default_factory=dict)
    # When a job its flow holds back (flows/) may next have room without a call ending:
    # the executor claims again then rather than at its next poll.
    flow_wake_at: datetime | None = None
    # Flows paused or opened since `stopped_since` (ids), read only when the executor holds
    # jobs of flows: their jobs claimed earlier go back unfired.
    stopped_flows: frozenset[int] = frozenset()
