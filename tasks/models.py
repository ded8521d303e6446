"""Tenants and tasks (the configuration of what to call and when)."""

import base64
import os

from django.db import models, transaction
from django.utils.timezone import now

from scheduler_site.ids import new_id

MIN_PRIORITY, MAX_PRIORITY = 0, 9
CRITICAL_PRIORITY = 0  # the fast path: reserved executor slots, granted per tenant
BUCKET_COUNT = 1024


def new_signing_secret() -> str:
    """A Standard Webhooks secret: `whsec_` and 32 random bytes in base64."""
    return "whsec_" + base64.b64encode(os.urandom(32)).decode()


def _forget_tenants() -> None:
    """This process reads tenants again (tasks/tenant_cache.py): at once and, for a write in
    a transaction, once more at its commit (a request may read the old row meanwhile)."""
    from tasks.tenant_cache import forget_tenants  # that module imports this one

    forget_tenants()
    transaction.on_commit(forget_tenants)


class TenantQuerySet(models.QuerySet):
    def update(self, **kwargs) -> int:
        changed = super().update(**kwargs)
        _forget_tenants()
        return changed

    def delete(self) -> tuple[int, dict[str, int]]:
        deleted = super().delete()
        _forget_tenants()
        return deleted


class Tenant(models.Model):
    id = models.UUIDField(primary_key=True, default=new_id, editable=False)
    name = models.CharField(max_length=200)
    signing_secret = models.CharField(max_length=100, default=new_signing_secret)
    # After a rotation the old secret signs too, until this instant (receivers switch over).
    previous_signing_secret = models.CharField(max_length=100, null=True, blank=True)
    previous_signing_secret_until = models.DateTimeField(null=True, blank=True)
    # Tokens issued before this instant are refused (revoke_tokens).
    tokens_not_before = models.DateTimeField(null=True, blank=True)
    concurrency_limit = models.PositiveIntegerField(default=1000)
    # Quotas: empty takes the default from settings (TENANT_*), 0 means unlimited.
    max_tasks = models.PositiveIntegerField(null=True, blank=True)
    max_secrets = models.PositiveIntegerField(null=True, blank=True)
    create_rate = models.PositiveIntegerField(null=True, blank=True, help_text="creations/s")
    create_burst = models.PositiveIntegerField(null=True, blank=True)
    # Priority 0 takes reserved executor slots: an operator grants it per tenant.
    allow_critical = models.BooleanField(default=False)
    # Called when a job of a task without an on_failure_url of its own dies (at most one
    # alert per task per minute: jobs/callbacks/alerts.py). Set by the tenant (PATCH /v1/tenant).
    on_failure_url = models.CharField(max_length=2048, null=True, blank=True)
    # The version of the settings the tenant edits itself (its ETag on /v1/tenant).
    settings_version = models.PositiveIntegerField(default=1, db_default=1)
    # A task without a flow_key is in its host's flow (flows/keys.py), with no limits and
    # the default breaker. Off by default: one failing path of a host must not hold back
    # its healthy paths unless the tenant asks for it.
    per_host_flows = models.BooleanField(default=False, db_default=False)
    # Set once a task of the tenant names a flow (or per-host flows are on): the claim looks
    # up flows only for such tenants' jobs.
    uses_flows = models.BooleanField(default=False, db_default=False)
    is_active = models.BooleanField(default=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        db_table = "tenants"
        # The console's tenant actions, each its own grant (view or change alone give none).
        permissions = [
            ("stop_tenant", "Can stop and resume a tenant"),
            ("revoke_tenant_tokens", "Can revoke a tenant's tokens"),
            ("rotate_signing_secret", "Can rotate a tenant's signing secret"),
        ]

    objects = TenantQuerySet.as_manager()

    def __str__(self) -> str:
        return f"{self.name} ({self.id})"

    def save(self, *args, **kwargs) -> None:
        super().save(*args, **kwargs)
        _forget_tenants()

    def delete(self, *args, **kwargs) -> tuple[int, dict[str, int]]:
        deleted = super().delete(*args, **kwargs)
        _forget_tenants()
        return deleted

    @property
    def is_authenticated(self) -> bool:
        return True


class TaskStatus(models.TextChoices):
    ACTIVE = "active"
    PAUSED = "paused"
    COMPLETED = "completed"
    DELETED = "deleted"
    # An active task of a stopped tenant: out of the tick's range (status = 'active') until
    # the tenant is resumed, so no tick walks past it.
    SUSPENDED = "suspended"


class MisfirePolicy(models.TextChoices):
    RUN_ALL = "run_all"
    RUN_ONCE = "run_once"
    SKIP = "skip"


class OverlapPolicy(models.TextChoices):
    """What a run due while an earlier run of the task is unfinished becomes."""

    ALLOW = "allow"  # made anyway
    SKIP = "skip"  # not made (recorded in the skipped-run ledger)
    BUFFER_ONE = "buffer_one"  # one waits and goes the moment the earlier one finishes


class SkipReason(models.TextChoices):
    PAUSED = "paused"
    MISFIRE = "misfire"
    OVERLAP = "overlap"
    TENANT_STOPPED = "tenant_stopped"
    DST_GAP = "dst_gap"


class HttpMethod(models.TextChoices):
    GET = "GET"
    POST = "POST"
    PUT = "PUT"
    PATCH = "PATCH"
    DELETE = "DELETE"


class Task(models.Model):
    id = models.UUIDField(primary_key=True, default=new_id, editable=False)
    tenant = models.ForeignKey(Tenant, on_delete=models.PROTECT, related_name="tasks")
    name = models.CharField(max_length=200, blank=True, default="")
    cron = models.CharField(max_length=200, null=True, blank=True)
    timezone = models.CharField(max_length=64, default="UTC")
    run_at = models.DateTimeField(null=True, blank=True)
    # Every interval_seconds from starts_at (or the creation instant): exclusive with cron.
    interval_seconds = models.PositiveIntegerField(null=True, blank=True)
    # The window of a cron or interval task: no run before starts_at, none at or after ends_at.
    starts_at = models.DateTimeField(null=True, blank=True)
    ends_at = models.DateTimeField(null=True, blank=True)
    max_runs = models.PositiveIntegerField(null=True, blank=True)
    # Database defaults: the tick's and the batch's raw statements leave them out.
    runs_made = models.PositiveIntegerField(default=0, db_default=0)
    overlap = models.CharField(
        max_length=16,
        choices=OverlapPolicy.choices,
        default=OverlapPolicy.ALLOW,
        db_default=OverlapPolicy.ALLOW,
    )
    skipped_runs = models.PositiveBigIntegerField(default=0, db_default=0)
    # The ledger entry that the next skip of the same reason extends (none once a run is
    # made): consecutive skips are one entry, found without a read.
    open_skip_id = models.UUIDField(null=True, blank=True)
    open_skip_reason = models.CharField(max_length=16, null=True, blank=True)
    # The task's newest run when it alone can be unfinished (null: not known), so the tick's
    # overlap check reads one job of a skip or buffer_one task, not the finished ones it
    # keeps (tasks/overlap.py). The tick keeps it; every path that makes or revives a job
    # out of the schedule's order clears it (tasks/overlap_job.py).
    overlap_job_id = models.UUIDField(null=True, blank=True)
    url = models.CharField(max_length=2048)
    # Called once after each job that succeeds or dies (jobs/callbacks/).
    on_success_url = models.CharField(max_length=2048, null=True, blank=True)
    on_failure_url = models.CharField(max_length=2048, null=True, blank=True)
    # The flow its calls go through (flows/): limits and a circuit breaker shared by the
    # tenant's tasks that name it. NULL: none (or its host's, with per_host_flows).
    flow_key = models.CharField(max_length=100, null=True, blank=True)
    # Up to 20 `key: value` pairs the tenant filters by; copied onto each job when it is made.
    labels = models.JSONField(default=dict, blank=True, db_default={})
    method = models.CharField(max_length=8, choices=HttpMethod.choices, default=HttpMethod.POST)
    headers = models.JSONField(default=dict, blank=True)
    body = models.TextField(blank=True, default="")
    secret_ref = models.CharField(max_length=100, null=True, blank=True)
    priority = models.PositiveSmallIntegerField(default=5)
    timeout_seconds = models.PositiveIntegerField(default=30)
    max_attempts = models.PositiveIntegerField(default=5)
    backoff_base_seconds = models.PositiveIntegerField(default=10)
    misfire_policy = models.CharField(
        max_length=16, choices=MisfirePolicy.choices, default=MisfirePolicy.RUN_ALL
    )
    status = models.CharField(max_length=16, choices=TaskStatus.choices, default=TaskStatus.ACTIVE)
    next_run_at = models.DateTimeField(null=True, blank=True)
    bucket = models.PositiveSmallIntegerField(default=0)
    version = models.PositiveIntegerField(default=1)
    idempotency_key = models.CharField(max_length=255, null=True, blank=True)
    request_hash = models.CharField(max_length=64, blank=True, default="")
    # Set when the task is prepared, not at its save: an interval task's runs are phased
    # from it before the row is written.
    created_at = models.DateTimeField(default=now, editable=False)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        db_table = "tasks"
        indexes = [
            # The tick reads one tight range per priority level; the bucket is filtered
            # inside the index so rows of another scheduler's buckets are never fetched.
            models.Index(
                fields=["status", "priority", "next_run_at", "bucket"], name="tasks_tick_idx"
            ),
            models.Index(fields=["tenant", "id"], name="tasks_tenant_list_idx"),
            # Counts a tenant's tasks by status for its quota, inside the index.
            models.Index(fields=["tenant", "status"], name="tasks_tenant_quota_idx"),
            # A tenant's tasks of one name: the upsert by name and `?name=` (tasks/task_names.py).
            models.Index(fields=["tenant", "name"], name="tasks_tenant_name_idx"),
            # Tasks by status in the order they last changed: the executors' read of tasks
            # paused or deleted since their last round (tasks/recent_stops.py) and the
            # archiver's purge of finished tasks, oldest first (jobs/storage_purge.py). The
            # tick does not write updated_at, so it costs nothing per run.
            models.Index(fields=["status", "updated_at"], name="tasks_changed_idx"),
        ]
        constraints = [
            models.UniqueConstraint(
                fields=["tenant", "idempotency_key"], name="tasks_tenant_idempotency_key_uniq"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.name or self.id}"

    @property
    def is_one_off(self) -> bool:
        return not self.cron and not self.interval_seconds


class SchedulerNode(models.Model):
    """A running scheduler, known by its heartbeat; the live ones share the partitions."""

    node_id = models.CharField(max_length=100, primary_key=True)
    heartbeat_at = models.DateTimeField()

    class Meta:
        db_table = "scheduler_nodes"


class SchedulerLease(models.Model):
    """Ownership of one partition (a contiguous range of buckets) by one scheduler."""

    partition = models.PositiveSmallIntegerField(primary_key=True)
    owner = models.CharField(max_length=100, null=True, blank=True)
    expires_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        db_table = "scheduler_leases"


class TenantSecret(models.Model):
    """A named secret of a tenant (sent as `Authorization` by tasks that name it),
    encrypted at rest; its value is never returned by the API."""

    id = models.UUIDField(primary_key=True, default=new_id, editable=False)
    tenant = models.ForeignKey(Tenant, on_delete=models.CASCADE, related_name="secrets")
    name = models.CharField(max_length=100)
    encrypted_value = models.TextField()
    # The only hosts the secret is sent to (tasks/secret_hosts.py); empty: none at all.
    allowed_hosts = models.JSONField(default=list)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        db_table = "tenant_secrets"
        constraints = [
            models.UniqueConstraint(fields=["tenant", "name"], name="tenant_secrets_name_uniq"),
        ]


class SkippedRun(models.Model):
    """One entry of the skipped-run ledger: consecutive scheduled runs of a task that were
    not made, all for one reason (a task paused for a month is one row). Written by the
    tick and the pause, resume and stop paths (tasks/skip_ledger.py)."""

    id = models.UUIDField(primary_key=True, default=new_id, editable=False)
    tenant_id = models.UUIDField()
    task_id = models.UUIDField()
    reason = models.CharField(max_length=16, choices=SkipReason.choices)
    first_scheduled_at = models.DateTimeField()
    last_scheduled_at = models.DateTimeField()
    count = models.PositiveBigIntegerField()
    recorded_at = models.DateTimeField()

    class Meta:
        db_table = "skipped_runs"
        indexes = [
            models.Index(
                fields=["tenant_id", "task_id", "-last_scheduled_at", "-id"],
                name="skipped_task_idx",
            ),
            models.Index(fields=["recorded_at"], name="skipped_recorded_idx"),
        ]

    def __str__(self) -> str:
        return f"{self.count} {self.reason} skip(s) of task {self.task_id}"


class SkippedRunTotal(models.Model):
    """Every run the ledger ever recorded, by reason: the one counter behind
    scheduler_skipped_runs_total, whichever process recorded the skip (the scheduler, or
    the API's resume), and unchanged when entries are archived (tasks/skip_totals.py)."""

    reason = models.CharField(max_length=16, primary_key=True, choices=SkipReason.choices)
    runs = models.PositiveBigIntegerField(default=0)

    class Meta:
        db_table = "skipped_run_totals"

    def __str__(self) -> str:
        return f"{self.runs} {self.reason}"


class TaskCount(models.Model):
    """An upper bound of the tasks a tenant holds, so that the task quota counts them only
    near its limit (tasks/held_counts.py). Written only with the tenant's row locked."""

    tenant = models.OneToOneField(
        Tenant, primary_key=True, on_delete=models.CASCADE, related_name="task_count"
    )
    held_bound = models.PositiveIntegerField()
    counted_at = models.DateTimeField()

    class Meta:
        db_table = "task_counts"
