"""The ledger read under real gunicorn with the history on the real Cassandra node: archived
entries come from there, and a store that stops answering is a 503, not a partial page."""

from datetime import UTC, datetime, timedelta

import pytest
import requests

from history.records import SkipRecord
from scheduler_site.ids import new_id
from tasks.auth import issue_token
from tasks.models import SkippedRun

pytestmark = pytest.mark.django_db(transaction=True)
LAST = datetime(2027, 3, 1, 9, 0, tzinfo=UTC)


def read_skipped(server, task) -> requests.Response:
    headers = {"Authorization": f"Bearer {issue_token(task.tenant)}"}
    return requests.get(server.url(f"/v1/tasks/{task.id}/skipped"), headers=headers, timeout=30)


def test_archived_entries_are_read_from_cassandra_and_a_hung_store_is_a_503(
    cassandra_api, cassandra_store, add_task
):
    task = add_task()
    live = SkippedRun.objects.create(
        tenant_id=task.tenant_id, task_id=task.id, reason="paused", first_scheduled_at=LAST,
        last_scheduled_at=LAST, count=1, recorded_at=LAST,
    )  # fmt: skip
    day_before = LAST - timedelta(days=1)
    first = day_before - timedelta(minutes=8)
    moved = SkipRecord(new_id(), task.tenant_id, task.id, "misfire", first, day_before, 9, LAST)
    cassandra_store.write_skips([moved])
    server, proxy = cassandra_api(HISTORY_READ_TIMEOUT_SECONDS="2", HISTORY_BREAKER_SECONDS="60")
    body = read_skipped(server, task).json()
    assert [(e["id"], e["count"]) for e in body["results"]] == [
        (str(live.id), 1),
        (str(moved.id), 9),
    ]
    proxy.hang()
    refused = read_skipped(server, task)
    assert refused.status_code == 503
    assert refused.json()["error"]["code"] == "unavailable"
