"""The tenant list and page with the console's figures: each tenant's counts (tasks, jobs
pending, running, dead; console/tenant_counts.py), each a link into its list, and a link to
its dashboard. Registered over tasks' TenantAdmin (the console sits above tasks)."""

from __future__ import annotations

from urllib.parse import urlencode

from django.contrib import admin
from django.contrib.admin.views.main import ChangeList
from django.urls import reverse
from django.utils.html import format_html

from console.tenant_counts import TenantCounts, counts_for
from tasks.admin import TenantAdmin
from tasks.models import Tenant


class CountedChangeList(ChangeList):
    def get_results(self, request) -> None:
        super().get_results(request)
        counts = counts_for(list(self.result_list))
        for tenant in self.result_list:
            tenant.console_counts = counts[tenant.id]


def _link(view: str, count: int, **filters):
    return format_html('<a href="{}?{}">{}</a>', reverse(view), urlencode(filters), count)


def _counts(tenant: Tenant) -> TenantCounts:
    return getattr(tenant, "console_counts", TenantCounts())


class ConsoleTenantAdmin(TenantAdmin):
    list_display = [
        *TenantAdmin.list_display[:1],
        "tasks",
        "pending",
        "running",
        "dead",
        "dashboard",
        *TenantAdmin.list_display[1:],
    ]
    readonly_fields = [*TenantAdmin.readonly_fields, "dashboard"]

    def get_changelist(self, request, **kwargs):
        return CountedChangeList

    @admin.display(description="tasks")
    def tasks(self, tenant: Tenant):
        return _link(
            "admin:tasks_task_changelist", _counts(tenant).tasks, tenant__id__exact=tenant.id
        )

    @admin.display(description="pending")
    def pending(self, tenant: Tenant):
        return self._jobs(tenant, "pending", _counts(tenant).pending)

    @admin.display(description="running")
    def running(self, tenant: Tenant):
        return self._jobs(tenant, "running", _counts(tenant).running)

    @admin.display(description="dead")
    def dead(self, tenant: Tenant):
        return _link(
            "admin:jobs_deadletter_changelist", _counts(tenant).dead, tenant__id__exact=tenant.id
        )

    @admin.display(description="dashboard")
    def dashboard(self, tenant: Tenant):
        url = reverse("console-tenant-dashboard", args=[tenant.id])
        return format_html('<a href="{}" class="tenant-dashboard">dashboard</a>', url)

    def _jobs(self, tenant: Tenant, status: str, count: int):
        return _link(
            "admin:jobs_job_changelist", count, status__exact=status, tenant__id__exact=tenant.id
        )


admin.site.unregister(Tenant)
admin.site.register(Tenant, ConsoleTenantAdmin)
