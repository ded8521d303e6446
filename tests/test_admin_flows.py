"""The flows in the console: a read-only list of their limits and circuits, and pause,
resume and closing a circuit as actions recorded in the audit log."""

from datetime import UTC, datetime, timedelta

import pytest
from django.contrib.auth.models import Permission, User

from flows.models import Flow, FlowWait
from tests.audit.log import entries, only_entry
from tests.conftest import PUBLIC_URL

# Outside a test transaction: an audit entry written without its change's is refused.
pytestmark = pytest.mark.django_db(transaction=True)

OPENED = datetime(2026, 11, 29, 18, 6, 3, tzinfo=UTC)


@pytest.fixture
def operator_client(client):
    client.force_login(User.objects.create_superuser("ops", "ops@example.com", "pw"))
    return client


@pytest.fixture
def flow_of(tenant):
    def make(key: str = "api", **fields) -> Flow:
        return Flow.objects.create(tenant=tenant, key=key, **fields)

    return make


def listed(page) -> list[str]:
    return [flow.key for flow in page.context["cl"].result_list]


def act(client, action: str, *flows: Flow):
    return client.post(
        "/admin/flows/flow/",
        {"action": action, "_selected_action": [str(flow.id) for flow in flows]},
        follow=True,
    )


def park(flow: Flow, job) -> None:
    FlowWait.objects.create(
        flow_id=flow.id, priority=job.priority, next_attempt_at=job.next_attempt_at, job_id=job.id
    )


def test_the_list_shows_limits_circuit_and_parked_jobs(operator_client, flow_of, tenant, make_job):
    flow = flow_of(
        parallelism=2,
        rate=4,
        period_seconds=1,
        circuit_state="open",
        failures=10,
        opened_at=OPENED,
        retry_at=OPENED + timedelta(seconds=30),
    )
    for minute in range(3):
        due = OPENED + timedelta(minutes=minute)
        park(flow, make_job(PUBLIC_URL, due=due, status="throttled", flow_key="api"))
    page = operator_client.get("/admin/flows/flow/").content.decode()
    assert "2 at once, 4 per 1 s" in page and "10 failures, 30 s" in page
    assert "2026-11-29 18:06:33 UTC" in page and tenant.name in page
    assert '<td class="field-waiting">3</td>' in page


def test_a_cancelled_jobs_wait_left_behind_is_not_counted_as_parked(
    operator_client, flow_of, make_job
):
    flow = flow_of()
    park(flow, make_job(PUBLIC_URL, status="throttled", flow_key="api"))
    park(flow, make_job(PUBLIC_URL, status="cancelled", flow_key="api"))
    page = operator_client.get("/admin/flows/flow/").content.decode()
    assert '<td class="field-waiting">1</td>' in page


@pytest.mark.parametrize(
    ("query", "shown"), [("circuit_state__exact=open", ["down"]), ("paused__exact=1", ["held"])]
)
def test_flows_are_filtered_by_circuit_and_pause(operator_client, flow_of, query, shown):
    flow_of("down", circuit_state="open")
    flow_of("held", paused=True)
    flow_of("fine")
    assert listed(operator_client.get(f"/admin/flows/flow/?{query}")) == shown


def test_flows_are_found_by_key(operator_client, flow_of):
    flow_of("payments.example.com")
    flow_of("mail")
    assert listed(operator_client.get("/admin/flows/flow/", {"q": "payments"})) == [
        "payments.example.com"
    ]


def test_a_flows_page_is_read_only(operator_client, flow_of):
    flow = flow_of(parallelism=2)
    page = operator_client.get(f"/admin/flows/flow/{flow.id}/change/")
    assert page.status_code == 200 and 'name="_save"' not in page.content.decode()
    operator_client.post(f"/admin/flows/flow/{flow.id}/change/", {"parallelism": 9})
    flow.refresh_from_db()
    assert flow.parallelism == 2


def test_pausing_a_flow_stops_it_and_is_recorded(operator_client, flow_of, tenant):
    flow = flow_of()
    act(operator_client, "pause", flow)
    flow.refresh_from_db()
    assert flow.paused and flow.stopped_at is not None  # executors give its jobs back
    entry = only_entry(action="flow.pause")
    assert (entry.actor, entry.tenant_id, entry.target) == ("operator:ops", tenant.id, "api")


def test_resuming_a_flow_is_recorded(operator_client, flow_of):
    flow = flow_of(paused=True)
    act(operator_client, "resume", flow)
    flow.refresh_from_db()
    assert not flow.paused
    assert only_entry(action="flow.resume").changes == {"paused": {"old": True, "new": False}}


def test_pausing_a_paused_flow_records_nothing(operator_client, flow_of):
    act(operator_client, "pause", flow_of(paused=True))
    assert entries(action="flow.pause") == []


def test_closing_a_circuit_forgets_its_failures_and_is_recorded(operator_client, flow_of):
    flow = flow_of(circuit_state="open", failures=12, reopens=3, opened_at=OPENED, retry_at=OPENED)
    act(operator_client, "close_circuit", flow)
    flow.refresh_from_db()
    assert (flow.circuit_state, flow.failures, flow.reopens) == ("closed", 0, 0)
    assert (flow.opened_at, flow.retry_at) == (None, None)
    assert only_entry(action="flow.close_circuit").changes["circuit_state"] == {
        "old": "open",
        "new": "closed",
    }


def test_a_viewer_is_not_offered_the_actions_and_is_refused_them(client, flow_of):
    user = User.objects.create_user("viewer", "v@example.com", "pw", is_staff=True)
    user.user_permissions.set(Permission.objects.filter(codename="view_flow"))
    client.force_login(user)
    flow = flow_of()
    page = client.get("/admin/flows/flow/")
    assert page.status_code == 200 and "close_circuit" not in page.content.decode()
    assert act(client, "pause", flow).status_code == 403
    flow.refresh_from_db()
    assert not flow.paused and entries() == []
