"""Task use cases: create, edit, pause, resume, delete (views and admin call these)."""

from __future__ import annotations

import uuid
import zlib
from collections.abc import Callable
from datetime import UTC, datetime

from django.db import IntegrityError, transaction
from django.utils import timezone

from audit.changes import field_changes, fields_of
from audit.record import record
from flows.usage import mark_tenant_uses_flows
from scheduler_site.errors import (
    Conflict,
    NotFound,
    PreconditionFailed,
    QuotaExceeded,
    Unprocessable,
    ValidationFailed,
)
from scheduler_site.ids import new_id
from scheduler_site.plain_inserts import insert_many
from scheduler_site.preconditions import ANY_VERSION
from tasks import rules, schedule, schedule_rules
from tasks.callback_urls import check_callback_urls
from tasks.held_counts import count_one_more
from tasks.host_lookups import HostLookups
from tasks.label_filters import with_labels
from tasks.models import BUCKET_COUNT, CRITICAL_PRIORITY, Task, TaskStatus, Tenant
from tasks.paused_runs import paused_so_far, record_paused_runs, record_runs_paused_so_far
from tasks.quotas import check_task_quota, quota, tenant_stopped
from tasks.rate_limit import give_back_creation_tokens, take_creation_token
from tasks.secret_hosts import check_secret_destination
from tasks.secrets import secret_hosts
from tasks.task_events import task_changed, task_has_waiting_jobs
from tasks.task_inserts import insert_task_if_active
from tasks.task_names import with_name
from tasks.tenant_cache import active_now
from tasks.timing import ONE_MICROSECOND, schedule_of

EDITABLE_FIELDS = (
    "name",
    "cron",
    "timezone",
    "run_at",
    "url",
    "method",
    "headers",
    "body",
    "secret_ref",
    "priority",
    "timeout_seconds",
    "max_attempts",
    "backoff_base_seconds",
    "misfire_policy",
    "interval_seconds",
    "starts_at",
    "ends_at",
    "max_runs",
    "overlap",
    "on_success_url",
    "on_failure_url",
    "labels",
    "flow_key",
)


def bucket_for(task_id: uuid.UUID) -> int:
    return zlib.crc32(task_id.bytes) % BUCKET_COUNT


def first_run_at(task: Task, now: datetime) -> datetime | None:
    """The run a task waits for next, seen from `now` (a past run_at is due at once): none
    once its window is over or its run limit is reached."""
    if task.is_one_off:
        return task.run_at
    if task.max_runs is not None and task.runs_made >= task.max_runs:
        return None
    if task.interval_seconds:
        now -= ONE_MICROSECOND  # an interval's grid instant at `now` itself is still to run
    return schedule_of(task).next_after(now)


# Making runs: active, or suspended while its tenant is stopped (tasks/suspension.py).
RUNNING = (TaskStatus.ACTIVE, TaskStatus.SUSPENDED)


def running_status(tenant: Tenant) -> str:
    """A task that makes runs again stays out of the tick's range while its tenant is stopped."""
    return TaskStatus.ACTIVE if tenant.is_active else TaskStatus.SUSPENDED


def _check_schedule(values: dict, task_id: uuid.UUID) -> None:
    kind = schedule_rules.check_one_kind(values)
    cron, run_at = values.get("cron"), values.get("run_at")
    if kind == "cron":
        values["cron"] = checked_cron(cron, values.get("timezone") or "UTC", str(task_id))
    else:
        checked_zone(values.get("timezone") or "UTC")  # kept with the task: valid too
        values["cron"] = None
    if kind == "run_at":
        if run_at.tzinfo is None:
            message = "must include a UTC offset, for example 2030-01-01T09:00:00Z"
            raise ValidationFailed(f"run_at {message}", fields={"run_at": message})
        values["run_at"] = run_at.astimezone(UTC)
    schedule_rules.check_window(values, kind)


def checked_cron(cron: str, timezone: str, seed: str) -> str:
    """A task's cron as stored, or the 400 naming `cron` or `timezone` (the preview too)."""
    try:
        return schedule.validate(cron, timezone, seed)
    except schedule.InvalidSchedule as exc:
        field = "timezone" if "time zone" in str(exc) else "cron"
        raise ValidationFailed(f"{field}: {exc}", fields={field: str(exc)}) from exc


def checked_zone(timezone: str) -> None:
    try:
        schedule.check_zone(timezone)
    except schedule.InvalidSchedule as exc:
        raise ValidationFailed(f"timezone: {exc}", fields={"timezone": str(exc)}) from exc


def _check_priority(values: dict, tenant: Tenant) -> None:
    if values.get("priority") == CRITICAL_PRIORITY and not tenant.allow_critical:
        message = "priority 0 takes reserved capacity: an operator grants it per tenant"
        raise ValidationFailed(f"priority {message}", fields={"priority": message})


def _check_target(values: dict, lookups: HostLookups) -> None:
    rules.check_limits(values)
    if values["url"] not in lookups.allowed_urls:  # its answers are the request's own
        lookups.allowed_urls.add(rules.check_url(values["url"], lookups.resolve))
    check_callback_urls(values, lookups.resolve)
    rules.check_headers(values.get("headers") or {})
    rules.check_body(values.get("body") or "")
    rules.check_secret_ref(values.get("secret_ref"))


# --- create ------------------------------------------------------------------------------


def _check_secret(values: dict, tenant: Tenant, hosts_by_name: dict | None = None) -> None:
    """The task's secret must exist and allow the task's host (a batch reads the hosts of
    all its secrets at once and passes them in)."""
    secret_ref = values.get("secret_ref")
    if secret_ref is None:
        return
    if hosts_by_name is None:
        hosts_by_name = secret_hosts(tenant=tenant, names={secret_ref})
    check_secret_destination(secret_ref, values["url"], hosts_by_name)


def task_prepare(
    *,
    tenant: Tenant,
    data: dict,
    idempotency_key: str | None = None,
    request_hash: str = "",
    hosts_by_name: dict[str, list[str]] | None = None,
    lookups: HostLookups | None = None,
) -> Task:
    """A new task checked against every rule of a create, not saved yet (a batch passes the
    lookups its items share)."""
    task_id = new_id()
    values = dict(data)
    values.setdefault("timezone", "UTC")
    _check_schedule(values, task_id)
    _check_target(values, lookups or HostLookups(tenant.id))
    _check_secret(values, tenant, hosts_by_name)
    _check_priority(values, tenant)
    task = Task(
        id=task_id,
        tenant=tenant,
        bucket=bucket_for(task_id),
        idempotency_key=idempotency_key,
        request_hash=request_hash,
        **values,
    )
    task.next_run_at = first_run_at(task, task.created_at)
    if task.next_run_at is None:
        field = "ends_at" if task.ends_at else "starts_at"
        message = "the window holds no run after now: the task would never run"
        raise ValidationFailed(f"{field}: {message}", fields={field: message})
    return task


def task_create(
    *,
    tenant: Tenant,
    actor: str,
    read_data: Callable[[], dict],
    idempotency_key: str | None = None,
    request_hash: str = "",
) -> tuple[Task, bool]:
    """Create a task; with an idempotency key, a repeat returns the original.

    Returns the task and whether it was created by this call. The creation is charged to
    the rate before `read_data` validates the fields (a refused one costs as much); the
    quota's refusal gives it back, and a replay takes none.
    """
    if idempotency_key:
        existing = Task.objects.filter(tenant=tenant, idempotency_key=idempotency_key).first()
        if existing is not None:
            return task_replay(existing, request_hash), False
    take_creation_token(tenant)
    data = read_data()
    task = task_prepare(
        tenant=tenant, data=data, idempotency_key=idempotency_key, request_hash=request_hash
    )
    try:
        with transaction.atomic():
            task_insert(tenant=tenant, actor=actor, task=task, data=data)
    except QuotaExceeded:
        give_back_creation_tokens(tenant, 1)
        raise
    except IntegrityError:
        if not idempotency_key:
            raise
        # Lost the race on UNIQUE (tenant_id, idempotency_key): answer with the winner.
        give_back_creation_tokens(tenant, 1)
        winner = Task.objects.get(tenant=tenant, idempotency_key=idempotency_key)
        return task_replay(winner, request_hash), False
    return task, True


def task_insert(*, tenant: Tenant, actor: str, task: Task, data: dict) -> None:
    """Save a prepared task in the caller's transaction, within the quota, audited; never
    for a tenant stopped since its token was checked (409 `tenant_stopped`)."""
    if task.flow_key:  # first: see flows.usage (a stop refuses the insert, undoing the mark)
        mark_tenant_uses_flows(tenant)
    if quota(tenant, "max_tasks"):
        check_task_quota(tenant)  # locks the tenant's row, which says whether it is active
        insert_many([task])
    elif not insert_task_if_active(task):  # reads the row in the INSERT itself
        raise tenant_stopped()
    _record(task, actor, "task.create", fields_of(task, data))


def task_replay(task: Task, request_hash: str) -> Task:
    """The task an idempotency key already made, if this request is the same one."""
    if task.request_hash != request_hash:
        raise Unprocessable(
            "this Idempotency-Key was already used with a different request body",
            code="idempotency_key_reused",
        )
    if task.status == TaskStatus.DELETED:
        raise Unprocessable(
            "this Idempotency-Key belongs to a task that has since been deleted",
            code="idempotency_key_reused",
        )
    return task


# --- reads ------------------------------------------------------------------------------


def task_get(*, tenant: Tenant, task_id: uuid.UUID) -> Task:
    task = Task.objects.filter(tenant=tenant, id=task_id).exclude(status=TaskStatus.DELETED).first()
    if task is None:
        raise NotFound("task not found")
    return task


def task_list(
    *,
    tenant: Tenant,
    after_id: uuid.UUID | None,
    limit: int,
    status: str | None = None,
    labels: dict[str, str] | None = None,
    name: str | None = None,
) -> list[Task]:
    """The tenant's tasks, newest first, starting after the cursor id, holding `labels`,
    of exactly `name` when given."""
    query = Task.objects.filter(tenant=tenant).exclude(status=TaskStatus.DELETED)
    query = with_labels(query, labels or {})
    if name is not None:
        query = with_name(query, name)
    if status:
        query = query.filter(status=status)
    if after_id is not None:
        query = query.filter(id__lt=after_id)
    return list(query.order_by("-id")[:limit])


# --- edits (all under If-Match) -------------------------------------------------------------


def _locked_for_edit(tenant: Tenant, task_id: uuid.UUID, expected_version: int | None) -> Task:
    task = (
        Task.objects.select_for_update()
        .filter(tenant=tenant, id=task_id)
        .exclude(status=TaskStatus.DELETED)
        .first()
    )
    if task is None:
        raise NotFound("task not found")
    if expected_version is not ANY_VERSION and task.version != expected_version:
        raise PreconditionFailed(
            f"the task has changed: its version is {task.version}, not {expected_version}"
        )
    return task


def _save_edit(task: Task, fields: list[str]) -> Task:
    task.version += 1
    task.save(update_fields=[*fields, "version", "updated_at"])
    return task


@transaction.atomic
def task_update(
    *,
    tenant: Tenant,
    actor: str,
    task_id: uuid.UUID,
    expected_version: int | None,
    changes: dict,
    keep_version_if_unchanged: bool = False,
) -> Task:
    """Apply `changes` to the task; with `keep_version_if_unchanged` (the upsert by name), a
    change that changes no field saves nothing, so a declarative sync applied twice is a no-op."""
    task = _locked_for_edit(tenant, task_id, expected_version)
    values = {field: getattr(task, field) for field in EDITABLE_FIELDS}
    before = fields_of(task, {*values, *changes})
    values.update(changes)
    schedule_rules.clear_replaced_kinds(values, changes)
    _check_schedule(values, task.id)
    _check_target(values, HostLookups(tenant.id))
    if "url" in changes or "secret_ref" in changes:
        _check_secret(values, tenant)
    if "priority" in changes:
        _check_priority(values, tenant)
    if changes.get("flow_key"):
        # After the name lookups (no tenant's row held through them), before any shared
        # read of the row (a finished task running again): flows.usage. The task's row
        # first, the tenant's after, as every edit takes them.
        mark_tenant_uses_flows(tenant)
    schedule_before = _schedule_of(task)
    missed_while_paused = paused_so_far(task, timezone.now())  # by the schedule it had
    for field, value in values.items():
        setattr(task, field, value)
    fields = list(EDITABLE_FIELDS)
    if _schedule_of(task) != schedule_before:
        was_finished = task.status == TaskStatus.COMPLETED
        _reschedule(task)
        fields += record_runs_paused_so_far(task, missed_while_paused, timezone.now())
        if was_finished and task.status in RUNNING:
            check_task_quota(tenant)  # a finished task running again counts again
        fields += ["next_run_at", "status"]
    changed = field_changes(before, fields_of(task, before))
    if not changed and keep_version_if_unchanged:
        return task
    if changed:  # a PATCH that changes no field leaves no entry
        _record(task, actor, "task.update", changed)
    return _save_edit(task, fields)


def _record(task: Task, actor: str, action: str, changes: dict | None = None) -> None:
    record(tenant_id=task.tenant_id, actor=actor, action=action, target=task.id, changes=changes)


def _status_change(task: Task, old: str) -> dict:
    return {"status": {"old": str(old), "new": str(task.status)}}


def _schedule_of(task: Task) -> tuple:
    return (
        task.cron,
        task.timezone if task.cron else None,
        task.run_at,
        task.interval_seconds,
        task.starts_at,
        task.ends_at,
        task.max_runs,
    )


def _reschedule(task: Task) -> None:
    """After a real schedule change the task waits for its next run from now; a finished
    one-off task given a new run_at runs again."""
    next_run = first_run_at(task, timezone.now())
    task.next_run_at = next_run
    if task.status == TaskStatus.COMPLETED and next_run is not None:
        task.status = running_status(task.tenant)
    elif task.status in RUNNING and next_run is None:
        task.status = TaskStatus.COMPLETED


@transaction.atomic
def task_pause(
    *, tenant: Tenant, actor: str, task_id: uuid.UUID, expected_version: int | None
) -> Task:
    task = _locked_for_edit(tenant, task_id, expected_version)
    if task.status == TaskStatus.PAUSED:
        return task
    if not task_can_pause(task):
        raise Conflict(f"a {task.status} task cannot be paused", code="invalid_state")
    old = task.status
    if old == TaskStatus.COMPLETED:
        count_one_more(tenant)  # a finished one-off is held again while paused
    task.status = TaskStatus.PAUSED
    _save_edit(task, ["status"])
    _record(task, actor, "task.pause", _status_change(task, old))
    task_changed("paused", task.id)  # its waiting jobs, retries included, wait too
    return task


def task_can_pause(task: Task) -> bool:
    """A task making runs, or a one-off whose run was made (the task is complete) while
    that job still waits for its call or a retry."""
    if task.status in RUNNING:
        return True
    finished_one_off = task.status == TaskStatus.COMPLETED and task.is_one_off
    return finished_one_off and task_has_waiting_jobs(task.id)


@transaction.atomic
def task_resume(
    *, tenant: Tenant, actor: str, task_id: uuid.UUID, expected_version: int | None
) -> Task:
    # The tenant's row before the task's, in a stop's order; by the row itself, as a stop
    # made elsewhere within the token's cached second must not leave the task active.
    tenant.is_active = active_now(tenant)
    task = _locked_for_edit(tenant, task_id, expected_version)
    if task.status in RUNNING:
        return task
    if task.status != TaskStatus.PAUSED:
        raise Conflict(f"a {task.status} task cannot be resumed", code="invalid_state")
    task.status = running_status(tenant)
    paused_at_run = task.next_run_at
    if not task.is_one_off:
        task.next_run_at = first_run_at(task, timezone.now())
    # A one-off keeps its next_run_at: none once its run was made (paused while that run
    # waited), so it is complete again and its held job goes on.
    if task.next_run_at is None:
        task.status = TaskStatus.COMPLETED
    ledger = record_paused_runs(task, paused_at_run, timezone.now())
    _save_edit(task, ["status", "next_run_at", *ledger])
    _record(task, actor, "task.resume", _status_change(task, TaskStatus.PAUSED))
    task_changed("resumed", task.id)  # held retries go on
    return task


@transaction.atomic
def task_delete(
    *, tenant: Tenant, actor: str, task_id: uuid.UUID, expected_version: int | None
) -> None:
    """Soft delete: the task leaves the tenant's view, never runs again, and its pending
    jobs are cancelled."""
    task = _locked_for_edit(tenant, task_id, expected_version)
    old = task.status
    task.status = TaskStatus.DELETED
    task.next_run_at = None
    _save_edit(task, ["status", "next_run_at"])
    _record(task, actor, "task.delete", _status_change(task, old))
    task_changed("deleted", task.id)
