"""The jobs table: one row per run of a task, and the queue the executors claim from."""

from django.db import models
from django.db.models import Case, F, Q, When

from scheduler_site.ids import new_id


class JobStatus(models.TextChoices):
    PENDING = "pending"
    HELD = "held"  # a job of a paused task: out of the claim's reach until the task resumes
    RUNNING = "running"
    SUCCEEDED = "succeeded"
    DEAD = "dead"
    CANCELLED = "cancelled"
    # A run of an `overlap: buffer_one` task made while an earlier run is unfinished: out of
    # every reader's reach (its wake_at is NULL) until that run finishes (jobs/waiting.py).
    WAITING = "waiting"
    # Due, but its flow (flows/) was at a limit, paused or open when a claim read it: out of
    # the claim's reach (wake_at NULL) in flow_waits, until its flow has room; no attempt is
    # charged and its due time is kept, so it goes back in its place.
    THROTTLED = "throttled"


FINISHED_STATUSES = (JobStatus.SUCCEEDED, JobStatus.DEAD, JobStatus.CANCELLED)
# Every state before those: a run of the task that has not ended (tasks/overlap.py).
UNFINISHED_STATUSES = (
    JobStatus.PENDING,
    JobStatus.HELD,
    JobStatus.RUNNING,
    JobStatus.WAITING,
    JobStatus.THROTTLED,
)
# How much of a response body each attempt keeps (the job keeps more of its last one).
RESPONSE_HEAD_LIMIT = 256
# Callbacks (jobs/callbacks/) are jobs of their own lane: a priority below every priority a
# tenant may give (0-9), so they are claimed after every due run, and every tenant read of
# the queue (which names the priorities 0-9 in the wake index) passes them by.
CALLBACK_PRIORITY = 10


class Job(models.Model):
    id = models.UUIDField(primary_key=True, default=new_id, editable=False)
    # No foreign-key constraints: the queue table takes no locks on tenants or tasks. No
    # index of their own either (Django adds one even without the constraint): the task's
    # is the prefix of the run key, and the tenant's readers use jobs_wake_idx.
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
    # The task's labels when the job was made (NULL: none).
    labels = models.JSONField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    # When the row next needs attention: its due time while it waits, its lease expiry
    # while it runs, its end once finished. Computed by the database on every write, so
    # no statement can forget it, and the one index over it serves the claim, the
    # reconciler and the archiver (jobs/wake_index.py). VIRTUAL: only the index keeps it
    # (as cheap as STORED in `make bench-layouts`), and MariaDB adds it without copying.
    wake_at = models.GeneratedField(
        expression=Case(
            When(status__in=["pending", "held"], then=F("next_attempt_at")),
            When(status="running", then=F("lease_expires_at")),
            default=F("finished_at"),
        ),
        output_field=models.DateTimeField(null=True),
        db_persist=False,
    )
    # The tenant while the row is one of its dead runs (a dead callback is not: priority 10),
    # else NULL. Indexed with the id, it is the DLQ's one range in its cursor's order, so a
    # page reads its rows and stops. Only a death, a retry, an insert and a delete write
    # that index: every other state change leaves the entry (NULL, id) as it was.
    dead_tenant = models.GeneratedField(
        expression=Case(
            When(Q(status="dead") & Q(priority__lt=CALLBACK_PRIORITY), then=F("tenant_id")),
            default=None,
        ),
        output_field=models.UUIDField(null=True),
        db_persist=False,
    )

    class Meta:
        db_table = "jobs"
        # One secondary index for the queue's processes besides the run key: every index is
        # written by every insert, state change and delete, and this one is all they read.
        # Readers by tenant name the status and the priorities (0-9) to stay inside it. The
        # DLQ's index moves only when a job dies or leaves the DLQ (dead_tenant above).
        indexes = [
            models.Index(fields=["status", "priority", "tenant", "wake_at"], name="jobs_wake_idx"),
            models.Index(fields=["dead_tenant", "id"], name="jobs_dead_letters_idx"),
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
        # The archiver purges expired keys oldest first (jobs/storage_purge.py).
        indexes = [models.Index(fields=["created_at"], name="run_now_keys_created_idx")]
        constraints = [
            models.UniqueConstraint(
                fields=["tenant_id", "idempotency_key"], name="run_now_keys_tenant_key_uniq"
            ),
        ]


class RetryAllOperation(models.Model):
    """A "retry all matching" of the dead letter queue: asked in the console, carried out in
    batches by the reconciler (jobs/retry_all.py). Its jobs wait in RetryAllItem."""

    RUNNING = 1
    # 1 while it runs, NULL once finished: the unique key lets one run at a time, whichever
    # API worker or server the second click reaches.
    running_slot = models.PositiveSmallIntegerField(null=True, unique=True, default=RUNNING)
    requested_by = models.CharField(max_length=150)
    filters = models.CharField(max_length=500, blank=True)  # the list's filter, as asked
    total = models.PositiveIntegerField(default=0)
    retried = models.PositiveIntegerField(default=0)
    refused = models.JSONField(default=dict)  # refusal reason -> how many
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        db_table = "retry_all_operations"

    def __str__(self) -> str:
        return f"retry all {self.id} ({self.retried}/{self.total})"

    @property
    def done(self) -> int:
        return self.retried + sum(self.refused.values())


class RetryAllItem(models.Model):
    """A dead job an operation has yet to retry: the ids matched when it was asked, so the
    operation retries the jobs the operator counted, whatever dies later."""

    pk = models.CompositePrimaryKey("operation_id", "job_id")
    operation_id = models.BigIntegerField()
    job_id = models.UUIDField()

    class Meta:
        db_table = "retry_all_items"

    def __str__(self) -> str:
        return f"job {self.job_id} of retry all {self.operation_id}"


class CallbackEvent(models.TextChoices):
    SUCCESS = "success"  # the task's on_success_url
    FAILURE = "failure"  # the task's on_failure_url
    ALERT = "alert"  # the tenant's on_failure_url, for a task without one


class Callback(models.Model):
    """What a callback job calls: its job row (priority CALLBACK_PRIORITY) is in `jobs`,
    claimed, leased, fenced and retried like any other; its `task_id` there is its own id,
    so no reader of a task's runs (pause, delete, overlap, the task's job list) sees it.
    The job it reports on is `origin_job_id`, of the task `task_id` here."""

    job_id = models.UUIDField(primary_key=True)
    tenant_id = models.UUIDField()
    task_id = models.UUIDField()
    origin_job_id = models.UUIDField()
    event = models.CharField(max_length=16, choices=CallbackEvent.choices)
    url = models.CharField(max_length=2048)
    body = models.TextField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        db_table = "callbacks"

    def __str__(self) -> str:
        return f"{self.event} callback {self.job_id} of job {self.origin_job_id}"


class FailureAlert(models.Model):
    """The tenant-wide failure alert's pace for one task: at most one alert per
    ALERT_WINDOW, the deaths in between counted into the next one (jobs/callbacks/alerts.py)."""

    task_id = models.UUIDField(primary_key=True)
    tenant_id = models.UUIDField()
    # No alert of this task before this instant.
    quiet_until = models.DateTimeField()
    # The alert waiting for quiet_until (a pending callback job), and the deaths it counts.
    next_job_id = models.UUIDField(null=True, blank=True)
    deaths = models.PositiveIntegerField(default=0)

    class Meta:
        db_table = "failure_alerts"

    def __str__(self) -> str:
        return f"failure alerts of task {self.task_id}"


class MinuteCount(models.Model):
    """Per-minute outcomes of the attempts, written by each executor in its result
    transaction (jobs/queue/minute_counts.py) and read by the console's charts.

    Keyed (tenant, minute, writer): each executor adds to rows of its own, so executors
    never wait on each other's row locks; readers sum the writers. Start delays are kept as
    counts in fixed buckets (jobs/minute_buckets.py), which add up across rows and minutes,
    so a percentile over any window comes from the summed buckets. The tenant ALL_TENANTS
    row holds every tenant's total, so the whole service's chart reads one row per minute
    and writer whatever the number of tenants."""

    pk = models.CompositePrimaryKey("tenant_id", "minute", "writer")
    tenant_id = models.UUIDField()
    minute = models.DateTimeField()  # the UTC minute the attempts started in
    writer = models.PositiveIntegerField()  # a number of the executor (crc32 of its id)
    delivered = models.PositiveIntegerField(default=0)  # attempts answered 2xx
    failed = models.PositiveIntegerField(default=0)  # failed attempts left to retry
    dead = models.PositiveIntegerField(default=0)  # failed attempts that were the last
    # Attempts by start delay (started_at minus the time the attempt was due), one column
    # per bucket of jobs/minute_buckets.py (each bucket from the previous bound up).
    under_10ms = models.PositiveIntegerField(default=0)
    under_25ms = models.PositiveIntegerField(default=0)
    under_50ms = models.PositiveIntegerField(default=0)
    under_100ms = models.PositiveIntegerField(default=0)
    under_250ms = models.PositiveIntegerField(default=0)
    under_500ms = models.PositiveIntegerField(default=0)
    under_1s = models.PositiveIntegerField(default=0)
    under_2500ms = models.PositiveIntegerField(default=0)
    under_5s = models.PositiveIntegerField(default=0)
    under_10s = models.PositiveIntegerField(default=0)
    under_30s = models.PositiveIntegerField(default=0)
    under_60s = models.PositiveIntegerField(default=0)
    under_300s = models.PositiveIntegerField(default=0)
    over_300s = models.PositiveIntegerField(default=0)

    class Meta:
        db_table = "minute_counts"
        # The archiver's purge of old minutes (jobs/minute_purge.py).
        indexes = [models.Index(fields=["minute"], name="minute_counts_minute_idx")]

    def __str__(self) -> str:
        return f"{self.minute:%Y-%m-%d %H:%M} {self.tenant_id} ({self.writer})"
