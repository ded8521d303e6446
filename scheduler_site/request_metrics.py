"""The API's request metrics, labelled by the URL pattern a request matched (its route, e.g.
`v1/tasks/<uuid:task_id>/pause`), never by its raw path: the series are bounded by the
routes the project defines, whatever ids the requests carry. A request that matched no
route is `unmatched`.

Served by gunicorn's master on API_METRICS_PORT (scheduler_site/api_metrics_server.py),
never by the tenant API itself.
"""

from __future__ import annotations

import functools
import time
from collections.abc import Callable

from django.http import HttpRequest, HttpResponse
from prometheus_client import Counter, Histogram

METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})
UNMATCHED = "unmatched"


@functools.cache
def request_metrics() -> tuple[Counter, Histogram]:
    """Made when the middleware is first loaded (a request handler starts), not on import:
    the management commands import the middleware too (the admin's checks), and serve
    metrics of their own."""
    requests = Counter(
        "scheduler_api_requests_total",
        "API requests by route (the URL pattern matched), method and status class.",
        ["route", "method", "status_class"],
    )
    seconds = Histogram(
        "scheduler_api_request_duration_seconds",
        "Seconds the application took to answer an API request, by route.",
        ["route"],
        buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10),
    )
    return requests, seconds


def route_of(request: HttpRequest) -> str:
    match = getattr(request, "resolver_match", None)
    return (match.route or match.view_name or UNMATCHED) if match else UNMATCHED


class RequestMetricsMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response
        self.requests, self.seconds = request_metrics()

    def __call__(self, request: HttpRequest) -> HttpResponse:
        started = time.perf_counter()
        response = self.get_response(request)
        route = route_of(request)
        method = request.method if request.method in METHODS else "other"
        self.requests.labels(route, method, f"{response.status_code // 100}xx").inc()
        self.seconds.labels(route).observe(time.perf_counter() - started)
        return response
