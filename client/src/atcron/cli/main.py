"""`atcron`: the service's API from the shell.

Exit codes: 0 done; 1 the API refused (its message is printed) or a signature did not
verify; 2 a usage or configuration error; 3 the API could not be reached.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence

from atcron import __version__
from atcron.cli import jobs_cmd, keys_cmd, secrets_cmd, tasks_cmd, verify_cmd
from atcron.cli.context import Context
from atcron.cli.parsing import Commands, common_flags
from atcron.errors import ApiError, ConfigError, SignatureError, TransportError

EXIT_API, EXIT_USAGE, EXIT_UNREACHABLE = 1, 2, 3


def parser() -> argparse.ArgumentParser:
    top = argparse.ArgumentParser(
        prog="atcron",
        description="The at and cron service from the shell. URL and key: --api-url/--api-key, "
        "ATCRON_URL/ATCRON_KEY, or ~/.config/atcron/config.toml (in that order).",
        parents=[common_flags(defaults=True)],
    )
    top.add_argument("--version", action="version", version=f"atcron {__version__}")
    commands = Commands(top.add_subparsers(dest="command", metavar="COMMAND", required=True))
    for module in (tasks_cmd, jobs_cmd, secrets_cmd, keys_cmd, verify_cmd):
        module.register(commands)
    return top


def main(argv: Sequence[str] | None = None) -> int:
    args = parser().parse_args(argv)
    ctx = Context(args)
    try:
        args.handler(args, ctx)
    except ApiError as exc:
        _report_api_error(exc, ctx.json)
        return EXIT_API
    except SignatureError as exc:
        print(f"signature not valid: {exc}", file=sys.stderr)
        return EXIT_API
    except ConfigError as exc:
        print(f"atcron: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except TransportError as exc:
        print(f"atcron: cannot reach the API: {exc}", file=sys.stderr)
        return EXIT_UNREACHABLE
    except BrokenPipeError:
        return 0  # `atcron tasks list | head`
    return 0


def _report_api_error(exc: ApiError, as_json: bool) -> None:
    if as_json and isinstance(exc.body, dict):
        print(json.dumps({"status": exc.status, **exc.body}), file=sys.stderr)
    else:
        print(f"atcron: {exc.describe()}", file=sys.stderr)
