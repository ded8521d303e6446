"""The dashboard page: the queue at a glance, each figure a link into the filtered list."""

from __future__ import annotations

from urllib.parse import urlencode

from django.contrib import admin
from django.http import HttpRequest, HttpResponse
from django.template.response import TemplateResponse
from django.urls import reverse

from console.dashboard import Dashboard, read_dashboard


def dashboard_view(request: HttpRequest) -> HttpResponse:
    dashboard = read_dashboard()
    context = {
        **admin.site.each_context(request),
        "title": "Dashboard",
        "dashboard": dashboard,
        "priorities": dashboard.priorities,
        "rows": _depth_rows(dashboard),
        "due_url": _jobs_url(status__exact="pending", due="now"),
        "dead_hour_url": _dead_url(died="1h"),
        "dead_day_url": _dead_url(died="24h"),
        "open_circuits_url": reverse("admin:flows_flow_changelist") + "?circuit_state__exact=open",
    }
    return TemplateResponse(request, "console/dashboard.html", context)


def _depth_rows(dashboard: Dashboard) -> list[dict]:
    """One row per status: its total and one cell per priority, each with its list's link."""
    rows = []
    for status, by_priority in dashboard.depth.items():
        cells = [
            (
                by_priority.get(priority, 0),
                _jobs_url(status__exact=status, priority__exact=priority),
            )
            for priority in dashboard.priorities
        ]
        total = sum(by_priority.values())
        rows.append(
            {
                "status": status,
                "total": total,
                "url": _jobs_url(status__exact=status),
                "cells": cells,
            }
        )
    return rows


def _jobs_url(**filters) -> str:
    return f"{reverse('admin:jobs_job_changelist')}?{urlencode(filters)}"


def _dead_url(**filters) -> str:
    return f"{reverse('admin:jobs_deadletter_changelist')}?{urlencode(filters)}"
