from django.apps import AppConfig


class FlowsConfig(AppConfig):
    name = "flows"
    default_auto_field = "django.db.models.BigAutoField"
