"""`atcron verify`: check a received call's signature, e.g. one captured while debugging
a receiver. The secret is `--secret`, else ATCRON_SIGNING_SECRET, else read from the API."""

from __future__ import annotations

import os
import sys
from argparse import Namespace
from pathlib import Path

from atcron.cli.context import Context
from atcron.cli.output import as_json
from atcron.cli.parsing import Commands
from atcron.verify import TOLERANCE_SECONDS, verify


def register(commands: Commands) -> None:
    check = commands.command("verify", verify_call, "check a call's Standard Webhooks signature")
    check.add_argument("--id", required=True, help="the webhook-id header")
    check.add_argument("--timestamp", required=True, help="the webhook-timestamp header")
    check.add_argument("--signature", required=True, help="the webhook-signature header")
    check.add_argument("--body", help="a file of the raw body (default: stdin)")
    check.add_argument("--secret", help="whsec_... (env ATCRON_SIGNING_SECRET)")
    check.add_argument("--tolerance", type=int, default=TOLERANCE_SECONDS, help="seconds")


def verify_call(args: Namespace, ctx: Context) -> None:
    """Raises SignatureError (exit 1) when the call does not verify."""
    body = Path(args.body).read_bytes() if args.body else sys.stdin.buffer.read()
    secret = args.secret or os.environ.get("ATCRON_SIGNING_SECRET")
    if not secret:
        secret = ctx.client.signing_secret.get().signing_secret
    headers = {
        "webhook-id": args.id,
        "webhook-timestamp": args.timestamp,
        "webhook-signature": args.signature,
    }
    verify(secret, body, headers, tolerance=args.tolerance)
    as_json({"valid": True}) if ctx.json else print("signature valid")
