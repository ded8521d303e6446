"""Concurrent upserts of one new name make one task: the creation takes the tenant's row lock
and looks for the name again, so the others replace what the first one made."""

import threading

import pytest
import requests

from tasks.auth import issue_token
from tasks.models import Task
from tests.conftest import PUBLIC_URL

CALLERS = 8


@pytest.mark.django_db(transaction=True)
def test_concurrent_upserts_of_a_new_name_create_one_task(live_server, tenant):
    token = issue_token(tenant)
    barrier = threading.Barrier(CALLERS)
    responses = []

    def upsert(priority: int):
        barrier.wait()
        responses.append(
            requests.put(
                f"{live_server.url}/v1/tasks/by-name/nightly",
                json={"cron": "0 3 * * *", "url": PUBLIC_URL, "priority": priority},
                headers={"Authorization": f"Bearer {token}"},
                timeout=60,
            )
        )

    threads = [threading.Thread(target=upsert, args=(p + 1,)) for p in range(CALLERS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(r.status_code for r in responses) == [200] * (CALLERS - 1) + [201]
    assert len({r.json()["id"] for r in responses}) == 1
    assert Task.objects.filter(tenant=tenant).count() == 1
