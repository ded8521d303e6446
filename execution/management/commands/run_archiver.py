from django.core.management.base import BaseCommand

from execution.archiver_process import ArchiverProcess
from execution.runtime import install_stop_signals


class Command(BaseCommand):
    help = "Run the archiver: finished jobs move to the history store."

    def add_arguments(self, parser):
        parser.add_argument("--interval", type=float, default=10.0)
        parser.add_argument("--batch-size", type=int, default=500)
        parser.add_argument("--once", action="store_true")

    def handle(self, *args, interval, batch_size, once, **options):
        process = ArchiverProcess(interval=interval, batch_size=batch_size)
        install_stop_signals(process)
        process.run(once=once)
        if once:
            written, deleted = process.last_result
            self.stdout.write(f"archived {written} jobs, deleted {deleted} from the queue")
