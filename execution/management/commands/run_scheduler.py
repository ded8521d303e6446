from execution.commands import ProcessCommand
from execution.identity import default_worker_id
from execution.scheduler_process import SchedulerProcess
from tasks.partitions import PartitionLeases


class Command(ProcessCommand):
    help = "Run the scheduler: every tick, due tasks become jobs."

    def add_process_arguments(self, parser):
        parser.add_argument("--tick", type=float, default=1.0, help="seconds between ticks")
        parser.add_argument("--batch-size", type=int, default=1000)
        parser.add_argument(
            "--lookahead",
            type=float,
            default=5.0,
            help="also create jobs due within this many seconds",
        )
        parser.add_argument("--node-id", default=None)
        parser.add_argument("--once", action="store_true", help="run one tick and exit")

    def build(self, options):
        leases = PartitionLeases.from_settings(options["node_id"] or default_worker_id("scheduler"))
        return SchedulerProcess(
            leases=leases,
            tick_seconds=options["tick"],
            batch_size=options["batch_size"],
            lookahead_seconds=options["lookahead"],
        )

    def report(self, process):
        result = process.last_result
        if result is None:
            return None
        return (
            f"selected {result.selected} tasks, created {result.jobs} jobs, "
            f"completed {result.completed} tasks in {result.duration_ms:.1f} ms"
        )
