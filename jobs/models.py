"""The jobs table: one row per run of a task, and the queue the executors claim from."""

from django.db import models

from scheduler_site.ids import new_id


class JobStatus(models.TextChoices):
    PENDING = "pending"
    HELD = "held"  # a job of a paused task: out of the claim's reach until the task resumes
    RUNNING = "running"
    SUCCEEDED = "succeeded"
    DEAD = "dead"
    CANCELLED = "cancelled"


FINISHED_STATUSES = (JobStatus.SUCCEEDED, JobStatus.DEAD, JobStatus.CANCELLED)
# How much of a response body each attempt keeps (the job keeps more of its last one).
RESPONSE_HEAD_LIMIT = 256


class Job(models.Model):
    id = models.UUIDField(primary_key=True, default=new_id, editable=False)
    # No foreign-key constraints: the queue table takes no locks on tenants or tasks. No
    # index of their own either (Django adds one even without the constraint): each is the
    # prefix of another index (jobs_dlq_idx, jobs_task_run_uniq), and every extra B-tree is
    # written by every insert and every delete.
    tenant = models.ForeignKey(
        "tasks.Tenant",
        on_delete=models.DO_NOTHING,
        db_constraint=False,
        db_index=False,
        related_name="+",
    )
    task = models.ForeignKey(
        "tasks.Task",
        on_delete=models.DO_NOTHING,
        db_constraint=False,
        db_index=False,
        related_name="jobs",
    )
    scheduled_at = models.DateTimeField()
    priority = models.PositiveSmallIntegerField(default=5)
    status = models.CharField(max_length=16, choices=JobStatus.choices, default=JobStatus.PENDING)
    attempt = models.PositiveIntegerField(default=0)
    max_attempts = models.PositiveIntegerField(default=5)
    next_attempt_at = models.DateTimeField()
    timeout_seconds = models.PositiveIntegerField(default=30)
    backoff_base_seconds = models.PositiveIntegerField(default=10)
    worker_id = models.CharField(max_length=100, null=True, blank=True)
    lease_expires_at = models.DateTimeField(null=True, blank=True)
    claimed_at = models.DateTimeField(null=True, blank=True)  # when an executor took it
    started_at = models.DateTimeField(null=True, blank=True)  # when its last call started
    finished_at = models.DateTimeField(null=True, blank=True)
    http_status = models.PositiveSmallIntegerField(null=True, blank=True)
    error = models.CharField(max_length=500, null=True, blank=True)
    response_body = models.TextField(null=True, blank=True)
    duration_ms = models.PositiveIntegerField(null=True, blank=True)
    # Made by "run now" (POST /v1/tasks/{id}/run), outside the schedule: such a job goes out
    # even while its task is paused. A database default, so the tick's raw INSERT leaves it.
    run_now = models.BooleanField(default=False, db_default=False)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        db_table = "jobs"
        indexes = [
            # The claim finds the tenants with due jobs per priority with a loose scan of this
            # index, then reads one tight range per (priority, tenant): see jobs/fair_share.py.
            models.Index(
                fields=["status", "priority", "tenant", "next_attempt_at"], name="jobs_claim_idx"
            ),
            models.Index(fields=["status", "lease_expires_at"], name="jobs_reconcile_idx"),
            models.Index(fields=["status", "finished_at"], name="jobs_archive_idx"),
            models.Index(fields=["tenant", "status"], name="jobs_dlq_idx"),
        ]
        constraints = [
            models.UniqueConstraint(fields=["task", "scheduled_at"], name="jobs_task_run_uniq"),
        ]

    def __str__(self) -> str:
        return f"job {self.id} ({self.status})"


class JobAttempt(models.Model):
    """One call of a job: written with its result, in the executor's result batch.

    Keyed (job, attempt): the attempt number never repeats for a job (it is the fencing
    token), and the key's order keeps a job's attempts together for the reads and the
    archive's delete.
    """

    pk = models.CompositePrimaryKey("job_id", "attempt")
    job_id = models.UUIDField()
    attempt = models.PositiveIntegerField()
    started_at = models.DateTimeField()
    duration_ms = models.PositiveIntegerField(null=True)
    http_status = models.PositiveSmallIntegerField(null=True)
    error = models.CharField(max_length=500, null=True)
    response_head = models.CharField(max_length=RESPONSE_HEAD_LIMIT, null=True)
    # What the attempt led to: succeeded, retry (pending again), or dead.
    outcome = models.CharField(max_length=16)

    class Meta:
        db_table = "job_attempts"

    def __str__(self) -> str:
        return f"attempt {self.attempt} of job {self.job_id}"


class DeadLetter(Job):
    """The dead letter queue as operators see it in the admin: dead jobs only."""

    class Meta:
        proxy = True
        verbose_name = "dead letter"
        verbose_name_plural = "dead letter queue"


class RunNowKey(models.Model):
    """An Idempotency-Key sent with a run now, and the job it made: a repeat of the request
    answers with that job instead of making another run. Written only by run now, never by
    the queue's processes."""

    tenant_id = models.UUIDField()
    idempotency_key = models.CharField(max_length=255)
    task_id = models.UUIDField()
    job_id = models.UUIDField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        db_table = "run_now_keys"
        constraints = [
            models.UniqueConstraint(
                fields=["tenant_id", "idempotency_key"], name="run_now_keys_tenant_key_uniq"
            ),
        ]
