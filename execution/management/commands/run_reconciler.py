from django.core.management.base import BaseCommand

from execution.reconciler_process import ReconcilerProcess
from execution.runtime import install_stop_signals


class Command(BaseCommand):
    help = "Run the reconciler: jobs whose lease expired go back to pending, or dead."

    def add_arguments(self, parser):
        parser.add_argument("--interval", type=float, default=5.0)
        parser.add_argument("--batch-size", type=int, default=1000)
        parser.add_argument("--once", action="store_true")

    def handle(self, *args, interval, batch_size, once, **options):
        process = ReconcilerProcess(interval=interval, batch_size=batch_size)
        install_stop_signals(process)
        process.run(once=once)
        if once:
            self.stdout.write(f"returned {process.last_count} jobs")
