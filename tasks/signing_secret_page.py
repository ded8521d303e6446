"""A rotated signing secret, shown on a page that can be read once.

The rotate action keeps only the tenants' ids in the session, under a token of its own, and
redirects to the page; the page takes them out of the session as it shows the secrets, with
no-store headers. No secret travels in a message (messages go back in a cookie) and a
reload shows nothing again.
"""

from __future__ import annotations

import secrets

from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.template.response import TemplateResponse
from django.urls import path
from django.utils.cache import add_never_cache_headers

from audit.record import staff_actor
from scheduler_site.admin_actions import permitted_action, require
from tasks.models import Tenant
from tasks.tenants import tenant_rotate_signing_secret

SESSION_PREFIX = "signing-secrets:"
PERMISSION = "rotate_signing_secret"


class SigningSecretPage:
    """Mixed into the tenant admin: the rotate action and the page it sends to."""

    def get_urls(self):
        view = self.admin_site.admin_view(self.signing_secrets_view)
        name = "tasks_tenant_signing_secrets"
        return [path("signing-secrets/<str:token>/", view, name=name), *super().get_urls()]

    def has_rotate_signing_secret_permission(self, request: HttpRequest) -> bool:
        return request.user.has_perm("tasks.rotate_signing_secret")

    @permitted_action(
        permission=PERMISSION, description="Rotate the signing secret (the new one is shown once)"
    )
    def rotate_signing_secret(self, request, queryset):
        tenants = list(queryset)
        for tenant in tenants:
            tenant_rotate_signing_secret(tenant=tenant, actor=staff_actor(request))
            self.log_change(request, tenant, "Rotated the signing secret")
        token = secrets.token_urlsafe(16)
        request.session[SESSION_PREFIX + token] = [str(tenant.id) for tenant in tenants]
        return redirect("admin:tasks_tenant_signing_secrets", token)

    def signing_secrets_view(self, request: HttpRequest, token: str) -> HttpResponse:
        require(self, request, PERMISSION)
        ids = request.session.pop(SESSION_PREFIX + token, None)
        tenants = list(Tenant.objects.filter(id__in=ids).order_by("name")) if ids else []
        context = {
            **self.admin_site.each_context(request),
            "opts": self.opts,
            "title": "New signing secrets" if ids else "Already shown",
            "tenants": tenants,
        }
        page = TemplateResponse(
            request, "tasks/signing_secrets.html", context, status=200 if ids else 410
        )
        add_never_cache_headers(page)  # never kept by the browser or a proxy
        return page
