from execution.archiver_process import ArchiverProcess
from execution.commands import ProcessCommand


class Command(ProcessCommand):
    help = "Run the archiver: finished jobs move to the history store."

    def add_process_arguments(self, parser):
        parser.add_argument("--interval", type=float, default=10.0)
        parser.add_argument("--batch-size", type=int, default=500)
        parser.add_argument("--once", action="store_true")

    def build(self, options):
        return ArchiverProcess(interval=options["interval"], batch_size=options["batch_size"])

    def report(self, process):
        written, deleted = process.last_result
        return f"archived {written} jobs, deleted {deleted} from the queue"
