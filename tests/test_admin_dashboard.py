"""The dashboard: counts read from the indexes, each a link into the filtered list."""

from datetime import UTC, datetime, timedelta

import pytest
from django.contrib.auth.models import User

from execution.models import ProcessHeartbeat
from flows.models import Flow
from jobs.models import Job


@pytest.fixture
def operator_client(client, db):
    client.force_login(User.objects.create_superuser("ops", "ops@example.com", "pw"))
    return client


@pytest.fixture
def jobs(tenant, add_task):
    now = datetime.now(UTC)

    def add(status: str, *, due: timedelta, died: timedelta | None = None, priority: int = 5):
        return Job.objects.create(
            tenant=tenant,
            task=add_task(),
            scheduled_at=now,
            next_attempt_at=now + due,
            status=status,
            priority=priority,
            finished_at=None if died is None else now - died,
        )

    add("pending", due=timedelta(seconds=-5))
    add("pending", due=timedelta(minutes=5), priority=0)
    add("dead", due=timedelta(0), died=timedelta(minutes=10))
    add("dead", due=timedelta(0), died=timedelta(hours=5))


def reading(client):
    return client.get("/admin/dashboard/").context["dashboard"]


def test_the_dashboard_counts_jobs_by_status_and_priority(operator_client, jobs):
    depth = reading(operator_client).depth
    assert depth["pending"] == {0: 1, 5: 1} and depth["dead"] == {5: 2}
    assert depth["running"] == {}


def test_the_dashboard_counts_due_jobs_and_recent_deaths(operator_client, jobs):
    dashboard = reading(operator_client)
    assert (dashboard.due_unclaimed, dashboard.dead_last_hour, dashboard.dead_last_day) == (1, 1, 2)


def test_each_count_links_to_the_list_it_counts(operator_client, jobs):
    page = operator_client.get("/admin/dashboard/").content.decode()
    for link in (
        "/admin/jobs/job/?status__exact=pending&amp;priority__exact=0",
        "/admin/jobs/job/?status__exact=pending&amp;due=now",
        "/admin/jobs/deadletter/?died=1h",
        "/admin/jobs/deadletter/?died=24h",
    ):
        assert link in page
    assert operator_client.get("/admin/jobs/deadletter/?died=1h").status_code == 200


def test_a_process_never_seen_is_shown_late(operator_client, db):
    ProcessHeartbeat.objects.create(
        name="scheduler", instance_id="host-1", last_seen=datetime.now(UTC)
    )
    beats = {beat.name: beat for beat in reading(operator_client).heartbeats}
    assert not beats["scheduler"].late
    assert beats["executor"].late and beats["executor"].last_seen is None


def test_the_dashboard_needs_a_staff_login(client, db):
    response = client.get("/admin/dashboard/")
    assert response.status_code == 302 and response["Location"].startswith("/admin/login/")


def test_the_dashboard_lists_open_and_half_open_circuits_with_a_link(operator_client, tenant):
    opened = datetime(2026, 11, 29, 18, 6, 3, tzinfo=UTC)
    down = Flow.objects.create(
        tenant=tenant,
        key="payments",
        circuit_state="open",
        failures=11,
        opened_at=opened,
        retry_at=opened + timedelta(seconds=30),
    )
    Flow.objects.create(tenant=tenant, key="probing", circuit_state="half_open", opened_at=opened)
    Flow.objects.create(tenant=tenant, key="healthy")
    assert [flow.key for flow in reading(operator_client).open_circuits] == ["payments", "probing"]
    page = operator_client.get("/admin/dashboard/").content.decode()
    assert f'href="/admin/flows/flow/{down.id}/change/"' in page
    assert "2026-11-29 18:06:03 UTC" in page and "2026-11-29 18:06:33 UTC" in page
    assert "<td>11</td>" in page and "<td>acme</td>" in page and "<td>Half Open</td>" in page


def test_the_dashboard_says_when_every_circuit_is_closed(operator_client, db):
    assert 'id="no-open-circuits"' in operator_client.get("/admin/dashboard/").content.decode()
