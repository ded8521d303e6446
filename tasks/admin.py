"""Operators' views of tenants and secrets (tasks are in the console: console/task_admin.py).

No secret is ever shown: tenant secrets are write-only, and a signing secret is shown once,
on the page the rotate action sends to (tasks/signing_secret_page.py). Each action needs a
permission of its own and leaves an entry in the admin's log.
"""

from django.contrib import admin

from audit.admin_saves import AuditedSaves
from audit.record import staff_actor
from scheduler_site.admin_actions import RefuseUnofferedActions, permitted_action
from tasks.critical_grant import critical_grant_withdraw
from tasks.models import Tenant, TenantSecret
from tasks.signing_secret_page import SigningSecretPage
from tasks.tenants import tenant_deactivate, tenant_reactivate, tenant_revoke_tokens


@admin.register(Tenant)
class TenantAdmin(AuditedSaves, RefuseUnofferedActions, SigningSecretPage, admin.ModelAdmin):
    list_display = ["name", "id", "concurrency_limit", "allow_critical", "is_active", "created_at"]
    list_filter = ["is_active", "allow_critical"]
    exclude = ["signing_secret", "previous_signing_secret"]
    # is_active changes only by the stop and resume actions, which need their permission.
    readonly_fields = [
        "id",
        "is_active",
        "previous_signing_secret_until",
        "tokens_not_before",
        "settings_version",  # the tenant's own edits' version (PATCH /v1/tenant)
        "created_at",
    ]
    search_fields = ["name", "id"]
    actions = ["deactivate", "reactivate", "revoke_tokens", "rotate_signing_secret"]
    audit_thing = "tenant"

    def audit_tenant_id(self, tenant: Tenant):
        return tenant.id

    def save_model(self, request, obj, form, change):
        withdrawn = change and "allow_critical" in form.changed_data and not obj.allow_critical
        super().save_model(request, obj, form, change)
        if withdrawn:
            demoted = critical_grant_withdraw(tenant=obj)
            self.message_user(
                request, f"Priority 0 withdrawn: {demoted} waiting jobs now run at priority 1."
            )

    def has_stop_tenant_permission(self, request) -> bool:
        return request.user.has_perm("tasks.stop_tenant")

    def has_revoke_tenant_tokens_permission(self, request) -> bool:
        return request.user.has_perm("tasks.revoke_tenant_tokens")

    def _apply(self, request, queryset, use_case, done: str, logged: str) -> None:
        tenants = list(queryset)
        for tenant in tenants:
            use_case(tenant=tenant, actor=staff_actor(request))
            self.log_change(request, tenant, logged)
        self.message_user(request, f"{len(tenants)} tenants {done}.")

    @permitted_action(
        permission="stop_tenant",
        description="Stop: no call, no new run, tokens refused (nothing is lost)",
    )
    def deactivate(self, request, queryset):
        self._apply(request, queryset, tenant_deactivate, "stopped", "Stopped the tenant")

    @permitted_action(
        permission="stop_tenant",
        description="Resume (missed runs follow each task's misfire policy)",
    )
    def reactivate(self, request, queryset):
        self._apply(request, queryset, tenant_reactivate, "resumed", "Resumed the tenant")

    @permitted_action(
        permission="revoke_tenant_tokens", description="Revoke every token issued until now"
    )
    def revoke_tokens(self, request, queryset):
        self._apply(
            request,
            queryset,
            tenant_revoke_tokens,
            "had their tokens revoked",
            "Revoked its tokens",
        )


@admin.register(TenantSecret)
class TenantSecretAdmin(AuditedSaves, RefuseUnofferedActions, admin.ModelAdmin):
    list_display = ["tenant", "name", "allowed_hosts", "updated_at"]
    exclude = ["encrypted_value"]
    # The hosts are the tenant's to set through the API, where they are checked.
    readonly_fields = ["tenant", "name", "allowed_hosts", "created_at", "updated_at"]
    audit_thing = "secret"

    def audit_target(self, secret: TenantSecret) -> str:
        return secret.name  # as the API names it

    def audit_deleted(self, secret: TenantSecret) -> dict:
        return {"allowed_hosts": secret.allowed_hosts}  # as the API's delete: never the value

    def has_add_permission(self, request):
        return False
