"""A task's fields from the command line: a YAML or JSON file (`--file`, `-` for stdin),
then the flags given, which win over the file."""

from __future__ import annotations

import sys
from argparse import ArgumentParser, Namespace
from pathlib import Path
from typing import Any

import yaml

from atcron.errors import ConfigError

# flag -> the task's field, its type and what it is; only the flags given are sent.
SCALARS: dict[str, tuple[type, str]] = {
    "name": (str, "for people, and for `apply` (by name)"),
    "cron": (str, "5-field cron, e.g. '0 3 * * *' (one of --cron, --run-at, --interval-seconds)"),
    "run_at": (str, "the one instant of a one-off, e.g. 2030-01-01T09:00:00Z"),
    "interval_seconds": (int, "a run every this many seconds"),
    "timezone": (str, "the IANA zone cron is read in (default UTC), e.g. Europe/Madrid"),
    "url": (str, "the http or https URL called"),
    "method": (str, "GET, POST (default), PUT, PATCH or DELETE"),
    "body": (str, "the request body, sent as given"),
    "secret_ref": (str, "a secret's name, sent as Authorization (`atcron secrets put`)"),
    "priority": (int, "0 most urgent to 9 (default 5)"),
    "timeout_seconds": (int, "how long each call may take, 1 to 900 (default 30)"),
    "max_attempts": (int, "calls before the job is dead and in the DLQ (default 5)"),
    "backoff_base_seconds": (int, "the wait after the first failed call, then doubled"),
    "overlap": (str, "allow (default), skip or buffer_one: a run while the last is unfinished"),
    "misfire_policy": (str, "run_all (default), run_once or skip: the runs missed while late"),
    "flow_key": (str, "the flow its calls go through (limits set with PUT /v1/flows/{key})"),
}


def add_task_flags(parser: ArgumentParser) -> None:
    parser.add_argument("--file", "-f", help="the task as YAML or JSON (`-`: stdin)")
    for field, (kind, text) in SCALARS.items():
        parser.add_argument(f"--{field.replace('_', '-')}", dest=field, type=kind, help=text)
    parser.add_argument(
        "--header", action="append", metavar="NAME:VALUE", default=None, help="a header (again)"
    )
    parser.add_argument(
        "--label", action="append", metavar="KEY=VALUE", default=None, help="a label (again)"
    )


def task_fields(args: Namespace) -> dict[str, Any]:
    fields = _from_file(args.file) if args.file else {}
    fields |= {name: getattr(args, name) for name in SCALARS if getattr(args, name) is not None}
    if args.header:
        fields["headers"] = fields.get("headers", {}) | _pairs(args.header, ":", "--header")
    if args.label:
        fields["labels"] = fields.get("labels", {}) | _pairs(args.label, "=", "--label")
    if not fields:
        raise ConfigError("no field given: pass --file or flags such as --url, --cron")
    return fields


def _from_file(name: str) -> dict[str, Any]:
    try:
        text = sys.stdin.read() if name == "-" else Path(name).read_text()
        document = yaml.safe_load(text)  # JSON is YAML too
    except (OSError, yaml.YAMLError) as exc:
        raise ConfigError(f"{name}: {exc}") from exc
    if not isinstance(document, dict):
        raise ConfigError(f"{name}: expected one task, a mapping of its fields")
    return document


def _pairs(items: list[str], separator: str, flag: str) -> dict[str, str]:
    pairs = {}
    for item in items:
        key, found, value = item.partition(separator)
        if not found or not key.strip():
            raise ConfigError(f"{flag} {item!r}: expected KEY{separator}VALUE")
        pairs[key.strip()] = value.strip()
    return pairs
