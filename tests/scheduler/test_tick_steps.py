"""The tick writes a plain step (one run made, nothing else changed) and a full one (a
completion, a closed ledger entry) in the same tick, each row as its own step says."""

from datetime import timedelta

from scheduler_site.ids import new_id
from tasks.models import SkipReason, Task
from tasks.tick import run_tick
from tests.scheduler.conftest import NOW


def test_plain_and_full_steps_of_one_tick_each_land_on_their_row(add_task):
    due = NOW.replace(second=0, minute=0)
    plain = add_task(cron="*/5 * * * *", next_run_at=due)
    reopened = add_task(
        cron="*/5 * * * *",
        next_run_at=due,
        open_skip_id=new_id(),
        open_skip_reason=SkipReason.PAUSED,
    )
    one_off = add_task(cron=None, run_at=due, next_run_at=due)
    assert run_tick(now=NOW).jobs == 3
    rows = {t.id: t for t in Task.objects.filter(id__in=[plain.id, reopened.id, one_off.id])}
    assert (rows[plain.id].next_run_at, rows[plain.id].runs_made) == (due + timedelta(minutes=5), 1)
    assert rows[reopened.id].open_skip_id is None and rows[reopened.id].runs_made == 1
    assert rows[one_off.id].status == "completed" and rows[one_off.id].next_run_at is None


def test_plain_step_keeps_the_runs_already_made(add_task):
    due = NOW.replace(second=0, minute=0)
    task = add_task(cron="*/5 * * * *", next_run_at=due, runs_made=41)
    run_tick(now=NOW)
    assert Task.objects.get(id=task.id).runs_made == 42
