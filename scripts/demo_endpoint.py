"""The demo endpoint of `make run`: prints every call it receives, answers 200."""

import signal
import sys
from datetime import UTC, datetime
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

SHOWN = ("Idempotency-Key", "X-Scheduled-At", "X-Attempt", "webhook-signature")


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def _handle(self):
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length).decode(errors="replace") if length else ""
        now = datetime.now(UTC).strftime("%H:%M:%S.%f")[:-3]
        details = " ".join(f"{name}={self.headers.get(name)}" for name in SHOWN)
        print(
            f"[demo endpoint {now}Z] {self.command} {self.path} {details} body={body!r}", flush=True
        )
        self.send_response(200)
        self.send_header("Content-Length", "2")
        self.end_headers()
        self.wfile.write(b"ok")

    do_GET = do_POST = do_PUT = do_PATCH = do_DELETE = _handle


def main() -> None:
    port = int(sys.argv[1]) if len(sys.argv) > 1 else 8001
    server = ThreadingHTTPServer(("127.0.0.1", port), Handler)
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
