"""The tick under each overlap policy: allow makes the run, skip records it in the ledger,
buffer_one makes one waiting run; the schedule always advances."""

from datetime import timedelta

from django.db import connection
from django.test.utils import CaptureQueriesContext

from jobs.models import Job
from tasks.models import SkippedRun, Task
from tasks.tick import run_tick
from tests.scheduler.conftest import NOW

MINUTE = NOW.replace(second=0)
NEXT = MINUTE + timedelta(minutes=1)


def unfinished_job(task, status: str = "running", **fields) -> Job:
    earlier = MINUTE - timedelta(minutes=5)
    values = {"scheduled_at": earlier, "next_attempt_at": earlier, **fields}
    return Job.objects.create(tenant=task.tenant, task=task, status=status, **values)


def made_runs(task) -> list[tuple]:
    jobs = Job.objects.filter(task=task, scheduled_at__gte=MINUTE).order_by("scheduled_at")
    return [(job.scheduled_at, job.status) for job in jobs]


def ledger(task) -> list[tuple]:
    rows = SkippedRun.objects.filter(task_id=task.id).order_by("first_scheduled_at")
    return [(r.reason, r.first_scheduled_at, r.last_scheduled_at, r.count) for r in rows]


def test_skip_makes_no_run_while_one_is_unfinished(add_task):
    task = add_task(overlap="skip", next_run_at=MINUTE)
    unfinished_job(task)
    assert run_tick(now=NOW).jobs == 0
    assert made_runs(task) == []


def test_skip_records_the_run_in_the_ledger(add_task):
    task = add_task(overlap="skip", next_run_at=MINUTE)
    unfinished_job(task)
    run_tick(now=NOW)
    assert ledger(task) == [("overlap", MINUTE, MINUTE, 1)]
    assert Task.objects.get(id=task.id).skipped_runs == 1


def test_skip_advances_the_schedule(add_task):
    task = add_task(overlap="skip", next_run_at=MINUTE)
    unfinished_job(task)
    run_tick(now=NOW)
    stored = Task.objects.get(id=task.id)
    assert stored.next_run_at == NEXT and stored.status == "active"


def test_consecutive_overlap_skips_are_one_entry(add_task):
    task = add_task(overlap="skip", next_run_at=MINUTE)
    unfinished_job(task)
    run_tick(now=NOW)
    run_tick(now=NEXT + timedelta(seconds=1))
    assert ledger(task) == [("overlap", MINUTE, NEXT, 2)]


def test_skip_makes_the_run_when_nothing_is_unfinished(add_task):
    task = add_task(overlap="skip", next_run_at=MINUTE)
    unfinished_job(task, status="succeeded")
    unfinished_job(task, status="dead", scheduled_at=MINUTE - timedelta(minutes=2))
    assert run_tick(now=NOW).jobs == 1
    assert made_runs(task) == [(MINUTE, "pending")]
    assert ledger(task) == []


def test_a_run_now_job_counts_as_a_run_of_the_task(add_task):
    task = add_task(overlap="skip", next_run_at=MINUTE)
    unfinished_job(task, status="pending", run_now=True)
    assert run_tick(now=NOW).jobs == 0


def test_a_job_waiting_for_its_retry_counts_as_unfinished(add_task):
    task = add_task(overlap="skip", next_run_at=MINUTE)
    unfinished_job(task, status="pending", attempt=1, next_attempt_at=NOW + timedelta(hours=1))
    assert run_tick(now=NOW).jobs == 0


def test_a_job_its_flow_holds_back_counts_as_unfinished(add_task):
    task = add_task(overlap="skip", next_run_at=MINUTE)
    unfinished_job(task, status="throttled")
    assert run_tick(now=NOW).jobs == 0


def test_allow_makes_the_run_beside_an_unfinished_one(add_task):
    task = add_task(overlap="allow", next_run_at=MINUTE)
    unfinished_job(task)
    assert run_tick(now=NOW).jobs == 1
    assert made_runs(task) == [(MINUTE, "pending")]
    assert ledger(task) == []


def test_buffer_one_makes_one_waiting_run(add_task):
    task = add_task(overlap="buffer_one", next_run_at=MINUTE)
    unfinished_job(task)
    assert run_tick(now=NOW).jobs == 1
    assert made_runs(task) == [(MINUTE, "waiting")]
    assert Task.objects.get(id=task.id).next_run_at == NEXT


def test_buffer_one_skips_a_further_run_while_one_waits(add_task):
    task = add_task(overlap="buffer_one", next_run_at=MINUTE)
    unfinished_job(task)
    run_tick(now=NOW)
    assert run_tick(now=NEXT + timedelta(seconds=1)).jobs == 0
    assert made_runs(task) == [(MINUTE, "waiting")]
    assert ledger(task) == [("overlap", NEXT, NEXT, 1)]


def test_buffer_one_makes_a_pending_run_when_nothing_is_unfinished(add_task):
    task = add_task(overlap="buffer_one", next_run_at=MINUTE)
    assert run_tick(now=NOW).jobs == 1
    assert made_runs(task) == [(MINUTE, "pending")]


def overlap_reads(queries) -> list[str]:
    return [q["sql"] for q in queries if "SELECT j.task_id, j.status" in q["sql"]]


def test_the_tick_asks_once_whatever_the_number_of_tasks(add_task):
    tasks = [add_task(overlap="skip", next_run_at=MINUTE) for _ in range(5)]
    unfinished_job(tasks[0])
    with CaptureQueriesContext(connection) as queries:
        assert run_tick(now=NOW).jobs == 4
    assert len(overlap_reads(queries.captured_queries)) == 1


def test_a_tick_of_allow_tasks_asks_nothing(add_task):
    for _ in range(3):
        add_task(overlap="allow", next_run_at=MINUTE)
    with CaptureQueriesContext(connection) as queries:
        run_tick(now=NOW)
    assert overlap_reads(queries.captured_queries) == []


def test_a_skip_run_in_the_lookahead_is_judged_when_it_is_due(add_task):
    task = add_task(overlap="skip", next_run_at=NOW + timedelta(seconds=3))
    Job.objects.create(
        tenant=task.tenant,
        task=task,
        status="pending",
        scheduled_at=NOW + timedelta(seconds=1),
        next_attempt_at=NOW + timedelta(seconds=1),
    )  # fmt: skip  (the run before it, not yet due: not late, not overlapping)
    assert run_tick(now=NOW, lookahead_seconds=5).jobs == 0
    assert not SkippedRun.objects.filter(task_id=task.id).exists()
    assert Task.objects.get(id=task.id).next_run_at == NOW + timedelta(seconds=3)
