"""Writing the skipped-run ledger: every scheduled run that is not made leaves a trace.

A task remembers its open entry (`open_skip_id`, `open_skip_reason`): a skip with the same
reason extends that entry (its last instant and count), any other starts a new one, and a
run made closes it. So a task paused for a month is one row, and the writes of a whole tick
are two statements (extend, insert) whatever the number of tasks.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime
from typing import NamedTuple

from django.db import connection, transaction

from scheduler_site.ids import new_id_text
from scheduler_site.sqltools import datetime_param
from tasks.skip_totals import add_skip_totals


@dataclass(frozen=True, slots=True)
class Skip:
    """Consecutive runs of one task not made for one reason."""

    task_id: str  # as the database spells it
    reason: str
    first_scheduled_at: datetime
    last_scheduled_at: datetime
    count: int


class OpenEntry(NamedTuple):
    """What a task's row says of its open ledger entry."""

    entry_id: str | None
    reason: str | None


EXTEND_MYSQL = """
UPDATE JSON_TABLE(%s, '$[*]' COLUMNS (
    entry_id CHAR(36) PATH '$[0]',
    last_at DATETIME(6) PATH '$[1]',
    added BIGINT PATH '$[2]')) AS r
STRAIGHT_JOIN skipped_runs AS s ON s.id = r.entry_id
SET s.last_scheduled_at = r.last_at, s.count = s.count + r.added, s.recorded_at = %s
"""

EXTEND_SQLITE = """
UPDATE skipped_runs
SET last_scheduled_at = r.value ->> '$[1]', count = count + (r.value ->> '$[2]'),
    recorded_at = %s
FROM json_each(%s) AS r
WHERE skipped_runs.id = r.value ->> '$[0]'
"""

INSERT_MYSQL = """
INSERT INTO skipped_runs (id, tenant_id, task_id, reason, first_scheduled_at,
    last_scheduled_at, count, recorded_at)
SELECT r.entry_id, t.tenant_id, t.id, r.reason, r.first_at, r.last_at, r.added, %s
FROM JSON_TABLE(%s, '$[*]' COLUMNS (
    entry_id CHAR(36) PATH '$[0]',
    task_id CHAR(36) PATH '$[1]',
    reason VARCHAR(16) PATH '$[2]',
    first_at DATETIME(6) PATH '$[3]',
    last_at DATETIME(6) PATH '$[4]',
    added BIGINT PATH '$[5]')) AS r
STRAIGHT_JOIN tasks AS t ON t.id = r.task_id
"""

INSERT_SQLITE = """
INSERT INTO skipped_runs (id, tenant_id, task_id, reason, first_scheduled_at,
    last_scheduled_at, count, recorded_at)
SELECT r.value ->> '$[0]', t.tenant_id, t.id, r.value ->> '$[2]', r.value ->> '$[3]',
    r.value ->> '$[4]', r.value ->> '$[5]', %s
FROM json_each(%s) AS r
JOIN tasks AS t ON t.id = r.value ->> '$[1]'
"""


def record_skips(
    cursor, skips: list[Skip], open_entries: dict[str, OpenEntry], now: datetime
) -> dict[str, OpenEntry]:
    """Write `skips` (in the order they happened; a task may have several) and return the
    open entry of each task they touched, for the caller to store on the task row in its
    own update (same transaction)."""
    extend: dict[str, list] = {}  # entry id -> [entry id, last, added]
    insert: dict[str, list] = {}  # entry id -> the new row
    after: dict[str, OpenEntry] = {}
    native_uuid = connection.features.has_native_uuid_field
    for skip in skips:
        current = after.get(skip.task_id) or open_entries.get(skip.task_id)
        last = datetime_param(skip.last_scheduled_at)
        if current is not None and current.entry_id and current.reason == skip.reason:
            _extend(extend, insert, current.entry_id, last, skip.count)
            after[skip.task_id] = current
            continue
        entry_id = new_id_text(native_uuid)
        first = datetime_param(skip.first_scheduled_at)
        insert[entry_id] = [entry_id, skip.task_id, skip.reason, first, last, skip.count]
        after[skip.task_id] = OpenEntry(entry_id, skip.reason)
    _write(cursor, list(extend.values()), list(insert.values()), datetime_param(now))
    transaction.on_commit(lambda: add_skip_totals(_by_reason(skips)))
    return after


def _by_reason(skips: list[Skip]) -> dict[str, int]:
    counts: dict[str, int] = {}
    for skip in skips:
        counts[skip.reason] = counts.get(skip.reason, 0) + skip.count
    return counts


def _extend(extend: dict, insert: dict, entry_id: str, last: str, count: int) -> None:
    if entry_id in insert:  # started earlier in this same call: grow the new row
        insert[entry_id][4] = last
        insert[entry_id][5] += count
    elif entry_id in extend:
        extend[entry_id][1] = last
        extend[entry_id][2] += count
    else:
        extend[entry_id] = [entry_id, last, count]


def _write(cursor, extend: list, insert: list, stamp: str) -> None:
    mysql = connection.vendor == "mysql"
    if extend:
        params = [json.dumps(extend), stamp] if mysql else [stamp, json.dumps(extend)]
        cursor.execute(EXTEND_MYSQL if mysql else EXTEND_SQLITE, params)
    if insert:
        cursor.execute(INSERT_MYSQL if mysql else INSERT_SQLITE, [stamp, json.dumps(insert)])
