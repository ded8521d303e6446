"""GET /v1/tasks/{id}/skipped: the task's skipped-run ledger, newest first, paged with the
project's cursor, live and archived entries merged; another tenant's task is not found."""

from datetime import UTC, datetime, timedelta

from history.records import SkipRecord
from history.sql_store import SqlHistoryStore
from scheduler_site.ids import new_id
from tasks.models import SkippedRun

MARCH = datetime(2027, 3, 1, 9, 0, tzinfo=UTC)


def entry(task, days: int, reason: str = "paused", count: int = 60) -> SkippedRun:
    last = MARCH + timedelta(days=days)
    return SkippedRun.objects.create(
        tenant_id=task.tenant_id,
        task_id=task.id,
        reason=reason,
        first_scheduled_at=last - timedelta(minutes=count - 1),
        last_scheduled_at=last,
        count=count,
        recorded_at=last + timedelta(seconds=4),
    )


def archived(task, days: int) -> SkipRecord:
    last = MARCH + timedelta(days=days)
    record = SkipRecord(new_id(), task.tenant_id, task.id, "misfire", last, last, 1, last)
    SqlHistoryStore().write_skips([record])
    return record


def skipped(api, task, **query):
    return api.get(f"/v1/tasks/{task.id}/skipped", query)


def test_entries_are_listed_newest_first_with_their_fields(api, add_task):
    task = add_task()
    older, newer = entry(task, 1, "misfire", 3), entry(task, 2)
    body = skipped(api, task).json()
    assert [e["id"] for e in body["results"]] == [str(newer.id), str(older.id)]
    assert body["results"][1] == {
        "id": str(older.id),
        "reason": "misfire",
        "first_scheduled_at": "2027-03-02T08:58:00Z",
        "last_scheduled_at": "2027-03-02T09:00:00Z",
        "count": 3,
        "recorded_at": "2027-03-02T09:00:04Z",
    }
    assert body["next"] is None


def test_the_next_link_pages_strictly_older_entries(api, add_task):
    task = add_task()
    entries = [entry(task, days) for days in (3, 2, 1)]
    first = skipped(api, task, limit=2).json()
    assert [e["id"] for e in first["results"]] == [str(e.id) for e in entries[:2]]
    rest = api.get(first["next"]).json()
    assert [e["id"] for e in rest["results"]] == [str(entries[2].id)]
    assert rest["next"] is None


def test_archived_entries_are_merged_in_their_place(api, add_task):
    task = add_task()
    live_old, live_new = entry(task, 1), entry(task, 3)
    moved = archived(task, 2)
    ids = [e["id"] for e in skipped(api, task).json()["results"]]
    assert ids == [str(live_new.id), str(moved.id), str(live_old.id)]


def test_an_entry_in_both_stores_is_listed_once_as_the_live_table_has_it(api, add_task):
    task = add_task()
    live = entry(task, 1, count=7)
    SqlHistoryStore().write_skips(
        [SkipRecord(live.id, task.tenant_id, task.id, "paused", MARCH, MARCH, 2, MARCH)]
    )
    (only,) = skipped(api, task).json()["results"]
    assert (only["id"], only["count"]) == (str(live.id), 7)


def test_another_tenants_task_is_not_found(other_api, add_task):
    task = add_task()
    entry(task, 1)
    response = skipped(other_api, task)
    assert response.status_code == 404
    assert response.json()["error"]["code"] == "not_found"


def test_an_unknown_task_is_not_found(api):
    assert api.get(f"/v1/tasks/{new_id()}/skipped").status_code == 404


def test_a_bad_cursor_is_a_400_naming_it(api, add_task):
    response = skipped(api, add_task(), cursor="eyJhdCI6Im5vIn0")
    assert response.status_code == 400
    assert "cursor" in response.json()["error"]["fields"]
