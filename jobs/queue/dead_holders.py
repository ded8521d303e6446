"""Dead holders: the running jobs of an executor whose heartbeat is older than
EXECUTOR_DEAD_AFTER_SECONDS go back without waiting for their leases, made by the reconciler.

An executor's heartbeat row is named as its claims are (`process_heartbeats.instance_id` =
`jobs.worker_id`), and both times are the database's, so the clocks of the machines do not
matter. Only a holder whose row exists and is stale counts: a missing row is also an
executor that has not beaten yet (or one of a release without beats), which the leases
cover as before.

Each job is taken as read (id, attempt, holder) through the primary key, locked, so a job
its executor is writing right now, or one claimed again since, is left alone; a late result
of the executor then matches no row (the fence) and loses. A job not yet due was never
called: it goes back charging no attempt, at its own time. One whose second had come may
have been called: the lease's rule (jobs/queue/lease.py), an attempt that ended unknown,
pending while attempts remain, else dead.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import timedelta

from django.db import connection
from django.utils import timezone

from jobs.callbacks.produce import make_callbacks
from jobs.models import CALLBACK_PRIORITY
from jobs.queue.transactions import in_write_transaction
from jobs.waiting import release_jobs
from jobs.wake_index import PRIORITIES
from scheduler_site.sqltools import datetime_param, uuid_text

LOST = "executor lost (heartbeat stale)"
# Holders silent for longer than this are left to the leases: their jobs' leases ran out
# long ago unless a timeout is longer, and the scan below stays off for them.
LOOKBACK_SECONDS = 3600

STALE_HOLDERS = """
SELECT instance_id, last_seen FROM process_heartbeats
WHERE name = 'executor' AND last_seen < {stale} AND last_seen > {oldest}
"""

# Read without locking (a locking read of the range would keep live jobs locked too).
HELD_BY = f"""
SELECT id, attempt, worker_id FROM jobs
WHERE status = 'running' AND priority IN ({PRIORITIES}, {CALLBACK_PRIORITY})
    AND worker_id IN ({{holders}})
LIMIT %s
"""


@dataclass(frozen=True)
class Statements:
    stale: str  # the executors' rows: silent for `dead_after`, not beyond the lookback
    take: str  # the jobs still as read, locked where the engine locks: (id, due)
    hand_back: str  # not yet due: pending, charging no attempt
    lost_attempts: str
    lost: str  # due: the lease's rule

    def params(self, now: str | None, *rest) -> list:
        return ([now] if now is not None else []) + list(rest)


MYSQL = Statements(
    stale=STALE_HOLDERS.format(
        stale="NOW(6) - INTERVAL %s SECOND", oldest=f"NOW(6) - INTERVAL {LOOKBACK_SECONDS} SECOND"
    ),
    take="""
SELECT j.id, j.next_attempt_at <= NOW(6) FROM JSON_TABLE(%s, '$[*]' COLUMNS (
    id CHAR(36) PATH '$[0]', attempt INT PATH '$[1]', holder VARCHAR(100) PATH '$[2]')) AS c
STRAIGHT_JOIN jobs AS j FORCE INDEX (PRIMARY) ON j.id = c.id
WHERE j.status = 'running' AND j.worker_id = c.holder AND j.attempt = c.attempt
FOR UPDATE SKIP LOCKED""",
    hand_back="""
UPDATE JSON_TABLE(%s, '$[*]' COLUMNS (id CHAR(36) PATH '$')) AS c
STRAIGHT_JOIN jobs AS j FORCE INDEX (PRIMARY) ON j.id = c.id
SET j.status = 'pending', j.worker_id = NULL, j.lease_expires_at = NULL, j.claimed_at = NULL,
    j.max_attempts = j.max_attempts + 1, j.updated_at = NOW(6)
WHERE j.status = 'running'""",
    lost_attempts="""
INSERT INTO job_attempts (job_id, attempt, started_at, error, outcome)
SELECT j.id, j.attempt, COALESCE(GREATEST(j.next_attempt_at, j.claimed_at), j.next_attempt_at),
    %s, IF(j.attempt >= j.max_attempts, 'dead', 'retry')
FROM JSON_TABLE(%s, '$[*]' COLUMNS (id CHAR(36) PATH '$')) AS c
STRAIGHT_JOIN jobs AS j FORCE INDEX (PRIMARY) ON j.id = c.id
WHERE j.status = 'running'""",
    lost="""
UPDATE JSON_TABLE(%s, '$[*]' COLUMNS (id CHAR(36) PATH '$')) AS c
STRAIGHT_JOIN jobs AS j FORCE INDEX (PRIMARY) ON j.id = c.id
SET j.status = IF(j.attempt >= j.max_attempts, 'dead', 'pending'),
    j.next_attempt_at = NOW(6),
    j.finished_at = IF(j.attempt >= j.max_attempts, NOW(6), NULL),
    j.error = %s, j.http_status = NULL, j.duration_ms = NULL,
    j.response_body = NULL, j.worker_id = NULL, j.lease_expires_at = NULL,
    j.updated_at = NOW(6)
WHERE j.status = 'running'""",
)

# One writer at a time: what is read stays as read until the transaction ends.
SQLITE = Statements(
    stale=STALE_HOLDERS.format(stale="%s", oldest="%s"),
    take="""
SELECT j.id, j.next_attempt_at <= %s FROM json_each(%s) AS c
JOIN jobs AS j ON j.id = c.value ->> '$[0]'
WHERE j.status = 'running' AND j.worker_id = c.value ->> '$[2]'
    AND j.attempt = c.value ->> '$[1]'""",
    hand_back="""
UPDATE jobs
SET status = 'pending', worker_id = NULL, lease_expires_at = NULL, claimed_at = NULL,
    max_attempts = max_attempts + 1, updated_at = %s
WHERE id IN (SELECT value FROM json_each(%s)) AND status = 'running'""",
    lost_attempts="""
INSERT INTO job_attempts (job_id, attempt, started_at, error, outcome)
SELECT id, attempt, COALESCE(MAX(next_attempt_at, claimed_at), next_attempt_at),
    %s, CASE WHEN attempt >= max_attempts THEN 'dead' ELSE 'retry' END
FROM jobs WHERE id IN (SELECT value FROM json_each(%s)) AND status = 'running'""",
    lost="""
UPDATE jobs
SET status = CASE WHEN attempt >= max_attempts THEN 'dead' ELSE 'pending' END,
    next_attempt_at = %s,
    finished_at = CASE WHEN attempt >= max_attempts THEN %s ELSE NULL END,
    error = %s, http_status = NULL, duration_ms = NULL, response_body = NULL,
    worker_id = NULL, lease_expires_at = NULL, updated_at = %s
WHERE id IN (SELECT value FROM json_each(%s)) AND status = 'running'""",
)


@dataclass(frozen=True)
class Returned:
    """What one turn handed back: jobs never called, and jobs that may have been."""

    holders: int = 0  # executors found dead that still held jobs
    unfired: int = 0
    lost: int = 0

    @property
    def total(self) -> int:
        return self.unfired + self.lost


def return_dead_holders_jobs(
    *, dead_after: float, batch_size: int = 1000, cleared: set | None = None
) -> Returned:
    """Hand back up to `batch_size` running jobs of executors whose heartbeat is older than
    `dead_after` seconds. `cleared`, kept by the caller from call to call: the stale beats
    (instance, last seen) already found holding nothing, not looked for again. A stopped
    executor's beat stays stale for the lookback's hour, and the look for its jobs reads
    every running job (worker_id is in no index): once is enough, until it beats again."""
    return in_write_transaction(
        lambda cursor: _return_with(cursor, dead_after, batch_size, cleared)
    )


def _return_with(cursor, dead_after: float, batch_size: int, cleared: set | None) -> Returned:
    mysql = connection.vendor == "mysql"
    sql = MYSQL if mysql else SQLITE
    now = None if mysql else datetime_param(timezone.now())
    beats = _stale_holders(cursor, sql, now, dead_after)
    if cleared is not None:
        cleared.intersection_update(beats)  # a beat no longer stale is forgotten
    holders = [beat[0] for beat in beats if cleared is None or beat not in cleared]
    if not holders:
        return Returned()
    cursor.execute(HELD_BY.format(holders=", ".join(["%s"] * len(holders))), [*holders, batch_size])
    read = [[str(row[0]), row[1], row[2]] for row in cursor.fetchall()]
    if cleared is not None and len(read) < batch_size:  # every holder's jobs were read
        holding = {row[2] for row in read}
        cleared.update(beat for beat in beats if beat[0] not in holding)
    if not read:
        return Returned()
    cursor.execute(sql.take, sql.params(now, json.dumps(read)))
    taken = cursor.fetchall()
    unfired = json.dumps([str(row[0]) for row in taken if not row[1]])
    due = [str(row[0]) for row in taken if row[1]]
    if len(due) < len(taken):
        cursor.execute(sql.hand_back, sql.params(now, unfired))
    if due:
        _lose(cursor, sql, now, due)
    return Returned(len({row[2] for row in read}), len(taken) - len(due), len(due))


def _stale_holders(
    cursor, sql: Statements, now: str | None, dead_after: float
) -> list[tuple[str, object]]:
    if now is None:  # the database's clock
        cursor.execute(sql.stale, [dead_after])
    else:
        since = timezone.now()
        stale = since - timedelta(seconds=dead_after)
        oldest = since - timedelta(seconds=LOOKBACK_SECONDS)
        cursor.execute(sql.stale, [datetime_param(stale), datetime_param(oldest)])
    return [(row[0], row[1]) for row in cursor.fetchall()]


def _lose(cursor, sql: Statements, now: str | None, due: list[str]) -> None:
    """The lease's rule, as jobs/queue/lease.py applies it to an expired lease."""
    ids = json.dumps(due)
    cursor.execute(sql.lost_attempts, [LOST, ids])
    if now is None:
        cursor.execute(sql.lost, [ids, LOST])
    else:
        cursor.execute(sql.lost, [now, now, LOST, now, ids])
    release_jobs(cursor, due)
    make_callbacks(uuid_text(key) for key in due)
