"""The lease: running jobs whose lease expired go back to pending, or dead when no attempt
is left (which lets a buffered run of its task go), made by the reconciler."""

from __future__ import annotations

from jobs.callbacks.produce import make_callbacks
from jobs.queue.engine import queue_engine
from jobs.queue.transactions import in_write_transaction
from jobs.waiting import release_jobs
from scheduler_site.sqltools import uuid_text


def reconcile_expired_leases(*, batch_size: int = 1000) -> int:
    """Return running jobs whose lease expired: pending while attempts remain, else dead
    (which lets a buffered run of its task go)."""

    def work(cursor) -> int:
        settled = queue_engine().reconcile(cursor, batch_size)
        if settled:
            release_jobs(cursor, settled)
            make_callbacks(uuid_text(key) for key in settled)
        return len(settled)

    return in_write_transaction(work)
