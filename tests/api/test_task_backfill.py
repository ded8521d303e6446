"""POST /v1/tasks/{id}/backfill: the runs of a past range's scheduled instants, made now."""

from datetime import UTC, datetime, timedelta

from jobs.models import Job
from tasks.models import Task

MINUTE = timedelta(minutes=1)


def minute_floor(moment: datetime) -> datetime:
    return moment.replace(second=0, microsecond=0)


def past_minutes(count: int, ago: int = 5) -> tuple[datetime, datetime]:
    """A range holding `count` instants of an every-minute task, ending `ago` minutes back."""
    end = minute_floor(datetime.now(UTC)) - ago * MINUTE
    return end - count * MINUTE, end


def backfill(api, task_id: str, start, end, **extra):
    body = {"start": _text(start), "end": _text(end), **extra}
    return api.post(f"/v1/tasks/{task_id}/backfill", body, format="json")


def _text(moment) -> str:
    return moment.isoformat() if isinstance(moment, datetime) else moment


def runs_of(task_id: str) -> list[Job]:
    return list(Job.objects.filter(task_id=task_id).order_by("scheduled_at"))


def test_backfill_answers_202_with_the_runs_made(api, make_task):
    task = make_task(cron="* * * * *")
    response = backfill(api, task["id"], *past_minutes(5))
    assert response.status_code == 202, response.content
    assert response.json() == {"made": 5, "existing": 0, "instants": 5}


def test_each_backfilled_run_keeps_its_instant_and_is_due_now(api, make_task):
    task = make_task(cron="* * * * *")
    start, end = past_minutes(3)
    before = datetime.now(UTC)
    backfill(api, task["id"], start, end)
    runs = runs_of(task["id"])
    assert [run.scheduled_at for run in runs] == [start, start + MINUTE, start + 2 * MINUTE]
    for run in runs:
        assert run.status == "pending" and run.attempt == 0
        assert before - timedelta(seconds=1) <= run.next_attempt_at <= datetime.now(UTC)


def test_the_range_end_is_excluded_and_its_start_included(api, make_task):
    task = make_task(cron="0 * * * *")
    end = datetime.now(UTC).replace(minute=0, second=0, microsecond=0)
    backfill(api, task["id"], end - timedelta(hours=2), end)
    assert [run.scheduled_at for run in runs_of(task["id"])] == [
        end - timedelta(hours=2),
        end - timedelta(hours=1),
    ]


def test_backfilled_runs_take_the_tasks_delivery_settings(api, make_task):
    task = make_task(
        cron="* * * * *", priority=3, max_attempts=7, timeout_seconds=12, backoff_base_seconds=4
    )
    backfill(api, task["id"], *past_minutes(1))
    (run,) = runs_of(task["id"])
    assert (run.priority, run.max_attempts, run.timeout_seconds, run.backoff_base_seconds) == (
        3,
        7,
        12,
        4,
    )


def test_a_repeated_backfill_makes_nothing_new(api, make_task):
    task = make_task(cron="* * * * *")
    start, end = past_minutes(4)
    backfill(api, task["id"], start, end)
    first_ids = {run.id for run in runs_of(task["id"])}
    again = backfill(api, task["id"], start, end)
    assert again.status_code == 202
    assert again.json() == {"made": 0, "existing": 4, "instants": 4}
    assert {run.id for run in runs_of(task["id"])} == first_ids


def test_an_overlapping_backfill_makes_only_the_missing_runs(api, make_task):
    task = make_task(cron="* * * * *")
    start, end = past_minutes(4)
    backfill(api, task["id"], start, start + 2 * MINUTE)
    response = backfill(api, task["id"], start, end)
    assert response.json() == {"made": 2, "existing": 2, "instants": 4}
    assert len(runs_of(task["id"])) == 4


def test_a_run_the_schedule_made_counts_as_existing(api, make_task, tenant):
    task = make_task(cron="* * * * *")
    start, end = past_minutes(3)
    Job.objects.create(tenant=tenant, task_id=task["id"], scheduled_at=start, next_attempt_at=start)
    assert backfill(api, task["id"], start, end).json() == {
        "made": 2,
        "existing": 1,
        "instants": 3,
    }


def test_a_range_without_instants_makes_nothing(api, make_task):
    task = make_task(cron="0 3 1 1 *")  # 1 January only
    response = backfill(api, task["id"], *past_minutes(30))
    assert response.status_code == 202
    assert response.json() == {"made": 0, "existing": 0, "instants": 0}


def test_backfill_follows_an_interval_schedule(api, add_task):
    anchor = minute_floor(datetime.now(UTC)) - timedelta(hours=1, seconds=30)
    task = add_task(cron=None, interval_seconds=90, starts_at=anchor, next_run_at=anchor)
    end = anchor + timedelta(minutes=6)
    response = backfill(api, str(task.id), anchor - timedelta(minutes=5), end)
    assert response.json()["made"] == 4
    step = timedelta(seconds=90)
    assert [run.scheduled_at for run in runs_of(task.id)] == [anchor + k * step for k in range(4)]


def test_backfill_makes_no_run_outside_the_tasks_window(api, add_task):
    start, end = past_minutes(10)
    task = add_task(starts_at=start + 2 * MINUTE, ends_at=start + 5 * MINUTE)
    assert backfill(api, str(task.id), start, end).json()["instants"] == 3
    assert [run.scheduled_at for run in runs_of(task.id)] == [
        start + 2 * MINUTE,
        start + 3 * MINUTE,
        start + 4 * MINUTE,
    ]


def test_backfilled_runs_of_a_paused_task_are_not_held(api, make_task):
    task = make_task(cron="* * * * *")
    api.post(f"/v1/tasks/{task['id']}/pause", HTTP_IF_MATCH="*")
    assert backfill(api, task["id"], *past_minutes(2)).status_code == 202
    assert {run.status for run in runs_of(task["id"])} == {"pending"}
    assert all(run.run_now for run in runs_of(task["id"]))


def test_a_pause_after_the_backfill_does_not_hold_its_runs(api, make_task):
    task = make_task(cron="* * * * *")
    backfill(api, task["id"], *past_minutes(2))
    api.post(f"/v1/tasks/{task['id']}/pause", HTTP_IF_MATCH="*")
    assert {run.status for run in runs_of(task["id"])} == {"pending"}


def test_backfill_does_not_count_toward_max_runs(api, add_task):
    task = add_task(max_runs=2)
    backfill(api, str(task.id), *past_minutes(5))
    stored = Task.objects.get(id=task.id)
    assert (stored.runs_made, stored.status) == (0, "active")
    assert len(runs_of(task.id)) == 5


def test_a_completed_task_can_be_backfilled_inside_its_window(api, add_task):
    start, end = past_minutes(3)
    task = add_task(status="completed", ends_at=end, next_run_at=None)
    assert backfill(api, str(task.id), start, end).json()["made"] == 3
