"""A job the archiver moved to the history store keeps its admin URL: a read-only page with
its attempts, found by its id in the job search too, on the SQL and the Cassandra store."""

from __future__ import annotations

import uuid

from jobs.models import Job
from tasks.models import Tenant


def page_of(operator_client, record, **params):
    return operator_client.get(f"/admin/jobs/job/{record.id}/change/", params)


def test_an_archived_jobs_page_shows_the_job_and_its_attempts(operator_client, add_task, archived):
    record = archived.job(add_task(name="nightly-invoices"))
    page = page_of(operator_client, record)
    text = page.content.decode()
    assert page.status_code == 200 and "Archived" in text
    assert "nightly-invoices" in text and "2 of 5" in text and "thanks" in text
    assert text.count('class="attempt"') == 2 and "timed out after 30 s" in text


def test_an_archived_job_is_read_in_one_lookup_with_its_tenant(operator_client, add_task, archived):
    record = archived.job(add_task())
    page = page_of(operator_client, record, tenant=str(record.tenant_id))
    assert page.status_code == 200 and str(record.id) in page.content.decode()


def test_an_archived_job_is_found_among_many_tenants_without_its_tenant(
    operator_client, add_task, archived
):
    Tenant.objects.bulk_create([Tenant(name=f"t{n}") for n in range(30)])
    record = archived.job(add_task())
    assert page_of(operator_client, record).status_code == 200


def test_an_archived_jobs_page_offers_no_retry_or_cancel(operator_client, add_task, archived):
    record = archived.job(add_task(), status="dead", http_status=503)
    text = page_of(operator_client, record).content.decode()
    assert 'id="retry-job"' not in text and 'id="cancel-job"' not in text
    assert "dead" in text and "503" in text


def test_a_job_in_neither_store_is_still_not_found(operator_client, history):
    page = operator_client.get(f"/admin/jobs/job/{uuid.uuid4()}/change/")
    assert page.status_code == 302  # Django's "doesn't exist", back to the index


def test_another_tenants_id_does_not_open_an_archived_job(
    operator_client, add_task, archived, other_tenant
):
    record = archived.job(add_task())
    page = page_of(operator_client, record, tenant=str(other_tenant.id))
    assert page.status_code == 302


def test_a_job_still_in_the_queue_shows_the_queues_page(operator_client, add_task, archived):
    task = add_task()
    job = Job.objects.create(
        tenant=task.tenant,
        task=task,
        scheduled_at=task.next_run_at,
        next_attempt_at=task.next_run_at,
    )
    text = operator_client.get(f"/admin/jobs/job/{job.id}/change/").content.decode()
    assert "Archived" not in text and "Last attempt" in text


def test_searching_a_whole_archived_id_opens_its_page(operator_client, add_task, archived):
    record = archived.job(add_task())
    page = operator_client.get("/admin/jobs/job/", {"q": str(record.id)})
    assert page.status_code == 302
    assert page["Location"] == f"/admin/jobs/job/{record.id}/change/?tenant={record.tenant_id}"


def test_searching_an_unknown_id_lists_nothing(operator_client, history):
    page = operator_client.get("/admin/jobs/job/", {"q": str(uuid.uuid4())})
    assert page.status_code == 200 and list(page.context["cl"].result_list) == []


def test_the_page_says_so_when_the_history_store_is_down(
    operator_client, add_task, unreachable_cassandra
):
    page = operator_client.get(f"/admin/jobs/job/{uuid.uuid4()}/change/")
    assert page.status_code == 503 and 'id="history-unavailable"' in page.content.decode()


def test_a_viewer_without_the_job_permission_is_refused(client, add_task, archived):
    from django.contrib.auth.models import User

    client.force_login(User.objects.create_user("guest", password="pw", is_staff=True))
    record = archived.job(add_task())
    assert page_of(client, record).status_code == 403


def test_a_job_page_of_an_id_that_is_no_uuid_is_the_admins_not_found(operator_client):
    assert operator_client.get("/admin/jobs/job/not-a-uuid/change/").status_code == 302


def test_a_job_button_of_an_id_that_is_no_uuid_is_a_404(operator_client):
    assert operator_client.post("/admin/jobs/job/not-a-uuid/retry/").status_code == 404
