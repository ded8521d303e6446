"""The archiver process: finished jobs and closed skipped-run ledger entries move to the
history store; old history, finished tasks, run now keys, audit entries and per-minute
counts past their retention are purged."""

from datetime import timedelta

from django.conf import settings
from django.utils import timezone

from audit.retention import AuditRetention
from execution.runtime import LoopProcess
from history.records import HistoryUnavailable
from history.sql_store import SqlHistoryStore
from history.stores import close_history_stores, history_store
from jobs.archive import archive_batch
from jobs.minute_purge import purge_minute_counts
from jobs.skip_archive import archive_skips
from jobs.storage_purge import StoragePurge

PURGE_EVERY_TURNS = 60


class ArchiverProcess(LoopProcess):
    name = "archiver"
    # A history store that cannot be written is waited out like a lost database.
    transient_errors = (*LoopProcess.transient_errors, HistoryUnavailable)

    def __init__(self, *, interval: float = 10.0, batch_size: int = 500) -> None:
        super().__init__(poll_interval=interval)
        self.batch_size = batch_size
        self.last_result = (0, 0)
        self.storage_purge = StoragePurge(batch_size=batch_size)
        self.audit_retention = AuditRetention(batch_size=batch_size)

    def on_stop(self) -> None:
        close_history_stores()

    def run_once(self) -> float:
        written, deleted = archive_batch(batch_size=self.batch_size)
        self.last_result = (written, deleted)
        skips_written, skips_deleted = archive_skips(batch_size=self.batch_size)
        purged = self._purge() if self.turns % PURGE_EVERY_TURNS == 0 else 0
        # Every turn, in bounded batches: a tenant's churn of tasks may outrun a rarer round.
        tasks, keys = self.storage_purge.run()
        audit = self.audit_retention.run()
        minutes = purge_minute_counts(now=timezone.now(), batch_size=self.batch_size)
        self.logger.info(
            "archive written=%d deleted=%d skips_written=%d skips_deleted=%d purged=%d"
            " tasks_purged=%d run_now_keys_purged=%d audit_purged=%d minute_counts_purged=%d",
            written,
            deleted,
            skips_written,
            skips_deleted,
            purged,
            tasks,
            keys,
            audit,
            minutes,
        )
        # Deleted counts the callbacks too (dropped, never written): a batch full of them is
        # a backlog as much as one full of runs.
        # The per-minute counts too: a row per tenant and executor each minute can outrun
        # one batch per interval, and a purge that never catches up lets the table grow.
        busy = max(written, deleted, skips_written, minutes) >= self.batch_size
        return 0 if busy else self.poll_interval

    def _purge(self) -> int:
        store = history_store()
        if not isinstance(store, SqlHistoryStore):
            return 0  # Cassandra expires rows by TTL
        cutoff = timezone.now() - timedelta(days=settings.HISTORY_RETENTION_DAYS)
        purged = store.purge(archived_before=cutoff, batch_size=self.batch_size)
        return purged + store.purge_skips(archived_before=cutoff, batch_size=self.batch_size)
