"""Content negotiation where `?format=` is a query parameter like any other.

DRF reads `?format=` before the view's checks and answers a format no renderer offers
(`?format=xml`) with a 404, before the credential is even read: a route that exists said
"not found", and an anonymous caller got 404 rather than 401. Here such a format is left
to the routes' query check (scheduler_site/known_query_params.py: a 400 naming it); the
schema's `?format=json` (a format it offers) still chooses its renderer.
"""

from __future__ import annotations

from rest_framework.negotiation import DefaultContentNegotiation


class UnofferedFormatIgnored(DefaultContentNegotiation):
    def filter_renderers(self, renderers, format):
        offered = [renderer for renderer in renderers if renderer.format == format]
        return offered or renderers
