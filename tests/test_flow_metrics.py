"""The flows as Prometheus sees them: circuit, parked jobs and calls out from serve_metrics'
reading, calls started from each executor."""

from datetime import UTC, datetime, timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from execution import flow_gauges
from flows.models import Flow, FlowWait
from jobs.queue import claim_jobs
from tests.executor.round_helpers import WORKER
from tests.processes import ManagedProcess, free_port, wait_until
from tests.test_metrics import scrape

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def flow_of(tenant):
    tenant.uses_flows = True
    tenant.save(update_fields=["uses_flows"])

    def make(key: str, **fields) -> Flow:
        return Flow.objects.create(tenant=tenant, key=key, **fields)

    return make


@pytest.fixture
def serve_metrics(tmp_path):
    port = free_port()
    process = ManagedProcess(
        ["serve_metrics", "--metrics-port", str(port), "--interval", "0.5"],
        tmp_path / "metrics.log",
    )
    yield port
    assert process.stop() == 0, process.log()


def series(port: int, name: str) -> list[str]:
    return sorted(line for line in scrape(port).splitlines() if line.startswith(name + "{"))


def test_a_flows_parked_jobs_and_calls_out_are_gauged(make_job, flow_of, tenant, serve_metrics):
    flow_of("api", parallelism=2)
    for _ in range(5):
        make_job("http://127.0.0.1:9/", flow_key="api")
    claim_jobs(worker_id=WORKER, critical_limit=10, normal_limit=10, lookahead_seconds=5)
    names = f'flow="api",tenant="{tenant.id}"'
    wait_until(
        lambda: series(serve_metrics, "scheduler_flow_waiting"), timeout=20, message="no gauge"
    )
    assert series(serve_metrics, "scheduler_flow_waiting") == [
        f"scheduler_flow_waiting{{{names}}} 3.0"
    ]
    assert series(serve_metrics, "scheduler_flow_in_flight") == [
        f"scheduler_flow_in_flight{{{names}}} 2.0"
    ]
    assert series(serve_metrics, "scheduler_flow_circuit_state") == [
        f"scheduler_flow_circuit_state{{{names}}} 0.0"
    ]


def test_open_and_half_open_circuits_are_gauged_by_state(flow_of, tenant, serve_metrics):
    now = datetime.now(UTC)
    flow_of("down", circuit_state="open", failures=10, opened_at=now, retry_at=now)
    flow_of("probing", circuit_state="half_open", failures=10, opened_at=now)
    wait_until(
        lambda: len(series(serve_metrics, "scheduler_flow_circuit_state")) == 2,
        timeout=20,
        message="no gauges",
    )
    assert series(serve_metrics, "scheduler_flow_circuit_state") == [
        f'scheduler_flow_circuit_state{{flow="down",tenant="{tenant.id}"}} 2.0',
        f'scheduler_flow_circuit_state{{flow="probing",tenant="{tenant.id}"}} 1.0',
    ]


def test_a_flow_with_nothing_to_report_has_no_series(flow_of, serve_metrics):
    flow_of("quiet", parallelism=5)
    flow_of("held", paused=True)
    wait_until(
        lambda: series(serve_metrics, "scheduler_flow_circuit_state"), timeout=20, message="none"
    )
    assert [
        line.split("{")[1].split(",")[0]
        for line in series(serve_metrics, "scheduler_flow_circuit_state")
    ] == ['flow="held"']


def test_a_deleted_flow_loses_its_series_at_the_next_reading(flow_of, serve_metrics):
    flow = flow_of("down", circuit_state="open", retry_at=datetime.now(UTC) + timedelta(hours=1))
    wait_until(
        lambda: series(serve_metrics, "scheduler_flow_circuit_state"), timeout=20, message="none"
    )
    flow.delete()
    wait_until(
        lambda: not series(serve_metrics, "scheduler_flow_circuit_state"),
        timeout=20,
        message="the deleted flow's series stayed",
    )


def test_an_executor_counts_the_calls_it_started_per_flow(
    endpoint, make_job, flow_of, tenant, tmp_path
):
    flow_of("api", parallelism=1)
    for _ in range(3):
        make_job(endpoint.url("/ok"), flow_key="api")
    make_job(endpoint.url("/ok"))  # in no flow: no series
    port = free_port()
    process = ManagedProcess(
        ["run_executor", "--poll-interval", "0.2", "--metrics-port", str(port)],
        tmp_path / "executor.log",
        env={"EGRESS_ALLOW": "127.0.0.0/8"},
    )
    name = "scheduler_flow_calls_started_total"
    try:
        wait_until(
            lambda: series(port, name) == [f'{name}{{flow="api",tenant="{tenant.id}"}} 3.0'],
            timeout=30,
            message="the flow's calls were not counted",
        )
    finally:
        assert process.stop() == 0, process.log()


def test_past_the_cap_the_open_circuits_are_kept_and_the_rest_counted(flow_of, monkeypatch):
    monkeypatch.setattr(flow_gauges, "MAX_FLOW_SERIES", 2)
    flow_of("held-1", paused=True)
    flow_of("down", circuit_state="open")
    flow_of("held-2", paused=True)
    with connection.cursor() as cursor:
        reading = flow_gauges.read_flows(cursor)
    assert [gauge.key for gauge in reading.flows][0] == "down"
    assert (len(reading.flows), reading.unreported) == (2, 1)


def test_a_cancelled_jobs_wait_left_behind_is_not_gauged_as_waiting(make_job, flow_of):
    flow = flow_of("api", paused=True)
    for status in ("throttled", "cancelled"):
        job = make_job("http://127.0.0.1:9/", status=status, flow_key="api")
        FlowWait.objects.create(
            flow_id=flow.id, priority=job.priority, next_attempt_at=job.next_attempt_at,
            job_id=job.id,
        )  # fmt: skip
    with connection.cursor() as cursor:
        (gauge,) = flow_gauges.read_flows(cursor).flows
    assert gauge.waiting == 1


def test_a_reading_fetches_no_more_idle_flows_than_the_cap_shows(flow_of, monkeypatch):
    monkeypatch.setattr(flow_gauges, "MAX_FLOW_SERIES", 2)
    for n in range(6):
        flow_of(f"held-{n}", paused=True)
    with CaptureQueriesContext(connection) as queries, connection.cursor() as cursor:
        reading = flow_gauges.read_flows(cursor)
    assert [gauge.key for gauge in reading.flows] == ["held-0", "held-1"]
    assert reading.unreported == 4
    reads = [query["sql"] for query in queries if 'FROM "flows"' in query["sql"].replace("`", '"')]
    assert all("LIMIT" in sql or "COUNT" in sql for sql in reads), reads
