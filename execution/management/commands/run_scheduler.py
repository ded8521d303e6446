from django.conf import settings
from django.core.management.base import BaseCommand

from execution.identity import default_worker_id
from execution.metrics import serve_process_metrics
from execution.runtime import install_stop_signals
from execution.scheduler_process import SchedulerProcess
from tasks.partitions import PartitionLeases


class Command(BaseCommand):
    help = "Run the scheduler: every tick, due tasks become jobs."

    def add_arguments(self, parser):
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
        parser.add_argument(
            "--metrics-port",
            type=int,
            default=0,
            help="serve Prometheus metrics on 127.0.0.1:PORT (0: off)",
        )

    def handle(self, *args, metrics_port, tick, batch_size, lookahead, node_id, once, **options):
        leases = PartitionLeases(
            node_id=node_id or default_worker_id("scheduler"),
            partition_count=settings.SCHEDULER_PARTITIONS,
            lease_seconds=settings.SCHEDULER_LEASE_SECONDS,
        )
        process = SchedulerProcess(
            leases=leases, tick_seconds=tick, batch_size=batch_size, lookahead_seconds=lookahead
        )
        serve_process_metrics(metrics_port)
        install_stop_signals(process)
        process.run(once=once)
        if once and process.last_result is not None:
            result = process.last_result
            self.stdout.write(
                f"selected {result.selected} tasks, created {result.jobs} jobs, "
                f"completed {result.completed} tasks in {result.duration_ms:.1f} ms"
            )
