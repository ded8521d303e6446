"""Operators' views of the queue: every job, and the dead letter queue with a retry action."""

from django.contrib import admin, messages

from jobs.models import DeadLetter, Job, JobStatus
from jobs.services import job_retry
from scheduler_site.errors import ApplicationError

READ_ONLY = [field.name for field in Job._meta.fields]


class ReadOnlyJobAdmin(admin.ModelAdmin):
    list_display = [
        "id",
        "tenant",
        "task_id",
        "scheduled_at",
        "status",
        "attempt",
        "max_attempts",
        "http_status",
        "error",
        "finished_at",
    ]
    list_filter = ["status", "priority"]
    search_fields = ["id", "task__id", "tenant__name"]
    readonly_fields = READ_ONLY
    ordering = ["-id"]
    list_select_related = ["tenant"]

    def has_add_permission(self, request):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(Job)
class JobAdmin(ReadOnlyJobAdmin):
    pass


@admin.register(DeadLetter)
class DeadLetterAdmin(ReadOnlyJobAdmin):
    actions = ["retry_jobs"]
    list_filter = ["tenant", "priority"]

    def get_queryset(self, request):
        return super().get_queryset(request).filter(status=JobStatus.DEAD)

    @admin.action(description="Retry the selected dead jobs (same id, fresh attempts)")
    def retry_jobs(self, request, queryset):
        retried, refused = 0, []
        for job in queryset.select_related("tenant"):
            try:
                job_retry(tenant=job.tenant, job_id=job.id)
                retried += 1
            except ApplicationError as exc:
                refused.append(f"{job.id}: {exc.message}")
        self.message_user(request, f"{retried} job(s) put back in the queue.", messages.SUCCESS)
        for line in refused:
            self.message_user(request, line, messages.WARNING)
