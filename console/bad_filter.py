"""The answer to a filter the list cannot apply (an unknown field, a value of the wrong
type) on a page of its own: a 400 naming it, where Django's list redirects with `?e=1`."""

from __future__ import annotations

from django.contrib import admin
from django.http import HttpRequest
from django.template.response import TemplateResponse


def bad_filter_page(
    request: HttpRequest, model_admin: admin.ModelAdmin, error: Exception
) -> TemplateResponse:
    context = {
        **model_admin.admin_site.each_context(request),
        "opts": model_admin.opts,
        "title": "This filter cannot be applied",
        "error": error,
        "filters": [f"{name} = {value}" for name, value in request.GET.items()],
    }
    return TemplateResponse(request, "console/bad_filter.html", context, status=400)
