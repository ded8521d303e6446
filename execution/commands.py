"""What every process command shares: build the process, serve metrics, stop on a signal."""

from __future__ import annotations

from django.core.management.base import BaseCommand

from execution.metrics import serve_process_metrics
from execution.runtime import install_stop_signals


class ProcessCommand(BaseCommand):
    """A thin command: parse options, build the process, install signals, run."""

    def add_arguments(self, parser) -> None:
        parser.add_argument(
            "--metrics-port",
            type=int,
            default=0,
            help="serve Prometheus metrics on PORT (0: off)",
        )
        parser.add_argument(
            "--metrics-address",
            default="127.0.0.1",
            help="the address the metrics listen on (default 127.0.0.1: this machine only)",
        )
        self.add_process_arguments(parser)

    def add_process_arguments(self, parser) -> None:
        """Options of this process."""

    def build(self, options: dict):
        raise NotImplementedError

    def report(self, process) -> str | None:
        """A line to print after a single turn (`--once`)."""
        return None

    def handle(self, *args, **options) -> None:
        process = self.build(options)
        serve_process_metrics(options["metrics_port"], options["metrics_address"])
        install_stop_signals(process)
        once = options.get("once", False)
        if once:
            process.run(once=True)
            line = self.report(process)
            if line:
                self.stdout.write(line)
        else:
            process.run()
