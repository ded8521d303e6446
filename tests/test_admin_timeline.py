"""The console's time axis: it lands on the dashboard; the charts of the last hour and day
from the per-minute counts; the oldest due job per priority; the auto-refresh; the
dashboard of one tenant; the counts on the tenant list."""

from datetime import UTC, datetime, timedelta

import pytest
from django.contrib.auth.models import Permission, User

from tests.minute_history import attempts_in_the_last_hour

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def operator_client(client, db):
    client.force_login(User.objects.create_superuser("ops", "ops@example.com", "pw"))
    return client


def page(client, path: str) -> str:
    response = client.get(path)
    assert response.status_code == 200
    return response.content.decode()


def test_the_admin_index_lands_on_the_dashboard(operator_client):
    response = operator_client.get("/admin/")
    assert response.status_code == 302 and response["Location"] == "/admin/dashboard/"


def test_the_dashboard_lists_the_models_as_the_index_did(operator_client):
    assert 'href="/admin/tasks/tenant/"' in page(operator_client, "/admin/dashboard/")


def test_the_index_still_needs_a_staff_login(client, db):
    response = client.get("/admin/")
    assert response.status_code == 302 and response["Location"].startswith("/admin/login/")


def test_the_charts_show_the_last_hours_attempts(operator_client, make_job):
    made = attempts_in_the_last_hour(make_job)
    charts = {c.id: c for c in operator_client.get("/admin/dashboard/").context["dashboard"].charts}
    assert set(charts) == {"attempts-hour", "delay-hour", "attempts-day", "delay-day"}
    hour = charts["attempts-hour"]
    assert not hour.empty and len(hour.x_ticks) == 6 and len(hour.y_ticks) == 5
    tips = [bar[5] for bar in hour.bars]
    assert sum(int(tip.split(": ")[1].split()[0]) for tip in tips) == made
    assert any(tip.endswith(" dead") for tip in tips) and any(" failed" in t for t in tips)
    assert {line[2] for line in charts["delay-day"].lines} == {"p50", "p99"}


def test_the_start_delay_chart_is_in_seconds_with_its_percentiles(operator_client, make_job):
    attempts_in_the_last_hour(make_job)
    text = page(operator_client, "/admin/dashboard/")
    assert 'id="chart-delay-hour"' in text and 'data-series="p99"' in text
    assert "Start delay, last hour" in text and "Attempts per 15 min, last day" in text


def test_an_empty_window_says_so(operator_client):
    assert "nothing in this window yet" in page(operator_client, "/admin/dashboard/")


def test_the_oldest_due_job_of_each_priority_is_shown(operator_client, make_job):
    now = datetime.now(UTC)
    make_job("https://example.com/", due=now - timedelta(seconds=150), priority=3)
    make_job("https://example.com/", due=now - timedelta(seconds=20), priority=3)
    text = page(operator_client, "/admin/dashboard/")
    assert 'data-priority="p3"' in text and "2 min 30 s" in text


def test_auto_refresh_is_on_while_the_url_asks_for_it(operator_client):
    text = page(operator_client, "/admin/dashboard/?refresh=15")
    assert '<meta http-equiv="refresh" content="15">' in text
    assert 'id="auto-refresh" data-seconds="15" checked' in text
    assert "http-equiv" not in page(operator_client, "/admin/dashboard/")


def test_a_refresh_that_is_not_a_number_leaves_it_off(operator_client):
    assert "http-equiv" not in page(operator_client, "/admin/dashboard/?refresh=soon")


def test_the_tenant_dashboard_counts_only_its_tenant(
    operator_client, make_job, tenant, other_tenant
):
    attempts_in_the_last_hour(make_job, tenant=tenant, per_minute=2)
    attempts_in_the_last_hour(make_job, tenant=other_tenant, per_minute=3)
    make_job("https://example.com/", due=datetime.now(UTC) - timedelta(minutes=3))
    response = operator_client.get(f"/admin/dashboard/tenant/{tenant.id}/")
    dashboard = response.context["dashboard"]
    hour = next(c for c in dashboard.charts if c.id == "attempts-hour")
    assert sum(int(bar[5].split(": ")[1].split()[0]) for bar in hour.bars) == 24
    assert dashboard.due_unclaimed == 1 and set(dashboard.oldest_due) == {5}
    assert f"tenant__id__exact={tenant.id}" in response.content.decode()


def test_an_unknown_tenants_dashboard_is_a_404(operator_client):
    response = operator_client.get("/admin/dashboard/tenant/00000000-0000-7000-8000-000000000000/")
    assert response.status_code == 404


def test_the_tenant_page_links_to_its_dashboard(operator_client, tenant):
    text = page(operator_client, f"/admin/tasks/tenant/{tenant.id}/change/")
    assert f'href="/admin/dashboard/tenant/{tenant.id}/"' in text


def test_the_tenant_list_counts_tasks_and_jobs(operator_client, make_job, tenant, other_tenant):
    for status in ("pending", "pending", "dead"):
        make_job("https://example.com/", status=status)
    make_job("https://example.com/", task_tenant=other_tenant, status="running")
    changelist = operator_client.get("/admin/tasks/tenant/").context["cl"]
    counts = {t.name: t.console_counts for t in changelist.result_list}
    assert (counts["acme"].tasks, counts["acme"].pending, counts["acme"].dead) == (3, 2, 1)
    assert (counts["globex"].running, counts["globex"].pending) == (1, 0)


def test_the_tenant_list_counts_in_a_fixed_number_of_queries(
    operator_client, django_assert_max_num_queries, make_job
):
    from tasks.models import Tenant

    for index in range(30):
        make_job("https://example.com/", task_tenant=Tenant.objects.create(name=f"t{index}"))
    with django_assert_max_num_queries(12):
        operator_client.get("/admin/tasks/tenant/")


@pytest.mark.parametrize("asked", ["\u00b2", "\u0663"])
def test_a_refresh_of_digits_that_are_not_ascii_leaves_it_off(operator_client, asked):
    assert "http-equiv" not in page(operator_client, f"/admin/dashboard/?refresh={asked}")


def test_a_refresh_of_thousands_of_digits_is_the_longest(operator_client):
    text = page(operator_client, "/admin/dashboard/?refresh=" + "9" * 5000)
    assert '<meta http-equiv="refresh" content="3600">' in text


def test_a_tenants_dashboard_needs_the_permission_to_view_tenants(client, tenant):
    user = User.objects.create_user("staff", "staff@example.com", "pw", is_staff=True)
    client.force_login(user)
    url = f"/admin/dashboard/tenant/{tenant.id}/"
    assert client.get(url).status_code == 403
    user.user_permissions.add(Permission.objects.get(codename="view_tenant"))
    client.force_login(User.objects.get(pk=user.pk))  # the permissions read afresh
    assert client.get(url).status_code == 200


def test_a_tenants_dashboard_opens_to_who_may_change_tenants(client, tenant):
    # The admin lets the change permission view, so its dashboard does too.
    user = User.objects.create_user("editor", "editor@example.com", "pw", is_staff=True)
    user.user_permissions.add(Permission.objects.get(codename="change_tenant"))
    client.force_login(user)
    assert client.get(f"/admin/dashboard/tenant/{tenant.id}/").status_code == 200
