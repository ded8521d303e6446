from django.core.management.base import BaseCommand

from execution.archiver_process import ArchiverProcess
from execution.metrics import serve_process_metrics
from execution.runtime import install_stop_signals


class Command(BaseCommand):
    help = "Run the archiver: finished jobs move to the history store."

    def add_arguments(self, parser):
        parser.add_argument("--interval", type=float, default=10.0)
        parser.add_argument("--batch-size", type=int, default=500)
        parser.add_argument("--once", action="store_true")
        parser.add_argument(
            "--metrics-port",
            type=int,
            default=0,
            help="serve Prometheus metrics on 127.0.0.1:PORT (0: off)",
        )

    def handle(self, *args, metrics_port, interval, batch_size, once, **options):
        process = ArchiverProcess(interval=interval, batch_size=batch_size)
        serve_process_metrics(metrics_port)
        install_stop_signals(process)
        process.run(once=once)
        if once:
            written, deleted = process.last_result
            self.stdout.write(f"archived {written} jobs, deleted {deleted} from the queue")
