from execution.commands import ProcessCommand
from execution.executor_process import ExecutorProcess
from execution.identity import executor_worker_id


class Command(ProcessCommand):
    help = "Run an executor: claim due jobs, call the endpoints, record the results."

    def add_process_arguments(self, parser):
        parser.add_argument("--concurrency", type=int, default=2000, help="calls in flight")
        parser.add_argument(
            "--poll-interval", type=float, default=1.0, help="seconds between claims when idle"
        )
        parser.add_argument(
            "--worker-id",
            default=None,
            help="new at each start by default: one reused by a restart keeps the jobs of the "
            "process before it waiting for their leases",
        )
        parser.add_argument(
            "--grace",
            type=float,
            default=30.0,
            help="seconds calls in flight may take to finish on stop",
        )
        parser.add_argument(
            "--horizon",
            type=float,
            default=5.0,
            help="claim jobs due up to this many seconds ahead and hold them on timers",
        )
        parser.add_argument(
            "--max-held",
            type=int,
            default=20000,
            help="claimed jobs held at most (the memory bound)",
        )
        parser.add_argument(
            "--critical-share",
            type=float,
            default=0.1,
            help="share of the capacity reserved for priority 0",
        )

    def build(self, options):
        return ExecutorProcess(
            worker_id=options["worker_id"] or executor_worker_id(),
            concurrency=options["concurrency"],
            poll_interval=options["poll_interval"],
            grace_seconds=options["grace"],
            critical_share=options["critical_share"],
            horizon_seconds=options["horizon"],
            max_held=options["max_held"],
        )
