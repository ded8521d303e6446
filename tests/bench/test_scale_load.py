"""The scale benchmark's loader (bench/scale_load.py) at a small size: the rows it makes, not
how fast it makes them."""

import pytest
from django.db import connection

from bench import scale_load
from jobs.models import Job
from tasks.models import Task
from tasks.services import bucket_for
from tasks.tick import run_tick

pytestmark = pytest.mark.django_db


def loaded(tasks: int = 1000, finished: int = 5000) -> None:
    with connection.cursor() as cursor:
        scale_load.load(cursor, scale_load.Size(tasks, finished))


def test_the_loader_makes_the_asked_counts_of_tasks_and_finished_jobs():
    loaded()
    assert (Task.objects.count(), Job.objects.count()) == (1000, 5000)


def test_the_tasks_have_1000_distinct_expressions_in_100_zones():
    loaded()
    assert Task.objects.values("cron").distinct().count() == 1000
    assert Task.objects.values("timezone").distinct().count() == 100


def test_the_expressions_hold_h_jittered_hourly_and_daily_ones():
    crons = [scale_load.expression(i) for i in range(scale_load.PAIRS)]
    assert sum(c.startswith("H ") and "(" not in c for c in crons) == 250  # hourly
    assert sum(c.startswith("H H(") for c in crons) == 250  # daily


def test_each_minute_from_t0_holds_10000_due_tasks():
    loaded(tasks=20_000, finished=0)
    minutes = Task.objects.values_list("next_run_at", flat=True).distinct()
    counts = [Task.objects.filter(next_run_at=m).count() for m in minutes]
    assert sorted(minutes)[0] == scale_load.T0 and counts == [10_000, 10_000]


def test_a_tasks_id_computed_in_python_is_the_loaded_one():
    loaded()
    assert Task.objects.filter(id=scale_load.task_id(999), name="t999").exists()


def test_the_loaded_buckets_are_bucket_for_of_the_ids():
    loaded()
    assert all(bucket_for(t.id) == t.bucket for t in Task.objects.all()[:200])


def test_one_finished_job_in_50_is_dead():
    loaded()
    assert Job.objects.filter(status="dead").count() == 5000 // scale_load.DEAD_EVERY


def test_every_finished_job_is_of_its_tasks_tenant():
    loaded()
    tenant_of = dict(Task.objects.values_list("id", "tenant_id"))
    assert all(tenant_of[j.task_id] == j.tenant_id for j in Job.objects.all()[:500])


def test_every_tenant_has_dead_jobs():
    loaded()
    dead = Job.objects.filter(status="dead").values("tenant_id").distinct()
    assert dead.count() == scale_load.TENANTS


def test_making_the_slot_due_undoes_a_tick():
    loaded(finished=0)
    run_tick(now=scale_load.T0, batch_size=1000)
    with connection.cursor() as cursor:
        scale_load.make_slot_due(cursor)
    assert not Job.objects.exists()
    assert set(Task.objects.values_list("next_run_at", flat=True)) == {scale_load.T0}
