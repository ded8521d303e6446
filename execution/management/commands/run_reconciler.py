from execution.commands import ProcessCommand
from execution.reconciler_process import ReconcilerProcess


class Command(ProcessCommand):
    help = "Run the reconciler: jobs whose lease expired go back to pending, or dead."

    def add_process_arguments(self, parser):
        parser.add_argument("--interval", type=float, default=5.0)
        parser.add_argument("--batch-size", type=int, default=1000)
        parser.add_argument("--once", action="store_true")

    def build(self, options):
        return ReconcilerProcess(interval=options["interval"], batch_size=options["batch_size"])

    def report(self, process):
        return f"returned {process.last_count} jobs"
