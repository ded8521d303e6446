from django.core.management.base import BaseCommand

from execution.metrics import serve_process_metrics
from execution.reconciler_process import ReconcilerProcess
from execution.runtime import install_stop_signals


class Command(BaseCommand):
    help = "Run the reconciler: jobs whose lease expired go back to pending, or dead."

    def add_arguments(self, parser):
        parser.add_argument("--interval", type=float, default=5.0)
        parser.add_argument("--batch-size", type=int, default=1000)
        parser.add_argument("--once", action="store_true")
        parser.add_argument(
            "--metrics-port",
            type=int,
            default=0,
            help="serve Prometheus metrics on 127.0.0.1:PORT (0: off)",
        )

    def handle(self, *args, metrics_port, interval, batch_size, once, **options):
        process = ReconcilerProcess(interval=interval, batch_size=batch_size)
        serve_process_metrics(metrics_port)
        install_stop_signals(process)
        process.run(once=once)
        if once:
            self.stdout.write(f"returned {process.last_count} jobs")
