"""A claimed job as the executor holds it until its call: with its secret, or why not."""

from __future__ import annotations

from dataclasses import dataclass

from jobs.queue import ClaimedJob


@dataclass(slots=True)
class HeldJob:
    job: ClaimedJob
    authorization: str | None  # the value of the task's secret_ref, sent as Authorization
    error: str | None  # set when the call cannot be made (its secret is missing)
    # The only hosts the authorization may be sent to (the secret's allowed_hosts).
    secret_hosts: frozenset[str] = frozenset()
    # Cancelled or given back before its call (its task was paused or deleted since the
    # claim): wherever it still waits, a timer or the pool's queue, it is passed over.
    settled: bool = False
    queued: bool = False  # waits in the call pool's queue for a slot
    # When its claim began (monotonic): a job claimed before a lapse of the executor's
    # heartbeat may have been handed to another executor (execution/executor_beat.py).
    claimed_mono: float = 0.0
