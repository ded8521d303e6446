"""The tenant endpoint: Debian's nginx logging every arrival, with one location per
behaviour. Switchable behaviours (500 then 200, 429 then 200) read a flag file at each
request, so the harness turns them on and off without reloading nginx."""

from __future__ import annotations

import socket
import subprocess
from dataclasses import dataclass
from pathlib import Path

from tests.processes import free_port, wait_until

SLOW_BODY = "s" * 3000  # at 1,200 bytes/s: a 200 after about 2.5 s
TRICKLE_BODY = "t" * 4000  # at 100 bytes/s: 40 s, past any timeout the campaign uses
RETRY_AFTER_SECONDS = 3

CONFIG = """
worker_processes 1;
daemon off;
pid {prefix}/nginx.pid;
error_log {prefix}/error.log warn;
events {{ worker_connections 16384; }}
http {{
    # The arrival is $msec - $request_time ($msec is when the answer was finished);
    # $request_completion is OK only when the whole answer went out (a caller that gave
    # up on a trickling body leaves a 200 that was never delivered).
    log_format arrivals '$msec $request_time $status $request_completion '
                        '$http_idempotency_key $http_x_attempt $http_x_scheduled_at $arg_t';
    access_log {prefix}/arrivals.log arrivals;
    client_body_temp_path {prefix}/body;
    proxy_temp_path {prefix}/proxy;
    fastcgi_temp_path {prefix}/fastcgi;
    uwsgi_temp_path {prefix}/uwsgi;
    scgi_temp_path {prefix}/scgi;
    keepalive_requests 1000000;
    default_type text/plain;
    server {{
        listen 127.0.0.1:{port} backlog=8192;
        location /ok {{ return 200 "ok"; }}
        location /flaky {{
            if (-f {prefix}/flaky.on) {{ return 500 "down"; }}
            return 200 "ok";
        }}
        location /busy {{
            if (-f {prefix}/busy.on) {{
                add_header Retry-After {retry_after} always;
                return 429 "busy";
            }}
            return 200 "ok";
        }}
        location /slow {{ limit_rate 1200; return 200 "{slow}"; }}
        location /trickle {{ limit_rate 100; return 200 "{trickle}"; }}
        location /stall {{
            proxy_pass http://127.0.0.1:{blackhole};
            proxy_connect_timeout 75s;
            proxy_read_timeout 600s;
        }}
    }}
}}
"""


@dataclass(frozen=True)
class Arrival:
    """One call as nginx saw it."""

    at: float  # when the request arrived, seconds since the epoch
    status: int
    completed: bool
    key: str
    attempt: int
    scheduled_at: str
    label: str

    @property
    def delivered(self) -> bool:
        """A 2xx answer that went out whole."""
        return 200 <= self.status < 300 and self.completed


def parse_line(line: str) -> Arrival | None:
    parts = line.split(" ")
    if len(parts) != 8 or parts[4] == "-":
        return None
    done, took, status, completion, key, attempt, scheduled, label = parts
    at = float(done) - float(took)
    return Arrival(at, int(status), completion == "OK", key, int(attempt), scheduled, label)


class TenantEndpoint:
    def __init__(self, prefix: Path) -> None:
        prefix.mkdir(parents=True, exist_ok=True)
        self.prefix, self.port = prefix, free_port()
        # A listener that never accepts: nginx's proxied call to it waits past any timeout.
        self._blackhole = socket.create_server(("127.0.0.1", 0), backlog=16384)
        conf = CONFIG.format(
            prefix=prefix,
            port=self.port,
            blackhole=self._blackhole.getsockname()[1],
            retry_after=RETRY_AFTER_SECONDS,
            slow=SLOW_BODY,
            trickle=TRICKLE_BODY,
        )
        (prefix / "nginx.conf").write_text(conf)
        self.log_path = prefix / "arrivals.log"
        self.popen = subprocess.Popen(
            [
                "nginx",
                "-p",
                str(prefix),
                "-e",
                str(prefix / "error.log"),
                "-c",
                str(prefix / "nginx.conf"),
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.STDOUT,
        )
        wait_until(self._answers, timeout=10, message=f"nginx endpoint: {prefix / 'error.log'}")

    def url(self, location: str, label: str) -> str:
        return f"http://127.0.0.1:{self.port}/{location}?t={label}"

    def switch(self, behaviour: str, on: bool) -> None:
        """Turn `flaky` (500) or `busy` (429) on or off."""
        flag = self.prefix / f"{behaviour}.on"
        if on:
            flag.touch()
        else:
            flag.unlink(missing_ok=True)

    def stop(self) -> None:
        if self.popen.poll() is None:
            self.popen.terminate()
            self.popen.wait(timeout=20)
        self._blackhole.close()

    def _answers(self) -> bool:
        with socket.socket() as probe:
            return probe.connect_ex(("127.0.0.1", self.port)) == 0
