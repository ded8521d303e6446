"""Flows are per tenant, and a claim of tenants without flows pays nothing for them."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.flows.flow_processes import flow_of
from tests.flows.test_claim_gate import claim

pytestmark = pytest.mark.django_db(transaction=True)
URL = "http://127.0.0.1:9/"


def test_two_tenants_with_one_key_name_share_nothing(tenant, other_tenant, make_job):
    mine, theirs = flow_of(tenant, parallelism=1), flow_of(other_tenant, parallelism=1)
    for owner in (tenant, other_tenant, tenant, other_tenant):
        make_job(URL, flow_key="api", task_tenant=owner)
    jobs = claim().jobs
    assert sorted(job.flow_id for job in jobs) == sorted([mine.id, theirs.id])
    assert {job.tenant_id for job in jobs} == {str(tenant.id), str(other_tenant.id)}


def test_a_claim_that_parks_jobs_counts_them_held_back(tenant, make_job):
    flow_of(tenant, parallelism=1)
    for _ in range(4):
        make_job(URL, flow_key="api")
    batch = claim()
    assert len(batch.jobs) == 1 and batch.held_back == 3  # the round claims again at once


def test_a_claim_without_flow_tenants_reads_no_flow_and_asks_tenants_once(tenant, make_job):
    for _ in range(3):
        make_job(URL)
    with CaptureQueriesContext(connection) as queries:
        assert len(claim().jobs) == 3
    sqls = [query["sql"] for query in queries.captured_queries]
    # Which tenants use flows comes with their budgets, not from a read of its own.
    assert not [sql for sql in sqls if "per_host_flows" in sql and "concurrency_limit" not in sql]
    # One read of the flows due for a release's look (none): an empty range of an index.
    flow_reads = [sql for sql in sqls if "`flows`" in sql or '"flows"' in sql]  # MariaDB, SQLite
    assert len(flow_reads) == 1
    assert not [sql for sql in sqls if "flow_calls" in sql or "flow_waits" in sql]
