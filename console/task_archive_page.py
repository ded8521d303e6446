"""A task's archived runs: the page of its jobs the archiver moved to the history store,
newest first, each linking to its read-only page."""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import path

from console.archived_job_page import archived_job_url
from console.archived_jobs import archived_runs, cursor_from, cursor_text, parsed_uuid
from history.records import HistoryUnavailable
from tasks.models import Task


class ArchivedRuns:
    """Mixed into the task admin: /admin/tasks/task/<id>/archived/."""

    def get_urls(self):
        view = self.admin_site.admin_view(self.archived_view)
        return [
            path("<path:object_id>/archived/", view, name="tasks_task_archived"),
            *super().get_urls(),
        ]

    def archived_view(self, request: HttpRequest, object_id: str) -> HttpResponse:
        if not self.has_view_permission(request):
            raise PermissionDenied
        task = get_object_or_404(Task.objects.select_related("tenant"), pk=parsed_uuid(object_id))
        context = {
            **self.admin_site.each_context(request),
            "opts": self.opts,
            "title": f"Archived runs of {task.name or task.id}",
            "task": task,
        }
        try:
            runs, older = archived_runs(
                tenant_id=task.tenant_id,
                task_id=task.id,
                before=cursor_from(request.GET.get("before")),
            )
        except HistoryUnavailable as exc:
            context["unavailable"] = str(exc)
            return TemplateResponse(request, "console/task_archived.html", context, status=503)
        context["runs"] = [(run, archived_job_url(run.id, run.tenant_id)) for run in runs]
        context["older"] = cursor_text(older)
        return TemplateResponse(request, "console/task_archived.html", context)
