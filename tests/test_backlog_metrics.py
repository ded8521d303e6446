"""What says a part of the pipeline is behind, from serve_metrics' reading: the oldest due
job per priority, the dead jobs waiting, the archiver's backlog and lag."""

from datetime import UTC, datetime, timedelta

import pytest

from jobs.models import CALLBACK_PRIORITY, Job
from tests.processes import ManagedProcess, free_port, wait_until
from tests.test_metrics import scrape

pytestmark = pytest.mark.django_db(transaction=True)
NOWHERE = "https://93.184.216.34/"


def serve_metrics(tmp_path, **env) -> tuple[ManagedProcess, int]:
    port = free_port()
    args = ["serve_metrics", "--metrics-port", str(port), "--interval", "1"]
    return ManagedProcess(args, tmp_path / "metrics.log", env=env), port


def reading(port: int) -> dict[str, float]:
    wait_until(lambda: "scheduler_archive_lag" in scrape(port), timeout=30, message="no reading")
    lines = (line.rsplit(" ", 1) for line in scrape(port).splitlines() if line[:1] != "#")
    return {name: float(value) for name, value in lines}


def finished(make_job, status: str, ago: timedelta, **fields) -> Job:
    job = make_job(NOWHERE, **fields)
    job.status, job.finished_at = status, datetime.now(UTC) - ago
    job.save(update_fields=["status", "finished_at"])
    return job


def test_the_oldest_due_jobs_age_is_gauged_per_priority(make_job, tmp_path):
    make_job(NOWHERE, priority=3, due=datetime.now(UTC) - timedelta(minutes=2))
    make_job(NOWHERE, priority=3, due=datetime.now(UTC) - timedelta(seconds=5))
    make_job(NOWHERE, priority=7, due=datetime.now(UTC) + timedelta(hours=1))  # not due
    process, port = serve_metrics(tmp_path)
    try:
        gauges = reading(port)
        assert 120 <= gauges['scheduler_oldest_due_job_age_seconds{priority="3"}'] < 180
        assert gauges['scheduler_oldest_due_job_age_seconds{priority="7"}'] == 0
        assert (
            gauges[f'scheduler_oldest_due_job_age_seconds{{priority="{CALLBACK_PRIORITY}"}}'] == 0
        )
    finally:
        assert process.stop() == 0, process.log()


def test_dead_jobs_waiting_are_one_series_without_the_tenant_label(make_job, tmp_path):
    finished(make_job, "dead", timedelta(minutes=1))
    finished(make_job, "dead", timedelta(minutes=1), priority=2)
    finished(make_job, "dead", timedelta(minutes=1), priority=CALLBACK_PRIORITY)  # no DLQ's
    process, port = serve_metrics(tmp_path)
    try:
        assert reading(port)["scheduler_dead_jobs"] == 2
    finally:
        assert process.stop() == 0, process.log()


def test_dead_jobs_waiting_are_gauged_by_tenant_with_the_label(
    make_job, tenant, other_tenant, tmp_path
):
    finished(make_job, "dead", timedelta(minutes=1))
    finished(make_job, "dead", timedelta(minutes=1))
    finished(make_job, "dead", timedelta(minutes=1), task_tenant=other_tenant)
    process, port = serve_metrics(tmp_path, METRICS_TENANT_LABEL="true")
    try:
        gauges = reading(port)
        assert gauges[f'scheduler_dead_jobs{{tenant="{tenant.id}"}}'] == 2
        assert gauges[f'scheduler_dead_jobs{{tenant="{other_tenant.id}"}}'] == 1
        assert "scheduler_dead_jobs" not in gauges
    finally:
        assert process.stop() == 0, process.log()


def test_a_tenants_dead_callbacks_are_not_in_its_dlq_gauge(make_job, tenant, tmp_path):
    finished(make_job, "dead", timedelta(minutes=1))
    finished(make_job, "dead", timedelta(minutes=1), priority=CALLBACK_PRIORITY)
    process, port = serve_metrics(tmp_path, METRICS_TENANT_LABEL="true")
    try:
        assert reading(port)[f'scheduler_dead_jobs{{tenant="{tenant.id}"}}'] == 1
    finally:
        assert process.stop() == 0, process.log()


def test_the_archivers_backlog_and_lag_count_jobs_old_enough_only(make_job, tmp_path):
    finished(make_job, "succeeded", timedelta(hours=3))  # archivable for 2 hours
    finished(make_job, "succeeded", timedelta(hours=2))
    finished(make_job, "succeeded", timedelta(minutes=5))  # not old enough yet
    finished(make_job, "cancelled", timedelta(hours=1, minutes=30))
    process, port = serve_metrics(tmp_path)
    try:
        gauges = reading(port)
        assert gauges['scheduler_archive_backlog_jobs{status="succeeded"}'] == 2
        assert gauges['scheduler_archive_backlog_jobs{status="cancelled"}'] == 1
        assert gauges['scheduler_archive_backlog_jobs{status="dead"}'] == 0
        assert 7200 <= gauges["scheduler_archive_lag_seconds"] < 7260
    finally:
        assert process.stop() == 0, process.log()


def test_nothing_to_archive_is_a_lag_of_zero(make_job, tmp_path):
    finished(make_job, "succeeded", timedelta(minutes=5))
    process, port = serve_metrics(tmp_path)
    try:
        assert reading(port)["scheduler_archive_lag_seconds"] == 0
    finally:
        assert process.stop() == 0, process.log()
