"""Tenants' API keys as operators see them: who holds which, its scope, when it was last
used and until when it lives, and a revoke action (audited). The key is never shown (only
its hash is stored) and neither is the hash; keys are the tenants' own to create."""

from __future__ import annotations

from django.contrib import admin
from django.db.models import Q, QuerySet
from django.http import HttpRequest
from django.utils import timezone

from audit.record import staff_actor
from console.display import utc_text
from console.filters import TenantFilter
from console.paging import CappedPaginator
from scheduler_site.admin_actions import RefuseUnofferedActions, permitted_action
from tenants.api_keys.key_format import looks_like_key, prefix_of
from tenants.api_keys.services import api_keys_revoke
from tenants.models import ApiKey


class KeyStateFilter(admin.SimpleListFilter):
    title = "state"
    parameter_name = "state"

    def lookups(self, request, model_admin):
        return [("live", "live"), ("expired", "expired"), ("revoked", "revoked")]

    def queryset(self, request, queryset: QuerySet) -> QuerySet:
        now, unrevoked = timezone.now(), queryset.filter(revoked_at__isnull=True)
        if self.value() == "live":
            return unrevoked.filter(Q(expires_at__isnull=True) | Q(expires_at__gt=now))
        if self.value() == "expired":
            return unrevoked.filter(expires_at__lte=now)
        return queryset.filter(revoked_at__isnull=False) if self.value() == "revoked" else queryset


def state_of(api_key: ApiKey) -> str:
    if api_key.revoked_at is not None:
        return "revoked"
    expired = api_key.expires_at is not None and api_key.expires_at <= timezone.now()
    return "expired" if expired else "live"


@admin.register(ApiKey)
class ApiKeyAdmin(RefuseUnofferedActions, admin.ModelAdmin):
    list_display = [
        "name",
        "tenant_name",
        "scope",
        "prefix",
        "state",
        "created",
        "last_used",
        "expires",
        "revoked",
    ]
    list_filter = [KeyStateFilter, "scope", ("tenant", TenantFilter)]
    list_select_related = ["tenant"]
    search_fields = ["=prefix", "name", "=tenant__name"]
    search_help_text = (
        "A key's prefix (acs_...) or the whole key, its name, or its tenant's exact name."
    )
    ordering = ["-id"]
    list_per_page = 50
    show_full_result_count = False
    paginator = CappedPaginator
    show_facets = admin.ShowFacets.NEVER
    fields = [
        "id",
        "tenant",
        "name",
        "scope",
        "prefix",
        "created_at",
        "last_used_at",
        "expires_at",
        "revoked_at",
    ]
    readonly_fields = fields
    actions = ["revoke"]

    def get_search_results(self, request, queryset, search_term):
        # A leaked key pasted whole (from a log, a commit) finds its row by its prefix: the
        # hash is never searched, so the search says nothing a prefix would not.
        term = search_term.strip()
        prefix = prefix_of(term) if looks_like_key(term) else None
        if prefix is not None:
            return queryset.filter(prefix=prefix), False
        return super().get_search_results(request, queryset, search_term)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # a key is its tenant's to create: the key is shown to it alone

    def has_change_permission(self, request: HttpRequest, obj=None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj=None) -> bool:
        return False  # revoked keys stay, named by the audit log's entries

    def has_revoke_api_key_permission(self, request: HttpRequest) -> bool:
        return request.user.has_perm("tenants.revoke_api_key")

    @admin.display(description="tenant", ordering="tenant__name")
    def tenant_name(self, api_key: ApiKey) -> str:
        return api_key.tenant.name

    @admin.display(description="state")
    def state(self, api_key: ApiKey) -> str:
        return state_of(api_key)

    @admin.display(description="created", ordering="id")
    def created(self, api_key: ApiKey) -> str:
        return utc_text(api_key.created_at)

    @admin.display(description="last used", ordering="last_used_at")
    def last_used(self, api_key: ApiKey) -> str:
        return utc_text(api_key.last_used_at)

    @admin.display(description="expires", ordering="expires_at")
    def expires(self, api_key: ApiKey) -> str:
        return utc_text(api_key.expires_at)

    @admin.display(description="revoked", ordering="revoked_at")
    def revoked(self, api_key: ApiKey) -> str:
        return utc_text(api_key.revoked_at)

    @permitted_action(
        permission="revoke_api_key", description="Revoke (refused from the next request on)"
    )
    def revoke(self, request, queryset):
        keys = list(queryset.filter(revoked_at__isnull=True))
        revoked = api_keys_revoke(keys=keys, actor=staff_actor(request))
        for api_key in keys:
            self.log_change(request, api_key, "Revoked the API key")
        self.message_user(request, f"{revoked} API key(s) revoked.")
