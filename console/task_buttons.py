"""Buttons on a task's page: pause, resume and run now, each one use case, POST only."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.urls import path

from audit.record import staff_actor
from console.actions import Step, apply_each
from console.archived_jobs import parsed_uuid
from console.display import short_id
from jobs.run_now import task_run_now
from scheduler_site.preconditions import ANY_VERSION
from tasks.models import Task, TaskStatus
from tasks.services import task_can_pause, task_pause, task_resume


class TaskButtons:
    """Mixed into the task admin: its page's buttons and the views behind them."""

    change_form_template = "console/task_change_form.html"

    def get_urls(self):
        wrap = self.admin_site.admin_view
        return [
            path("<path:object_id>/pause/", wrap(self.pause_view), name="tasks_task_pause"),
            path("<path:object_id>/resume/", wrap(self.resume_view), name="tasks_task_resume"),
            path("<path:object_id>/run/", wrap(self.run_view), name="tasks_task_run"),
            *super().get_urls(),
        ]

    def change_view(self, request, object_id, form_url="", extra_context=None):
        task_id = parsed_uuid(object_id)  # no UUID: Django's "doesn't exist", not a 500
        task = None if task_id is None else Task.objects.filter(pk=task_id).first()
        if task is not None and self.has_operate_permission(request):
            extra_context = {
                **(extra_context or {}),
                "can_pause": task_can_pause(task),
                "can_resume": task.status == TaskStatus.PAUSED,
                "can_run": task.status != TaskStatus.DELETED,
            }
        return super().change_view(request, object_id, form_url, extra_context)

    def pause_view(self, request: HttpRequest, object_id: str) -> HttpResponse:
        return self._button(request, object_id, versioned(task_pause), "task(s) paused", "Paused")

    def resume_view(self, request: HttpRequest, object_id: str) -> HttpResponse:
        return self._button(
            request, object_id, versioned(task_resume), "task(s) resumed", "Resumed"
        )

    def run_view(self, request: HttpRequest, object_id: str) -> HttpResponse:
        return self._button(request, object_id, task_run_now, "run(s) started", "Ran now")

    def _button(
        self,
        request: HttpRequest,
        object_id: str,
        use_case: Callable[..., object],
        done: str,
        logged: str,
    ) -> HttpResponse:
        if request.method != "POST" or not self.has_operate_permission(request):
            raise PermissionDenied
        task = get_object_or_404(Task.objects.select_related("tenant"), pk=parsed_uuid(object_id))
        call = partial(use_case, tenant=task.tenant, actor=staff_actor(request), task_id=task.id)
        apply_each(self, request, [Step(task, task.name or short_id(task.id), call)], done, logged)
        return redirect("admin:tasks_task_change", task.id)


def versioned(use_case: Callable[..., object]) -> Callable[..., object]:
    """An edit use case as the admin calls it: whatever the task's current version."""
    return partial(use_case, expected_version=ANY_VERSION)
