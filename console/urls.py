"""The console's own pages, mounted under /admin/ before Django's admin (the roof names
this module by its dotted path, so it imports nothing of the console). The admin's index
itself leads to the dashboard."""

from django.contrib import admin
from django.urls import path

from console.views import dashboard_view, index_view, tenant_dashboard_view

urlpatterns = [
    path("", admin.site.admin_view(index_view), name="console-index"),
    path("dashboard/", admin.site.admin_view(dashboard_view), name="console-dashboard"),
    path(
        "dashboard/tenant/<uuid:tenant_id>/",
        admin.site.admin_view(tenant_dashboard_view),
        name="console-tenant-dashboard",
    ),
]
