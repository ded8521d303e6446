"""The scheduler process: every tick, its buckets' due tasks become jobs."""

from __future__ import annotations

from django.db.utils import DatabaseError

from execution.metrics import TICK_SECONDS
from execution.runtime import LoopProcess
from jobs.waiting import release_stranded
from tasks.partitions import PartitionLeases
from tasks.tick import TickResult, run_tick


class SchedulerProcess(LoopProcess):
    name = "scheduler"

    def __init__(
        self,
        *,
        leases: PartitionLeases,
        tick_seconds: float = 1.0,
        batch_size: int = 1000,
        lookahead_seconds: float = 5.0,
    ) -> None:
        super().__init__(poll_interval=tick_seconds)
        self.leases = leases
        self.batch_size = batch_size
        self.lookahead_seconds = lookahead_seconds
        self.last_result: TickResult | None = None
        self.released = 0
        self._lease_rows_ready = False

    def run_once(self) -> float:
        if not self._lease_rows_ready:
            self.leases.ensure_rows()
            self._lease_rows_ready = True
        owned = self.leases.rebalance()
        if not owned:
            self.logger.info("tick skipped: no partition owned yet")
            return self.poll_interval
        result = run_tick(
            batch_size=self.batch_size,
            lookahead_seconds=self.lookahead_seconds,
            bucket_ranges=None
            if len(owned) == self.leases.partition_count
            else self.leases.bucket_ranges(),
        )
        self.last_result = result
        self.released = release_stranded()  # the backstop of tasks/overlap.py's buffered runs
        TICK_SECONDS.observe(result.duration_ms / 1000)
        self.logger.info(
            "tick selected=%d jobs=%d completed=%d released=%d partitions=%d duration_ms=%.1f",
            result.selected,
            result.jobs,
            result.completed,
            self.released,
            len(owned),
            result.duration_ms,
        )
        return 0 if result.selected >= self.batch_size else self.poll_interval

    def on_stop(self) -> None:
        try:
            self.leases.release_all()
        except DatabaseError as exc:
            self.logger.warning("could not release partitions on stop (%s); they will expire", exc)
