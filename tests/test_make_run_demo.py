"""The walk the README shows on `make run`: the demo endpoint verifies each call's signature,
its /fail path fails every attempt, the job ends in the DLQ, and a manual retry calls again."""

from __future__ import annotations

import re
from datetime import UTC, datetime

import requests

from tests.processes import wait_until
from tests.test_make_run_ctrl_c import MakeRun


def api(run: MakeRun) -> requests.Session:
    session = requests.Session()
    (token,) = re.findall(r"export TOKEN=(\S+)", run.output())
    session.headers["Authorization"] = f"Bearer {token}"
    return session


def port_of(run: MakeRun, name: str) -> str:
    return re.findall(rf"{name} on http://127.0.0.1:(\d+)", run.output())[0]


def test_a_failing_call_ends_in_the_dlq_and_is_retried_by_hand(tmp_path):
    run = MakeRun(tmp_path)
    try:
        wait_until(lambda: "Press Ctrl-C" in run.output(), timeout=120, message=run.output())
        base = f"http://127.0.0.1:{port_of(run, 'API')}"
        (hook,) = set(re.findall(r"(http://127.0.0.1:\d+)/fail", run.output()))
        session = api(run)
        now = datetime.now(UTC).isoformat()
        task = {"run_at": now, "max_attempts": 2, "backoff_base_seconds": 1}
        for name, path in (("hello", "/hello"), ("doomed", "/fail")):
            created = session.post(f"{base}/v1/tasks", json=dict(task, name=name, url=hook + path))
            assert created.status_code == 201, created.text

        def dead() -> list:
            return session.get(f"{base}/v1/dlq").json()["results"]

        wait_until(lambda: dead(), timeout=90, interval=0.5, message=run.output())
        (job,) = dead()
        assert re.search(r"POST /hello .* signature=verified -> 200", run.output())
        assert len(re.findall(r"POST /fail .* signature=verified -> 500", run.output())) == 2

        assert session.post(f"{base}/v1/jobs/{job['id']}/retry").status_code == 202
        wait_until(
            lambda: len(re.findall(r"POST /fail .* -> 500", run.output())) == 4 and dead(),
            timeout=90,
            interval=0.5,
            message=run.output(),
        )
        forged = {"webhook-id": "x", "webhook-timestamp": "1", "webhook-signature": "v1,AAAA"}
        assert requests.post(f"{hook}/hello", data=b"{}", headers=forged).status_code == 401
        assert "POST /hello Idempotency-Key=None" in run.output()
    finally:
        assert run.ctrl_c() == 0
