import threading

from django.conf import settings
from django.core.management.base import BaseCommand

from execution.archiver_process import ArchiverProcess
from execution.executor_process import ExecutorProcess
from execution.identity import default_worker_id
from execution.metrics import serve_process_metrics
from execution.reconciler_process import ReconcilerProcess
from execution.runtime import install_stop_signals
from execution.scheduler_process import SchedulerProcess
from tasks.partitions import PartitionLeases


class Command(BaseCommand):
    help = "Run the scheduler, executor, reconciler and archiver in one process (embedded)."

    def add_arguments(self, parser):
        parser.add_argument("--concurrency", type=int, default=200)
        parser.add_argument("--tick", type=float, default=1.0)
        parser.add_argument(
            "--metrics-port",
            type=int,
            default=0,
            help="serve Prometheus metrics on 127.0.0.1:PORT (0: off)",
        )

    def handle(self, *args, metrics_port, concurrency, tick, **options):
        leases = PartitionLeases(
            node_id=default_worker_id("scheduler"),
            partition_count=settings.SCHEDULER_PARTITIONS,
            lease_seconds=settings.SCHEDULER_LEASE_SECONDS,
        )
        loops = [
            SchedulerProcess(leases=leases, tick_seconds=tick),
            ReconcilerProcess(),
            ArchiverProcess(),
        ]
        executor = ExecutorProcess(worker_id=default_worker_id("executor"), concurrency=concurrency)
        serve_process_metrics(metrics_port)
        install_stop_signals(executor, *loops)
        threads = [threading.Thread(target=loop.run, name=loop.name) for loop in loops]
        for thread in threads:
            thread.start()
        try:
            executor.run()  # the event loop runs in the main thread until a stop signal
        finally:
            for loop in loops:
                loop.stop()
            for thread in threads:
                thread.join()
