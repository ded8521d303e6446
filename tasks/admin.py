"""Operators' views of tenants, tasks and secrets (secret values are never shown)."""

from django.contrib import admin

from tasks.models import Task, Tenant, TenantSecret


@admin.register(Tenant)
class TenantAdmin(admin.ModelAdmin):
    list_display = ["name", "id", "concurrency_limit", "is_active", "created_at"]
    readonly_fields = ["id", "signing_secret", "created_at"]
    search_fields = ["name", "id"]


@admin.register(Task)
class TaskAdmin(admin.ModelAdmin):
    list_display = ["id", "tenant", "name", "cron", "run_at", "status", "priority", "next_run_at"]
    list_filter = ["status", "priority", "misfire_policy"]
    search_fields = ["id", "name", "tenant__name"]
    readonly_fields = [field.name for field in Task._meta.fields]

    def has_add_permission(self, request):
        return False  # tasks are created through the API, where every rule is checked


@admin.register(TenantSecret)
class TenantSecretAdmin(admin.ModelAdmin):
    list_display = ["tenant", "name", "updated_at"]
    exclude = ["encrypted_value"]
    readonly_fields = ["tenant", "name", "created_at", "updated_at"]

    def has_add_permission(self, request):
        return False
