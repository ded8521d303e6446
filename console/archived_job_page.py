"""A job the archiver moved to the history store, on the job's own admin URL: read-only,
with its attempts, instead of Django's "doesn't exist. Perhaps it was deleted?"."""

from __future__ import annotations

import uuid

from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.template.response import TemplateResponse
from django.urls import reverse

from console.archived_jobs import archived_job, parsed_uuid
from history.records import HistoryUnavailable
from jobs.models import Job
from tasks.models import Task, Tenant

TEMPLATE = "console/archived_job.html"


def archived_job_url(job_id: uuid.UUID, tenant_id: uuid.UUID) -> str:
    """The job's own admin URL, with its tenant: the history reads it in one lookup."""
    url = reverse("admin:jobs_job_change", args=[job_id])
    return f"{url}?tenant={tenant_id}"


class ArchivedJobs:
    """Mixed into the job admin: its change page and its search fall back to the history."""

    def change_view(self, request, object_id, form_url="", extra_context=None):
        job_id = parsed_uuid(object_id)
        if job_id is not None and not Job.objects.filter(pk=job_id).exists():
            page = self._archived_page(request, job_id)
            if page is not None:
                return page
        return super().change_view(request, object_id, form_url, extra_context)

    def changelist_view(self, request, extra_context=None):
        """A whole job id searched for, that the queue no longer holds, opens its archived
        page (the list can only show the queue's rows)."""
        job_id = parsed_uuid(request.GET.get("q"))
        if job_id is not None and not Job.objects.filter(pk=job_id).exists():
            try:
                record = archived_job(job_id=job_id, tenant_id=None)
            except HistoryUnavailable:
                record = None  # the list still answers; the job's page says why
            if record is not None:
                return redirect(archived_job_url(record.id, record.tenant_id))
        return super().changelist_view(request, extra_context)

    def _archived_page(self, request: HttpRequest, job_id: uuid.UUID) -> HttpResponse | None:
        if not self.has_view_permission(request):
            raise PermissionDenied
        tenant_id = parsed_uuid(request.GET.get("tenant"))
        try:
            record = archived_job(job_id=job_id, tenant_id=tenant_id)
        except HistoryUnavailable as exc:
            context = self._page_context(request, job_id, unavailable=str(exc))
            return TemplateResponse(request, TEMPLATE, context, status=503)
        if record is None:
            return None  # neither store has it: Django's own "doesn't exist" answer
        return TemplateResponse(request, TEMPLATE, self._page_context(request, job_id, record))

    def _page_context(self, request, job_id, record=None, unavailable=None) -> dict:
        tenant = task = None
        if record is not None:
            tenant = Tenant.objects.filter(pk=record.tenant_id).first()
            task = Task.objects.filter(pk=record.task_id).only("id", "name").first()
        return {
            **self.admin_site.each_context(request),
            "opts": self.opts,
            "title": f"Archived job {job_id}",
            "job_id": job_id,
            "job": record,
            "tenant": tenant,
            "task": task,
            "unavailable": unavailable,
        }
