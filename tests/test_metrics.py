"""Metrics: the queue as Prometheus sees it, and each process's own counters."""

from datetime import UTC, datetime, timedelta

import pytest
import requests
from rest_framework.test import APIClient

from jobs.models import Job
from tests.processes import ManagedProcess, free_port, wait_until


def test_metrics_report_queue_depth_and_due_unclaimed_jobs(make_job):
    make_job("https://93.184.216.34/", priority=0)
    make_job("https://93.184.216.34/", due=datetime.now(UTC) + timedelta(hours=1))
    Job.objects.create(
        tenant=Job.objects.first().tenant,
        task=Job.objects.first().task,
        scheduled_at=datetime(2020, 1, 1, tzinfo=UTC),
        next_attempt_at=datetime(2020, 1, 1, tzinfo=UTC),
        status="dead",
    )
    body = APIClient().get("/metrics").content.decode()
    assert 'scheduler_queue_depth{priority="0",status="pending"} 1.0' in body
    assert 'scheduler_queue_depth{priority="5",status="dead"} 1.0' in body
    assert "scheduler_due_unclaimed_jobs 1.0" in body


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

        def scraped() -> str:
            try:
                return requests.get(f"http://127.0.0.1:{port}/metrics", timeout=2).text
            except requests.ConnectionError:
                return ""

        wait_until(
            lambda: 'outcome="succeeded"' in scraped(), timeout=20, message="no outcome counted"
        )
        text = scraped()
        assert 'scheduler_process_last_success_timestamp_seconds{process="executor"}' in text
        assert "scheduler_start_delay_seconds_bucket" in text
        assert "scheduler_claim_duration_seconds_count" in text
    finally:
        assert process.stop() == 0
