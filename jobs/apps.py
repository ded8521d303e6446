from django.apps import AppConfig


class JobsConfig(AppConfig):
    name = "jobs"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from django.db.backends.signals import connection_created

        from jobs.error_text import register_sqlite_lower

        connection_created.connect(register_sqlite_lower, dispatch_uid="jobs.unicode_lower")
        # A task's waiting jobs follow the task: held while it is paused, released when it
        # resumes, cancelled when it is deleted (see tasks/task_events.py).
        from jobs.holds import jobs_hold_for_task, jobs_release_for_task, jobs_waiting_for_task
        from jobs.services import jobs_cancel_pending_for_task
        from tasks.task_events import on_task, on_waiting_jobs_question

        on_task("paused", jobs_hold_for_task)
        on_task("resumed", jobs_release_for_task)
        on_task("deleted", jobs_cancel_pending_for_task)
        on_waiting_jobs_question(jobs_waiting_for_task)
