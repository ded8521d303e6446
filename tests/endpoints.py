"""Real HTTP endpoints on 127.0.0.1 for the executor tests, recording what they receive."""

from __future__ import annotations

import gzip
import threading
import time
import zlib
from collections import defaultdict
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from requests.structures import CaseInsensitiveDict


class _Server(ThreadingHTTPServer):
    request_queue_size = 1024  # the default of 5 drops bursts of connections for a second
    daemon_threads = True

    def handle_error(self, request, client_address):
        pass  # a client that hung up at its deadline is expected here


@dataclass
class Received:
    path: str
    method: str
    # Names as HTTP reads them, whatever their case on the wire (the executor's client
    # sends them title-cased: Webhook-Id).
    headers: CaseInsensitiveDict
    body: bytes
    at: float


class Endpoint:
    """Behaviour by path:
    /ok            200
    /fail/N        500 for the first N calls of a job (by Idempotency-Key), then 200
    /status/C      always status C (with Retry-After: 7 on 429 and 503)
    /redirect      302 to /ok
    /slow/S        sleeps S seconds before answering 200
    /trickle/S     sends headers, then one byte a second for S seconds
    /echo          200 with the request's headers as its body (what a leak looks like)
    /bomb/E        a body of 3.9 MB of "a" in 3.8 KB, Content-Encoding E: gzip, deflate
                   (zlib-wrapped) or raw-deflate (sent as deflate)
    /brotli        "Content-Encoding: br" on bytes no one decodes
    /false-gzip    "Content-Encoding: gzip" on a plain text body
    """

    def __init__(self) -> None:
        self.received: list[Received] = []
        self.calls_by_key: dict[str, int] = defaultdict(int)
        self._lock = threading.Lock()
        endpoint = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):
                pass

            def _handle(self):
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length) if length else b""
                endpoint._record(self, body)
                endpoint._answer(self)

            do_GET = do_POST = do_PUT = do_PATCH = do_DELETE = _handle

        self.server = _Server(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.port = self.server.server_address[1]
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def url(self, path: str) -> str:
        return f"http://127.0.0.1:{self.port}{path}"

    def _record(self, handler, body: bytes) -> None:
        with self._lock:
            self.received.append(
                Received(
                    handler.path,
                    handler.command,
                    CaseInsensitiveDict(handler.headers),
                    body,
                    time.time(),
                )
            )
            self.calls_by_key[(handler.path, handler.headers.get("Idempotency-Key"))] += 1

    def _answer(self, handler) -> None:
        parts = handler.path.split("?")[0].strip("/").split("/")
        kind = parts[0]
        if kind == "fail":
            key = (handler.path, handler.headers.get("Idempotency-Key"))
            status = 500 if self.calls_by_key[key] <= int(parts[1]) else 200
            return _reply(handler, status, b"failing" if status == 500 else b"ok")
        if kind == "status":
            status = int(parts[1])
            extra = {"Retry-After": "7"} if status in (429, 503) else {}
            return _reply(handler, status, b"status", extra)
        if kind == "redirect":
            return _reply(handler, 302, b"", {"Location": self.url("/ok")})
        if kind == "slow":
            time.sleep(float(parts[1]))
            return _reply(handler, 200, b"slow")
        if kind == "trickle":
            handler.send_response(200)
            handler.send_header("Content-Length", str(int(parts[1]) + 1))
            handler.end_headers()
            for _ in range(int(parts[1])):
                handler.wfile.write(b"x")
                handler.wfile.flush()
                time.sleep(1)
            return None
        if kind == "bomb":
            encoding = "deflate" if parts[1] == "raw-deflate" else parts[1]
            return _reply(handler, 200, BOMBS[parts[1]], {"Content-Encoding": encoding})
        if kind == "false-gzip":
            return _reply(handler, 200, b"plain after all", {"Content-Encoding": "gzip"})
        if kind == "brotli":
            return _reply(handler, 200, b"\x8b" * 5000, {"Content-Encoding": "br"})
        if kind == "nul":
            return _reply(handler, 200, b"a\x00b")
        if kind == "echo":
            return _reply(handler, 200, str(dict(handler.headers)).encode())
        if kind == "big":
            return _reply(handler, 200, b"y" * 10000)
        return _reply(handler, 200, b"ok")

    def requests_for(self, path_prefix: str) -> list[Received]:
        with self._lock:
            return [r for r in self.received if r.path.startswith(path_prefix)]

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


# 3,900,000 bytes of "a": 3,815 bytes in gzip, as in issue 17, under the 4,096 of a
# Content-Length that was read whole.
BOMB_SIZE = 3_900_000
_raw_deflate = zlib.compressobj(9, zlib.DEFLATED, -zlib.MAX_WBITS)
BOMBS = {
    "gzip": gzip.compress(b"a" * BOMB_SIZE, 9),
    "deflate": zlib.compress(b"a" * BOMB_SIZE, 9),
    "raw-deflate": _raw_deflate.compress(b"a" * BOMB_SIZE) + _raw_deflate.flush(),
}


def _reply(handler, status: int, body: bytes, headers: dict | None = None) -> None:
    handler.send_response(status)
    for name, value in (headers or {}).items():
        handler.send_header(name, value)
    handler.send_header("Content-Length", str(len(body)))
    handler.end_headers()
    handler.wfile.write(body)
