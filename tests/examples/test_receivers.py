"""examples/receiver.py and examples/receiver.ts against real calls of a real executor: each
accepts the signed call whatever its body (empty, text, JSON, binary) and refuses, with a
401, a call signed with another secret and a signed call whose body was changed."""

from __future__ import annotations

import socket
from datetime import UTC, datetime

import pytest
import requests

from execution.signing import signature_headers
from jobs.models import Job
from tests.conftest import client_for
from tests.examples.receivers import python_receiver, typescript_receiver
from tests.processes import ManagedProcess, stop_all, wait_until

pytestmark = pytest.mark.django_db(transaction=True)
BODIES = {
    "empty": "",
    "text": "plain text, not JSON: caf\u00e9",
    "json": '{"event": "tick", "n": 1}',
    "binary": "\x01\x02\x7f\u00ff\u00fe\U0001f600\r\n\t\x1b",
}
ENV = {"EGRESS_ALLOW": "127.0.0.0/8"}


@pytest.fixture(params=["python", "typescript"])
def receiver(request, tenant, tmp_path):
    start = {"python": python_receiver, "typescript": typescript_receiver}[request.param]
    started = start(tenant.signing_secret, tmp_path)
    yield started
    started.stop()


def deliver(tmp_path, api, tasks: dict[str, str], url) -> dict[str, Job]:
    """One one-off task per body, run now by a real scheduler and executor (one attempt)."""
    ids = {}
    for kind, body in tasks.items():
        task = {"name": kind, "run_at": datetime.now(UTC).isoformat(), "url": url(f"/{kind}")}
        response = api.post("/v1/tasks", dict(task, body=body, max_attempts=1), format="json")
        assert response.status_code == 201, response.content
        ids[kind] = response.json()["id"]
    processes = [
        ManagedProcess(
            ["run_scheduler", "--tick", "0.5", "--lookahead", "0"],
            tmp_path / "scheduler.log",
            env=ENV,
        ),
        ManagedProcess(
            ["run_executor", "--poll-interval", "0.5"], tmp_path / "executor.log", env=ENV
        ),
    ]
    try:
        wait_until(
            lambda: Job.objects.filter(task_id__in=ids.values(), finished_at__isnull=False).count()
            == len(ids),
            timeout=60,
            interval=0.3,
            message="the receiver's calls did not finish",
        )
    finally:
        stop_all(processes)
    return {kind: Job.objects.get(task_id=task_id) for kind, task_id in ids.items()}


def test_the_receiver_accepts_every_signed_body(receiver, api, tmp_path, settings):
    settings.EGRESS_ALLOW = ENV["EGRESS_ALLOW"]
    jobs = deliver(tmp_path, api, BODIES, receiver.url)
    assert {kind: (job.status, job.http_status) for kind, job in jobs.items()} == {
        kind: ("succeeded", 204) for kind in BODIES
    }


def test_the_receiver_refuses_a_call_signed_with_another_secret(
    receiver, other_tenant, tmp_path, settings
):
    settings.EGRESS_ALLOW = ENV["EGRESS_ALLOW"]
    jobs = deliver(tmp_path, client_for(other_tenant), {"json": BODIES["json"]}, receiver.url)
    assert (jobs["json"].status, jobs["json"].http_status) == ("dead", 401)


@pytest.mark.parametrize("kind", BODIES)
def test_the_receiver_refuses_a_signed_call_whose_body_was_changed(receiver, tenant, kind):
    body = BODIES[kind]
    headers = signature_headers(
        secrets=[tenant.signing_secret], message_id="msg_1", sent_at=datetime.now(UTC), body=body
    )
    url = receiver.url(f"/{kind}")
    assert requests.post(url, data=body.encode(), headers=headers, timeout=5).status_code == 204
    tampered = body.encode() + b"!"
    assert requests.post(url, data=tampered, headers=headers, timeout=5).status_code == 401


def test_the_receiver_refuses_a_stale_timestamp(receiver, tenant):
    sent_at = datetime.fromtimestamp(datetime.now(UTC).timestamp() - 600, UTC)
    headers = signature_headers(
        secrets=[tenant.signing_secret], message_id="msg_1", sent_at=sent_at, body="{}"
    )
    assert (
        requests.post(receiver.url("/"), data=b"{}", headers=headers, timeout=5).status_code == 401
    )


@pytest.mark.parametrize("timestamp", ["\u00b2", "9" * 5000], ids=["superscript", "5000-digits"])
def test_the_receiver_answers_401_to_a_timestamp_that_is_no_number(receiver, tenant, timestamp):
    headers = signature_headers(
        secrets=[tenant.signing_secret], message_id="msg_1", sent_at=datetime.now(UTC), body="{}"
    )
    headers = dict(headers, **{"webhook-timestamp": timestamp})
    response = requests.post(receiver.url("/"), data=b"{}", headers=headers, timeout=5)
    assert response.status_code == 401


def test_the_receiver_accepts_a_call_signed_with_the_new_and_the_old_secret(
    receiver, tenant, other_tenant
):
    """The sender's rotation: two signatures, the receiver still holding the old secret."""
    headers = signature_headers(
        secrets=[other_tenant.signing_secret, tenant.signing_secret],
        message_id="msg_1",
        sent_at=datetime.now(UTC),
        body="{}",
    )
    response = requests.post(receiver.url("/"), data=b"{}", headers=headers, timeout=5)
    assert response.status_code == 204


@pytest.mark.parametrize("start", [python_receiver, typescript_receiver], ids=["python", "ts"])
def test_a_receiver_holding_two_secrets_accepts_either(start, tenant, other_tenant, tmp_path):
    """The receiver's rotation: WEBHOOK_SECRET lists the new and the old, comma separated."""
    both = f"{other_tenant.signing_secret},{tenant.signing_secret}"
    started = start(both, tmp_path)
    try:
        for secret in (tenant.signing_secret, other_tenant.signing_secret):
            headers = signature_headers(
                secrets=[secret], message_id="msg_1", sent_at=datetime.now(UTC), body=""
            )
            response = requests.post(started.url("/"), data=b"", headers=headers, timeout=5)
            assert response.status_code == 204
    finally:
        started.stop()


@pytest.mark.parametrize("length", ["-1", "ten"])
def test_the_python_receiver_answers_400_to_a_bad_content_length(tenant, tmp_path, length):
    """-1 would read until the client closes (a thread held), "ten" would raise (no answer)."""
    started = python_receiver(tenant.signing_secret, tmp_path)
    try:
        with socket.create_connection(("127.0.0.1", started.port), timeout=5) as conn:
            conn.sendall(f"POST / HTTP/1.1\r\nHost: x\r\nContent-Length: {length}\r\n\r\n".encode())
            assert conn.recv(64).startswith(b"HTTP/1.1 400")
    finally:
        started.stop()


def test_the_python_receiver_answers_413_to_a_body_no_call_is_that_large(tenant, tmp_path):
    """A terabyte's Content-Length is refused before anything is read into memory."""
    started = python_receiver(tenant.signing_secret, tmp_path)
    try:
        with socket.create_connection(("127.0.0.1", started.port), timeout=5) as conn:
            head = f"POST / HTTP/1.1\r\nHost: x\r\nContent-Length: {10**12}\r\n\r\n"
            conn.sendall(head.encode())
            assert conn.recv(64).startswith(b"HTTP/1.1 413")
    finally:
        started.stop()
