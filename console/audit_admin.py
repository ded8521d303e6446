"""The audit log in the console: every entry, newest first, filtered by tenant, action,
actor, target and date, and read-only for everyone (no add, change or delete, superusers
included: the log is append-only)."""

from __future__ import annotations

import json
import uuid

from django.contrib import admin
from django.contrib.admin import DateFieldListFilter
from django.contrib.admin.options import IncorrectLookupParameters
from django.db.models import OuterRef, Q, QuerySet, Subquery
from django.http import HttpRequest
from django.utils.html import format_html

from audit.actions import ACTIONS
from audit.models import AuditEntry
from console.display import clipped_html, utc_text
from console.paging import CappedPaginator
from tasks.models import Tenant

NO_TENANT = "none"


class AuditTenantFilter(admin.SimpleListFilter):
    """Tenants by name; `none` for operator actions that concern no one tenant."""

    title = "tenant"
    parameter_name = "tenant"

    def lookups(self, request, model_admin):
        tenants = Tenant.objects.order_by("name").values_list("id", "name")
        return [(str(tenant_id), name) for tenant_id, name in tenants] + [(NO_TENANT, "none")]

    def queryset(self, request, queryset: QuerySet) -> QuerySet:
        if self.value() == NO_TENANT:
            return queryset.filter(tenant_id__isnull=True)
        if not self.value():
            return queryset
        try:
            return queryset.filter(tenant_id=uuid.UUID(self.value()))
        except ValueError as exc:
            raise IncorrectLookupParameters(f"tenant: {self.value()!r} is not a tenant id") from exc


class ActionFilter(admin.SimpleListFilter):
    """The documented actions (a list of its own: a DISTINCT over the log would scan it)."""

    title = "action"
    parameter_name = "action"

    def lookups(self, request, model_admin):
        return [(action, action) for action in ACTIONS]

    def queryset(self, request, queryset: QuerySet) -> QuerySet:
        return queryset.filter(action=self.value()) if self.value() else queryset


class ActorFilter(admin.SimpleListFilter):
    title = "actor"
    parameter_name = "actor_kind"

    def lookups(self, request, model_admin):
        return [("operator", "operators (console)"), ("token", "tenants' tokens (API)")]

    def queryset(self, request, queryset: QuerySet) -> QuerySet:
        operators = Q(actor__startswith="operator:")
        if self.value() == "operator":
            return queryset.filter(operators)
        return queryset.exclude(operators) if self.value() == "token" else queryset


@admin.register(AuditEntry)
class AuditEntryAdmin(admin.ModelAdmin):
    list_display = ["when", "tenant_name", "actor", "action", "target", "changes_text"]
    list_filter = [
        AuditTenantFilter,
        ActionFilter,
        ActorFilter,
        ("at", DateFieldListFilter),
    ]
    search_fields = ["=target", "=actor"]
    search_help_text = "An exact target (an id, a secret's name) or actor (operator:NAME, a jti)."
    ordering = ["-id"]
    list_per_page = 50
    show_full_result_count = False
    paginator = CappedPaginator
    show_facets = admin.ShowFacets.NEVER
    fields = ["at", "tenant_id", "actor", "action", "target", "changes_json"]
    readonly_fields = fields

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj=None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj=None) -> bool:
        return False  # the archiver alone removes entries, past AUDIT_RETENTION_DAYS

    def get_queryset(self, request: HttpRequest) -> QuerySet:
        names = Tenant.objects.filter(id=OuterRef("tenant_id")).values("name")[:1]
        return super().get_queryset(request).annotate(tenant_name=Subquery(names))

    @admin.display(description="at", ordering="id")
    def when(self, entry: AuditEntry) -> str:
        return utc_text(entry.at)

    @admin.display(description="tenant")
    def tenant_name(self, entry: AuditEntry) -> str:
        return entry.tenant_name or ("-" if entry.tenant_id is None else str(entry.tenant_id))

    @admin.display(description="changes")
    def changes_text(self, entry: AuditEntry):
        return clipped_html(json.dumps(entry.changes, sort_keys=True), 80)

    @admin.display(description="changes")
    def changes_json(self, entry: AuditEntry):
        return format_html("<pre>{}</pre>", json.dumps(entry.changes, indent=2, sort_keys=True))
