from django.core.management.base import BaseCommand

from execution.executor_process import ExecutorProcess
from execution.identity import default_worker_id
from execution.metrics import serve_process_metrics
from execution.runtime import install_stop_signals


class Command(BaseCommand):
    help = "Run an executor: claim due jobs, call the endpoints, record the results."

    def add_arguments(self, parser):
        parser.add_argument("--concurrency", type=int, default=2000, help="calls in flight")
        parser.add_argument(
            "--poll-interval",
            type=float,
            default=1.0,
            help="seconds between claims; jobs this far ahead are claimed",
        )
        parser.add_argument("--worker-id", default=None)
        parser.add_argument(
            "--grace",
            type=float,
            default=30.0,
            help="seconds calls in flight may take to finish on stop",
        )
        parser.add_argument(
            "--critical-share",
            type=float,
            default=0.1,
            help="share of the capacity reserved for priority 0",
        )
        parser.add_argument(
            "--metrics-port",
            type=int,
            default=0,
            help="serve Prometheus metrics on 127.0.0.1:PORT (0: off)",
        )

    def handle(
        self,
        *args,
        concurrency,
        poll_interval,
        worker_id,
        grace,
        critical_share,
        metrics_port,
        **options,
    ):
        process = ExecutorProcess(
            worker_id=worker_id or default_worker_id("executor"),
            concurrency=concurrency,
            poll_interval=poll_interval,
            grace_seconds=grace,
            critical_share=critical_share,
        )
        serve_process_metrics(metrics_port)
        install_stop_signals(process)
        process.run()
