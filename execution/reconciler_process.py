"""The reconciler process: running jobs whose lease expired go back to pending (or dead),
the console's "retry all matching" is carried out, and the flows' rows no longer needed are
removed (flows/housekeeping.py), a batch of each per turn."""

from datetime import UTC, datetime

from execution.runtime import LoopProcess
from flows.housekeeping import flow_housekeeping
from jobs.queue import reconcile_expired_leases
from jobs.retry_all import BATCH_SIZE, retry_all_step


class ReconcilerProcess(LoopProcess):
    name = "reconciler"

    def __init__(
        self, *, interval: float = 5.0, batch_size: int = 1000, retry_batch_size: int = BATCH_SIZE
    ) -> None:
        super().__init__(poll_interval=interval)
        self.batch_size = batch_size
        self.retry_batch_size = retry_batch_size
        self.last_count = 0

    def run_once(self) -> float:
        self.last_count = reconcile_expired_leases(batch_size=self.batch_size)
        retrying = retry_all_step(batch_size=self.retry_batch_size)
        # After the leases: a call whose lease just expired leaves its flow_calls row now.
        tidying = flow_housekeeping(batch_size=self.batch_size, now=datetime.now(UTC))
        self.logger.info("reconcile returned=%d", self.last_count)
        busy = self.last_count >= self.batch_size or retrying or tidying
        return 0 if busy else self.poll_interval
