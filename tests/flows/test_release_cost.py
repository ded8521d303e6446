"""What a claim pays for the flows that hold jobs back: one tenant's many full flows must
not cost every claim (of every tenant) a statement each."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from flows.models import Flow
from tests.flows.claims import claim

pytestmark = pytest.mark.django_db(transaction=True)

URL = "http://127.0.0.1:9/"


def window_reads_of_a_claim() -> int:
    with CaptureQueriesContext(connection) as queries:
        claim()
    return sum("flow_starts" in q["sql"] and "SUM(" in q["sql"] for q in queries)


def test_a_claim_reads_no_window_of_full_rate_flows_not_due_for_a_look(tenant, make_job):
    tenant.uses_flows = True
    tenant.save(update_fields=["uses_flows"])
    for number in range(30):  # a rate of one a day each, a second job parked behind it
        Flow.objects.create(tenant=tenant, key=f"daily-{number}", rate=1, period_seconds=86400)
        make_job(URL, flow_key=f"daily-{number}")
        make_job(URL, flow_key=f"daily-{number}")
    assert len(claim().jobs) == 30
    assert window_reads_of_a_claim() == 0  # their windows end tomorrow: nothing to look at
