"""A task's fields from the command line: a YAML or JSON file (`--file`, `-` for stdin),
then the flags given, which win over the file."""

from __future__ import annotations

import sys
from argparse import ArgumentParser, Namespace
from pathlib import Path
from typing import Any

import yaml

from atcron.errors import ConfigError

# flag -> the task's field; only the flags given are sent.
SCALARS = {
    "name": str,
    "cron": str,
    "run_at": str,
    "interval_seconds": int,
    "timezone": str,
    "url": str,
    "method": str,
    "body": str,
    "secret_ref": str,
    "priority": int,
    "timeout_seconds": int,
    "max_attempts": int,
    "backoff_base_seconds": int,
    "overlap": str,
    "misfire_policy": str,
    "flow_key": str,
}


def add_task_flags(parser: ArgumentParser) -> None:
    parser.add_argument("--file", "-f", help="the task as YAML or JSON (`-`: stdin)")
    for field, kind in SCALARS.items():
        parser.add_argument(f"--{field.replace('_', '-')}", dest=field, type=kind)
    parser.add_argument("--header", action="append", metavar="NAME:VALUE", default=None)
    parser.add_argument("--label", action="append", metavar="KEY=VALUE", default=None)


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
