"""POST /v1/dlq/retry: every dead job of the tenant a filter matches goes back to pending."""

import pytest

from jobs import bulk_actions
from jobs.bulk_services import dlq_retry
from jobs.models import Job
from scheduler_site.errors import Conflict
from tasks.models import Task
from tests.api.bulk_jobs import add_job, at, statuses


def retry(api, **body):
    return api.post("/v1/dlq/retry", body, format="json")


@pytest.fixture
def task(add_task):
    return add_task(max_attempts=3)


def test_retry_by_task_id(api, task, add_task):
    mine, other = add_job(task, 0), add_job(add_task(), 1)
    response = retry(api, task_id=str(task.id))
    assert response.status_code == 200, response.content
    assert response.json() == {"count": 1, "refused": {}}
    assert statuses(mine, other) == ["pending", "dead"]


def test_a_retried_job_gets_a_fresh_budget_above_its_attempt(api, task):
    job = add_job(task, 0, attempt=4, max_attempts=4)
    retry(api, task_id=str(task.id))
    stored = Job.objects.get(id=job.id)
    assert stored.attempt == 4 and stored.max_attempts == 4 + 3


def test_retry_by_scheduled_range(api, task):
    early, middle, late = add_job(task, 0), add_job(task, 10), add_job(task, 20)
    response = retry(api, scheduled_after=at(0), scheduled_before=at(20))
    assert response.json()["count"] == 1
    assert statuses(early, middle, late) == ["dead", "pending", "dead"]


def test_retry_by_error_text(api, task):
    timeout = add_job(task, 0, error="call timed out after 30 s")
    refused = add_job(task, 1, error="HTTP 500")
    assert retry(api, error_contains="TIMED OUT").json()["count"] == 1
    assert statuses(timeout, refused) == ["pending", "dead"]


def test_error_text_is_accent_sensitive(api, task):
    job = add_job(task, 0, error="résumé upload failed")
    assert retry(api, error_contains="resume").json()["count"] == 0
    assert statuses(job) == ["dead"]


def test_error_text_folds_the_case_of_non_ascii_letters(api, task):
    job = add_job(task, 0, error="ÉCHEC de la connexion")
    assert retry(api, error_contains="échec").json()["count"] == 1
    assert statuses(job) == ["pending"]


@pytest.mark.parametrize("wildcard", ["%", "_"])
def test_like_wildcards_in_error_text_are_plain_characters(api, task, wildcard):
    job = add_job(task, 0, error="disk full")
    assert retry(api, error_contains=f"disk{wildcard}full").json()["count"] == 0
    assert statuses(job) == ["dead"]


def test_retry_by_label(api, task):
    prod = add_job(task, 0, labels={"env": "prod", "team": "a"})
    dev = add_job(task, 1, labels={"env": "dev"})
    assert retry(api, label="env:prod").json()["count"] == 1
    assert statuses(prod, dev) == ["pending", "dead"]


def test_retry_by_a_list_of_labels_needs_all_of_them(api, task):
    both = add_job(task, 0, labels={"env": "prod", "team": "a"})
    one = add_job(task, 1, labels={"env": "prod", "team": "b"})
    assert retry(api, label=["env:prod", "team:a"]).json()["count"] == 1
    assert statuses(both, one) == ["pending", "dead"]


def test_retry_by_ids(api, task):
    first, second, third = add_job(task, 0), add_job(task, 1), add_job(task, 2)
    assert retry(api, ids=[str(first.id), str(third.id)]).json()["count"] == 2
    assert statuses(first, second, third) == ["pending", "dead", "pending"]


def test_only_dead_jobs_are_retried(api, task):
    pending, succeeded = add_job(task, 0, "pending"), add_job(task, 1, "succeeded")
    assert retry(api, task_id=str(task.id)).json()["count"] == 0
    assert statuses(pending, succeeded) == ["pending", "succeeded"]


def test_a_job_of_a_deleted_task_is_refused_and_counted(api, task):
    job = add_job(task, 0)
    Task.objects.filter(id=task.id).update(status="deleted")
    assert retry(api, ids=[str(job.id)]).json() == {"count": 0, "refused": {"task_deleted": 1}}
    assert statuses(job) == ["dead"]


def test_a_filter_matching_nothing_answers_zero(api, task):
    add_job(task, 0)
    assert retry(api, error_contains="no such text").json() == {"count": 0, "refused": {}}


def test_dry_run_counts_without_retrying(api, task):
    jobs = [add_job(task, minute) for minute in range(3)]
    assert retry(api, task_id=str(task.id), dry_run=True).json()["count"] == 3
    assert statuses(*jobs) == ["dead"] * 3


def test_every_match_is_retried_across_batches(api, task, monkeypatch):
    monkeypatch.setattr(bulk_actions, "BATCH_SIZE", 2)
    jobs = [add_job(task, minute) for minute in range(5)]
    assert retry(api, task_id=str(task.id)).json()["count"] == 5
    assert statuses(*jobs) == ["pending"] * 5


def test_another_tenants_dead_jobs_are_never_counted_or_touched(other_api, task):
    job = add_job(task, 0)
    body = {"ids": [str(job.id)], "task_id": str(task.id)}
    assert other_api.post("/v1/dlq/retry", body, format="json").json()["count"] == 0
    assert other_api.post("/v1/dlq/retry", {"scheduled_before": at(60)}, format="json").json() == {
        "count": 0,
        "refused": {},
    }
    assert statuses(job) == ["dead"]


def test_retry_is_rate_limited_like_creates(api, task, tenant):
    tenant.create_rate, tenant.create_burst = 1, 1
    tenant.save()
    assert retry(api, task_id=str(task.id)).status_code == 200
    response = retry(api, task_id=str(task.id))
    assert response.status_code == 429 and int(response["Retry-After"]) >= 1


def test_the_matches_are_retried_in_batches_of_the_batch_size(api, task, monkeypatch):
    monkeypatch.setattr(bulk_actions, "BATCH_SIZE", 2)
    sizes, real = [], bulk_actions.jobs_retry_dead

    def counted(*, job_ids):
        sizes.append(len(job_ids))
        return real(job_ids=job_ids)

    monkeypatch.setattr(bulk_actions, "jobs_retry_dead", counted)
    [add_job(task, minute) for minute in range(5)]
    retry(api, task_id=str(task.id))
    assert sizes == [2, 2, 1]


def test_a_retry_forgets_the_run_the_tick_remembers(api, task):
    job = add_job(task, 0)
    Task.objects.filter(id=task.id).update(overlap_job_id=job.id)
    retry(api, task_id=str(task.id))
    assert Task.objects.get(id=task.id).overlap_job_id is None


def test_a_stopped_tenants_retry_is_refused_as_a_single_one_is(tenant, task):
    job = add_job(task, 0)
    tenant.is_active = False
    with pytest.raises(Conflict) as refused:
        dlq_retry(tenant=tenant, criteria={"task_id": task.id}, dry_run=False, actor="t")
    assert refused.value.code == "tenant_stopped" and statuses(job) == ["dead"]


def test_jobs_that_die_during_the_request_are_left_for_the_next_one(api, task, monkeypatch):
    monkeypatch.setattr(bulk_actions, "BATCH_SIZE", 1)
    made, real = [], bulk_actions.jobs_retry_dead

    def dying_meanwhile(*, job_ids):
        if not made:
            made.append(add_job(task, 30))  # a newer id, matching the filter too
        return real(job_ids=job_ids)

    monkeypatch.setattr(bulk_actions, "jobs_retry_dead", dying_meanwhile)
    first, second = add_job(task, 0), add_job(task, 1)
    assert retry(api, task_id=str(task.id)).json()["count"] == 2
    assert statuses(first, second, made[0]) == ["pending", "pending", "dead"]
