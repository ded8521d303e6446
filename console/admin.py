"""The console's admin pages (Django's admin loads this module of every app)."""

from django.contrib import admin

from console import (  # noqa: F401 - they register themselves
    api_key_admin,
    audit_admin,
    dlq_admin,
    flow_admin,
    job_admin,
    task_admin,
    tenant_admin,
)
from console.login_throttle import ThrottledLoginForm

admin.site.enable_nav_sidebar = False  # the lists need the whole width of a 1400 px screen
admin.site.site_url = None  # the service has no public site to "view"
admin.site.login_form = ThrottledLoginForm
