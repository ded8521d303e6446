"""The executor's database round: one transaction that writes the waiting results and
hand-backs, then claims the jobs due within the horizon, as many as the memory bound and
one batch allow.

Claiming by time rather than by free call slots parks a burst on timers before its second;
the batch bound makes executors take turns on a burst instead of one taking all of it.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from django.conf import settings
from django.db import connection
from django.utils import timezone

from execution import metrics
from execution.executor_outbox import Outbox
from execution.flow_calls_counter import FLOW_NAMES
from execution.held_job import HeldJob
from jobs import queue
from jobs.queue import ClaimedJob
from jobs.refused_results import record_apart, refusal_reason
from jobs.statement_size import ResultsTooLarge, known_parameter_limit
from tasks.secrets import secret_values

MISSING_SECRET = "secret_ref {name!r} names no secret of this tenant"
UNDECRYPTABLE_SECRET = "secret_ref {name!r}: the secret could not be decrypted"


@dataclass(frozen=True)
class RoundLimits:
    horizon_seconds: float  # claim jobs due up to this far ahead
    max_held: int  # claimed jobs held at most (on timers, waiting for a slot, in flight)
    reserved_for_critical: int  # of max_held, only priority 0 may use
    claim_batch: int  # jobs claimed per round at most
    result_batch: int  # results written per round at most
    result_batch_bytes: int  # and their bytes at most (one result may weigh more alone)
    backlog: int  # due jobs waiting for a slot beyond which only priority 0 is claimed


@dataclass
class RoundReport:
    claimed: list[HeldJob]
    # The tenants stopped as this round's claim read them (None: it did not claim).
    inactive_tenants: frozenset[str] | None
    written: int
    dropped: int
    handed_back: int
    again: bool  # whether another round should follow at once
    # Tasks paused or deleted since the previous round (task id -> status).
    stopped_tasks: dict[str, str] = field(default_factory=dict)
    refused: int = 0  # of `written`, results the database refused, written as bare errors
    # Flows paused or opened since the previous round (ids): their unfired jobs go back.
    stopped_flows: frozenset[int] = frozenset()
    # When a flow holding jobs back may next have room (ClaimBatch.flow_wake_at).
    flow_wake_at: datetime | None = None


class DatabaseRound:
    def __init__(self, *, worker_id: str, outbox: Outbox, limits: RoundLimits) -> None:
        self.worker_id = worker_id
        self.outbox = outbox
        self.limits = limits
        self.saturated_tenants: frozenset[str] = frozenset()
        self._last_read: datetime | None = None  # when the last round's transaction began

    def run(
        self, *, claim: bool, waiting_for_slot: int = 0, watch_flows: bool = False
    ) -> RoundReport:
        """`watch_flows`: some job held is in a flow (the round then reads the flows stopped)."""
        results, hand_backs, cut = self.outbox.take(self.limits.result_batch, self._max_bytes())
        critical, normal = self._claim_limits(waiting_for_slot) if claim else (0, 0)
        stopped_since = self._stopped_since()
        if not results and not hand_backs and critical <= 0 and stopped_since is None:
            return RoundReport([], None, 0, 0, 0, False)  # nothing to write, claim or watch
        read_at = timezone.now()
        claimed_mono = time.monotonic()
        started = time.perf_counter()
        try:
            applied, batch = self._exchange(
                results, hand_backs, critical, normal, stopped_since, watch_flows
            )
            refused = 0
        except BaseException as exc:
            if not results or refusal_reason(exc) is None:
                self.outbox.put_back(results, hand_backs)
                raise
            connection.close_if_unusable_or_obsolete()  # a packet too large ends it
            # Too large is the results' for certain; another refusal might be the claim's.
            why = refusal_reason(exc) if isinstance(exc, ResultsTooLarge) else None
            (applied, refused), batch = self._apart(
                results, hand_backs, why, (critical, normal), stopped_since, watch_flows
            )
        self._last_read = read_at
        metrics.EXCHANGE_SECONDS.observe(time.perf_counter() - started)
        self.outbox.claimed(len(batch.jobs))
        for held in batch.jobs:
            held.claimed_mono = claimed_mono
        FLOW_NAMES.learn(held.job.flow_id for held in batch.jobs)  # before their calls can start
        self.saturated_tenants = batch.saturated_tenants
        full = critical > 0 and len(batch.jobs) >= min(critical, max(normal, 1))
        again = full or bool(batch.held_back) or cut
        again = again or self.outbox.waiting >= self.limits.result_batch
        inactive = batch.inactive_tenants if critical > 0 or stopped_since else None
        dropped = len(results) - applied
        return RoundReport(
            batch.jobs,
            inactive,
            applied,
            dropped,
            len(hand_backs),
            again,
            batch.stopped_tasks,
            refused,
            batch.stopped_flows,
            batch.flow_wake_at,
        )

    def _stopped_since(self) -> datetime | None:
        """While it holds jobs claimed by earlier rounds, the round asks which tasks were
        paused or deleted since the last one began (their claims read the tasks then)."""
        if self.outbox.held <= 0 or self._last_read is None:
            return None
        return self._last_read - timedelta(seconds=settings.EXECUTOR_STOPPED_LOOKBACK_SECONDS)

    def _max_bytes(self) -> int:
        limit = self.limits.result_batch_bytes
        known = known_parameter_limit()
        # Escaped inside a statement, a batch may weigh up to twice its bytes.
        return limit if known is None else max(1, min(limit, known // 2))

    def _exchange(
        self, results, hand_backs, critical: int, normal: int, stopped_since, watch_flows=False
    ):
        return queue.exchange(
            worker_id=self.worker_id,
            results=results,
            hand_backs=hand_backs,
            critical_limit=critical,
            normal_limit=normal,
            lookahead_seconds=self.limits.horizon_seconds,
            skip_tenants=self.saturated_tenants,
            enrich=with_secrets,
            stopped_since=stopped_since,
            watch_flows=watch_flows,
        )

    def _apart(
        self, results, hand_backs, why: str | None, limits: tuple[int, int], since, watch_flows
    ):
        """The batch held a result the database refuses: the results are written on their
        own (that one as an error), then the round's hand-backs and claim."""
        metrics.REFUSED_BATCHES.inc()
        try:
            written = record_apart(worker_id=self.worker_id, results=results, refused_for=why)
        except BaseException:
            self.outbox.put_back(results, hand_backs)
            raise
        try:
            _, batch = self._exchange([], hand_backs, *limits, since, watch_flows)
        except BaseException:
            self.outbox.put_back([], hand_backs)
            raise
        return written, batch

    def _claim_limits(self, waiting_for_slot: int) -> tuple[int, int]:
        """(all priorities, below priority 0) this round may claim."""
        limits = self.limits
        room = limits.max_held - self.outbox.held
        critical = min(limits.claim_batch, room)
        normal = min(limits.claim_batch, room - limits.reserved_for_critical)
        if waiting_for_slot >= limits.backlog:
            normal = 0  # the calls cannot keep up: leave the rest to other executors
        return max(0, critical), max(0, normal)


def with_secrets(jobs: list[ClaimedJob]) -> list[HeldJob]:
    """The claimed jobs with their secrets, read in the claim's transaction."""
    refs = {(job.tenant_id, job.secret_ref) for job in jobs if job.secret_ref}
    lookup = secret_values(refs=refs)
    held = []
    for job in jobs:
        ref = (job.tenant_id, job.secret_ref)
        error = None
        if ref in lookup.undecryptable:
            error = UNDECRYPTABLE_SECRET.format(name=job.secret_ref)
        elif job.secret_ref is not None and ref not in lookup.values:
            error = MISSING_SECRET.format(name=job.secret_ref)
        hosts = lookup.hosts.get(ref, frozenset())
        held.append(HeldJob(job, lookup.values.get(ref), error, hosts))
    return held
