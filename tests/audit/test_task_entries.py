"""Each change a tenant makes to its tasks through the API is one entry, actor its token."""

import pytest

from tests.audit.log import client_with_jti, entries, only_entry
from tests.conftest import cron_task

# Outside a test transaction: an entry written without its change's transaction is refused
# (audit/record.py), as in production, instead of riding on the test's own.
pytestmark = pytest.mark.django_db(transaction=True)


def test_a_create_records_the_fields_given_with_the_tokens_id_as_actor(tenant):
    api, jti = client_with_jti(tenant)
    task = api.post("/v1/tasks", cron_task(name="nightly"), format="json").json()
    entry = only_entry(action="task.create")
    assert (entry.tenant_id, entry.actor, entry.target) == (tenant.id, jti, task["id"])
    assert entry.changes["name"] == "nightly" and entry.changes["cron"] == "0 3 * * *"


def test_a_replayed_create_writes_no_second_entry(api):
    for _ in range(2):
        api.post("/v1/tasks", cron_task(), format="json", HTTP_IDEMPOTENCY_KEY="k1")
    assert len(entries(action="task.create")) == 1


def test_a_refused_create_writes_no_entry(api):
    api.post("/v1/tasks", cron_task(cron="not a cron"), format="json")
    assert entries() == []


def test_an_update_records_only_the_changed_fields_with_old_and_new(api, make_task):
    task = make_task(name="nightly")
    body = {"name": "nightly", "cron": "30 4 * * *", "max_attempts": 5}  # 5: as it was
    api.patch(f"/v1/tasks/{task['id']}", body, format="json", HTTP_IF_MATCH='"1"')
    entry = only_entry(action="task.update")
    assert entry.changes == {"cron": {"old": "0 3 * * *", "new": "30 4 * * *"}}


def test_an_update_that_changes_nothing_writes_no_entry(api, make_task):
    task = make_task(name="nightly")
    api.patch(f"/v1/tasks/{task['id']}", {"name": "nightly"}, format="json", HTTP_IF_MATCH="*")
    assert entries(action="task.update") == []


def test_an_update_refused_by_its_precondition_writes_no_entry(api, make_task):
    task = make_task()
    response = api.patch(
        f"/v1/tasks/{task['id']}", {"name": "x"}, format="json", HTTP_IF_MATCH='"7"'
    )
    assert response.status_code == 412
    assert entries(action="task.update") == []


def test_a_long_body_is_recorded_as_its_digest_and_length(api, make_task):
    task = make_task()
    api.patch(f"/v1/tasks/{task['id']}", {"body": "x" * 5000}, format="json", HTTP_IF_MATCH="*")
    change = only_entry(action="task.update").changes["body"]
    assert change["old"] == "" and change["new"]["length"] == 5000
    assert len(change["new"]["sha256"]) == 64


def test_pause_and_resume_record_the_status_they_change(api, make_task):
    task = make_task()
    api.post(f"/v1/tasks/{task['id']}/pause", HTTP_IF_MATCH="*")
    api.post(f"/v1/tasks/{task['id']}/resume", HTTP_IF_MATCH="*")
    pause, resume = entries(target=task["id"], action__in=["task.pause", "task.resume"])
    assert pause.changes == {"status": {"old": "active", "new": "paused"}}
    assert resume.changes == {"status": {"old": "paused", "new": "active"}}


def test_pausing_a_paused_task_writes_no_second_entry(api, make_task):
    task = make_task()
    for _ in range(2):
        assert api.post(f"/v1/tasks/{task['id']}/pause", HTTP_IF_MATCH="*").status_code == 200
    assert len(entries(action="task.pause")) == 1


def test_a_delete_is_recorded(api, make_task):
    task = make_task()
    assert api.delete(f"/v1/tasks/{task['id']}", HTTP_IF_MATCH="*").status_code == 204
    assert only_entry(action="task.delete").target == task["id"]


def test_run_now_records_the_job_it_made(api, make_task):
    task = make_task()
    job = api.post(f"/v1/tasks/{task['id']}/run").json()
    entry = only_entry(action="task.run")
    assert entry.target == task["id"] and entry.changes["job_id"] == job["id"]


def test_a_replayed_run_now_writes_no_second_entry(api, make_task):
    task = make_task()
    for _ in range(2):
        api.post(f"/v1/tasks/{task['id']}/run", HTTP_IDEMPOTENCY_KEY="once")
    assert len(entries(action="task.run")) == 1


def test_a_batch_is_one_entry_with_its_count_and_ids(api):
    body = {"tasks": [cron_task(name=f"t{n}") for n in range(3)] + [{"cron": "bad"}]}
    results = api.post("/v1/tasks/batch", body, format="json").json()["results"]
    made = [result["task"]["id"] for result in results if result["status"] == 201]
    entry = only_entry(action="task.batch")
    assert entry.changes == {"count": 3, "task_ids": made}


def test_each_task_a_batch_makes_has_its_create_entry_past_the_100th(tenant):
    api, jti = client_with_jti(tenant)
    body = {"tasks": [cron_task(name=f"t{n}") for n in range(101)]}
    results = api.post("/v1/tasks/batch", body, format="json").json()["results"]
    made = [result["task"]["id"] for result in results]
    creates = entries(action="task.create")
    assert sorted(e.target for e in creates) == sorted(made)
    assert {e.actor for e in creates} == {jti}
    assert api.get(f"/v1/audit?target={made[-1]}").json()["results"], "not found by target"


def test_a_batch_create_entry_records_the_fields_given(api):
    body = {"tasks": [cron_task(name="nightly")]}
    [result] = api.post("/v1/tasks/batch", body, format="json").json()["results"]
    entry = only_entry(action="task.create")
    assert entry.target == result["task"]["id"] and entry.changes["name"] == "nightly"
