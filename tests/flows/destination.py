"""A real HTTP destination for the flow tests that records what a flow's limits are about:
when each call arrived and ended, how many were in flight at once, and the calls of each
job (by Idempotency-Key). Its answer (status, delay) can be switched while it runs."""

from __future__ import annotations

import threading
import time
from collections import Counter
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler

from tests.endpoints import _Server


@dataclass
class Arrival:
    key: str
    path: str
    at: float  # seconds since the epoch
    in_flight: int  # calls in flight at this one's arrival, itself included


class Destination:
    def __init__(self, *, status: int = 200, delay: float = 0.0) -> None:
        self.status, self.delay = status, delay
        self.arrivals: list[Arrival] = []
        self.in_flight = self.most_in_flight = 0
        self.in_flight_by_path: Counter = Counter()
        self.most_by_path: Counter = Counter()  # the most in flight at once, per path
        self._lock = threading.Lock()
        self.server = _Server(("127.0.0.1", 0), self._handler())
        self.port = self.server.server_address[1]
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def url(self, path: str = "/") -> str:
        return f"http://127.0.0.1:{self.port}{path}"

    def _handler(self):
        destination = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):
                pass

            def _handle(self):
                length = int(self.headers.get("Content-Length") or 0)
                if length:
                    self.rfile.read(length)
                status, delay = destination._arrive(self)
                try:
                    time.sleep(delay)
                    self.send_response(status)
                    self.send_header("Content-Length", "2")
                    self.end_headers()
                    self.wfile.write(b"ok")
                finally:
                    destination._leave(self.path)

            do_GET = do_POST = do_PUT = _handle

        return Handler

    def _arrive(self, handler) -> tuple[int, float]:
        with self._lock:
            self.in_flight += 1
            self.most_in_flight = max(self.most_in_flight, self.in_flight)
            self.in_flight_by_path[handler.path] += 1
            most = max(self.most_by_path[handler.path], self.in_flight_by_path[handler.path])
            self.most_by_path[handler.path] = most
            key = handler.headers.get("Idempotency-Key", "")
            self.arrivals.append(Arrival(key, handler.path, time.time(), self.in_flight))
            return self.status, self.delay

    def _leave(self, path: str) -> None:
        with self._lock:
            self.in_flight -= 1
            self.in_flight_by_path[path] -= 1

    def times(self, path: str | None = None) -> list[float]:
        with self._lock:
            return [a.at for a in self.arrivals if path is None or a.path == path]

    def calls_by_job(self) -> Counter:
        with self._lock:
            return Counter(a.key for a in self.arrivals)

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


def most_in_any_window(times: list[float], seconds: float) -> int:
    """The most arrivals in any sliding window of `seconds` (each window ending at one)."""
    ordered = sorted(times)
    most, first = 0, 0
    for last, at in enumerate(ordered):
        while ordered[first] <= at - seconds:
            first += 1
        most = max(most, last - first + 1)
    return most


def most_in_a_calendar_second(times: list[float]) -> int:
    return max(Counter(int(at) for at in times).values(), default=0)
