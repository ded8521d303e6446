"""List filters of the job lists that the dashboard's counts link to."""

from __future__ import annotations

import re
from datetime import timedelta

from django.contrib import admin
from django.db.models import Q, QuerySet
from django.utils import timezone

from jobs.models import JobStatus
from tasks.models import Task, Tenant

HEX_TERM = re.compile(r"^[0-9a-f-]{4,36}$")
GROUPS = (8, 4, 4, 4, 12)  # the hex digits of each part of a dashed UUID


class TenantFilter(admin.RelatedFieldListFilter):
    """Tenants by name only (their ids would double the sidebar's width)."""

    def field_choices(self, field, request, model_admin) -> list[tuple[object, str]]:
        return list(Tenant.objects.order_by("name").values_list("id", "name"))


class DueFilter(admin.SimpleListFilter):
    """Pending jobs already due that no executor has claimed (the dashboard's count)."""

    title = "due"
    parameter_name = "due"

    def lookups(self, request, model_admin):
        return [("now", "due, not claimed")]

    def queryset(self, request, queryset: QuerySet) -> QuerySet:
        if self.value() != "now":
            return queryset
        return queryset.filter(status=JobStatus.PENDING, next_attempt_at__lte=timezone.now())


class DiedFilter(admin.SimpleListFilter):
    """Dead jobs by when they died (a dead row's wake_at is its end: the wake index's
    entries of the dead rows serve the range)."""

    title = "died"
    parameter_name = "died"
    WINDOWS = {"1h": timedelta(hours=1), "24h": timedelta(days=1)}

    def lookups(self, request, model_admin):
        return [("1h", "in the last hour"), ("24h", "in the last day")]

    def queryset(self, request, queryset: QuerySet) -> QuerySet:
        window = self.WINDOWS.get(self.value() or "")
        if window is None:
            return queryset
        return queryset.filter(wake_at__gte=timezone.now() - window)


def job_search(queryset: QuerySet, term: str) -> QuerySet:
    """Jobs whose id starts or ends with the term (a full id, or the short id the lists
    show), or whose task name or last error contains it."""
    term = term.strip()
    if not term:
        return queryset
    # The task's name through a subquery, not a join: a callback job has no task row, and
    # the join would drop it from every search, by error text too.
    named = Task.objects.filter(name__icontains=term).values("id")
    matches = Q(task_id__in=named) | Q(error__icontains=term)
    if HEX_TERM.match(term.lower()):
        digits = term.lower().replace("-", "")
        matches |= Q(id__startswith=_dashed(digits, GROUPS))
        matches |= Q(id__endswith=_dashed(digits[::-1], GROUPS[::-1])[::-1])
    return queryset.filter(matches)


def _dashed(digits: str, groups: tuple[int, ...]) -> str:
    """A run of hex digits dashed as it sits in a UUID read from the given end: MariaDB
    keeps UUIDs dashed (a LIKE sees the dashes), other databases as bare hex (Django then
    drops the dashes from the pattern)."""
    parts, rest = [], digits
    for size in groups:
        if not rest:
            break
        parts.append(rest[:size])
        rest = rest[size:]
    return "-".join(parts)
