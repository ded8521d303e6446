"""`atcron secrets ...` and `atcron signing-secret`."""

from __future__ import annotations

import sys
from argparse import Namespace
from pathlib import Path

from atcron.cli import columns
from atcron.cli.context import Context
from atcron.cli.parsing import Commands, list_flags


def register(commands: Commands) -> None:
    group = commands.group("secrets", "the secrets tasks send as Authorization")
    list_flags(group.command("list", secrets_list, "secret names and hosts (never values)"))
    put = group.command("put", secrets_put, "store or replace a secret")
    put.add_argument("name", help="what tasks name in secret_ref")
    put.add_argument("--value", help="the value (else --value-file, else stdin)")
    put.add_argument("--value-file", help="read the value from a file (kept as is)")
    put.add_argument(
        "--allowed-host",
        action="append",
        dest="allowed_hosts",
        metavar="HOST",
        help="a host the secret may be sent to (again; needed for a new secret)",
    )
    group.command("delete", secrets_delete, "delete a secret").add_argument(
        "name", help="the secret's name"
    )
    commands.command("signing-secret", signing_secret, "the secret the calls are signed with")


def secrets_list(args: Namespace, ctx: Context) -> None:
    ctx.show_many(ctx.client.secrets.list(), columns.SECRET)


def secrets_put(args: Namespace, ctx: Context) -> None:
    if args.value is not None:
        value = args.value
    elif args.value_file:
        value = Path(args.value_file).read_text()
    else:
        value = sys.stdin.read().rstrip("\n")  # a value piped in, without echo's newline
    ctx.show(ctx.client.secrets.put(args.name, value, allowed_hosts=args.allowed_hosts))


def secrets_delete(args: Namespace, ctx: Context) -> None:
    ctx.client.secrets.delete(args.name)
    ctx.done(f"deleted secret {args.name}", {"name": args.name, "deleted": True})


def signing_secret(args: Namespace, ctx: Context) -> None:
    ctx.show(ctx.client.signing_secret.get())
