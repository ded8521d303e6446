from django.apps import AppConfig


class ConsoleConfig(AppConfig):
    """The operators' console: the admin's dashboard, job and task lists and their actions.
    It sits above tasks, jobs and execution, so it may use all three."""

    name = "console"
