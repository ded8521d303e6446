"""What every command gets: the parsed arguments, a client made on first use (a command
that needs no API, such as `verify --secret`, needs no credentials), and the output mode."""

from __future__ import annotations

import sys
from argparse import Namespace
from collections.abc import Iterable, Sequence
from typing import Any

from atcron._model import Record
from atcron.cli import output
from atcron.cli.config import credentials
from atcron.client import Client


class Context:
    def __init__(self, args: Namespace) -> None:
        self.args = args
        self.json: bool = bool(getattr(args, "json", False))
        self._client: Client | None = None

    @property
    def client(self) -> Client:
        if self._client is None:
            url, key = credentials(self.args)
            self._client = Client(url, key, timeout=getattr(self.args, "timeout", 30.0))
        return self._client

    def show(self, record: Record) -> None:
        output.as_json(record) if self.json else output.fields(record)

    def show_many(self, items: Iterable[Any], columns: Sequence[output.Column]) -> None:
        """A list capped by `--limit` (`--all` lifts it), as a table or a JSON array."""
        cap = None if getattr(self.args, "all", False) else getattr(self.args, "limit", None)
        rows, more = output.limited(items, cap)
        if self.json:
            output.as_json(rows)
            return
        output.table(rows, columns)
        if more:
            print(f"(the first {cap}; --limit N or --all for more)", file=sys.stderr)

    def done(self, message: str, document: dict[str, Any]) -> None:
        """A write that returns nothing: a sentence for people, an object for scripts."""
        output.as_json(document) if self.json else print(message)
