"""Each operator action in the console is one entry: actor `operator:<username>`, and the
tenant whose things it changed."""

import pytest
from django.core.management import call_command

from audit.models import AuditEntry
from jobs.models import Job
from tasks.models import Tenant, TenantSecret
from tests.audit.log import entries, only_entry
from tests.conftest import PUBLIC_URL

# Outside a test transaction: an entry written without its change's transaction is refused
# (audit/record.py), as in production, instead of riding on the test's own.
pytestmark = pytest.mark.django_db(transaction=True)

OPERATOR = "operator:ops"


def act(client, model: str, action: str, *rows):
    return client.post(
        f"/admin/{model}/",
        {"action": action, "_selected_action": [str(row.id) for row in rows]},
        follow=True,
    )


@pytest.mark.parametrize(
    ("action", "recorded"),
    [
        ("deactivate", "tenant.stop"),
        ("revoke_tokens", "tenant.revoke_tokens"),
        ("rotate_signing_secret", "signing_secret.rotate"),
    ],
)
def test_a_tenant_action_is_recorded_for_that_tenant(operator_client, tenant, action, recorded):
    act(operator_client, "tasks/tenant", action, tenant)
    entry = only_entry(action=recorded)
    assert (entry.actor, entry.tenant_id, entry.target) == (OPERATOR, tenant.id, str(tenant.id))


def test_resuming_a_stopped_tenant_is_recorded(operator_client, tenant):
    act(operator_client, "tasks/tenant", "deactivate", tenant)
    act(operator_client, "tasks/tenant", "reactivate", tenant)
    assert only_entry(action="tenant.resume").actor == OPERATOR


def test_stopping_a_stopped_tenant_again_writes_no_second_entry(operator_client, tenant):
    for _ in range(2):
        act(operator_client, "tasks/tenant", "deactivate", tenant)
    assert len(entries(action="tenant.stop")) == 1


def test_a_rotation_never_writes_either_signing_secret(operator_client, tenant):
    old = tenant.signing_secret
    act(operator_client, "tasks/tenant", "rotate_signing_secret", tenant)
    tenant.refresh_from_db()
    text = str(list(AuditEntry.objects.values()))
    assert old not in text and tenant.signing_secret not in text
    assert "previous_secret_signs_until" in only_entry().changes


def test_the_rotate_command_is_recorded_as_an_operators(tenant):
    call_command("rotate_signing_secret", str(tenant.id))
    entry = only_entry(action="signing_secret.rotate")
    assert entry.actor.startswith("operator:") and entry.tenant_id == tenant.id


@pytest.mark.parametrize(
    ("action", "recorded"),
    [
        ("pause", "task.pause"),
        ("run_now", "task.run"),
        ("soft_delete", "task.delete"),
    ],
)
def test_a_task_action_is_recorded_for_the_tasks_tenant(
    operator_client, add_task, tenant, action, recorded
):
    task = add_task()
    act(operator_client, "tasks/task", action, task)
    entry = only_entry(action=recorded)
    assert (entry.actor, entry.tenant_id, entry.target) == (OPERATOR, tenant.id, str(task.id))


def test_the_resume_action_is_recorded(operator_client, add_task):
    task = add_task(status="paused")
    act(operator_client, "tasks/task", "resume", task)
    assert only_entry(action="task.resume").actor == OPERATOR


def test_a_tasks_pause_button_is_recorded(operator_client, add_task):
    task = add_task()
    operator_client.post(f"/admin/tasks/task/{task.id}/pause/")
    assert only_entry(action="task.pause").actor == OPERATOR


def test_a_dlq_retry_is_recorded_for_the_jobs_tenant(operator_client, make_job, tenant):
    dead = make_job(PUBLIC_URL, status="dead", attempt=3, max_attempts=3)
    act(operator_client, "jobs/deadletter", "retry_jobs", dead)
    entry = only_entry(action="job.retry")
    assert (entry.actor, entry.tenant_id, entry.target) == (OPERATOR, tenant.id, str(dead.id))


def test_a_dlq_discard_is_recorded(operator_client, make_job):
    dead = make_job(PUBLIC_URL, status="dead", attempt=3, max_attempts=3)
    act(operator_client, "jobs/deadletter", "discard_jobs", dead)
    assert only_entry(action="job.discard").actor == OPERATOR


def test_a_jobs_cancel_button_is_recorded(operator_client, make_job):
    waiting = make_job(PUBLIC_URL)
    operator_client.post(f"/admin/jobs/job/{waiting.id}/cancel/")
    assert only_entry(action="job.cancel").target == str(waiting.id)


def test_retry_all_matching_is_one_entry_per_tenant_with_its_count(
    operator_client, make_job, tenant, other_tenant
):
    for owner, count in ((tenant, 2), (other_tenant, 1)):
        for _ in range(count):
            make_job(PUBLIC_URL, task_tenant=owner, status="dead", attempt=3, max_attempts=3)
    operator_client.post("/admin/jobs/deadletter/retry-matching/")
    counts = {e.tenant_id: e.changes["count"] for e in entries(action="dlq.retry_all")}
    assert counts == {tenant.id: 2, other_tenant.id: 1}
    assert Job.objects.filter(status="dead").count() == 3  # the reconciler retries them


def tenant_form(tenant: Tenant, **fields) -> dict:
    return {"name": tenant.name, "concurrency_limit": 1000, **fields}


def test_a_tenants_saved_page_records_each_changed_field(operator_client, tenant):
    form = tenant_form(tenant, allow_critical="on", concurrency_limit=20)
    response = operator_client.post(f"/admin/tasks/tenant/{tenant.id}/change/", form)
    assert response.status_code == 302
    entry = only_entry(action="tenant.update")
    assert entry.changes == {
        "allow_critical": {"old": False, "new": True},
        "concurrency_limit": {"old": 1000, "new": 20},
    }
    assert (entry.actor, entry.tenant_id) == (OPERATOR, tenant.id)


def test_a_tenant_saved_unchanged_writes_no_entry(operator_client, tenant):
    operator_client.post(f"/admin/tasks/tenant/{tenant.id}/change/", tenant_form(tenant))
    assert entries() == []


def test_a_tenant_added_in_the_console_is_recorded_for_it(operator_client, db):
    form = {"name": "initech", "concurrency_limit": 10}
    assert operator_client.post("/admin/tasks/tenant/add/", form).status_code == 302
    created = Tenant.objects.get(name="initech")
    entry = only_entry(action="tenant.create")
    assert entry.tenant_id == created.id and entry.changes["name"] == "initech"
    assert created.signing_secret not in str(entry.changes)


def test_a_tenant_deleted_in_the_console_is_recorded_for_it(operator_client, tenant):
    response = operator_client.post(f"/admin/tasks/tenant/{tenant.id}/delete/", {"post": "yes"})
    assert response.status_code == 302 and not Tenant.objects.filter(id=tenant.id).exists()
    assert only_entry(action="tenant.delete").tenant_id == tenant.id


def test_secrets_deleted_by_the_console_action_are_recorded_by_name(operator_client, tenant):
    secret = TenantSecret.objects.create(
        tenant=tenant, name="crm", encrypted_value="x", allowed_hosts=["a.example.com"]
    )
    operator_client.post(
        "/admin/tasks/tenantsecret/",
        {"action": "delete_selected", "_selected_action": [str(secret.id)], "post": "yes"},
    )
    entry = only_entry(action="secret.delete")
    assert (entry.target, entry.tenant_id, entry.actor) == ("crm", tenant.id, OPERATOR)
    assert entry.changes == {"allowed_hosts": ["a.example.com"]}
