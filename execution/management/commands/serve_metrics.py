from django.core.management.base import CommandError

from execution.commands import ProcessCommand
from execution.metrics_process import MetricsProcess


class Command(ProcessCommand):
    help = (
        "Serve the queue gauges (depth by status and priority, due but unclaimed) on "
        "--metrics-port, read from the database every --interval seconds."
    )

    def add_process_arguments(self, parser):
        parser.add_argument("--interval", type=float, default=5.0)

    def build(self, options):
        if not options["metrics_port"]:
            raise CommandError("--metrics-port is required")
        return MetricsProcess(interval=max(1.0, options["interval"]))
