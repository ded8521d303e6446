"""A run now that loses the race with the archiver's purge of its task is a 404, not a 500."""

import re

import pytest
from django.db import connection

from tasks.models import Task
from tests.statement_hooks import once_after_first

pytestmark = pytest.mark.django_db


def test_a_task_purged_between_the_lookup_and_the_lock_is_404(api, make_task):
    task = make_task()
    Task.objects.filter(id=task["id"]).update(status="completed")

    def is_the_lookup(sql: str) -> bool:  # the task's first read, before any lock
        return re.match(r'SELECT .* FROM [`"]tasks[`"] .*LIMIT 1$', sql.strip()) is not None

    def purge() -> None:
        Task.objects.filter(id=task["id"]).delete()

    with connection.execute_wrapper(once_after_first(is_the_lookup, purge)):
        response = api.post(f"/v1/tasks/{task['id']}/run")
    assert response.status_code == 404, response.content
