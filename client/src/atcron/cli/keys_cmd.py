"""`atcron keys ...`: the tenant's API keys."""

from __future__ import annotations

import sys
from argparse import Namespace

from atcron._model import parse_time
from atcron.cli import columns
from atcron.cli.context import Context
from atcron.cli.parsing import Commands, list_flags


def register(commands: Commands) -> None:
    group = commands.group("keys", "API keys: durable credentials of the tenant")
    create = group.command("create", keys_create, "a new key (shown this once)")
    create.add_argument("--name", required=True, help="for people, e.g. 'deploy script'")
    create.add_argument(
        "--scope", choices=["read", "write"], required=True, help="read: GET only; write: all"
    )
    create.add_argument("--expires-at", type=parse_time, help="e.g. 2027-01-01T00:00:00Z")
    list_flags(group.command("list", keys_list, "the keys (never the keys themselves)"))
    group.command("revoke", keys_revoke, "revoke a key").add_argument("id", help="the key's id")


def keys_create(args: Namespace, ctx: Context) -> None:
    made = ctx.client.api_keys.create(args.name, args.scope, expires_at=args.expires_at)
    ctx.show(made)
    if not ctx.json:
        print("keep the key now: it is never shown again", file=sys.stderr)


def keys_list(args: Namespace, ctx: Context) -> None:
    ctx.show_many(ctx.client.api_keys.list(), columns.KEY)


def keys_revoke(args: Namespace, ctx: Context) -> None:
    ctx.client.api_keys.revoke(args.id)
    ctx.done(f"revoked key {args.id}", {"id": args.id, "revoked": True})
