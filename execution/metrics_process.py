"""The metrics process: reads the queue gauges every few seconds for Prometheus to scrape."""

from prometheus_client import REGISTRY

from execution.metrics import QueueCollector, read_queue
from execution.runtime import LoopProcess

QUEUE = QueueCollector()


class MetricsProcess(LoopProcess):
    name = "metrics"

    def __init__(self, *, interval: float = 5.0) -> None:
        super().__init__(poll_interval=interval)

    def on_start(self) -> None:
        REGISTRY.register(QUEUE)

    def on_stop(self) -> None:
        REGISTRY.unregister(QUEUE)

    def run_once(self) -> float:
        QUEUE.reading = read_queue()
        return self.poll_interval
