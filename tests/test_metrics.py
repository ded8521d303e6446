"""Metrics: the queue as Prometheus sees it, and each process's own counters."""

from datetime import UTC, datetime, timedelta

import pytest
import requests
from rest_framework.test import APIClient

from jobs.models import Job
from scheduler_site.preconditions import ANY_VERSION
from tasks.services import task_resume
from tests.processes import ManagedProcess, free_port, wait_until


def scrape(port: int) -> str:
    try:
        return requests.get(f"http://127.0.0.1:{port}/metrics", timeout=2).text
    except requests.ConnectionError:
        return ""


def test_the_tenant_api_serves_no_metrics(db):
    assert APIClient().get("/metrics").status_code == 404


@pytest.mark.django_db(transaction=True)
def test_serve_metrics_reports_queue_depth_and_due_unclaimed_jobs(make_job, tmp_path):
    make_job("https://93.184.216.34/", priority=0)
    make_job("https://93.184.216.34/", due=datetime.now(UTC) + timedelta(hours=1))
    Job.objects.create(
        tenant=Job.objects.first().tenant,
        task=Job.objects.first().task,
        scheduled_at=datetime(2020, 1, 1, tzinfo=UTC),
        next_attempt_at=datetime(2020, 1, 1, tzinfo=UTC),
        status="dead",
    )
    port = free_port()
    process = ManagedProcess(
        ["serve_metrics", "--metrics-port", str(port), "--interval", "1"],
        tmp_path / "metrics.log",
    )
    try:
        wait_until(lambda: "scheduler_queue_depth" in scrape(port), timeout=20, message="none")
        body = scrape(port)
        assert 'scheduler_queue_depth{priority="0",status="pending"} 1.0' in body
        assert 'scheduler_queue_depth{priority="5",status="dead"} 1.0' in body
        assert "scheduler_due_unclaimed_jobs 1.0" in body
    finally:
        assert process.stop() == 0, process.log()


@pytest.mark.django_db(transaction=True)
def test_many_scrapes_share_one_reading_of_the_queue(make_job, tmp_path):
    make_job("https://93.184.216.34/")
    port = free_port()
    process = ManagedProcess(["serve_metrics", "--metrics-port", str(port)], tmp_path / "m.log")
    try:
        wait_until(lambda: "reading_timestamp" in scrape(port), timeout=20, message="none")
        stamps = {
            line
            for _ in range(50)
            for line in scrape(port).splitlines()
            if line.startswith("scheduler_queue_reading_timestamp_seconds ")
        }
        assert len(stamps) <= 2  # 50 scrapes in well under 5 s: one reading, or its refresh
    finally:
        assert process.stop() == 0, process.log()


def test_metrics_listen_on_this_machine_only_by_default(tmp_path):
    from execution.commands import ProcessCommand

    parser = ProcessCommand().create_parser("manage.py", "serve_metrics")
    assert parser.parse_args([]).metrics_address == "127.0.0.1"


@pytest.mark.django_db(transaction=True)
def test_a_process_serves_its_health_and_counters(endpoint, make_job, tmp_path):
    make_job(endpoint.url("/ok"))
    port = free_port()
    process = ManagedProcess(
        ["run_executor", "--poll-interval", "0.2", "--metrics-port", str(port)],
        tmp_path / "executor.log",
        env={"EGRESS_ALLOW": "127.0.0.0/8"},
    )
    try:
        # The attempt is counted by the calls' loop, the health after the round's turn.
        wait_until(
            lambda: all(name in scrape(port) for name in ("attempts_total{", 'process="executor"')),
            timeout=20,
            message="no attempt counted",
        )
        text = scrape(port)
        assert 'scheduler_process_last_success_timestamp_seconds{process="executor"}' in text
        assert "scheduler_start_delay_seconds_bucket" in text
        assert "scheduler_claim_duration_seconds_count" in text
    finally:
        assert process.stop() == 0


@pytest.mark.django_db(transaction=True)
def test_skipped_runs_are_counted_by_reason_whichever_process_recorded_them(add_task, tmp_path):
    now = datetime.now(UTC)
    an_hour_ago = now.replace(minute=now.minute // 10 * 10, second=0, microsecond=0) - timedelta(
        hours=1
    )  # on the */10 grid: it and the 6 runs after it, up to now, are dropped
    add_task(cron="*/10 * * * *", next_run_at=an_hour_ago, misfire_policy="skip")
    paused = add_task(cron="*/10 * * * *", next_run_at=an_hour_ago, status="paused")
    task_resume(
        actor="tests", tenant=paused.tenant, task_id=paused.id, expected_version=ANY_VERSION
    )
    port = free_port()
    scheduler = ManagedProcess(["run_scheduler", "--tick", "0.2"], tmp_path / "sched.log")
    metrics = ManagedProcess(
        ["serve_metrics", "--metrics-port", str(port), "--interval", "0.5"], tmp_path / "m.log"
    )
    try:
        wait_until(lambda: 'reason="misfire"' in scrape(port), timeout=20, message="none")
        lines = [line for line in scrape(port).splitlines() if "skipped_runs_total{" in line]
        assert lines == [
            'scheduler_skipped_runs_total{reason="misfire"} 7.0',
            'scheduler_skipped_runs_total{reason="paused"} 7.0',
        ]
    finally:
        assert scheduler.stop() == 0, scheduler.log()
        assert metrics.stop() == 0, metrics.log()
