"""The SDK's tasks against a real API: each call, its types, and its errors."""

from datetime import UTC, datetime
from itertools import islice

import pytest
from atcron import ApiError, Client, Job, Task

from tests.conftest import PUBLIC_URL

pytestmark = pytest.mark.django_db(transaction=True)


def nightly(**fields) -> dict:
    return {"name": "nightly", "cron": "0 3 * * *", "url": PUBLIC_URL, **fields}


def test_a_created_task_comes_back_typed_and_reads_the_same(sdk):
    made = sdk.tasks.create(nightly(labels={"env": "prod"}))
    assert isinstance(made, Task) and made.status == "active" and made.version >= 1
    assert isinstance(made.next_run_at, datetime) and made.next_run_at.tzinfo is not None
    assert made.labels == {"env": "prod"}
    assert sdk.tasks.get(made.id) == made


def test_a_repeated_idempotency_key_returns_the_first_task(sdk):
    first = sdk.tasks.create(nightly(), idempotency_key="deploy-1")
    assert sdk.tasks.create(nightly(), idempotency_key="deploy-1").id == first.id


def test_the_list_iterates_across_pages_newest_first(sdk):
    made = [sdk.tasks.create(nightly(name=f"t{n}")).id for n in range(5)]
    listed = [task.id for task in sdk.tasks.list(page_size=2)]
    assert listed == made[::-1]


def test_the_list_is_lazy_and_filters_by_status_and_label(sdk):
    kept = sdk.tasks.create(nightly(labels={"team": "billing"}))
    sdk.tasks.create(nightly(labels={"team": "crm"}))
    paused = sdk.tasks.pause(sdk.tasks.create(nightly(labels={"team": "billing"})).id)
    assert [t.id for t in sdk.tasks.list(labels={"team": "billing"}, status="active")] == [kept.id]
    assert [t.id for t in islice(sdk.tasks.list(status="paused", page_size=1), 1)] == [paused.id]


def test_an_update_sends_the_current_version_itself(sdk):
    made = sdk.tasks.create(nightly())
    changed = sdk.tasks.update(made.id, {"cron": "30 4 * * *"})
    assert changed.cron == "30 4 * * *" and changed.version == made.version + 1


def test_an_update_at_a_stale_version_is_a_412_api_error(sdk):
    made = sdk.tasks.create(nightly())
    sdk.tasks.update(made.id, {"cron": "30 4 * * *"})
    with pytest.raises(ApiError) as refused:
        sdk.tasks.update(made.id, {"cron": "0 5 * * *"}, version=made.version)
    assert refused.value.status == 412 and refused.value.code == "precondition_failed"
    assert sdk.tasks.get(made.id).cron == "30 4 * * *"


def test_pause_and_resume_need_no_version(sdk):
    made = sdk.tasks.create(nightly())
    assert sdk.tasks.pause(made.id).status == "paused"
    assert sdk.tasks.resume(made.id).status == "active"


def test_run_now_returns_the_job_made(sdk):
    made = sdk.tasks.create(nightly())
    job = sdk.tasks.run(made.id)
    assert isinstance(job, Job) and job.task_id == made.id and job.status == "pending"
    assert [run.id for run in sdk.jobs.list(made.id)] == [job.id]


def test_a_deleted_task_is_gone(sdk):
    made = sdk.tasks.create(nightly())
    assert sdk.tasks.delete(made.id) is None
    with pytest.raises(ApiError) as gone:
        sdk.tasks.get(made.id)
    assert gone.value.status == 404


def test_a_refused_create_carries_the_status_and_the_fields_named(sdk):
    with pytest.raises(ApiError) as refused:
        sdk.tasks.create({"name": "x", "url": PUBLIC_URL, "cron": "nope", "colour": "red"})
    error = refused.value
    assert error.status == 400 and error.code == "invalid"
    assert "colour" in error.fields
    assert error.body["error"]["fields"] == error.fields
    assert "colour" in str(error)


def test_an_unknown_task_is_a_404_api_error(sdk):
    with pytest.raises(ApiError) as refused:
        sdk.tasks.get("0190f0c4-8c1e-7b7a-9b1e-3f1f2c4d5e6f")
    assert refused.value.status == 404 and refused.value.code == "not_found"


def test_an_instant_given_as_a_datetime_goes_out_in_iso_8601(sdk):
    made = sdk.tasks.create(
        {"name": "once", "run_at": datetime(2030, 1, 1, 9, tzinfo=UTC), "url": PUBLIC_URL}
    )
    assert made.run_at == datetime(2030, 1, 1, 9, tzinfo=UTC)


def test_the_list_filters_by_name(sdk):
    wanted = sdk.tasks.create(nightly(name="export"))
    sdk.tasks.create(nightly(name="import"))
    assert [task.id for task in sdk.tasks.list(name="export")] == [wanted.id]


@pytest.fixture
def one_creation_a_second(tenant):
    tenant.create_rate, tenant.create_burst = 1, 1
    tenant.save()


def test_a_rate_limited_create_is_sent_again_after_its_retry_after(sdk, one_creation_a_second):
    sdk.tasks.create(nightly(name="first"))
    assert sdk.tasks.create(nightly(name="second")).name == "second"


def test_without_retries_a_rate_limited_create_raises_with_retry_after(
    base_url, token, one_creation_a_second
):
    with Client(base_url, token, retries=0) as client:
        client.tasks.create(nightly(name="first"))
        with pytest.raises(ApiError) as refused:
            client.tasks.create(nightly(name="second"))
    assert refused.value.status == 429 and refused.value.headers["Retry-After"] == "1"
