"""The reconciler process: running jobs whose lease expired go back to pending (or dead),
and the console's "retry all matching" is carried out, a batch per turn."""

from execution.runtime import LoopProcess
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
        self.logger.info("reconcile returned=%d", self.last_count)
        return 0 if self.last_count >= self.batch_size or retrying else self.poll_interval
