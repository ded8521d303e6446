"""Backfilled runs go out at once through the real executor, each with its own instant."""

from datetime import UTC, datetime, timedelta

import pytest

from jobs.models import Job
from tests.executor.conftest import wait_for_status

pytestmark = pytest.mark.django_db(transaction=True)


def test_backfilled_runs_are_called_now_with_their_own_instants(
    api, add_task, endpoint, run_executor
):
    end = datetime.now(UTC).replace(second=0, microsecond=0) - timedelta(minutes=2)
    start = end - timedelta(minutes=3)
    task = add_task(url=endpoint.url("/ok"), next_run_at=end + timedelta(days=1))
    response = api.post(
        f"/v1/tasks/{task.id}/backfill",
        {"start": start.isoformat(), "end": end.isoformat()},
        format="json",
    )
    assert response.json()["made"] == 3
    run_executor()
    wait_for_status(list(Job.objects.filter(task=task)), {"succeeded"})
    sent = sorted(call.headers["X-Scheduled-At"] for call in endpoint.requests_for("/ok"))
    assert sent == [
        (start + timedelta(minutes=k)).strftime("%Y-%m-%dT%H:%M:%S.000Z") for k in range(3)
    ]


def test_backfilled_runs_of_a_paused_task_are_called(api, add_task, endpoint, run_executor):
    end = datetime.now(UTC).replace(second=0, microsecond=0) - timedelta(minutes=2)
    task = add_task(url=endpoint.url("/ok"), status="paused")
    api.post(
        f"/v1/tasks/{task.id}/backfill",
        {"start": (end - timedelta(minutes=2)).isoformat(), "end": end.isoformat()},
        format="json",
    )
    run_executor()
    wait_for_status(list(Job.objects.filter(task=task)), {"succeeded"})
    assert len(endpoint.requests_for("/ok")) == 2
