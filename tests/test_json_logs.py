"""LOG_FORMAT=json: a real executor process writes one JSON object per line, with the job's
fields on the line about its attempt; without it, plain lines."""

import json
import re

import pytest
import requests

from jobs.models import Job
from tests.executor.conftest import wait_for_status
from tests.processes import ApiServer, ManagedProcess

pytestmark = pytest.mark.django_db(transaction=True)  # the process reads what the test wrote

REFUSED_URL = "http://127.0.0.1:9/hook"  # a loopback address: refused at connect time
ISO_UTC_MS = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z")


def executor_output(tmp_path, make_job, env: dict) -> tuple[list[str], Job]:
    """Run an executor until one refused job is dead; return its output lines and the job."""
    job = make_job(REFUSED_URL, max_attempts=1)
    process = ManagedProcess(
        ["run_executor", "--worker-id", "logs", "--poll-interval", "0.2"],
        tmp_path / "executor.log",
        env=env,
    )
    try:
        wait_for_status([job], {"dead"})
    finally:
        process.stop()
    return process.log().splitlines(), job


def test_every_line_is_a_json_object_with_time_level_process_logger_and_event(tmp_path, make_job):
    lines, _ = executor_output(tmp_path, make_job, {"LOG_FORMAT": "json"})
    assert lines
    for line in lines:
        record = json.loads(line)
        assert ISO_UTC_MS.fullmatch(record["time"]), record
        assert record["level"] in {"DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"}
        assert record["process"] == "run_executor" and isinstance(record["pid"], int)
        assert record["logger"] and record["event"]


def test_the_line_about_a_failed_attempt_names_tenant_task_job_attempt_and_duration(
    tmp_path, make_job, tenant
):
    lines, job = executor_output(tmp_path, make_job, {"LOG_FORMAT": "json"})
    about_job = [r for r in map(json.loads, lines) if r.get("job") == str(job.id)]
    assert len(about_job) == 1, lines
    record = about_job[0]
    assert record["tenant"] == str(tenant.id) and record["task"] == str(job.task_id)
    assert record["attempt"] == 1 and isinstance(record["duration_ms"], int)
    assert "destination not allowed" in record["event"]


def test_without_log_format_the_lines_are_plain_text(tmp_path, make_job):
    lines, job = executor_output(tmp_path, make_job, {"LOG_FORMAT": "plain"})
    about_job = [line for line in lines if str(job.id) in line]
    assert about_job and about_job[0].startswith(tuple("0123456789"))
    assert not about_job[0].startswith("{")


def test_the_api_under_gunicorn_writes_only_json_lines(tmp_path):
    server = ApiServer(tmp_path / "api.log", workers=1, env={"LOG_FORMAT": "json"})
    try:
        requests.get(server.url("/v1/tasks"), timeout=10)  # a 401: Django logs a warning
    finally:
        server.stop()
    records = [json.loads(line) for line in server.log().splitlines()]
    assert {record["logger"] for record in records} >= {"gunicorn.access", "gunicorn.error"}
    assert all(record["process"] == "gunicorn" for record in records)
