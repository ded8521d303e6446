"""The peer a Python user would pick for "call this URL at T": Celery 5 on Redis. One task
that POSTs to the benchmark's endpoint with the same headers the executor sends, so the
endpoint's log measures both alike. Imports no Django: the workers stay plain Celery.
    celery -A bench.celery_peer worker -P prefork -c 4
"""

from __future__ import annotations

import os
from pathlib import Path

import requests
from celery import Celery
from celery.signals import worker_ready

app = Celery("peer", broker=os.environ.get("PEER_BROKER", "redis://127.0.0.1:6379/9"))
app.conf.update(
    task_ignore_result=True,
    # Redis has no native priorities: kombu emulates them with one list per step.
    broker_transport_options={
        "priority_steps": list(range(10)),
        "queue_order_strategy": "priority",
    },
)
_session: requests.Session | None = None


@worker_ready.connect
def _say_ready(**_) -> None:
    # The benchmark waits for this file: the worker logs only warnings, as a busy one would.
    if os.environ.get("PEER_READY"):
        Path(os.environ["PEER_READY"]).touch()


@app.task(name="peer.call")
def call(url: str, key: str, scheduled: str) -> None:
    global _session
    if _session is None:  # one keep-alive session per worker process
        _session = requests.Session()
    headers = {"Idempotency-Key": key, "X-Scheduled-At": scheduled, "X-Attempt": "1"}
    _session.post(url, data=b"{}", headers=headers, timeout=30).raise_for_status()
