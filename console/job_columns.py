"""The columns of the job lists: short, so that a list fits a 1400 px screen."""

from __future__ import annotations

from django.contrib import admin
from django.urls import reverse
from django.utils.html import format_html

from console.display import clipped_html, short_id, short_id_html, utc_text
from jobs.models import Job, JobStatus

# Statuses whose next attempt is still to come (a throttled job waits for its flow's room).
WAITING = (JobStatus.PENDING, JobStatus.HELD, JobStatus.THROTTLED)


class JobColumns:
    """Display methods shared by the list of every job and the dead letter queue."""

    @admin.display(description="id", ordering="id")
    def job_id(self, job: Job):
        return short_id_html(job.id)

    @admin.display(description="tenant", ordering="tenant__name")
    def tenant_name(self, job: Job) -> str:
        return job.tenant.name

    @admin.display(description="task", ordering="task__name")
    def task_link(self, job: Job):
        origin = getattr(job, "callback_of", None)
        if origin is not None:  # a callback: its task_id names no task
            url = reverse("admin:jobs_job_change", args=[origin])
            event = getattr(job, "callback_event", "")
            link = '{} callback of <a href="{}" title="{}">{}</a>'
            return format_html(link, event, url, origin, short_id(origin))
        if job.task is None:
            return short_id(job.task_id)
        url = reverse("admin:tasks_task_change", args=[job.task_id])
        name = job.task.name or short_id(job.task_id)
        return format_html('<a href="{}" title="{}">{}</a>', url, job.task_id, name)

    @admin.display(description="attempts")
    def attempts(self, job: Job) -> str:
        return f"{job.attempt}/{job.max_attempts}"

    @admin.display(description="next attempt", ordering="next_attempt_at")
    def next_attempt(self, job: Job) -> str:
        return utc_text(job.next_attempt_at) if job.status in WAITING else "-"

    @admin.display(description="HTTP", ordering="http_status")
    def http(self, job: Job) -> str:
        return str(job.http_status) if job.http_status else "-"

    @admin.display(description="last error")
    def last_error(self, job: Job):
        return clipped_html(job.error, 48)

    @admin.display(description="last error")
    def last_error_wide(self, job: Job):
        return clipped_html(job.error, 90)

    @admin.display(description="died", ordering="finished_at")
    def died_at(self, job: Job) -> str:
        return utc_text(job.finished_at)
