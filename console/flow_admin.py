"""Flows as operators see them: their limits and circuit in a list, read-only (limits are
set through the API, where every rule is checked), and pause, resume and closing the
circuit as actions, each recorded in the audit log."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from django.contrib import admin
from django.db.models import Count, Exists, IntegerField, OuterRef, QuerySet, Subquery
from django.http import HttpRequest

from audit.record import staff_actor
from console.actions import Step, apply_each
from console.display import utc_text
from console.filters import TenantFilter
from console.paging import CappedPaginator
from flows.models import Flow, FlowWait
from flows.services import flow_close_circuit, flow_pause, flow_resume
from jobs.models import Job, JobStatus
from scheduler_site.admin_actions import RefuseUnofferedActions, permitted_action


def waiting_count() -> Subquery:
    """The jobs a flow holds parked (flow_waits has no foreign key to count through): only
    those still throttled, as the API counts them (a cancelled job's row stays a while)."""
    throttled = Job.objects.filter(id=OuterRef("job_id"), status=JobStatus.THROTTLED)
    parked = (
        FlowWait.objects.filter(Exists(throttled), flow_id=OuterRef("id"))
        .order_by()
        .values("flow_id")
    )
    return Subquery(parked.annotate(n=Count("*")).values("n"), output_field=IntegerField())


@admin.register(Flow)
class FlowAdmin(RefuseUnofferedActions, admin.ModelAdmin):
    list_display = [
        "key",
        "tenant_name",
        "limits",
        "breaker",
        "paused",
        "circuit_state",
        "failures",
        "retry_time",
        "waiting",
    ]
    list_filter = ["circuit_state", "paused", ("tenant", TenantFilter)]
    list_select_related = ["tenant"]
    search_fields = ["key"]
    ordering = ["key", "id"]
    list_per_page = 50
    show_full_result_count = False
    paginator = CappedPaginator
    show_facets = admin.ShowFacets.NEVER
    actions = ["pause", "resume", "close_circuit"]

    def get_queryset(self, request: HttpRequest) -> QuerySet:
        return super().get_queryset(request).annotate(waiting=waiting_count())

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # flows are made through the API (or by their first job)

    def has_change_permission(self, request: HttpRequest, obj=None) -> bool:
        return False  # limits change through the API's validation: no Save here

    def has_delete_permission(self, request: HttpRequest, obj=None) -> bool:
        return False  # deleting a flow is the API's (its parked jobs go back)

    def has_operate_permission(self, request: HttpRequest) -> bool:
        return request.user.has_perm("flows.change_flow")

    @admin.display(description="tenant", ordering="tenant__name")
    def tenant_name(self, flow: Flow) -> str:
        return flow.tenant.name

    @admin.display(description="limits")
    def limits(self, flow: Flow) -> str:
        parts = []
        if flow.parallelism is not None:
            parts.append(f"{flow.parallelism} at once")
        if flow.rate is not None:
            parts.append(f"{flow.rate} per {flow.period_seconds} s")
        return ", ".join(parts) or "none"

    @admin.display(description="breaker")
    def breaker(self, flow: Flow) -> str:
        if flow.breaker_failures == 0:
            return "off"
        return f"{flow.breaker_failures} failures, {flow.breaker_cooldown_seconds} s"

    @admin.display(description="retry at", ordering="retry_at")
    def retry_time(self, flow: Flow) -> str:
        return utc_text(flow.retry_at)

    @admin.display(description="waiting", ordering="waiting")
    def waiting(self, flow: Flow) -> int:
        return flow.waiting or 0

    def _each(self, request, queryset: QuerySet, use_case: Callable[..., Flow], done, logged):
        actor = staff_actor(request)
        flows = queryset.order_by("id").select_related("tenant")
        steps = (
            Step(flow, flow.key, partial(use_case, tenant=flow.tenant, key=flow.key, actor=actor))
            for flow in flows
        )
        apply_each(self, request, steps, done, logged)

    @permitted_action(permission="operate", description="Pause (its jobs wait)")
    def pause(self, request, queryset):
        self._each(request, queryset, flow_pause, "flow(s) paused", "Paused")

    @permitted_action(permission="operate", description="Resume")
    def resume(self, request, queryset):
        self._each(request, queryset, flow_resume, "flow(s) resumed", "Resumed")

    @permitted_action(permission="operate", description="Close the circuit (failures to 0)")
    def close_circuit(self, request, queryset):
        self._each(request, queryset, flow_close_circuit, "circuit(s) closed", "Closed the circuit")
