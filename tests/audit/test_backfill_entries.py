"""A backfill is one entry with its range and counts; one that makes nothing, none."""

import pytest

from tests.api.test_task_backfill import backfill, past_minutes
from tests.audit.log import entries, only_entry

# Outside a test transaction: an entry written without its change's transaction is refused
# (audit/record.py), as in production, instead of riding on the test's own.
pytestmark = pytest.mark.django_db(transaction=True)


def test_a_backfill_records_its_range_and_counts(api, make_task):
    task = make_task(cron="* * * * *")
    start, end = past_minutes(3)
    assert backfill(api, task["id"], start, end).status_code == 202
    entry = only_entry(action="task.backfill")
    assert entry.target == task["id"]
    counts = {name: entry.changes[name] for name in ("made", "existing", "instants")}
    assert counts == {"made": 3, "existing": 0, "instants": 3}
    assert entry.changes["start"] == start.isoformat().replace("+00:00", "Z")


def test_a_repeated_backfill_that_makes_nothing_writes_no_entry(api, make_task):
    task = make_task(cron="* * * * *")
    start, end = past_minutes(2)
    for _ in range(2):
        backfill(api, task["id"], start, end)
    assert len(entries(action="task.backfill")) == 1
