"""The dashboard pages, of the whole service and of one tenant: the queue at a glance, each
figure a link into the filtered list, and the last hour and day drawn as charts."""

from __future__ import annotations

from urllib.parse import urlencode

from django.contrib import admin
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.template.response import TemplateResponse
from django.urls import reverse

from console.ages import age_text
from console.dashboard import Dashboard, read_dashboard
from console.refresh import refresh_seconds
from console.tenant_dashboard import read_tenant_dashboard
from jobs.models import CALLBACK_PRIORITY
from tasks.models import Tenant


def index_view(request: HttpRequest) -> HttpResponse:
    """The console lands on the dashboard (the models' list is on it too)."""
    return redirect("console-dashboard")


def dashboard_view(request: HttpRequest) -> HttpResponse:
    context = {
        "title": "Dashboard",
        "app_list": admin.site.get_app_list(request),
        "circuits_url": reverse("admin:flows_flow_changelist") + "?circuit_state__exact=open",
    }
    return _page(request, read_dashboard(), {}, context)


def tenant_dashboard_view(request: HttpRequest, tenant_id) -> HttpResponse:
    # A tenant's page, as its admin page is: a staff user who may not view tenants does not
    # learn one's name and traffic by its id.
    user = request.user
    if not (user.has_perm("tasks.view_tenant") or user.has_perm("tasks.change_tenant")):
        raise PermissionDenied
    tenant = get_object_or_404(Tenant, pk=tenant_id)
    context = {
        "title": f"Dashboard of {tenant.name}",
        "tenant": tenant,
        "circuits_url": reverse("admin:flows_flow_changelist")
        + "?"
        + urlencode({"circuit_state__exact": "open", "tenant__id__exact": tenant.id}),
    }
    scope = {"tenant__id__exact": tenant.id}
    return _page(request, read_tenant_dashboard(tenant), scope, context)


def _page(request: HttpRequest, dashboard: Dashboard, scope: dict, extra: dict) -> HttpResponse:
    context = {
        **admin.site.each_context(request),
        "dashboard": dashboard,
        "priorities": dashboard.priorities,
        "rows": _depth_rows(dashboard, scope),
        "oldest_due": _oldest_due_rows(dashboard, scope),
        "due_url": _jobs_url(status__exact="pending", due="now", **scope),
        "dead_hour_url": _dead_url(died="1h", **scope),
        "dead_day_url": _dead_url(died="24h", **scope),
        "refresh": refresh_seconds(request),
        **extra,
    }
    return TemplateResponse(request, "console/dashboard.html", context)


def _oldest_due_rows(dashboard: Dashboard, scope: dict) -> list[dict]:
    return [
        {
            "priority": "callbacks" if priority == CALLBACK_PRIORITY else f"p{priority}",
            "age": age_text(seconds),
            "seconds": round(seconds, 1),
            "url": _jobs_url(status__exact="pending", due="now", priority__exact=priority, **scope),
        }
        for priority, seconds in sorted(dashboard.oldest_due.items())
    ]


def _depth_rows(dashboard: Dashboard, scope: dict) -> list[dict]:
    """One row per status: its total and one cell per priority, each with its list's link."""
    rows = []
    for status, by_priority in dashboard.depth.items():
        cells = [
            (
                by_priority.get(priority, 0),
                _jobs_url(status__exact=status, priority__exact=priority, **scope),
            )
            for priority in dashboard.priorities
        ]
        total = sum(by_priority.values())
        rows.append(
            {
                "status": status,
                "total": total,
                "url": _jobs_url(status__exact=status, **scope),
                "cells": cells,
            }
        )
    return rows


def _jobs_url(**filters) -> str:
    return f"{reverse('admin:jobs_job_changelist')}?{urlencode(filters)}"


def _dead_url(**filters) -> str:
    return f"{reverse('admin:jobs_deadletter_changelist')}?{urlencode(filters)}"
