"""A task's page says when it runs (its cron in words, its next five runs) and how its
last run went; the task list shows the last run, its result and the runs made."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from django.db import connection
from django.test.utils import CaptureQueriesContext

from jobs.models import Job

NEXT = datetime(2027, 3, 27, 1, 30, tzinfo=UTC)


def task_page(operator_client, task) -> str:
    return operator_client.get(f"/admin/tasks/task/{task.id}/change/").content.decode()


def ran(task, *, minutes_ago: int, **fields) -> Job:
    moment = datetime.now(UTC) - timedelta(minutes=minutes_ago)
    values = dict(
        scheduled_at=moment,
        next_attempt_at=moment,
        started_at=moment,
        finished_at=moment,
        status="succeeded",
        attempt=1,
        http_status=200,
    )
    values.update(fields)
    return Job.objects.create(tenant=task.tenant, task=task, **values)


def test_the_task_page_reads_its_cron_in_words_in_its_zone(operator_client, add_task, history):
    task = add_task(cron="30 2 * * 1-5", timezone="Europe/Madrid")
    assert "At 02:30, Monday through Friday (Europe/Madrid)" in task_page(operator_client, task)


def test_the_task_page_lists_the_next_five_runs(operator_client, add_task, history):
    task = add_task(cron="30 2 * * *", timezone="Europe/Madrid", next_run_at=NEXT)
    page = operator_client.get(f"/admin/tasks/task/{task.id}/change/")
    runs = page.context["timing"]["next_runs"]
    assert len(runs) == 5 and runs[0].at == NEXT and runs[1].dst == "moved"
    text = page.content.decode()
    assert text.count('class="next-run"') == 5 and "2027-03-28 03:00:00 CEST" in text


def test_a_paused_task_says_it_has_no_next_runs(operator_client, add_task, history):
    text = task_page(operator_client, add_task(status="paused"))
    assert "none while the task is paused" in text


def test_the_task_page_shows_the_last_run_and_its_result(operator_client, add_task, history):
    task = add_task()
    ran(task, minutes_ago=30)
    last = ran(task, minutes_ago=5, status="dead", http_status=503, attempt=5)
    text = task_page(operator_client, task)
    assert f'href="/admin/jobs/job/{last.id}/change/"' in text and "dead (503)" in text


def test_the_last_run_is_found_in_the_history_once_archived(operator_client, add_task, archived):
    task = add_task()
    ran(task, minutes_ago=600, status="dead", http_status=500, attempt=5)  # kept for days
    newest = archived.job(task, minutes_ago=60)  # archived an hour after it succeeded
    text = task_page(operator_client, task)
    assert f"/admin/jobs/job/{newest.id}/change/?tenant={task.tenant_id}" in text
    assert "succeeded (200)" in text and "(archived)" in text


def test_the_task_page_shows_the_runs_made(operator_client, add_task, history):
    task = add_task(runs_made=7, max_runs=10)
    assert "7 of 10" in task_page(operator_client, task)


def test_the_task_list_shows_last_run_result_and_run_count(operator_client, add_task, history):
    task = add_task(name="crm-sync", runs_made=12)
    ran(task, minutes_ago=20)
    ran(task, minutes_ago=2, status="pending", http_status=502, attempt=1)  # will retry
    ran(task, minutes_ago=-30, started_at=None, status="pending", http_status=None)  # not yet
    row = operator_client.get("/admin/tasks/task/").context["cl"].result_list[0]
    assert row.last_status == "pending" and row.last_http == 502 and row.runs_made == 12
    text = operator_client.get("/admin/tasks/task/").content.decode()
    assert "failed, retrying (502)" in text and '<td class="field-run_count">12</td>' in text


def test_the_task_list_reads_the_last_runs_in_one_query(operator_client, add_task, history):
    def queries() -> int:
        with CaptureQueriesContext(connection) as captured:
            operator_client.get("/admin/tasks/task/")
        return len(captured)

    ran(add_task(name="first"), minutes_ago=5)
    one = queries()
    for n in range(5):
        ran(add_task(name=f"more-{n}"), minutes_ago=5)
    assert queries() == one


def test_the_task_list_shows_a_run_archived_since_as_the_last(operator_client, add_task, archived):
    task = add_task()
    ran(task, minutes_ago=600, status="dead", http_status=500, attempt=5)  # kept for days
    newest = archived.job(task, minutes_ago=60)
    text = operator_client.get("/admin/tasks/task/").content.decode()
    assert "succeeded (200)" in text and "dead (500)" not in text
    assert f"/admin/jobs/job/{newest.id}/change/?tenant={task.tenant_id}" in text


def test_the_task_list_shows_the_queues_run_when_it_is_newer(operator_client, add_task, archived):
    task = add_task()
    archived.job(task, minutes_ago=600)
    ran(task, minutes_ago=5, status="dead", http_status=500, attempt=5)
    assert "dead (500)" in operator_client.get("/admin/tasks/task/").content.decode()


def test_the_task_list_reads_the_archived_last_runs_in_one_batch(
    operator_client, add_task, archived
):
    def queries() -> int:
        with CaptureQueriesContext(connection) as captured:
            operator_client.get("/admin/tasks/task/")
        return len(captured)

    archived.job(add_task(name="first"))
    one = queries()
    for n in range(5):
        archived.job(add_task(name=f"more-{n}"))
    assert queries() == one


def test_a_task_page_of_an_id_that_is_no_uuid_is_the_admins_not_found(operator_client):
    """As Django's own pages answer it: a redirect with "doesn't exist", never a 500."""
    response = operator_client.get("/admin/tasks/task/not-a-uuid/change/")
    assert response.status_code == 302


def test_a_task_button_of_an_id_that_is_no_uuid_is_a_404(operator_client):
    assert operator_client.post("/admin/tasks/task/not-a-uuid/pause/").status_code == 404
