"""What a task's page and list say about time: the cron in words, the next five runs as the
scheduler will make them, the last run with its result, and the runs made so far."""

from __future__ import annotations

from django.contrib import admin
from django.contrib.admin.views.main import ChangeList
from django.urls import reverse
from django.utils.html import format_html

from console.archived_job_page import archived_job_url
from console.archived_jobs import parsed_uuid
from console.cron_words import cron_in_words
from console.display import utc_text
from console.task_last_run import (
    LastRun,
    listed_last_run,
    newest_run,
    result_text,
    with_archived_last_runs,
    with_last_runs,
)
from tasks.models import Task
from tasks.next_runs import task_next_runs

NEXT_RUNS = 5


def schedule_words(task: Task) -> str | None:
    if task.cron:
        return f"{cron_in_words(task.cron, str(task.id))} ({task.timezone})"
    if task.interval_seconds:
        return f"Every {task.interval_seconds} seconds"
    return None


def last_run_url(run: LastRun, task: Task) -> str:
    if not run.archived:
        return reverse("admin:jobs_job_change", args=[run.job_id])
    return archived_job_url(run.job_id, task.tenant_id)


def timing_context(task: Task) -> dict:
    run, history_read = newest_run(task)
    return {
        "words": schedule_words(task),
        "next_runs": task_next_runs(task, NEXT_RUNS),
        "last_run": run,
        "last_run_url": last_run_url(run, task) if run else None,
        "last_result": result_text(run),
        "history_read": history_read,
    }


class TaskChangeList(ChangeList):
    def get_results(self, request):
        super().get_results(request)
        # Kept as the list the template shows: a queryset would be read again without them.
        self.result_list = list(self.result_list)
        with_archived_last_runs(self.result_list)  # the page's tasks, in one read


class TaskTiming:
    """Mixed into the task admin: the page's "Schedule and runs" box and the list's columns."""

    def get_queryset(self, request):
        return with_last_runs(super().get_queryset(request))

    def get_changelist(self, request, **kwargs):
        return TaskChangeList

    def change_view(self, request, object_id, form_url="", extra_context=None):
        # An id that is no UUID finds nothing (filtering by it would raise): Django's own
        # change_view then answers it with its "doesn't exist" redirect, never a 500.
        task_id = parsed_uuid(object_id)
        task = None if task_id is None else Task.objects.filter(pk=task_id).first()
        if task is not None:
            extra_context = {**(extra_context or {}), "timing": timing_context(task)}
        return super().change_view(request, object_id, form_url, extra_context)

    @admin.display(description="last run", ordering="last_run_at")
    def last_run(self, task: Task):
        run = listed_last_run(task)
        if run is None:
            return "-"
        url = last_run_url(run, task)
        return format_html('<a href="{}">{}</a>', url, utc_text(run.started_at))

    @admin.display(description="last result", ordering="last_status")
    def last_result(self, task: Task) -> str:
        return result_text(listed_last_run(task))

    @admin.display(description="runs", ordering="runs_made")
    def run_count(self, task: Task) -> str:
        return str(task.runs_made)
