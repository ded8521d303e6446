"""Claimed jobs never fired go back to pending (or held), charging no attempt."""

from __future__ import annotations

import json

from jobs.queue.engine import queue_engine
from jobs.queue.rows import HandBack
from jobs.queue.transactions import in_write_transaction


def hand_back(*, worker_id: str, jobs: list[HandBack]) -> int:
    """Return claimed jobs that were never fired to pending (or held), charging no attempt."""
    if not jobs:
        return 0
    return in_write_transaction(lambda cursor: hand_back_with(cursor, worker_id, jobs))


def hand_back_with(cursor, worker_id: str, jobs: list[HandBack]) -> int:
    rows = json.dumps([list(job) for job in jobs])
    return queue_engine().hand_back(cursor, rows, worker_id)
