# ruff: noqa: F811 - the fixtures imported below are named again as the tests' arguments
"""The dashboards with time in a real headless Chromium, against the admin under real
gunicorn: the landing, the charts drawn with data, the oldest due job, the auto-refresh
toggle, a tenant's dashboard reached from its page, and the counts of the tenant list."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from selenium.common.exceptions import WebDriverException
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from execution.heartbeats import beat
from tests.minute_history import attempts_in_the_last_hour
from tests.test_admin_browser import (  # noqa: F401 - the console's fixtures
    PASSWORD,
    chromium,
    content_types_kept,
    operator,
    pages,
    server,
)

pytestmark = pytest.mark.django_db(transaction=True, serialized_rollback=True)
TALL = 1500  # the screenshots show the whole dashboard, not the first screen only


@pytest.fixture
def history(make_job, tenant, other_tenant):
    """A day of attempts of two tenants and a few jobs waiting for an executor."""
    for owner, per_minute in ((tenant, 4), (other_tenant, 2)):
        attempts_in_the_last_hour(make_job, tenant=owner, per_minute=per_minute)
        attempts_in_the_last_hour(
            make_job, tenant=owner, per_minute=per_minute, every=timedelta(hours=2)
        )
    now = datetime.now(UTC)
    make_job("https://example.com/", due=now - timedelta(seconds=95), priority=2)
    make_job("https://example.com/", due=now - timedelta(seconds=8), task_tenant=other_tenant)
    for name in ("scheduler", "executor", "reconciler", "archiver"):
        beat(name, f"{name}-1")
    return tenant


def full_page_shot(operator, name: str) -> None:
    operator.driver.set_window_size(1400, TALL)
    try:
        operator.screenshot(name)
    finally:
        operator.driver.set_window_size(1400, 900)


def drawn(operator, chart: str) -> list:
    return operator.driver.find_elements(By.CSS_SELECTOR, f"#chart-{chart} .chart-bar")


def test_logging_in_lands_on_the_dashboard(operator):
    operator.open("/admin/")
    assert operator.driver.current_url.endswith("/admin/dashboard/")
    assert operator.driver.find_element(By.ID, "timeline").is_displayed()


def test_the_dashboard_draws_the_hour_and_the_day(operator, history):
    operator.open("/admin/dashboard/")
    assert len(drawn(operator, "attempts-hour")) > 12 and len(drawn(operator, "attempts-day")) > 12
    lines = operator.driver.find_elements(By.CSS_SELECTOR, "#chart-delay-hour .chart-line")
    assert {line.get_attribute("data-series") for line in lines} == {"p50", "p99"}
    legend = operator.text("#chart-attempts-hour figcaption")
    assert "delivered" in legend and "failed" in legend and "dead" in legend
    ticks = operator.driver.find_elements(By.CSS_SELECTOR, "#chart-attempts-day .x-tick")
    assert len(ticks) == 8 and all(":" in tick.text for tick in ticks)
    assert operator.text("#oldest-due tr[data-priority='p2'] a").startswith("1 min 3")
    assert operator.fits_the_window()
    full_page_shot(operator, "dashboard")


def test_the_auto_refresh_toggle_reloads_the_page_until_turned_off(operator, history):
    operator.open("/admin/dashboard/")
    operator.driver.find_element(By.ID, "auto-refresh").click()
    wait = WebDriverWait(operator.driver, 10)
    wait.until(lambda driver: "refresh=10" in driver.current_url)
    assert operator.driver.find_element(By.ID, "auto-refresh").is_selected()
    operator.open("/admin/dashboard/?refresh=2")
    first = operator.text("#content p")
    reloading = WebDriverWait(operator.driver, 10, ignored_exceptions=(WebDriverException,))
    reloading.until(lambda driver: driver.find_element(By.CSS_SELECTOR, "#content p").text != first)
    operator.open("/admin/dashboard/?refresh=3600")  # no reload while it is turned off
    operator.driver.find_element(By.ID, "auto-refresh").click()
    wait.until(lambda driver: "refresh" not in driver.current_url)
    assert not operator.driver.find_element(By.ID, "auto-refresh").is_selected()


def test_a_tenants_dashboard_is_reached_from_the_tenant_list(operator, history):
    operator.open("/admin/tasks/tenant/")
    row = operator.driver.find_element(By.XPATH, "//tr[.//a[text()='acme']]")
    assert row.find_element(By.CSS_SELECTOR, ".field-tasks a").text == "97"  # and one due
    assert row.find_element(By.CSS_SELECTOR, ".field-pending a").text == "25"
    assert row.find_element(By.CSS_SELECTOR, ".field-dead a").text == "2"
    row.find_element(By.CSS_SELECTOR, "a.tenant-dashboard").click()
    WebDriverWait(operator.driver, 10).until(lambda d: "/dashboard/tenant/" in d.current_url)
    assert "acme" in operator.text(".breadcrumbs")
    assert len(drawn(operator, "attempts-hour")) > 12
    assert operator.text("#oldest-due tr[data-priority='p2'] a").startswith("1 min 3")
    assert not operator.driver.find_elements(By.ID, "heartbeats")
    full_page_shot(operator, "tenant-dashboard")
