"""A task's archived runs: its jobs in the history store, newest first, each linking to
its read-only page, a page of 50 at a time."""

from __future__ import annotations

from console.archived_jobs import RUNS_PER_PAGE


def runs_page(operator_client, task, **params):
    return operator_client.get(f"/admin/tasks/task/{task.id}/archived/", params)


def test_a_tasks_archived_runs_are_listed_newest_first(operator_client, add_task, archived):
    task = add_task(name="nightly")
    older = archived.job(task, minutes_ago=20)
    newer = archived.job(task, minutes_ago=5, status="dead", http_status=503)
    archived.job(add_task(name="another"))
    page = runs_page(operator_client, task)
    runs = [run for run, _ in page.context["runs"]]
    assert [run.id for run in runs] == [newer.id, older.id]


def test_each_archived_run_links_to_its_page_with_its_tenant(operator_client, add_task, archived):
    task = add_task()
    record = archived.job(task)
    text = runs_page(operator_client, task).content.decode()
    assert f'href="/admin/jobs/job/{record.id}/change/?tenant={task.tenant_id}"' in text


def test_older_runs_are_a_link_away(operator_client, add_task, archived):
    task = add_task()
    records = [archived.job(task, minutes_ago=minute) for minute in range(RUNS_PER_PAGE + 1)]
    first = runs_page(operator_client, task)
    assert len(first.context["runs"]) == RUNS_PER_PAGE and first.context["older"]
    second = runs_page(operator_client, task, before=first.context["older"])
    assert [run.id for run, _ in second.context["runs"]] == [records[-1].id]
    assert second.context["older"] is None


def test_a_task_without_archived_runs_says_so(operator_client, add_task, history):
    text = runs_page(operator_client, add_task()).content.decode()
    assert 'id="no-archived-runs"' in text


def test_an_unknown_task_has_no_archived_page(operator_client, history):
    page = operator_client.get("/admin/tasks/task/00000000-0000-0000-0000-000000000000/archived/")
    assert page.status_code == 404


def test_the_archived_runs_of_an_id_that_is_no_uuid_is_a_404(operator_client):
    assert operator_client.get("/admin/tasks/task/not-a-uuid/archived/").status_code == 404
