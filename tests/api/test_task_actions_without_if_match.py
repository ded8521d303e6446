"""Pause, resume and run now need no If-Match, as hosted schedulers pause without one; an
If-Match that is sent is still checked (stale or unreadable: 412, nothing done)."""

from jobs.models import Job
from tasks.models import Task


def test_pause_without_if_match_pauses(api, make_task):
    task = make_task()
    response = api.post(f"/v1/tasks/{task['id']}/pause")
    assert response.status_code == 200 and response.json()["status"] == "paused"
    assert response["ETag"] == '"2"'


def test_pause_with_a_blank_if_match_pauses(api, make_task):
    task = make_task()
    assert api.post(f"/v1/tasks/{task['id']}/pause", HTTP_IF_MATCH=" ").status_code == 200


def test_pause_with_a_stale_if_match_is_412_and_leaves_the_task_active(api, make_task):
    task = make_task()
    assert api.post(f"/v1/tasks/{task['id']}/pause", HTTP_IF_MATCH='"9"').status_code == 412
    assert Task.objects.get(id=task["id"]).status == "active"


def test_resume_without_if_match_resumes(api, make_task):
    task = make_task()
    api.post(f"/v1/tasks/{task['id']}/pause")
    response = api.post(f"/v1/tasks/{task['id']}/resume")
    assert response.status_code == 200 and response.json()["status"] == "active"


def test_resume_with_a_stale_if_match_is_412_and_leaves_the_task_paused(api, make_task):
    task = make_task()
    api.post(f"/v1/tasks/{task['id']}/pause")
    assert api.post(f"/v1/tasks/{task['id']}/resume", HTTP_IF_MATCH='"1"').status_code == 412
    assert Task.objects.get(id=task["id"]).status == "paused"


def test_run_now_with_the_current_if_match_runs(api, make_task):
    task = make_task()
    assert api.post(f"/v1/tasks/{task['id']}/run", HTTP_IF_MATCH='"1"').status_code == 202


def test_run_now_with_a_stale_if_match_is_412_and_makes_no_run(api, make_task):
    task = make_task()
    response = api.post(f"/v1/tasks/{task['id']}/run", HTTP_IF_MATCH='"5"')
    assert response.status_code == 412
    assert response.json()["error"]["code"] == "precondition_failed"
    assert not Job.objects.filter(task_id=task["id"]).exists()


def test_run_now_with_an_unreadable_if_match_is_412(api, make_task):
    task = make_task()
    assert api.post(f"/v1/tasks/{task['id']}/run", HTTP_IF_MATCH="abc").status_code == 412
