"""A task's or a job's labels on its console page: one `key: value` chip each."""

from __future__ import annotations

from django.contrib import admin
from django.utils.html import format_html_join


def labels_html(labels: dict | None):
    if not labels:
        return "-"
    return format_html_join(" ", "<code>{}: {}</code>", sorted(labels.items()))


class LabelsShown:
    """The page's `labels` row, as chips rather than the stored JSON."""

    @admin.display(description="labels")
    def labels_shown(self, obj) -> str:
        return labels_html(obj.labels)
