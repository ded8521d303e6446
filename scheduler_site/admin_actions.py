"""Admin actions that only the users holding their permission are offered, and may run.

Django hides an action the user lacks the permission of, but a POST made by hand naming
it is only answered "No action selected". Here such a POST is a 403, and each action checks
its permission again when it runs (an action called some other way is refused too).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps

from django.contrib import admin
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse

Action = Callable[[admin.ModelAdmin, HttpRequest, object], HttpResponse | None]


def permitted_action(*, permission: str, description: str) -> Callable[[Action], Action]:
    """An admin action needing `has_<permission>_permission(request)` of its ModelAdmin."""

    def decorate(function: Action) -> Action:
        @wraps(function)
        def guarded(model_admin, request, queryset):
            require(model_admin, request, permission)
            return function(model_admin, request, queryset)

        return admin.action(description=description, permissions=[permission])(guarded)

    return decorate


def require(model_admin: admin.ModelAdmin, request: HttpRequest, permission: str) -> None:
    """PermissionDenied unless the user holds the ModelAdmin's named permission."""
    if not getattr(model_admin, f"has_{permission}_permission")(request):
        raise PermissionDenied


class RefuseUnofferedActions:
    """Mixed into a ModelAdmin: a POST naming an action the user is not offered is a 403."""

    def changelist_view(self, request: HttpRequest, extra_context=None):
        if request.method == "POST":
            offered = self.get_actions(request)
            asked = [name for name in request.POST.getlist("action") if name]
            if any(name not in offered for name in asked):
                raise PermissionDenied
        return super().changelist_view(request, extra_context)
