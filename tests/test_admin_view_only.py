"""A staff user who may only view, in a real Chromium against the admin under gunicorn: no
console action, button or page that changes anything is offered, and the same request made
by hand is refused (403) and changes nothing."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.admin.models import LogEntry
from django.contrib.auth.models import Permission, User
from selenium.webdriver.common.by import By

from flows.models import Flow
from jobs.models import Job
from tasks.models import Task, Tenant
from tests.browser import AdminPages
from tests.test_admin_browser import (  # noqa: F401 - the browser and the server are fixtures
    PASSWORD,
    add_dead,
    add_job,
    add_task,
    chromium,
    content_types_kept,
    pages,
    server,
)

pytestmark = pytest.mark.django_db(transaction=True, serialized_rollback=True)  # as in there


@pytest.fixture
def viewer(pages) -> AdminPages:  # noqa: F811 - the imported fixture
    user = User.objects.create_user("viewer", "viewer@example.com", PASSWORD, is_staff=True)
    user.user_permissions.set(
        Permission.objects.filter(
            codename__startswith="view_", content_type__app_label__in=["tasks", "jobs", "flows"]
        )
    )
    pages.log_in("viewer", PASSWORD)
    return pages


@pytest.fixture
def rows() -> dict[str, object]:
    tenant = Tenant.objects.create(name="acme")
    task = add_task(tenant, "nightly")
    return {
        "tenant": tenant,
        "task": task,
        "paused": add_task(tenant, "paused", status="paused"),
        "pending": add_job(task, ago=timedelta(minutes=1)),
        "dead": add_dead(task, died=timedelta(minutes=5), error="HTTP 503", http_status=503),
        "flow": Flow.objects.create(tenant=tenant, key="api", circuit_state="open", failures=10),
        "paused_flow": Flow.objects.create(tenant=tenant, key="held", paused=True),
    }


def snapshot() -> list[object]:
    """Every row an action could change, and the admin's log."""
    return [
        list(Tenant.objects.order_by("id").values()),
        list(Task.objects.order_by("id").values()),
        list(Job.objects.order_by("id").values()),
        list(Flow.objects.order_by("id").values()),
        LogEntry.objects.count(),
    ]


@pytest.mark.parametrize(
    ("page", "action", "row"),
    [
        ("/admin/tasks/tenant/", "deactivate", "tenant"),
        ("/admin/tasks/tenant/", "reactivate", "tenant"),
        ("/admin/tasks/tenant/", "revoke_tokens", "tenant"),
        ("/admin/tasks/tenant/", "rotate_signing_secret", "tenant"),
        ("/admin/tasks/task/", "pause", "task"),
        ("/admin/tasks/task/", "resume", "paused"),
        ("/admin/tasks/task/", "run_now", "task"),
        ("/admin/tasks/task/", "soft_delete", "task"),
        ("/admin/jobs/job/", "cancel_jobs", "pending"),
        ("/admin/jobs/job/", "retry_jobs", "dead"),
        ("/admin/jobs/deadletter/", "retry_jobs", "dead"),
        ("/admin/jobs/deadletter/", "discard_jobs", "dead"),
        ("/admin/flows/flow/", "pause", "flow"),
        ("/admin/flows/flow/", "resume", "paused_flow"),
        ("/admin/flows/flow/", "close_circuit", "flow"),
    ],
)
def test_a_viewer_is_not_offered_an_action_and_its_post_is_refused(viewer, rows, page, action, row):
    viewer.open(page)
    assert viewer.driver.find_elements(By.ID, "result_list")  # the list itself is shown
    assert action not in viewer.offered_actions()
    before = snapshot()
    fields = [("action", action), ("index", "0"), ("_selected_action", str(rows[row].pk))]
    assert viewer.post_by_hand(page, fields) == 403
    assert snapshot() == before


@pytest.mark.parametrize(
    ("page", "buttons", "post"),
    [
        ("/admin/tasks/task/{task}/change/", ["pause-task", "run-task"], "pause/"),
        ("/admin/tasks/task/{task}/change/", ["pause-task", "run-task"], "run/"),
        ("/admin/tasks/task/{paused}/change/", ["resume-task"], "resume/"),
        ("/admin/jobs/job/{dead}/change/", ["retry-job"], "retry/"),
        ("/admin/jobs/job/{pending}/change/", ["cancel-job"], "cancel/"),
        ("/admin/jobs/deadletter/", ["retry-matching"], "retry-matching/"),
    ],
)
def test_a_viewer_is_shown_no_button_and_its_post_is_refused(viewer, rows, page, buttons, post):
    path = page.format(**{name: row.pk for name, row in rows.items()})
    viewer.open(path)
    assert "Server Error" not in viewer.driver.title
    assert all(not viewer.driver.find_elements(By.ID, button) for button in buttons)
    before = snapshot()
    target = path.removesuffix("change/") + post
    assert viewer.post_by_hand(target, []) == 403
    assert snapshot() == before


def test_a_viewer_cannot_open_a_new_signing_secrets_page(viewer, rows):
    viewer.open("/admin/tasks/tenant/signing-secrets/any-token/")
    assert "403" in viewer.driver.page_source or "Forbidden" in viewer.driver.page_source


def test_the_same_post_by_hand_is_done_for_a_user_with_the_permission(pages, rows):  # noqa: F811
    # The check of the refusals above: the hand-made POST itself (its CSRF token) is sound.
    User.objects.create_superuser("ops", "ops@example.com", PASSWORD)
    pages.log_in("ops", PASSWORD)
    pages.open("/admin/tasks/tenant/")
    fields = [
        ("action", "deactivate"),
        ("index", "0"),
        ("_selected_action", str(rows["tenant"].pk)),
    ]
    assert pages.post_by_hand("/admin/tasks/tenant/", fields) == 0  # the redirect after it
    assert not Tenant.objects.get(id=rows["tenant"].id).is_active
