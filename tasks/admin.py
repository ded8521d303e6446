"""Operators' views of tenants and secrets (tasks are in the console: console/task_admin.py).

No secret is ever shown: tenant secrets are write-only, and a signing secret is shown once,
by the action that rotates it.
"""

from django.contrib import admin, messages

from tasks.critical_grant import critical_grant_withdraw
from tasks.models import Tenant, TenantSecret
from tasks.tenants import (
    tenant_deactivate,
    tenant_reactivate,
    tenant_revoke_tokens,
    tenant_rotate_signing_secret,
)


@admin.register(Tenant)
class TenantAdmin(admin.ModelAdmin):
    list_display = ["name", "id", "concurrency_limit", "allow_critical", "is_active", "created_at"]
    list_filter = ["is_active", "allow_critical"]
    exclude = ["signing_secret", "previous_signing_secret"]
    readonly_fields = ["id", "previous_signing_secret_until", "tokens_not_before", "created_at"]
    search_fields = ["name", "id"]
    actions = ["deactivate", "reactivate", "revoke_tokens", "rotate_signing_secret"]

    def save_model(self, request, obj, form, change):
        withdrawn = change and "allow_critical" in form.changed_data and not obj.allow_critical
        super().save_model(request, obj, form, change)
        if withdrawn:
            demoted = critical_grant_withdraw(tenant=obj)
            self.message_user(
                request, f"Priority 0 withdrawn: {demoted} waiting jobs now run at priority 1."
            )

    def _apply(self, request, queryset, use_case, done: str) -> None:
        for tenant in queryset:
            use_case(tenant=tenant)
        self.message_user(request, f"{queryset.count()} tenants {done}.")

    @admin.action(description="Stop: no call, no new run, tokens refused (nothing is lost)")
    def deactivate(self, request, queryset):
        self._apply(request, queryset, tenant_deactivate, "stopped")

    @admin.action(description="Resume (missed runs follow each task's misfire policy)")
    def reactivate(self, request, queryset):
        self._apply(request, queryset, tenant_reactivate, "resumed")

    @admin.action(description="Revoke every token issued until now")
    def revoke_tokens(self, request, queryset):
        self._apply(request, queryset, tenant_revoke_tokens, "had their tokens revoked")

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


@admin.register(TenantSecret)
class TenantSecretAdmin(admin.ModelAdmin):
    list_display = ["tenant", "name", "allowed_hosts", "updated_at"]
    exclude = ["encrypted_value"]
    # The hosts are the tenant's to set through the API, where they are checked.
    readonly_fields = ["tenant", "name", "allowed_hosts", "created_at", "updated_at"]

    def has_add_permission(self, request):
        return False
