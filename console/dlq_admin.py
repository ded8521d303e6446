"""The dead letter queue: dead jobs with their last error in view, retried or discarded
one by one, by selection, or all those matching the current filter. Runs only: a dead
callback stays in the job list (console/callback_jobs.py)."""

from __future__ import annotations

from django.contrib import admin
from django.contrib.admin import DateFieldListFilter
from django.contrib.admin.options import IncorrectLookupParameters
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.template.response import TemplateResponse
from django.urls import path

from console.bad_filter import bad_filter_page
from console.callback_jobs import runs_only
from console.filters import DiedFilter, TenantFilter
from console.job_admin import QueueAdmin
from console.retry_all import retry_all_progress, start_retry_all
from jobs.models import DeadLetter, JobStatus
from jobs.retry_all import retry_all_latest
from jobs.services import job_discard, job_retry


@admin.register(DeadLetter)
class DeadLetterAdmin(QueueAdmin):
    list_display = [
        "job_id",
        "tenant_name",
        "task_link",
        "priority",
        "attempts",
        "http",
        "last_error_wide",
        "died_at",
        "scheduled_at",
    ]
    list_filter = [
        DiedFilter,
        ("tenant", TenantFilter),
        "priority",
        ("scheduled_at", DateFieldListFilter),
    ]
    actions = ["retry_jobs", "discard_jobs"]
    change_list_template = "console/dlq_change_list.html"
    # The latest deaths first: a sort of the dead rows (the archiver keeps them two weeks).
    ordering = ["-finished_at", "-id"]

    def get_queryset(self, request: HttpRequest):
        return runs_only(super().get_queryset(request).filter(status=JobStatus.DEAD))

    def changelist_view(self, request, extra_context=None):
        latest = retry_all_latest()
        progress = {"retry_all_progress": retry_all_progress(latest)} if latest else {}
        return super().changelist_view(request, {**progress, **(extra_context or {})})

    def get_urls(self):
        prefix = f"{self.opts.app_label}_{self.opts.model_name}"
        view = self.admin_site.admin_view(self.retry_matching_view)
        return [
            path("retry-matching/", view, name=f"{prefix}_retry_matching"),
            *super().get_urls(),
        ]

    @admin.action(description="Retry the selected dead jobs", permissions=["operate"])
    def retry_jobs(self, request, queryset):
        self._each_job(request, queryset, job_retry, "job(s) put back in the queue")

    @admin.action(description="Discard the selected dead jobs", permissions=["operate"])
    def discard_jobs(self, request, queryset):
        self._each_job(request, queryset, job_discard, "job(s) discarded")

    def retry_matching_view(self, request: HttpRequest) -> HttpResponse:
        """Every dead job the list shows with the current filter and search: asked on GET,
        handed on POST to the reconciler, which retries them in batches."""
        if not self.has_operate_permission(request):
            raise PermissionDenied
        try:
            changelist = self.get_changelist_instance(request)
        except IncorrectLookupParameters as exc:
            return bad_filter_page(request, self, exc)
        queryset = changelist.get_queryset(request)
        if request.method == "POST":
            start_retry_all(self, request, queryset)
            return redirect(f"../?{request.GET.urlencode()}")
        context = {
            **self.admin_site.each_context(request),
            "opts": self.opts,
            "title": "Retry the dead jobs matching this filter?",
            "count": queryset.count(),
            "query": request.GET.urlencode(),
            "filters": [f"{name} = {value}" for name, value in request.GET.items()],
        }
        return TemplateResponse(request, "console/dlq_retry_matching.html", context)
