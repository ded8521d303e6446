"""GET /metrics: the queue gauges for Prometheus (meant for the internal network)."""

from django.http import HttpRequest, HttpResponse
from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, generate_latest

from execution.metrics import QueueCollector


def metrics(request: HttpRequest) -> HttpResponse:
    registry = CollectorRegistry()
    registry.register(QueueCollector())
    return HttpResponse(generate_latest(registry), content_type=CONTENT_TYPE_LATEST)
