"""Unknown query parameters are a 400 on every API route, as unknown body fields are: a
default permission, so it runs for every view after the token is read and before anything
is written, and no route can forget it."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rest_framework.permissions import BasePermission

if TYPE_CHECKING:
    from rest_framework.request import Request
    from rest_framework.views import APIView


class KnownQueryParams(BasePermission):
    """A view names the parameters each method takes in `known_query_params`
    ({"GET": {...}}); a view that names none may page a GET (`cursor`, `limit`) and takes
    none on any other method."""

    def has_permission(self, request: Request, view: APIView) -> bool:
        # Imported here: DRF loads this class while rest_framework.views is still loading,
        # and the error types import that module.
        from scheduler_site.query_params import PAGING, refuse_unknown_params

        declared = getattr(view, "known_query_params", None)
        method = "GET" if request.method == "HEAD" else request.method
        if declared is None:
            known = PAGING if method == "GET" else frozenset()
        else:
            known = declared.get(method, frozenset())
        refuse_unknown_params(request, set(known))
        return True
