"""The command tree: groups (`tasks`, `jobs`, ...) of commands, each bound to a handler,
every one accepting the common flags before or after its name."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import Any

Handler = Callable[..., None]


def common_flags(defaults: bool) -> argparse.ArgumentParser:
    # Below the top level the defaults are suppressed, so `atcron --json tasks list` is not
    # undone by the subcommand's own default.
    unset: Any = None if defaults else argparse.SUPPRESS
    flags = argparse.ArgumentParser(add_help=False)
    # Not --url: that is a task's field.
    flags.add_argument("--api-url", default=unset, help="the API's base URL (env ATCRON_URL)")
    flags.add_argument("--api-key", default=unset, help="API key or token (env ATCRON_KEY)")
    flags.add_argument("--config", default=unset, help="config file (env ATCRON_CONFIG)")
    flags.add_argument("--profile", default=unset, help="[profiles.NAME] of the config file")
    flags.add_argument(
        "--timeout",
        type=float,
        default=30.0 if defaults else unset,
        help="seconds each request to the API may take (default 30; a task's own is"
        " --timeout-seconds)",
    )
    flags.add_argument(
        "--json", action="store_true", default=False if defaults else unset, help="JSON output"
    )
    return flags


class Commands:
    def __init__(self, subparsers: Any) -> None:
        self._subparsers = subparsers
        self._flags = common_flags(defaults=False)

    def group(self, name: str, help_text: str) -> Commands:
        parser = self._subparsers.add_parser(name, help=help_text, description=help_text)
        inner = parser.add_subparsers(dest=f"{name}_command", metavar="COMMAND", required=True)
        return Commands(inner)

    def command(self, name: str, handler: Handler, help_text: str) -> argparse.ArgumentParser:
        parser: argparse.ArgumentParser = self._subparsers.add_parser(
            name, help=help_text, description=help_text, parents=[self._flags]
        )
        parser.set_defaults(handler=handler)
        return parser


def list_flags(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--limit", type=int, default=50, help="show at most N (default 50)")
    parser.add_argument("--all", action="store_true", help="show every one")
