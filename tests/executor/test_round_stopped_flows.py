"""A round holding jobs of flows asks once which flows were paused or opened since the round
before; a round holding none of them never reads the flows (no statement for the tenants
without flows)."""

from datetime import UTC, datetime, timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from execution.executor_round import DatabaseRound
from flows.models import Flow
from tests.executor.round_helpers import a_round

pytestmark = pytest.mark.django_db


def round_holding(jobs: int, last_read: datetime) -> DatabaseRound:
    database_round = a_round()
    database_round.outbox.claimed(jobs)  # as after a claim of `jobs` jobs, none called yet
    database_round._last_read = last_read
    return database_round


def statements_reading_flows(queries: CaptureQueriesContext) -> list[str]:
    return [query["sql"] for query in queries.captured_queries if "flows" in query["sql"]]


def test_a_round_holding_jobs_of_flows_reads_the_stopped_ones_in_one_statement(tenant):
    now = datetime.now(UTC)
    paused = Flow.objects.create(tenant=tenant, key="paused", paused=True, stopped_at=now)
    opened = Flow.objects.create(tenant=tenant, key="open", circuit_state="open", stopped_at=now)
    Flow.objects.create(tenant=tenant, key="resumed", stopped_at=now)  # paused, then resumed
    Flow.objects.create(
        tenant=tenant, key="long-ago", paused=True, stopped_at=now - timedelta(hours=1)
    )
    database_round = round_holding(3, now - timedelta(seconds=1))
    with CaptureQueriesContext(connection) as queries:
        report = database_round.run(claim=False, watch_flows=True)
    assert len(statements_reading_flows(queries)) == 1
    assert report.stopped_flows == {paused.id, opened.id}


def test_a_round_holding_no_job_of_a_flow_does_not_read_the_flows(tenant):
    now = datetime.now(UTC)
    Flow.objects.create(tenant=tenant, key="paused", paused=True, stopped_at=now)
    database_round = round_holding(3, now - timedelta(seconds=1))
    with CaptureQueriesContext(connection) as queries:
        report = database_round.run(claim=False)
    assert statements_reading_flows(queries) == []
    assert report.stopped_flows == frozenset()
