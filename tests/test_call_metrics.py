"""An executor's attempts and calls as Prometheus sees them: attempts by outcome, calls by
status class with their duration, and the tenant label only when METRICS_TENANT_LABEL is on."""

import pytest

from tests.processes import ManagedProcess, free_port, wait_until
from tests.test_metrics import scrape

pytestmark = pytest.mark.django_db(transaction=True)


def run_executor(tmp_path, **env) -> tuple[ManagedProcess, int]:
    port = free_port()
    process = ManagedProcess(
        ["run_executor", "--poll-interval", "0.2", "--metrics-port", str(port)],
        tmp_path / "executor.log",
        env={"EGRESS_ALLOW": "127.0.0.0/8", **env},
    )
    return process, port


def series(port: int, name: str) -> list[str]:
    return sorted(line for line in scrape(port).splitlines() if line.startswith(name + "{"))


def scraped_when(port: int, name: str, count: int) -> list[str]:
    wait_until(
        lambda: len(series(port, name)) >= count, timeout=30, message=f"{name}: {scrape(port)}"
    )
    return series(port, name)


def test_attempts_are_counted_by_outcome_without_a_tenant_label(endpoint, make_job, tmp_path):
    make_job(endpoint.url("/ok"))
    make_job(endpoint.url("/status/500"), max_attempts=1)
    make_job(endpoint.url("/status/500"), max_attempts=3)
    process, port = run_executor(tmp_path)
    try:
        assert scraped_when(port, "scheduler_attempts_total", 3) == [
            'scheduler_attempts_total{outcome="dead"} 1.0',
            'scheduler_attempts_total{outcome="retry"} 1.0',
            'scheduler_attempts_total{outcome="succeeded"} 1.0',
        ]
        assert "scheduler_job_outcomes_total" not in scrape(port)
    finally:
        assert process.stop() == 0, process.log()


def test_calls_are_counted_by_status_class(endpoint, make_job, tmp_path):
    make_job(endpoint.url("/ok"))
    make_job(endpoint.url("/redirect"), max_attempts=1)
    make_job(endpoint.url("/status/404"), max_attempts=1)
    make_job(endpoint.url("/status/502"), max_attempts=1)
    make_job(endpoint.url("/slow/5"), max_attempts=1, timeout_seconds=1)
    make_job(f"http://127.0.0.1:{free_port()}/", max_attempts=1)  # nothing listens there
    process, port = run_executor(tmp_path)
    try:
        assert scraped_when(port, "scheduler_calls_total", 6) == [
            f'scheduler_calls_total{{status_class="{name}"}} 1.0'
            for name in ("2xx", "3xx", "4xx", "5xx", "connection_error", "timeout")
        ]
    finally:
        assert process.stop() == 0, process.log()


def test_the_calls_duration_is_a_histogram(endpoint, make_job, tmp_path):
    make_job(endpoint.url("/slow/0.3"))
    make_job(endpoint.url("/ok"))
    process, port = run_executor(tmp_path)
    try:
        wait_until(
            lambda: "scheduler_call_duration_seconds_count 2.0" in scrape(port),
            timeout=30,
            message="two calls not timed",
        )
        text = scrape(port)
        assert 'scheduler_call_duration_seconds_bucket{le="0.1"} 1.0' in text
        assert 'scheduler_call_duration_seconds_bucket{le="0.5"} 2.0' in text
    finally:
        assert process.stop() == 0, process.log()


def test_the_tenant_label_is_there_when_turned_on(endpoint, make_job, tenant, tmp_path):
    make_job(endpoint.url("/ok"))
    process, port = run_executor(tmp_path, METRICS_TENANT_LABEL="true")
    try:
        names = f'status_class="2xx",tenant="{tenant.id}"'
        assert scraped_when(port, "scheduler_calls_total", 1) == [
            f"scheduler_calls_total{{{names}}} 1.0"
        ]
        assert series(port, "scheduler_attempts_total") == [
            f'scheduler_attempts_total{{outcome="succeeded",tenant="{tenant.id}"}} 1.0'
        ]
    finally:
        assert process.stop() == 0, process.log()
