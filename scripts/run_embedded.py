"""`make run`: migrate the embedded database, start the whole system, print how to call it.

Starts the API (gunicorn), the scheduler, executor, reconciler and archiver (`run_all`, its
metrics on METRICS_PORT, PORT + 20 by default; the API's on API_METRICS_PORT, the next), and
a demo endpoint on 127.0.0.1 that prints every call it receives and checks its signature
(EGRESS_ALLOW lets this install call it). A child that exits stops the launcher, naming it,
its address and its log (a taken port, most often). Everything runs on the embedded
default (SQLite in the project folder) unless DATABASE_URL says otherwise (RUN_DIR names
another folder for the logs and keys).
Ctrl-C stops every process cleanly, at any moment.
"""

import os
import shutil
import signal
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path

# A Ctrl-C before main() takes over leaves quietly: nothing has been started yet.
signal.signal(signal.SIGINT, lambda signum, frame: sys.exit(130))

import requests  # noqa: E402 - after the handler above (it takes a moment to import)

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from execution.signal_relay import relay_signals  # noqa: E402 - needs the project on the path
from scripts.local_keys import local_keys  # noqa: E402 - needs the project on the path

RUN_DIR = Path(os.environ.get("RUN_DIR") or ROOT / "run")  # logs, keys, the demo tenant
PYTHON = sys.executable
PORT = int(os.environ.get("PORT", "8000"))
DEMO_PORT = int(os.environ.get("DEMO_PORT", "8001"))
# Prometheus: the pipeline's metrics (run_all, with the queue gauges) and the API's.
METRICS_PORT = int(os.environ.get("METRICS_PORT") or PORT + 20)
API_METRICS_PORT = int(os.environ.get("API_METRICS_PORT") or METRICS_PORT + 1)
NGINX = shutil.which("nginx")
# The demo endpoint is local: only this install is allowed to call it.
ENV = dict(os.environ, EGRESS_ALLOW=os.environ.get("EGRESS_ALLOW") or "127.0.0.1/32")
ENV["API_METRICS_PORT"] = str(API_METRICS_PORT)  # read by scheduler_site/gunicorn.conf.py


STOP = threading.Event()


def request_stop(signum: int) -> None:
    STOP.set()


def manage(*args: str) -> str:
    result = subprocess.run(
        [PYTHON, "manage.py", *args],
        cwd=ROOT,
        env=ENV,
        check=True,
        capture_output=True,
        text=True,
        process_group=0,
    )
    return result.stdout.strip()


def demo_tenant_id() -> str:
    marker = RUN_DIR / "demo_tenant"
    if marker.exists():
        tenant_id = marker.read_text().strip()
        check = subprocess.run(
            [PYTHON, "manage.py", "issue_token", tenant_id],
            cwd=ROOT,
            env=ENV,
            capture_output=True,
            process_group=0,
        )
        if check.returncode == 0:
            return tenant_id
    tenant_id = manage("create_tenant", "demo")
    marker.write_text(tenant_id)
    return tenant_id


@dataclass
class Child:
    name: str
    popen: subprocess.Popen
    log: Path | None  # None: its output goes to the terminal
    address: str = ""  # where it listens
    variable: str = ""  # what sets that port

    def tail(self, lines: int = 8) -> str:
        assert self.log is not None
        return "\n".join(self.log.read_text(errors="replace").splitlines()[-lines:])


def start(name: str, args: list[str], *, show_output: bool = False, **listens: str) -> Child:
    """A child in a process group of its own: the terminal's Ctrl-C reaches this launcher
    only, which stops every child with SIGTERM (a child interrupted halfway through its
    start would print a traceback)."""
    output, path = {}, None
    if not show_output:
        path = RUN_DIR / f"{name}.log"
        log = open(path, "ab")  # noqa: SIM115 - lives as long as the child
        output = {"stdout": log, "stderr": subprocess.STDOUT}
    popen = subprocess.Popen(args, cwd=ROOT, env=ENV, process_group=0, **output)
    return Child(name, popen, path, **listens)


def wait_for_api(base: str, processes: list[Child]) -> None:
    """Until /healthz answers 200 (nginx answers 502 while gunicorn is still starting); a
    child that exits meanwhile (a port taken, most often) stops the start, naming it."""
    deadline = time.monotonic() + 30
    while not STOP.is_set() and time.monotonic() < deadline:
        failed(processes)
        try:
            if requests.get(f"{base}/healthz", timeout=1).status_code == 200:
                return
        except requests.RequestException:
            pass
        STOP.wait(0.1)
    if not STOP.is_set():
        raise SystemExit(f"the API did not answer on {base} in 30 s; see {RUN_DIR / 'api.log'}")


def failed(processes: list[Child]) -> None:
    """Stop the launcher with the name, address and log of the first child that exited."""
    for child in processes:
        code = child.popen.poll()
        if code is None:
            continue
        where = f"; its log {child.log} ends:\n{child.tail()}" if child.log else " (output above)"
        listens = f" (to listen on {child.address}, {child.variable})" if child.address else ""
        hint = ""
        if child.address and (child.log is None or "in use" in child.tail()):
            variable = child.variable.split()[0]  # "PORT + 10" is set through PORT
            hint = f"\nIf that port is taken, choose another: {variable}=... make run"
        raise SystemExit(f"{child.name}{listens} exited with code {code}{where}{hint}")


def save_signing_secret(base: str, token: str) -> None:
    """The demo tenant's signing secret, for the demo endpoint to verify its calls."""
    answer = requests.get(
        f"{base}/v1/signing-secret", headers={"Authorization": f"Bearer {token}"}, timeout=10
    )
    answer.raise_for_status()
    path = RUN_DIR / "demo_signing_secret"
    path.touch(mode=0o600)
    path.write_text(answer.json()["signing_secret"] + "\n")


def usage(base: str, token: str) -> str:
    hook = f"http://127.0.0.1:{DEMO_PORT}"
    auth = '-H "Authorization: Bearer $TOKEN" -H "Content-Type: application/json"'
    return f"""
The scheduler is running: API on {base}, admin on {base}/admin/, logs in {RUN_DIR}/.
Metrics for Prometheus: http://127.0.0.1:{METRICS_PORT}/metrics (the pipeline and the queue)
and http://127.0.0.1:{API_METRICS_PORT}/metrics (the API's requests).
Calls to the demo endpoint ({hook}) are printed below as they arrive.

  export TOKEN={token}

1. A one-off call, ten seconds from now:

  curl -s -X POST {base}/v1/tasks {auth} \\
    -d '{{"name": "hello", "run_at": "'$(date -u -d '+10 seconds' +%Y-%m-%dT%H:%M:%SZ)'",
         "url": "{hook}/hello", "body": "{{\\"hello\\": \\"world\\"}}"}}'

2. A cron task, every minute, in Madrid time:

  TASK=$(curl -s -X POST {base}/v1/tasks {auth} \\
    -d '{{"name": "every-minute", "cron": "* * * * *", "timezone": "Europe/Madrid",
         "url": "{hook}/tick"}}' | python3 -c 'import json,sys; print(json.load(sys.stdin)["id"])')

3. Its runs (newest first), and your tasks:

  curl -s {base}/v1/tasks/$TASK/jobs -H "Authorization: Bearer $TOKEN"
  curl -s {base}/v1/tasks -H "Authorization: Bearer $TOKEN"

4. A call that always fails ({hook}/fail answers 500): three attempts a few seconds apart,
   then the job is dead; list the dead letter queue and retry it by its id:

  curl -s -X POST {base}/v1/tasks {auth} \\
    -d '{{"name": "doomed", "run_at": "'$(date -u +%Y-%m-%dT%H:%M:%SZ)'", "url": "{hook}/fail",
         "max_attempts": 3, "backoff_base_seconds": 2}}'
  curl -s {base}/v1/dlq -H "Authorization: Bearer $TOKEN"
  curl -s -X POST {base}/v1/jobs/JOB_ID/retry -H "Authorization: Bearer $TOKEN"

The demo endpoint checks every call's signature (401 when it does not verify); {hook}/flaky/2
fails the first two calls of each job, then answers 200.

Press Ctrl-C to stop.
"""


def main() -> None:
    # Set up first: a Ctrl-C at any moment, even during the migration, is a clean stop.
    # Relayed to a thread: STOP.set() inside a handler can hang on STOP.wait()'s own lock.
    relay_signals(request_stop, (signal.SIGINT, signal.SIGTERM, signal.SIGHUP))
    RUN_DIR.mkdir(exist_ok=True)
    ENV.update(local_keys(RUN_DIR))
    manage("migrate", "--noinput")
    tenant_id = demo_tenant_id()
    token = manage("issue_token", tenant_id, "--ttl", str(86400))
    base = f"http://127.0.0.1:{PORT}"
    processes: list[Child] = []
    try:
        if not STOP.is_set():
            processes = start_all()
            wait_for_api(base, processes)
        if not STOP.is_set():
            save_signing_secret(base, token)
            print(usage(base, token), flush=True)
        while not STOP.is_set():
            failed(processes)
            STOP.wait(0.5)
    finally:
        for child in processes:
            if child.popen.poll() is None:
                child.popen.send_signal(signal.SIGTERM)
        for child in processes:
            child.popen.wait(timeout=60)
        print("stopped")


def start_all() -> list[Child]:
    # With nginx on the machine it faces the clients, as in production, and gunicorn sits
    # behind it on another port; without it gunicorn answers directly.
    api_port = PORT + 10 if NGINX else PORT
    if NGINX:  # the one proxy in front: the login throttle counts the address it appends
        ENV.setdefault("PROXY_HOPS", "1")
    gunicorn = [PYTHON, "-m", "gunicorn", "scheduler_site.wsgi", "-c"]
    gunicorn += ["scheduler_site/gunicorn.conf.py", "--bind", f"127.0.0.1:{api_port}"]
    metrics = ["--metrics-port", str(METRICS_PORT)]
    api_variable = "PORT + 10" if NGINX else "PORT"
    processes = [
        start("api", gunicorn, address=f"127.0.0.1:{api_port}", variable=api_variable),
        start("pipeline", [PYTHON, "manage.py", "run_all", "--concurrency", "50", *metrics]),
        start(
            "demo-endpoint",
            [
                PYTHON,
                "scripts/demo_endpoint.py",
                str(DEMO_PORT),
                str(RUN_DIR / "demo_signing_secret"),
            ],
            show_output=True,
            address=f"127.0.0.1:{DEMO_PORT}",
            variable="DEMO_PORT",
        ),
    ]
    if NGINX:
        listen, upstream = f"127.0.0.1:{PORT}", f"127.0.0.1:{api_port}"
        nginx = ["scripts/run_nginx.sh", listen, upstream, str(RUN_DIR / "nginx")]
        processes.append(start("nginx", nginx, address=listen, variable="PORT"))
    return processes


if __name__ == "__main__":
    main()
