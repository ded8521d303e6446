"""The console's own pages, mounted under /admin/ before Django's admin (the roof names
this module by its dotted path, so it imports nothing of the console)."""

from django.contrib import admin
from django.urls import path

from console.views import dashboard_view

urlpatterns = [
    path("dashboard/", admin.site.admin_view(dashboard_view), name="console-dashboard"),
]
