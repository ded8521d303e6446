"""The console's admin pages (Django's admin loads this module of every app)."""

from console import dlq_admin, job_admin, task_admin  # noqa: F401 - they register themselves
