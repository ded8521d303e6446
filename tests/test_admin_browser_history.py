"""The console's pages with time, in a real headless Chromium against the admin under
gunicorn: an archived job's page from the history store, a task's cron in words, its next
runs and its last run, and the task list's columns."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from selenium.webdriver.common.by import By

from history.records import AttemptRecord, HistoryRecord
from history.sql_store import SqlHistoryStore
from scheduler_site.ids import new_id
from tasks.models import Tenant
from tests import test_admin_browser as console_browser
from tests.test_admin_browser import add_job, add_task

# The fixtures of the console's browser tests: one server and one Chromium for this module.
content_types_kept = console_browser.content_types_kept
server, chromium = console_browser.server, console_browser.chromium
pages, operator = console_browser.pages, console_browser.operator

pytestmark = pytest.mark.django_db(transaction=True, serialized_rollback=True)
NOW = datetime.now(UTC).replace(microsecond=0)


def archive(task, *, ago: timedelta, **fields) -> HistoryRecord:
    """A run of the task as the archiver leaves it in the (SQL) history store."""
    scheduled = NOW - ago
    values = dict(
        id=new_id(),
        tenant_id=task.tenant_id,
        task_id=task.id,
        scheduled_at=scheduled,
        status="succeeded",
        attempt=3,
        max_attempts=5,
        priority=task.priority,
        started_at=scheduled + timedelta(seconds=50),
        finished_at=scheduled + timedelta(seconds=50, milliseconds=180),
        http_status=200,
        response_body='{"ok": true}',
        duration_ms=180,
        attempts=(
            AttemptRecord(1, scheduled, "retry", 30000, None, "timed out after 30 s"),
            AttemptRecord(2, scheduled + timedelta(seconds=40), "retry", 95, 503, "HTTP 503"),
            AttemptRecord(3, scheduled + timedelta(seconds=50), "succeeded", 180, 200),
        ),
    )
    values.update(fields)
    record = HistoryRecord(**values)
    SqlHistoryStore().write([record])
    return record


@pytest.fixture
def invoices():
    acme = Tenant.objects.create(name="acme")
    task = add_task(
        acme, "nightly-invoices", cron="30 2 * * 1-5", timezone="Europe/Madrid", runs_made=41
    )
    task.next_run_at = datetime(2027, 3, 26, 1, 30, tzinfo=UTC)  # a Friday, before the gap
    task.save(update_fields=["next_run_at"])
    return task


def test_an_archived_jobs_url_shows_it_read_only_with_its_attempts(operator, invoices):
    record = archive(invoices, ago=timedelta(hours=5))
    operator.open(f"/admin/jobs/job/{record.id}/change/")
    assert "history store" in operator.text("#archived-note")
    assert operator.text("#archived-fields .field-status") == "succeeded"
    assert operator.text("#archived-fields .field-attempts") == "3 of 5"
    rows = operator.driver.find_elements(By.CSS_SELECTOR, "#attempts tr.attempt")
    assert [row.find_elements(By.TAG_NAME, "td")[5].text for row in rows] == [
        "retry",
        "retry",
        "succeeded",
    ]
    assert operator.fits_the_window()
    operator.screenshot("archived-job")


def test_searching_an_archived_jobs_id_opens_its_page(operator, invoices):
    record = archive(invoices, ago=timedelta(hours=5))
    operator.open("/admin/jobs/job/")
    operator.driver.find_element(By.ID, "searchbar").send_keys(str(record.id))
    operator.submit("#changelist-search input[type=submit]")
    assert f"?tenant={invoices.tenant_id}" in operator.driver.current_url
    assert "nightly-invoices" in operator.text("#archived-fields .field-task")


def test_a_tasks_archived_runs_lead_to_each_runs_page(operator, invoices):
    archive(invoices, ago=timedelta(days=2))
    newest = archive(invoices, ago=timedelta(days=1), status="dead", http_status=500)
    operator.open(f"/admin/tasks/task/{invoices.id}/change/")
    operator.submit("#archived-runs")
    assert operator.column("status") == ["dead", "succeeded"]
    operator.submit("#result_list tr.archived-run a")
    assert str(newest.id) in operator.driver.title
    assert operator.text("#archived-fields .field-status") == "dead"


def test_a_tasks_page_reads_its_cron_in_words_and_its_next_five_runs(operator, invoices):
    archive(invoices, ago=timedelta(hours=5), status="dead", http_status=500)
    operator.open(f"/admin/tasks/task/{invoices.id}/change/")
    words = operator.text("#cron-words")
    assert words.startswith("At 02:30, Monday through Friday (Europe/Madrid)")
    runs = [row.text for row in operator.driver.find_elements(By.CSS_SELECTOR, "li.next-run")]
    assert runs[0].startswith("Fri 2027-03-26 02:30:00 CET")
    assert runs[1].startswith("Mon 2027-03-29 02:30:00 CEST")  # after the clocks went forward
    assert len(runs) == 5
    assert operator.text("#last-result") == "dead (500)"
    assert "(archived)" in operator.text("#last-run")
    assert operator.text("#runs-made").startswith("41")
    operator.screenshot("task")


def test_the_task_list_shows_last_run_last_result_and_runs(operator, invoices):
    add_job(
        invoices,
        ago=timedelta(minutes=3),
        status="pending",
        attempt=1,
        http_status=503,
        started_at=NOW - timedelta(minutes=3),
    )
    operator.open("/admin/tasks/task/")
    assert operator.column("last_result") == ["failed, retrying (503)"]
    assert operator.column("run_count") == ["41"]
    assert operator.column("last_run")[0].endswith(" UTC")
    assert operator.fits_the_window()
