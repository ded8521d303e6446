"""The task quota counts the tenant's tasks only near its limit: far from it a create
raises the bound in task_counts instead, under the same row lock."""

from datetime import timedelta

from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from tasks.held_counts import RECOUNT_AFTER
from tasks.models import TaskCount, Tenant
from tests.conftest import cron_task


def create(api):
    return api.post("/v1/tasks", cron_task(), format="json")


def counts_made(api) -> int:
    with CaptureQueriesContext(connection) as queries:
        assert create(api).status_code == 201
    return sum("COUNT(*)" in q["sql"] for q in queries)


def test_a_create_far_from_the_limit_counts_no_tasks(api, tenant):
    Tenant.objects.filter(id=tenant.id).update(max_tasks=100)
    create(api)  # the first one counts
    assert counts_made(api) == 0
    assert TaskCount.objects.get(tenant=tenant).held_bound == 2


def test_a_bound_at_the_limit_is_counted_again_and_deletions_make_room(api, tenant):
    Tenant.objects.filter(id=tenant.id).update(max_tasks=2)
    first = create(api).json()
    create(api)
    api.delete(f"/v1/tasks/{first['id']}", HTTP_IF_MATCH='"1"')
    assert create(api).status_code == 201  # the bound said full: counted, one place free
    assert create(api).status_code == 403


def test_an_old_bound_is_counted_again(api, tenant, add_task):
    Tenant.objects.filter(id=tenant.id).update(max_tasks=3)
    create(api)
    add_task(), add_task()  # made past the quota's checks: only a count sees them
    old = timezone.now() - RECOUNT_AFTER - timedelta(seconds=1)
    TaskCount.objects.filter(tenant=tenant).update(counted_at=old)
    assert create(api).status_code == 403


def test_a_batch_raises_the_bound_by_the_tasks_it_made(api, tenant):
    Tenant.objects.filter(id=tenant.id).update(max_tasks=10)
    create(api)
    tasks = [cron_task(name=f"b{n}") for n in range(3)]
    assert api.post("/v1/tasks/batch", {"tasks": tasks}, format="json").status_code == 200
    assert TaskCount.objects.get(tenant=tenant).held_bound == 4


def test_a_batch_beyond_the_room_left_gets_403_for_the_rest(api, tenant):
    Tenant.objects.filter(id=tenant.id).update(max_tasks=3)
    create(api)
    tasks = [cron_task(name=f"b{n}") for n in range(4)]
    results = api.post("/v1/tasks/batch", {"tasks": tasks}, format="json").json()["results"]
    assert [r["status"] for r in results] == [201, 201, 403, 403]
