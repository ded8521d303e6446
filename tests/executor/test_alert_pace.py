"""The tenant-wide alert's pace: one alert per task per window, later deaths counted."""

from datetime import UTC, datetime, timedelta

import pytest
from django.db import transaction

from jobs.callbacks.produce import make_callbacks
from jobs.models import Callback, FailureAlert, Job
from jobs.queue import claim_jobs, reconcile_expired_leases
from tests.executor.alert_helpers import ALERT_URL, alerting_task, alerts_of, dead_jobs

pytestmark = pytest.mark.django_db(transaction=True)


def die(jobs) -> int:
    with transaction.atomic():
        return make_callbacks(str(job.id) for job in jobs)


@pytest.fixture(autouse=True)
def window(settings):
    settings.ALERT_WINDOW_SECONDS = 60
    return timedelta(seconds=60)


def test_a_first_death_alerts_at_once_at_the_tenants_url(tenant):
    task = alerting_task(tenant)
    job = dead_jobs(task, 1)[0]
    die([job])
    [(alert, body)] = alerts_of(task)
    assert alert.status == "pending"
    assert alert.scheduled_at <= job.finished_at + timedelta(seconds=5)
    assert body["event"] == "alert" and body["deaths"] == 1 and body["job_id"] == str(job.id)
    assert FailureAlert.objects.get(task_id=task.id).next_job_id == alert.id
    assert Callback.objects.get(job_id=alert.id).url == ALERT_URL


def test_deaths_while_the_alert_waits_unclaimed_are_counted_into_it(tenant):
    task = alerting_task(tenant)
    first, *rest = dead_jobs(task, 5)
    die([first])
    die(rest[:2])
    die(rest[2:])
    [(_, body)] = alerts_of(task)
    assert body["deaths"] == 5
    assert body["job_id"] == str(rest[-1].id)  # the latest death's fields


def test_a_death_after_the_alert_was_claimed_makes_the_next_one_at_the_windows_end(tenant, window):
    task = alerting_task(tenant)
    first, second, third = dead_jobs(task, 3)
    die([first])
    [(sent, _)] = alerts_of(task)
    Job.objects.filter(id=sent.id).update(status="running", attempt=1)  # claimed early
    die([second])
    die([third])
    (claimed, claimed_body), (following, body) = alerts_of(task)
    assert claimed.id == sent.id and claimed_body["deaths"] == 1  # never rewritten
    assert following.scheduled_at == sent.scheduled_at + window
    assert following.status == "pending" and body["deaths"] == 2


def test_an_alert_tried_once_is_not_rewritten(tenant):
    task = alerting_task(tenant)
    first, second = dead_jobs(task, 2)
    die([first])
    [(sent, _)] = alerts_of(task)
    Job.objects.filter(id=sent.id).update(attempt=1)  # failed once, pending its retry
    die([second])
    assert [body["deaths"] for _, body in alerts_of(task)] == [1, 1]


def test_a_death_after_the_window_alerts_at_once(tenant, window):
    task = alerting_task(tenant)
    first, second = dead_jobs(task, 2)
    die([first])
    Job.objects.filter(id=alerts_of(task)[0][0].id).update(status="succeeded", attempt=1)
    FailureAlert.objects.filter(task_id=task.id).update(
        quiet_until=first.finished_at - timedelta(seconds=1)
    )
    die([second])
    later = alerts_of(task)[1][0]
    assert later.scheduled_at >= second.finished_at
    assert later.scheduled_at < second.finished_at + timedelta(seconds=30)


def test_two_tasks_dying_in_one_batch_alert_separately(tenant):
    one, two = alerting_task(tenant), alerting_task(tenant)
    die(dead_jobs(one, 2) + dead_jobs(two, 1))
    assert [body["deaths"] for _, body in alerts_of(one)] == [2]
    assert [body["deaths"] for _, body in alerts_of(two)] == [1]


def test_a_job_whose_last_lease_expired_alerts_through_the_reconciler(tenant):
    task = alerting_task(tenant)
    job = Job.objects.create(
        tenant=tenant, task=task, scheduled_at=task.run_at, next_attempt_at=task.run_at,
        max_attempts=1,
    )  # fmt: skip
    claim_jobs(worker_id="a", critical_limit=10, normal_limit=10, lookahead_seconds=0)
    Job.objects.filter(id=job.id).update(lease_expires_at=datetime.now(UTC) - timedelta(seconds=1))
    assert reconcile_expired_leases() == 1
    [(_, body)] = alerts_of(task)
    assert body["job_id"] == str(job.id) and body["error"] == "lease expired"
    assert body["deaths"] == 1
