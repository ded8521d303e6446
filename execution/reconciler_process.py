"""The reconciler process: running jobs whose lease expired go back to pending (or dead)."""

from execution.runtime import LoopProcess
from jobs.queue import reconcile_expired_leases


class ReconcilerProcess(LoopProcess):
    name = "reconciler"

    def __init__(self, *, interval: float = 5.0, batch_size: int = 1000) -> None:
        super().__init__(poll_interval=interval)
        self.batch_size = batch_size
        self.last_count = 0

    def run_once(self) -> float:
        self.last_count = reconcile_expired_leases(batch_size=self.batch_size)
        self.logger.info("reconcile returned=%d", self.last_count)
        return 0 if self.last_count >= self.batch_size else self.poll_interval
