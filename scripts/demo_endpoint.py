"""The demo endpoint of `make run`: prints every call it receives and checks its signature.

    demo_endpoint.py PORT SECRET_FILE

SECRET_FILE holds the demo tenant's signing secret (`make run` writes it from
`GET /v1/signing-secret`; read again on every call, so a new one takes effect at once).
A call whose Standard Webhooks signature does not verify is answered 401. By path:
    /fail      500, every time: its retries end in the dead letter queue
    /flaky/N   500 for the first N calls of a job (by Idempotency-Key), then 200
    any other  200
"""

import signal
import sys
import threading
from collections import Counter
from datetime import UTC, datetime
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from examples.receiver import secret_bytes, verify  # noqa: E402 - needs the project's path

SHOWN = ("Idempotency-Key", "X-Scheduled-At", "X-Attempt")


def planned_status(path: str, calls: int) -> int:
    """What the path asks for, on the job's `calls`-th verified call."""
    if path == "/fail":
        return 500
    head, _, count = path.rpartition("/")
    if head == "/flaky" and count.isascii() and count.isdigit() and len(count) < 10:
        return 500 if calls <= int(count) else 200
    return 200


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    secret_file: Path
    calls: Counter = Counter()
    lock = threading.Lock()

    def log_message(self, *args):
        pass

    def _secrets(self) -> list[bytes]:
        try:
            text = self.secret_file.read_text()
        except FileNotFoundError:
            return []
        return [secret_bytes(line) for line in text.split() if line]

    def _handle(self):
        raw = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        key = self.headers.get("Idempotency-Key")
        if verify(self._secrets(), self.headers, raw):
            with self.lock:
                self.calls[key] += 1
                status = planned_status(self.path.split("?")[0], self.calls[key])
            signature = "verified"
        else:
            status, signature = 401, "INVALID"
        now = datetime.now(UTC).strftime("%H:%M:%S.%f")[:-3]
        details = " ".join(f"{name}={self.headers.get(name)}" for name in SHOWN)
        body = raw.decode(errors="replace")
        print(
            f"[demo endpoint {now}Z] {self.command} {self.path} {details} "
            f"signature={signature} -> {status} body={body!r}",
            flush=True,
        )
        reply = b"ok" if status == 200 else f"demo answer {status}".encode()
        self.send_response(status)
        self.send_header("Content-Length", str(len(reply)))
        self.end_headers()
        self.wfile.write(reply)

    do_GET = do_POST = do_PUT = do_PATCH = do_DELETE = _handle


def main() -> None:
    port = int(sys.argv[1]) if len(sys.argv) > 1 else 8001
    Handler.secret_file = (
        Path(sys.argv[2]) if len(sys.argv) > 2 else Path("run/demo_signing_secret")
    )
    try:
        server = ThreadingHTTPServer(("127.0.0.1", port), Handler)
    except OSError as exc:  # a port taken: say so plainly, `make run` names the variable
        raise SystemExit(f"the demo endpoint cannot listen on 127.0.0.1:{port}: {exc}") from None
    # SIGTERM (from `make run`) ends it like Ctrl-C does: quietly, not with a traceback.
    signal.signal(signal.SIGTERM, signal.default_int_handler)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()


if __name__ == "__main__":
    main()
