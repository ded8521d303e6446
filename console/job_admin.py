"""Every job in the queue: a compact list, a read-only page with its attempts, and the
API's use cases (retry, cancel) as actions and as buttons on the page."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from django.contrib import admin
from django.contrib.admin import DateFieldListFilter
from django.core.exceptions import PermissionDenied
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.urls import path

from audit.record import staff_actor
from console.actions import Step, apply_each
from console.archived_job_page import ArchivedJobs
from console.archived_jobs import parsed_uuid
from console.callback_jobs import callback_target, with_callback_origin
from console.display import short_id
from console.filters import DueFilter, TenantFilter, job_search
from console.job_columns import JobColumns
from console.labels_display import LabelsShown
from console.paging import CappedPaginator
from jobs.attempts import attempts_for
from jobs.callbacks.lane import is_callback
from jobs.models import Job, JobStatus
from jobs.services import WAITING as CANCELLABLE
from jobs.services import job_cancel, job_discard, job_retry
from scheduler_site.admin_actions import RefuseUnofferedActions, permitted_action, require
from tasks.models import Tenant

JobUseCase = Callable[..., object]
# What each use case leaves in the admin's log, for the job it acted on.
LOGGED = {job_retry: "Retried", job_cancel: "Cancelled", job_discard: "Discarded"}


class QueueAdmin(LabelsShown, JobColumns, RefuseUnofferedActions, admin.ModelAdmin):
    """What both job lists share: read-only rows, search, and the use cases as buttons."""

    list_display_links = ["job_id"]
    # Not the task: a callback job has none, and a join would drop it (callback_jobs.py).
    list_select_related = ["tenant"]
    search_fields = ["error"]  # shows the search box; job_search decides what matches
    search_help_text = "A job id (whole, or the short id shown), a task name, or error text."
    ordering = ["-id"]
    list_per_page = 50
    show_full_result_count = False  # one count of the filtered rows, not a second of all
    paginator = CappedPaginator
    show_facets = admin.ShowFacets.NEVER  # a count per filter choice is a scan per choice
    change_form_template = "console/job_change_form.html"
    # Never editable, so named to be shown.
    readonly_fields = ["created_at", "updated_at", "labels_shown"]
    fieldsets = [
        (
            None,
            {
                "fields": [
                    ("tenant", "task"),
                    ("status", "priority"),
                    ("attempt", "max_attempts"),
                    "run_now",
                    "labels_shown",
                ]
            },
        ),
        (
            "When",
            {
                "fields": [
                    ("scheduled_at", "next_attempt_at"),
                    ("created_at", "updated_at"),
                ]
            },
        ),
        (
            "Last attempt",
            {"fields": [("started_at", "finished_at"), ("http_status", "duration_ms"), "error"]},
        ),
        (
            "Claim and retries",
            {
                "fields": [
                    ("worker_id", "claimed_at"),
                    ("lease_expires_at", "timeout_seconds"),
                    "backoff_base_seconds",
                ]
            },
        ),
    ]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj=None) -> bool:
        return False  # a job changes only through its use cases: no Save on its page

    def has_delete_permission(self, request: HttpRequest, obj=None) -> bool:
        return False

    def has_operate_permission(self, request: HttpRequest) -> bool:
        return request.user.has_perm("jobs.change_job")

    def changelist_view(self, request, extra_context=None):
        context = {
            "title": self.opts.verbose_name_plural.capitalize(),  # not "Select job to view"
            "can_operate": self.has_operate_permission(request),
            **(extra_context or {}),
        }
        return super().changelist_view(request, context)

    def get_queryset(self, request: HttpRequest) -> QuerySet:
        return with_callback_origin(super().get_queryset(request))

    def get_search_results(self, request: HttpRequest, queryset: QuerySet, search_term: str):
        return job_search(queryset, search_term), False

    def get_urls(self):
        prefix = f"{self.opts.app_label}_{self.opts.model_name}"
        wrap = self.admin_site.admin_view
        return [
            path("<path:object_id>/retry/", wrap(self.retry_view), name=f"{prefix}_retry"),
            path("<path:object_id>/cancel/", wrap(self.cancel_view), name=f"{prefix}_cancel"),
            *super().get_urls(),
        ]

    def change_view(self, request, object_id, form_url="", extra_context=None):
        job_id = parsed_uuid(object_id)  # no UUID: Django's "doesn't exist", not a 500
        job = None if job_id is None else Job.objects.filter(pk=job_id).first()
        if job is not None:
            extra_context = {**(extra_context or {}), **self._job_context(request, job)}
        return super().change_view(request, object_id, form_url, extra_context)

    def _job_context(self, request: HttpRequest, job: Job) -> dict:
        operate = self.has_operate_permission(request) and not is_callback(job)
        return {
            "attempts": attempts_for(job_id=job.id),
            "callback": callback_target(job),
            "can_retry": operate and job.status == JobStatus.DEAD,
            "can_cancel": operate and job.status in CANCELLABLE,
        }

    def retry_view(self, request: HttpRequest, object_id: str) -> HttpResponse:
        return self._use_case_view(request, object_id, job_retry, "job put back in the queue")

    def cancel_view(self, request: HttpRequest, object_id: str) -> HttpResponse:
        return self._use_case_view(request, object_id, job_cancel, "job cancelled")

    def _use_case_view(
        self, request: HttpRequest, object_id: str, use_case: JobUseCase, done: str
    ) -> HttpResponse:
        if request.method != "POST" or not self.has_operate_permission(request):
            raise PermissionDenied
        job = get_object_or_404(Job.objects.select_related("tenant"), pk=parsed_uuid(object_id))
        call = partial(use_case, tenant=job.tenant, actor=staff_actor(request), job_id=job.id)
        step = Step(job, short_id(job.id), call)
        apply_each(self, request, [step], done, logged_as(use_case))
        return redirect("admin:jobs_job_change", job.id)

    def _each_job(self, request, queryset: QuerySet, use_case: JobUseCase, done: str) -> None:
        require(self, request, "operate")  # every job action comes here, each list's and DLQ's
        # The ids are read whole first: the use cases change the very rows being read.
        rows = list(queryset.order_by().values_list("id", "tenant_id", "status"))
        tenants = Tenant.objects.in_bulk({tenant_id for _, tenant_id, _ in rows})
        actor = staff_actor(request)
        steps = (
            Step(
                Job(id=job_id, tenant_id=tenant_id, status=status),
                short_id(job_id),
                partial(use_case, tenant=tenants[tenant_id], actor=actor, job_id=job_id),
            )
            for job_id, tenant_id, status in rows
        )
        apply_each(self, request, steps, done, logged_as(use_case))


def logged_as(use_case: JobUseCase) -> str:
    return LOGGED.get(use_case) or getattr(use_case, "__name__", "Changed")


@admin.register(Job)
class JobAdmin(ArchivedJobs, QueueAdmin):
    list_display = [
        "job_id",
        "tenant_name",
        "task_link",
        "status",
        "priority",
        "attempts",
        "scheduled_at",
        "next_attempt",
        "http",
        "last_error",
    ]
    list_filter = [
        "status",
        "priority",
        ("tenant", TenantFilter),
        ("scheduled_at", DateFieldListFilter),
        DueFilter,
    ]
    actions = ["cancel_jobs", "retry_jobs"]

    @permitted_action(permission="operate", description="Cancel the selected waiting jobs")
    def cancel_jobs(self, request, queryset):
        self._each_job(request, queryset, job_cancel, "job(s) cancelled")

    @permitted_action(permission="operate", description="Retry the selected dead jobs")
    def retry_jobs(self, request, queryset):
        self._each_job(request, queryset, job_retry, "job(s) put back in the queue")
