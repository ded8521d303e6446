"""Processes and data of the executor benchmarks: endpoint (Debian's nginx), executors,
jobs due now."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from django.conf import settings

from jobs.models import Job
from scheduler_site.ids import new_id
from tasks.models import Task, Tenant
from tasks.services import bucket_for

ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def database_url() -> str:
    db = settings.DATABASES["default"]
    return f"mysql://{db['USER']}:{db['PASSWORD']}@{db['HOST']}:{db['PORT'] or 3306}/{db['NAME']}"


# Debian's nginx as the tenant endpoint: it answers far faster than the pipeline calls
# (about 7,400 calls/s on one core here), so the endpoint is never what is measured.
ENDPOINT_CONF = """
worker_processes 1;
daemon off;
pid {prefix}/nginx.pid;
events {{ worker_connections 16384; }}
http {{
    log_format calls '$msec,$http_idempotency_key,$http_x_scheduled_at,$http_x_attempt';
    access_log {access_log};
    client_body_temp_path {prefix}/body;
    proxy_temp_path {prefix}/proxy;
    fastcgi_temp_path {prefix}/fastcgi;
    uwsgi_temp_path {prefix}/uwsgi;
    scgi_temp_path {prefix}/scgi;
    keepalive_requests 100000;
    server {{
        listen 127.0.0.1:{port} backlog=8192;
        location / {{ return 200 "ok"; }}
        # Callbacks (bench/burst.py --callbacks) have their own log, so the runs' log holds
        # only the runs' calls.
        location /callback/ {{ access_log {callback_log}; return 200 "ok"; }}
    }}
}}
"""


def start_endpoint(port: int, record: Path | None = None) -> subprocess.Popen:
    """nginx answering 200 at once; with `record`, one CSV line per call: arrival time,
    Idempotency-Key, X-Scheduled-At, X-Attempt (read it after `stop`); the calls to
    /callback/ go to callback_record(record) instead."""
    prefix = Path(tempfile.mkdtemp(prefix="bench-endpoint-"))
    access_log = f"{record} calls" if record else "off"
    callback_log = f"{callback_record(record)} calls" if record else "off"
    conf = prefix / "nginx.conf"
    conf.write_text(
        ENDPOINT_CONF.format(
            prefix=prefix, port=port, access_log=access_log, callback_log=callback_log
        )
    )
    process = subprocess.Popen(
        ["nginx", "-p", str(prefix), "-e", str(prefix / "error.log"), "-c", str(conf)]
    )
    for _ in range(100):
        with socket.socket() as probe:
            if probe.connect_ex(("127.0.0.1", port)) == 0:
                return process
        time.sleep(0.05)
    raise SystemExit(f"nginx did not start on 127.0.0.1:{port}; see {prefix / 'error.log'}")


def callback_record(record: Path) -> Path:
    """Where the endpoint recording into `record` records the calls to /callback/."""
    return record.with_name(f"{record.stem}-callbacks{record.suffix}")


@dataclass(frozen=True)
class RecordedEndpoint:
    work: Path  # the benchmark's folder for logs, profiles and the record
    record: Path  # one CSV line per call (see start_endpoint)
    process: subprocess.Popen
    url: str


def recorded_endpoint(name: str) -> RecordedEndpoint:
    """A work folder for one benchmark and nginx on a free port recording every call in it."""
    work = Path(tempfile.mkdtemp(prefix=f"bench-{name}-"))
    record, port = work / "calls.csv", free_port()
    process = start_endpoint(port, record)
    return RecordedEndpoint(work, record, process, f"http://127.0.0.1:{port}/hook")


def start_manage(args: list[str], log: Path) -> subprocess.Popen:
    env = dict(
        os.environ, DATABASE_URL=database_url(), EGRESS_ALLOW="127.0.0.0/8", LOG_LEVEL="WARNING"
    )
    return subprocess.Popen(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=env,
        stdout=open(log, "ab"),
        stderr=subprocess.STDOUT,
    )


def stop(process: subprocess.Popen, timeout: float = 60) -> None:
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
        process.wait(timeout=timeout)


def tenant_with_room() -> Tenant:
    return Tenant.objects.create(name="bench", concurrency_limit=1_000_000)


def insert_due_jobs(
    tenant: Tenant, url: str, count: int, *, priority: int = 5, due: datetime | None = None
) -> None:
    due = due or datetime.now(UTC)
    task_id = new_id()
    task = Task.objects.create(
        id=task_id,
        tenant=tenant,
        url=url,
        run_at=due,
        status="completed",
        bucket=bucket_for(task_id),
    )
    jobs = []
    for n in range(count):
        moment = due.replace(microsecond=(due.microsecond + n) % 1_000_000)
        jobs.append(
            Job(
                tenant=tenant,
                task=task,
                scheduled_at=moment,
                next_attempt_at=due,
                priority=priority,
                max_attempts=3,
            )
        )
    Job.objects.bulk_create(jobs, batch_size=2000)


def wait_for_succeeded(count: int, timeout: float) -> float:
    """Seconds until `count` jobs succeeded. Polls the small side (jobs not yet done), and
    not too often, so the measurement does not load the database it measures."""
    started = time.monotonic()
    while time.monotonic() - started < timeout:
        if not Job.objects.filter(status__in=["pending", "running"]).exists():
            return time.monotonic() - started
        time.sleep(0.1)
    raise TimeoutError(f"only {Job.objects.filter(status='succeeded').count()} of {count} done")
