from django.urls import path, register_converter

from tasks import batch_views, preview_views, secret_views, skipped_views, upsert_views, views
from tasks.task_names import TaskNameInUrl

register_converter(TaskNameInUrl, "task_name")

urlpatterns = [
    path("tasks", views.TaskCollectionView.as_view(), name="task-collection"),
    path("tasks/batch", batch_views.TaskBatchView.as_view(), name="task-batch"),
    # Before tasks/<task_id>/...: `by-name/pause` is the task named `pause`.
    path(
        "tasks/by-name/<task_name:name>",
        upsert_views.TaskByNameView.as_view(),
        name="task-by-name",
    ),
    path("tasks/<str:task_id>", views.TaskItemView.as_view(), name="task-item"),
    path("tasks/<str:task_id>/pause", views.TaskPauseView.as_view(), name="task-pause"),
    path("tasks/<str:task_id>/resume", views.TaskResumeView.as_view(), name="task-resume"),
    path("tasks/<str:task_id>/skipped", skipped_views.SkippedView.as_view(), name="task-skipped"),
    path("schedule-preview", preview_views.SchedulePreviewView.as_view(), name="schedule-preview"),
    path("signing-secret", secret_views.SigningSecretView.as_view(), name="signing-secret"),
    path("secrets", secret_views.SecretCollectionView.as_view(), name="secret-collection"),
    path("secrets/<str:name>", secret_views.SecretItemView.as_view(), name="secret-item"),
]
