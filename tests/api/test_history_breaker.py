"""History reads under real gunicorn with the history on the real Cassandra node, through a
proxy that hangs it: one read waits out the read timeout, the next ones are refused at once
(503 with Retry-After) until the breaker's time is up, then one is tried again."""

import time

import pytest
import requests

from scheduler_site.ids import new_id
from tasks.auth import issue_token
from tests.processes import ApiServer, wait_until

pytestmark = pytest.mark.django_db(transaction=True)


def read_archived_job(server: ApiServer, tenant) -> tuple[requests.Response, float]:
    """A job in neither the queue nor the history: only the history store can say so."""
    headers = {"Authorization": f"Bearer {issue_token(tenant)}"}
    started = time.monotonic()
    response = requests.get(server.url(f"/v1/jobs/{new_id()}"), headers=headers, timeout=30)
    return response, time.monotonic() - started


def test_a_history_read_after_one_timeout_answers_503_at_once(cassandra_api, tenant):
    server, proxy = cassandra_api(HISTORY_READ_TIMEOUT_SECONDS="3", HISTORY_BREAKER_SECONDS="60")
    assert read_archived_job(server, tenant)[0].status_code == 404
    proxy.hang()
    timed_out, waited = read_archived_job(server, tenant)
    assert timed_out.status_code == 503
    assert waited >= 3  # the read timeout
    for _ in range(5):
        refused, took = read_archived_job(server, tenant)
        assert refused.status_code == 503
        assert refused.json()["error"]["code"] == "unavailable"
        assert 1 <= int(refused.headers["Retry-After"]) <= 60
        assert took < 1.5  # well under the read timeout: the store is not asked


def test_after_the_breaker_time_a_read_is_tried_again_and_succeeds(cassandra_api, tenant):
    server, proxy = cassandra_api(HISTORY_READ_TIMEOUT_SECONDS="1", HISTORY_BREAKER_SECONDS="3")
    assert read_archived_job(server, tenant)[0].status_code == 404
    proxy.hang()
    assert read_archived_job(server, tenant)[0].status_code == 503
    proxy.restore()
    assert read_archived_job(server, tenant)[0].status_code == 503  # not asked yet
    wait_until(
        lambda: read_archived_job(server, tenant)[0].status_code == 404,
        timeout=30,
        interval=0.5,
        message="history reads did not resume once the store was back",
    )
