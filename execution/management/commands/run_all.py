import threading

from execution.archiver_process import ArchiverProcess
from execution.commands import ProcessCommand
from execution.executor_process import ExecutorProcess
from execution.identity import default_worker_id
from execution.reconciler_process import ReconcilerProcess
from execution.scheduler_process import SchedulerProcess
from tasks.partitions import PartitionLeases


class AllProcesses:
    """The four loops of the pipeline in one process: the executor's event loop in the main
    thread, the scheduler, reconciler and archiver each in a thread of their own."""

    name = "all"

    def __init__(self, *, concurrency: int, tick: float) -> None:
        leases = PartitionLeases.from_settings(default_worker_id("scheduler"))
        self.loops = [
            SchedulerProcess(leases=leases, tick_seconds=tick),
            ReconcilerProcess(),
            ArchiverProcess(),
        ]
        self.executor = ExecutorProcess(
            worker_id=default_worker_id("executor"), concurrency=concurrency
        )

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
        return AllProcesses(concurrency=options["concurrency"], tick=options["tick"])
