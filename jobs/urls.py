from django.urls import path

from jobs import views
from jobs.backfill_views import TaskBackfillView
from jobs.bulk_views import DlqRetryView, JobsCancelView

urlpatterns = [
    # Before jobs/<job_id>, which would take `cancel` for an id.
    path("jobs/cancel", JobsCancelView.as_view(), name="jobs-cancel"),
    path("jobs/<str:job_id>", views.JobItemView.as_view(), name="job-item"),
    path("jobs/<str:job_id>/attempts", views.JobAttemptsView.as_view(), name="job-attempts"),
    path("jobs/<str:job_id>/retry", views.JobRetryView.as_view(), name="job-retry"),
    path("jobs/<str:job_id>/cancel", views.JobCancelView.as_view(), name="job-cancel"),
    path("jobs/<str:job_id>/discard", views.JobDiscardView.as_view(), name="job-discard"),
    path("tasks/<str:task_id>/run", views.TaskRunNowView.as_view(), name="task-run-now"),
    path("tasks/<str:task_id>/backfill", TaskBackfillView.as_view(), name="task-backfill"),
    path("tasks/<str:task_id>/jobs", views.TaskRunsView.as_view(), name="task-runs"),
    path("dlq", views.DeadLetterView.as_view(), name="dlq"),
    path("dlq/retry", DlqRetryView.as_view(), name="dlq-retry"),
]
