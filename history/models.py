"""The SQL history table, keyed like the Cassandra tables: (tenant, task, time) and
(tenant, job)."""

from django.db import models


class JobHistory(models.Model):
    # The job's own id: an upsert by it makes writing a job twice harmless.
    id = models.UUIDField(primary_key=True)
    tenant_id = models.UUIDField()
    task_id = models.UUIDField()
    scheduled_at = models.DateTimeField()
    status = models.CharField(max_length=16)
    attempt = models.PositiveIntegerField()
    max_attempts = models.PositiveIntegerField()
    priority = models.PositiveSmallIntegerField()
    next_attempt_at = models.DateTimeField(null=True)
    started_at = models.DateTimeField(null=True)
    finished_at = models.DateTimeField(null=True)
    http_status = models.PositiveSmallIntegerField(null=True)
    error = models.CharField(max_length=500, null=True)
    response_body = models.TextField(null=True)
    duration_ms = models.PositiveIntegerField(null=True)
    claimed_at = models.DateTimeField(null=True)
    attempts = models.TextField(null=True)  # every call of the job, as JSON
    archived_at = models.DateTimeField(auto_now=True)

    class Meta:
        db_table = "job_history"
        indexes = [
            models.Index(
                fields=["tenant_id", "task_id", "-scheduled_at", "-id"],
                name="history_task_runs_idx",
            ),
            models.Index(fields=["tenant_id", "id"], name="history_by_id_idx"),
            models.Index(fields=["archived_at"], name="history_retention_idx"),
        ]


class SkippedRunHistory(models.Model):
    """Archived entries of the skipped-run ledger, kept as long as the jobs' history."""

    id = models.UUIDField(primary_key=True)  # the entry's own id: writing twice is harmless
    tenant_id = models.UUIDField()
    task_id = models.UUIDField()
    reason = models.CharField(max_length=16)
    first_scheduled_at = models.DateTimeField()
    last_scheduled_at = models.DateTimeField()
    count = models.PositiveBigIntegerField()
    recorded_at = models.DateTimeField()
    archived_at = models.DateTimeField(auto_now=True)

    class Meta:
        db_table = "skipped_run_history"
        indexes = [
            models.Index(
                fields=["tenant_id", "task_id", "-last_scheduled_at", "-id"],
                name="history_task_skips_idx",
            ),
            models.Index(fields=["archived_at"], name="history_skips_retention_idx"),
        ]
