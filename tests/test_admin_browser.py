"""The operators' console in a real headless Chromium, 1400 px wide, against the admin under
real gunicorn on the test database: what an operator reads and does, click by click."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from urllib.parse import unquote

import pytest
from django.contrib.auth.models import User
from django.contrib.contenttypes.models import ContentType
from django.core.cache import cache
from django.core.management.sql import emit_post_migrate_signal
from selenium.webdriver.common.by import By

from console.display import short_id
from execution.heartbeats import beat
from jobs.models import Job
from scheduler_site.ids import new_id
from tasks.models import Task, Tenant
from tasks.services import bucket_for
from tests.browser import AdminPages, start_chromium
from tests.processes import ApiServer

# Serialized rollback: the content types come back with the same ids after each test's
# flush, where a flush alone makes them anew with new ids; the server, living across the
# module's tests, caches those ids for the admin's log.
pytestmark = pytest.mark.django_db(transaction=True, serialized_rollback=True)
PASSWORD = "a long operator password"


@pytest.fixture(scope="module")
def content_types_kept(django_db_setup, django_db_blocker):
    """Before the module, the content types an earlier test made anew go (the first test
    brings back the serialized ones, which would clash with them); after it, they are made
    as a flush alone leaves them (a serialized test's flush leaves none)."""
    with django_db_blocker.unblock():
        ContentType.objects.all().delete()
    yield
    with django_db_blocker.unblock():
        emit_post_migrate_signal(verbosity=0, interactive=False, db="default")


@pytest.fixture(scope="module")
def server(content_types_kept, django_db_blocker, tmp_path_factory):
    with django_db_blocker.unblock():
        api = ApiServer(tmp_path_factory.mktemp("console") / "api.log", workers=1)
    yield api
    api.stop()


@pytest.fixture(scope="module")
def chromium():
    driver = start_chromium()
    yield driver
    driver.quit()


@pytest.fixture
def pages(server, chromium) -> AdminPages:
    cache.clear()  # no failed login of an earlier test (or run) counts against this one
    return AdminPages(chromium, server.url(""))


@pytest.fixture
def operator(pages) -> AdminPages:
    User.objects.create_superuser("ops", "ops@example.com", PASSWORD)
    pages.log_in("ops", PASSWORD)
    return pages


def add_task(tenant: Tenant, name: str, **fields) -> Task:
    task_id = new_id()
    values = {"cron": "*/5 * * * *", "url": f"https://hooks.example.com/{name}"}
    values.update(fields)
    due = datetime.now(UTC)
    return Task.objects.create(
        id=task_id, tenant=tenant, name=name, bucket=bucket_for(task_id), next_run_at=due, **values
    )


def add_job(task: Task, *, ago: timedelta, **fields) -> Job:
    moment = datetime.now(UTC) - ago  # now, not at import: a slow suite reaches it late
    values = {"scheduled_at": moment, "next_attempt_at": moment, "priority": task.priority}
    values.update(fields)
    return Job.objects.create(tenant=task.tenant, task=task, **values)


def add_dead(task: Task, *, died: timedelta, error: str, http_status: int | None) -> Job:
    return add_job(
        task,
        ago=died + timedelta(minutes=20),
        status="dead",
        attempt=5,
        max_attempts=5,
        error=error,
        http_status=http_status,
        started_at=datetime.now(UTC) - died,
        finished_at=datetime.now(UTC) - died,
    )


@pytest.fixture
def queue() -> dict[str, object]:
    """Two tenants' tasks and jobs in every state, as an operator would find them."""
    acme, globex = Tenant.objects.create(name="acme"), Tenant.objects.create(name="globex")
    invoices = add_task(acme, "nightly-invoices", cron="0 3 * * *", priority=2)
    sync = add_task(globex, "crm-sync", priority=5)
    for minutes in (1, 2, 3):
        add_job(sync, ago=timedelta(minutes=minutes))  # due, not claimed
    add_job(invoices, ago=timedelta(minutes=-30))  # pending, not due yet
    add_job(sync, ago=timedelta(minutes=10), status="succeeded", attempt=1, http_status=200)
    dead = [
        add_dead(
            sync, died=timedelta(minutes=5), error="HTTP 503 from the endpoint", http_status=503
        ),
        add_dead(
            invoices, died=timedelta(minutes=40), error="timed out after 30 s", http_status=None
        ),
        add_dead(
            sync, died=timedelta(hours=3), error="HTTP 500 from the endpoint", http_status=500
        ),
    ]
    for name in ("scheduler", "executor", "executor", "reconciler", "archiver"):
        beat(name, f"{name}-{new_id().hex[-6:]}")
    return {"invoices": invoices, "sync": sync, "dead": dead}


def test_the_dashboard_counts_the_jobs_in_the_queue(operator, queue):
    operator.open("/admin/dashboard/")
    assert operator.text("#depth-pending .console-count") == "4"
    assert operator.text("#depth-dead .console-count") == "3"
    assert operator.text("#due-unclaimed") == "3"
    assert operator.text("#dead-hour") == "2"
    assert operator.text("#dead-day") == "3"
    processes = operator.driver.find_elements(By.CSS_SELECTOR, "tr.heartbeat")
    assert sorted({row.get_attribute("data-process") for row in processes}) == [
        "archiver",
        "executor",
        "reconciler",
        "scheduler",
    ]
    operator.screenshot("dashboard-queue")  # dashboard.png: the one with charts (timeline)


def test_the_dead_letter_queue_shows_status_error_and_http_status_in_1400_px(operator, queue):
    operator.open("/admin/jobs/deadletter/")
    assert operator.column("http") == ["503", "-", "500"]
    assert operator.column("last_error_wide")[0] == "HTTP 503 from the endpoint"
    assert operator.fits_the_window()
    operator.screenshot("dlq")


def test_retrying_a_dead_job_takes_it_out_of_the_dead_letter_queue(operator, queue):
    job = queue["dead"][0]
    operator.open("/admin/jobs/deadletter/")
    operator.run_action("retry_jobs", job.id)
    assert "1 job(s) put back in the queue." in operator.text("ul.messagelist")
    assert short_id(job.id) not in operator.column("job_id")
    assert len(operator.column("job_id")) == 2
    assert Job.objects.get(id=job.id).status == "pending"


def test_pausing_a_task_shows_it_paused(operator, queue):
    operator.open("/admin/tasks/task/")
    operator.run_action("pause", queue["sync"].id)
    rows = dict(zip(operator.column("name"), operator.column("status"), strict=True))
    assert rows == {"crm-sync": "Paused", "nightly-invoices": "Active"}


def test_running_a_task_now_shows_its_new_job(operator, queue):
    task = queue["invoices"]
    before = set(Job.objects.filter(task=task).values_list("id", flat=True))
    operator.open("/admin/tasks/task/")
    operator.run_action("run_now", task.id)
    assert "1 run(s) started." in operator.text("ul.messagelist")
    operator.open(f"/admin/jobs/job/?task__id__exact={task.id}&status__exact=pending&due=now")
    (new_job,) = set(Job.objects.filter(task=task).values_list("id", flat=True)) - before
    assert operator.column("job_id") == [short_id(new_job)]


def test_a_user_who_is_not_staff_is_refused(pages):
    User.objects.create_user("tenant-dev", "dev@example.com", PASSWORD)
    pages.log_in("tenant-dev", PASSWORD)
    assert "staff account" in pages.text(".errornote")
    pages.open("/admin/dashboard/")
    assert pages.driver.current_url.startswith(pages.base_url + "/admin/login/")


def test_a_rotated_signing_secret_is_shown_once_and_kept_in_no_cookie(operator, queue):
    acme = Tenant.objects.get(name="acme")
    operator.open("/admin/tasks/tenant/")
    operator.run_action("rotate_signing_secret", acme.id)
    acme.refresh_from_db()
    assert operator.text("#signing-secrets code.signing-secret") == acme.signing_secret
    cookies = [unquote(cookie["value"]) for cookie in operator.driver.get_cookies()]
    assert cookies and all(acme.signing_secret not in value for value in cookies)
    operator.driver.refresh()
    assert "shown once" in operator.text("#already-shown")
    assert acme.signing_secret not in operator.driver.page_source
