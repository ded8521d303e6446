"""The optional `tenant` label (METRICS_TENANT_LABEL): off, series are per process only;
on, every tenant with traffic adds its own series to each labelled metric of each process
(4 attempt outcomes and 6 call classes: up to 10 series per tenant per executor, and one
dead-jobs gauge per tenant with dead jobs in serve_metrics).

Read once, when the metrics are defined: a process's label set cannot change while it runs.
"""

from __future__ import annotations

from django.conf import settings


def tenant_labelled() -> bool:
    return bool(settings.METRICS_TENANT_LABEL)


def with_tenant(labels: list[str]) -> list[str]:
    """The label names of a metric, the tenant first when the setting is on."""
    return ["tenant", *labels] if tenant_labelled() else labels


def label_values(tenant_id: object, *values: str) -> tuple[str, ...]:
    return (str(tenant_id), *values) if tenant_labelled() else values
