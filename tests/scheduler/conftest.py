"""Helpers for the scheduler tests: tasks written straight to the table, due when we say."""

from datetime import UTC, datetime

import pytest

from scheduler_site.ids import new_id
from tasks.models import Task
from tasks.services import bucket_for

NOW = datetime(2026, 6, 1, 12, 0, 30, tzinfo=UTC)


@pytest.fixture
def add_task(tenant):
    def add(**fields) -> Task:
        task_id = fields.pop("id", None) or new_id()
        values = {
            "tenant": tenant,
            "url": "https://93.184.216.34/hook",
            "cron": "* * * * *",
            "timezone": "UTC",
            "next_run_at": NOW,
            "bucket": bucket_for(task_id),
        }
        values.update(fields)
        return Task.objects.create(id=task_id, **values)

    return add
