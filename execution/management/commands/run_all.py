import threading

from execution.archiver_process import ArchiverProcess
from execution.commands import ProcessCommand
from execution.executor_process import ExecutorProcess
from execution.identity import default_worker_id, executor_worker_id
from execution.metrics_process import MetricsProcess
from execution.reconciler_process import ReconcilerProcess
from execution.scheduler_process import SchedulerProcess
from tasks.partitions import PartitionLeases


class AllProcesses:
    """The loops of the pipeline in one process: the executor's database round in the main
    thread (its calls on an event loop of their own), the scheduler, reconciler and
    archiver each in a thread of their own."""

    name = "all"

    def __init__(self, *, concurrency: int, tick: float, queue_gauges: bool) -> None:
        leases = PartitionLeases.from_settings(default_worker_id("scheduler"))
        self.loops = [
            SchedulerProcess(leases=leases, tick_seconds=tick),
            ReconcilerProcess(),
            ArchiverProcess(),
        ]
        if queue_gauges:  # with --metrics-port, the queue gauges are served beside the rest
            self.loops.append(MetricsProcess())
        self.executor = ExecutorProcess(worker_id=executor_worker_id(), concurrency=concurrency)

    def run(self) -> None:
        threads = [threading.Thread(target=loop.run, name=loop.name) for loop in self.loops]
        for thread in threads:
            thread.start()
        try:
            self.executor.run()
        finally:
            for loop in self.loops:
                loop.stop()
            for thread in threads:
                thread.join()

    @property
    def stopping(self) -> bool:
        return self.executor.stopping

    def stop(self) -> None:
        self.executor.stop()
        for loop in self.loops:
            loop.stop()


class Command(ProcessCommand):
    help = "Run the scheduler, executor, reconciler and archiver in one process (embedded)."

    def add_process_arguments(self, parser):
        parser.add_argument("--concurrency", type=int, default=200)
        parser.add_argument("--tick", type=float, default=1.0)

    def build(self, options):
        return AllProcesses(
            concurrency=options["concurrency"],
            tick=options["tick"],
            queue_gauges=bool(options["metrics_port"]),
        )
