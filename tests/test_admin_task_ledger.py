"""A task's console page shows its skipped-run ledger: the total, and its newest entries
(a bounded list), archived ones included."""

import re
from datetime import UTC, datetime, timedelta

import pytest
from django.contrib.auth.models import User

from history.records import SkipRecord
from history.sql_store import SqlHistoryStore
from scheduler_site.ids import new_id
from tasks.models import SkippedRun, Task

MARCH = datetime(2027, 3, 1, 9, 0, tzinfo=UTC)


@pytest.fixture
def operator_client(client, db):
    client.force_login(User.objects.create_superuser("ops", "ops@example.com", "pw"))
    return client


def entry(task, days: int, reason: str = "paused") -> SkippedRun:
    last = MARCH + timedelta(days=days)
    return SkippedRun.objects.create(
        tenant_id=task.tenant_id, task_id=task.id, reason=reason, first_scheduled_at=last,
        last_scheduled_at=last, count=days + 1, recorded_at=last,
    )  # fmt: skip


def ledger_rows(operator_client, task) -> list[list[str]]:
    page = operator_client.get(f"/admin/tasks/task/{task.id}/change/").content.decode()
    body = page.split("Skipped-run ledger:", 1)[1].split("</tbody>", 1)[0]
    return [re.findall(r"<td>(.*?)</td>", row) for row in body.split("<tr>")[2:]]


def test_the_page_shows_the_entries_newest_first_and_the_total(operator_client, add_task):
    task = add_task()
    entry(task, 1, "misfire"), entry(task, 2)
    Task.objects.filter(id=task.id).update(skipped_runs=5)
    rows = ledger_rows(operator_client, task)
    assert rows == [
        [
            "paused",
            "2027-03-03 09:00:00 UTC",
            "2027-03-03 09:00:00 UTC",
            "3",
            "2027-03-03 09:00:00 UTC",
        ],
        [
            "misfire",
            "2027-03-02 09:00:00 UTC",
            "2027-03-02 09:00:00 UTC",
            "2",
            "2027-03-02 09:00:00 UTC",
        ],
    ]
    page = operator_client.get(f"/admin/tasks/task/{task.id}/change/").content.decode()
    assert "5 run(s) skipped in all." in page


def test_archived_entries_are_shown_in_their_place(operator_client, add_task):
    task = add_task()
    entry(task, 1), entry(task, 3)
    day = MARCH + timedelta(days=2)
    SqlHistoryStore().write_skips(
        [SkipRecord(new_id(), task.tenant_id, task.id, "overlap", day, day, 1, day)]
    )
    assert [row[0] for row in ledger_rows(operator_client, task)] == ["paused", "overlap", "paused"]


def test_a_long_ledger_shows_its_newest_twenty(operator_client, add_task):
    task = add_task()
    for days in range(25):
        entry(task, days)
    rows = ledger_rows(operator_client, task)
    assert len(rows) == 20 and rows[0][3] == "25"
    page = operator_client.get(f"/admin/tasks/task/{task.id}/change/").content.decode()
    assert "The newest 20 are shown" in page


def test_without_the_history_store_the_page_says_its_list_is_partial(
    operator_client, add_task, settings
):
    from history.stores import close_history_stores
    from tests.processes import free_port

    task = add_task()
    entry(task, 1)
    settings.HISTORY_BACKEND = "cassandra"
    settings.CASSANDRA_HOSTS = ["127.0.0.1"]
    settings.CASSANDRA_PORT = free_port()  # nothing listens there
    try:
        page = operator_client.get(f"/admin/tasks/task/{task.id}/change/")
    finally:
        close_history_stores()
    assert page.status_code == 200
    assert "archived entries are not shown" in page.content.decode()
    assert len(ledger_rows(operator_client, task)) == 1
