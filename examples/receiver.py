"""A webhook receiver that verifies the scheduler's Standard Webhooks signatures.

Standard library only. The signature covers `{webhook-id}.{webhook-timestamp}.{body}` with
the body as the exact bytes received, so it verifies every body: empty, text, JSON or
binary. Nothing is parsed before the signature holds.

    WEBHOOK_SECRET=whsec_... python examples/receiver.py 8080

WEBHOOK_SECRET may hold several secrets, comma separated (while you change yours).
Answers 204 to a call that verifies, 401 to one that does not.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import os
import signal
import sys
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

TOLERANCE_SECONDS = 300  # a replayed call older (or newer) than this is refused
# A task's body is at most 64 KiB and a callback's smaller: anything far larger is not ours.
MAX_BODY = 1024 * 1024


def secret_bytes(secret: str) -> bytes:
    """`whsec_` then base64: the key is the decoded bytes, not the text."""
    return base64.b64decode(secret.strip().removeprefix("whsec_"))


def verify(secrets: list[bytes], headers, body: bytes, now: float | None = None) -> bool:
    """True when the timestamp is fresh and one of the `v1,...` signatures matches one of
    the secrets (the sender lists several, space separated, during a rotation)."""
    message_id = headers.get("webhook-id")
    timestamp = headers.get("webhook-timestamp")
    signatures = headers.get("webhook-signature")
    # ASCII digits only: str.isdigit() also takes "²", which int() refuses, and a receiver
    # that raises answers nothing instead of its 401.
    if not (message_id and timestamp and signatures) or not timestamp.isascii():
        return False
    if not timestamp.isdigit() or len(timestamp) > 12:
        return False
    if abs((time.time() if now is None else now) - int(timestamp)) > TOLERANCE_SECONDS:
        return False
    signed = message_id.encode() + b"." + timestamp.encode() + b"." + body
    expected = [hmac.new(key, signed, hashlib.sha256).digest() for key in secrets]
    for entry in signatures.split(" "):
        version, _, encoded = entry.partition(",")
        if version != "v1":
            continue
        try:
            given = base64.b64decode(encoded, validate=True)
        except ValueError:
            continue
        if any(hmac.compare_digest(given, digest) for digest in expected):
            return True
    return False


class Receiver(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    secrets: list[bytes] = []

    def _handle(self) -> None:
        length = self.headers.get("Content-Length") or "0"
        # Digits only: read(-1) would wait for the client to close, int("x") would raise.
        if not (length.isascii() and length.isdigit()):
            self.send_error(400, "bad Content-Length")
            return
        if int(length) > MAX_BODY:  # more than the scheduler ever sends: not read into memory
            self.send_error(413, "body too large")
            return
        body = self.rfile.read(int(length))
        valid = verify(self.secrets, self.headers, body)
        # Do the work here, once per Idempotency-Key (the same on every retry of a job).
        print(
            f"{'verified' if valid else 'REJECTED'} {self.command} {self.path} "
            f"Idempotency-Key={self.headers.get('Idempotency-Key')} {len(body)} bytes",
            flush=True,
        )
        self.send_response(204 if valid else 401)
        self.send_header("Content-Length", "0")
        self.end_headers()

    do_GET = do_POST = do_PUT = do_PATCH = do_DELETE = _handle

    def log_message(self, *args) -> None:
        pass


def main() -> None:
    Receiver.secrets = [secret_bytes(s) for s in os.environ["WEBHOOK_SECRET"].split(",") if s]
    port = int(sys.argv[1]) if len(sys.argv) > 1 else 8080
    server = ThreadingHTTPServer(("127.0.0.1", port), Receiver)
    signal.signal(signal.SIGTERM, signal.default_int_handler)
    print(f"listening on 127.0.0.1:{port}", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()


if __name__ == "__main__":
    main()
