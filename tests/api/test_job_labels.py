"""Jobs made by hand (run now, backfill) carry their task's labels, shown in the job."""

from datetime import UTC, datetime, timedelta

from jobs.models import Job


def test_run_now_copies_the_labels(api, make_task):
    task = make_task(labels={"env": "prod"})
    body = api.post(f"/v1/tasks/{task['id']}/run").json()
    assert body["labels"] == {"env": "prod"}
    assert Job.objects.get(id=body["id"]).labels == {"env": "prod"}


def test_run_now_of_an_unlabelled_task_stores_null(api, make_task):
    task = make_task()
    body = api.post(f"/v1/tasks/{task['id']}/run").json()
    assert body["labels"] == {} and Job.objects.get(id=body["id"]).labels is None


def _backfill(api, task_id: str) -> None:
    end = datetime.now(UTC).replace(second=0, microsecond=0) - timedelta(minutes=5)
    start = end - timedelta(minutes=3)
    body = {"start": start.isoformat(), "end": end.isoformat()}
    response = api.post(f"/v1/tasks/{task_id}/backfill", body, format="json")
    assert response.status_code == 202, response.content


def test_backfill_copies_the_labels(api, make_task):
    task = make_task(cron="* * * * *", labels={"env": "prod"})
    _backfill(api, task["id"])
    labels = list(Job.objects.filter(task_id=task["id"]).values_list("labels", flat=True))
    assert labels == [{"env": "prod"}] * 3


def test_backfill_of_an_unlabelled_task_stores_null(api, make_task):
    task = make_task(cron="* * * * *")
    _backfill(api, task["id"])
    labels = set(Job.objects.filter(task_id=task["id"]).values_list("labels", flat=True))
    assert labels == {None}


def test_a_job_shows_its_labels(api, make_task):
    task = make_task(labels={"env": "prod"})
    job_id = api.post(f"/v1/tasks/{task['id']}/run").json()["id"]
    assert api.get(f"/v1/jobs/{job_id}").json()["labels"] == {"env": "prod"}
