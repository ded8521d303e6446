"""The calls-started counter's labels: only flows the flows table holds, and none left for
a flow deleted once the names are read again."""

from prometheus_client import REGISTRY

from execution import flow_calls_counter
from execution.flow_calls_counter import FlowNames
from flows.models import Flow

NAME = "scheduler_flow_calls_started_total"


def started(tenant, key: str) -> float | None:
    return REGISTRY.get_sample_value(NAME, {"tenant": str(tenant.id), "flow": key})


def test_a_call_of_an_existing_flow_is_counted_under_its_tenant_and_key(db, tenant):
    flow = Flow.objects.create(tenant=tenant, key="counted-api")
    names = FlowNames()
    names.learn([flow.id, None])
    before = started(tenant, "counted-api") or 0
    names.started(flow.id)
    names.started(None)  # a job in no flow
    assert started(tenant, "counted-api") == before + 1


def series() -> int:
    return len(flow_calls_counter.CALLS_STARTED.collect()[0].samples)


def test_a_flow_id_the_table_does_not_hold_gets_no_series(db):
    names, before = FlowNames(), series()
    names.learn([987654321])
    names.started(987654321)
    assert series() == before


def test_a_deleted_flow_loses_its_series_when_the_names_are_read_again(db, tenant, monkeypatch):
    flow = Flow.objects.create(tenant=tenant, key="gone-api")
    names = FlowNames()
    names.learn([flow.id])
    names.started(flow.id)
    assert started(tenant, "gone-api") is not None
    flow.delete()
    monkeypatch.setattr(flow_calls_counter, "REFRESH_SECONDS", 0)
    names.learn([])
    assert started(tenant, "gone-api") is None


def test_past_the_cap_the_calls_of_further_flows_are_counted_under_other(db, tenant, monkeypatch):
    monkeypatch.setattr(flow_calls_counter, "MAX_NAMED_FLOWS", 2)
    flows = [Flow.objects.create(tenant=tenant, key=f"capped-{n}") for n in range(4)]
    names = FlowNames()
    names.learn([flow.id for flow in flows])
    other = REGISTRY.get_sample_value(NAME, {"tenant": "other", "flow": "other"})
    for flow in flows:
        names.started(flow.id)
    assert [started(tenant, f"capped-{n}") for n in range(4)] == [1, 1, None, None]
    assert REGISTRY.get_sample_value(NAME, {"tenant": "other", "flow": "other"}) == (other or 0) + 2
