"""Tasks as operators see them: a compact list, a read-only page, and the API's use cases
(pause, resume, run now, delete) as actions."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from django.contrib import admin
from django.db.models import QuerySet
from django.http import HttpRequest
from django.urls import reverse
from django.utils.html import format_html

from audit.record import staff_actor
from console.actions import Step, apply_each
from console.display import short_id, short_id_html
from console.filters import TenantFilter
from console.labels_display import LabelsShown
from console.paging import CappedPaginator
from console.schedule_limits import schedule_limits
from console.task_archive_page import ArchivedRuns
from console.task_buttons import TaskButtons, versioned
from console.task_ledger import ledger_html
from console.task_timing import TaskTiming
from jobs.run_now import task_run_now
from scheduler_site.admin_actions import RefuseUnofferedActions, permitted_action
from tasks.models import Task
from tasks.services import task_delete, task_pause, task_resume


@admin.register(Task)
class TaskAdmin(
    LabelsShown, TaskTiming, ArchivedRuns, TaskButtons, RefuseUnofferedActions, admin.ModelAdmin
):
    list_display = [
        "task_id",
        "name",
        "tenant_name",
        "schedule",
        "status",
        "priority",
        "next_run_at",
        "last_run",
        "last_result",
        "run_count",
        "jobs",
    ]
    list_display_links = ["task_id", "name"]
    list_filter = ["status", "priority", ("tenant", TenantFilter), "misfire_policy"]
    list_select_related = ["tenant"]
    search_fields = ["=id", "name", "tenant__name"]
    ordering = ["-id"]
    list_per_page = 50
    show_full_result_count = False
    paginator = CappedPaginator
    show_facets = admin.ShowFacets.NEVER  # a count per filter choice is a scan per choice
    actions = ["pause", "resume", "run_now", "soft_delete"]
    readonly_fields = ["labels_shown", "skipped_run_ledger"]
    exclude = ["labels"]  # shown as labels_shown

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # tasks are created through the API, where every rule is checked

    def has_change_permission(self, request: HttpRequest, obj=None) -> bool:
        return False  # a task changes only through its use cases: no Save on its page

    def has_delete_permission(self, request: HttpRequest, obj=None) -> bool:
        return False  # a row delete would strand its jobs: "Delete" below is the API's

    def has_operate_permission(self, request: HttpRequest) -> bool:
        return request.user.has_perm("tasks.change_task")

    def has_soft_delete_permission(self, request: HttpRequest) -> bool:
        return request.user.has_perm("tasks.delete_task")

    @admin.display(description="id", ordering="id")
    def task_id(self, task: Task):
        return short_id_html(task.id)

    @admin.display(description="tenant", ordering="tenant__name")
    def tenant_name(self, task: Task) -> str:
        return task.tenant.name

    @admin.display(description="schedule")
    def schedule(self, task: Task) -> str:
        if task.cron:
            return f"{task.cron} ({task.timezone}){schedule_limits(task)}"
        if task.interval_seconds:
            return f"every {task.interval_seconds} s{schedule_limits(task)}"
        return f"once at {task.run_at:%Y-%m-%d %H:%M:%S} UTC" if task.run_at else "-"

    @admin.display(description="skipped-run ledger")
    def skipped_run_ledger(self, task: Task):
        return ledger_html(task)

    @admin.display(description="jobs")
    def jobs(self, task: Task):
        url = reverse("admin:jobs_job_changelist") + f"?task__id__exact={task.id}"
        return format_html('<a href="{}">jobs</a>', url)

    def _each(
        self, request, queryset: QuerySet, use_case: Callable[..., object], done: str, logged: str
    ):
        tasks = queryset.select_related("tenant").order_by()
        actor = staff_actor(request)
        steps = (
            Step(
                task,
                task.name or short_id(task.id),
                partial(use_case, tenant=task.tenant, actor=actor, task_id=task.id),
            )
            for task in tasks
        )
        apply_each(self, request, steps, done, logged)

    @permitted_action(permission="operate", description="Pause (pending retries wait too)")
    def pause(self, request, queryset):
        self._each(request, queryset, versioned(task_pause), "task(s) paused", "Paused")

    @permitted_action(permission="operate", description="Resume (at the next future run)")
    def resume(self, request, queryset):
        self._each(request, queryset, versioned(task_resume), "task(s) resumed", "Resumed")

    @permitted_action(permission="operate", description="Run now (one run outside the schedule)")
    def run_now(self, request, queryset):
        self._each(request, queryset, task_run_now, "run(s) started", "Ran now")

    @permitted_action(
        permission="soft_delete",
        description="Delete (as the API does: waiting jobs are cancelled)",
    )
    def soft_delete(self, request, queryset):
        self._each(request, queryset, versioned(task_delete), "task(s) deleted", "Deleted")
