"""The circuit's edge cases at the queue."""

import pytest

from flows.models import Flow
from tests.flows.claims import claim

pytestmark = pytest.mark.django_db(transaction=True)

URL = "http://127.0.0.1:9/"


@pytest.fixture
def flow_of(tenant):
    tenant.uses_flows = True
    tenant.save(update_fields=["uses_flows"])
    return lambda **fields: Flow.objects.create(tenant=tenant, key="api", **fields)


def test_a_breaker_lowered_below_the_failures_counted_still_lets_a_call_out(make_job, flow_of):
    # As a PUT leaves it: 5 failures counted, then breaker_failures set to 3, still closed.
    flow_of(breaker_failures=3, failures=5)
    make_job(URL, flow_key="api")
    assert len(claim().jobs) == 1  # one call decides: its failure opens the circuit
