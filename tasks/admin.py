"""Operators' views of tenants, tasks and secrets.

No secret is ever shown: tenant secrets are write-only, and a signing secret is shown once,
by the action that rotates it.
"""

from django.contrib import admin, messages

from tasks.models import Task, Tenant, TenantSecret
from tasks.tenants import tenant_revoke_tokens, tenant_rotate_signing_secret


@admin.register(Tenant)
class TenantAdmin(admin.ModelAdmin):
    list_display = ["name", "id", "concurrency_limit", "is_active", "created_at"]
    exclude = ["signing_secret", "previous_signing_secret"]
    readonly_fields = ["id", "previous_signing_secret_until", "tokens_not_before", "created_at"]
    search_fields = ["name", "id"]
    actions = ["revoke_tokens", "rotate_signing_secret"]

    @admin.action(description="Revoke every token issued until now")
    def revoke_tokens(self, request, queryset):
        for tenant in queryset:
            tenant_revoke_tokens(tenant=tenant)
        self.message_user(request, f"Tokens revoked for {queryset.count()} tenants.")

    @admin.action(description="Rotate the signing secret (the new one is shown once)")
    def rotate_signing_secret(self, request, queryset):
        for tenant in queryset:
            fresh = tenant_rotate_signing_secret(tenant=tenant)
            self.message_user(
                request,
                f"New signing secret of {tenant.name}: {fresh} (shown this once; the old one "
                "signs calls as well for 24 hours).",
                messages.WARNING,
            )


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
