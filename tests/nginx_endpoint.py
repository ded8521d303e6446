"""Debian's nginx as a tenant endpoint in tests: answers 200 at once, logs each arrival."""

from __future__ import annotations

import subprocess
from pathlib import Path

from tests.processes import free_port, wait_until

CONFIG = """
worker_processes 1;
daemon off;
pid {prefix}/nginx.pid;
error_log {prefix}/error.log warn;
events {{ worker_connections 8192; }}
http {{
    log_format arrivals '$msec $request_uri';
    access_log {prefix}/arrivals.log arrivals;
    client_body_temp_path {prefix}/body;
    proxy_temp_path {prefix}/proxy;
    fastcgi_temp_path {prefix}/fastcgi;
    uwsgi_temp_path {prefix}/uwsgi;
    scgi_temp_path {prefix}/scgi;
    server {{
        listen 127.0.0.1:{port} backlog=4096;
        location / {{ return 200 "ok"; }}
    }}
}}
"""


class NginxEndpoint:
    def __init__(self, prefix: Path) -> None:
        prefix.mkdir(parents=True, exist_ok=True)
        self.prefix, self.port = prefix, free_port()
        (prefix / "nginx.conf").write_text(CONFIG.format(prefix=prefix, port=self.port))
        self.popen = subprocess.Popen(
            ["nginx", "-p", str(prefix), "-c", str(prefix / "nginx.conf")],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.STDOUT,
        )
        wait_until(lambda: (prefix / "nginx.pid").exists(), timeout=10, message="no nginx")

    def url(self, path: str) -> str:
        return f"http://127.0.0.1:{self.port}{path}"

    def arrivals(self, path: str) -> list[float]:
        """When each call to `path` arrived (seconds since the epoch), in order."""
        log = self.prefix / "arrivals.log"
        if not log.exists():
            return []
        lines = (line.split(" ", 1) for line in log.read_text().splitlines())
        return [float(at) for at, uri in lines if uri == path]

    def stop(self) -> None:
        self.popen.terminate()
        self.popen.wait(timeout=20)
