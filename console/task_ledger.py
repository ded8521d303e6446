"""The skipped-run ledger on a task's console page: its total and its newest entries, the
live table and the history store merged as the API reads them."""

from __future__ import annotations

from django.utils.html import format_html, format_html_join

from console.display import utc_text
from scheduler_site.errors import ServiceUnavailable
from tasks.models import SkippedRun, Task
from tasks.skipped_reads import ledger_page, skip_record

SHOWN_ENTRIES = 20


def ledger_html(task: Task):
    """A bounded table, newest first; without the history store, the live entries only,
    said so (the page must not look complete when it is not)."""
    note = ""
    try:
        entries, more = ledger_page(
            tenant_id=task.tenant_id, task_id=task.id, before=None, limit=SHOWN_ENTRIES
        )
    except ServiceUnavailable:
        live = SkippedRun.objects.filter(task_id=task.id).order_by("-last_scheduled_at", "-id")
        entries, more = [skip_record(entry) for entry in live[:SHOWN_ENTRIES]], None
        note = " The history store is unavailable: archived entries are not shown."
    total = format_html("{} run(s) skipped in all.{}", task.skipped_runs, note)
    if not entries:
        return total
    rows = format_html_join(
        "",
        "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
        (
            (e.reason, utc_text(e.first_scheduled_at), utc_text(e.last_scheduled_at), e.count,
             utc_text(e.recorded_at))
            for e in entries
        ),
    )  # fmt: skip
    tail = f" The newest {SHOWN_ENTRIES} are shown; the API pages them all." if more else ""
    return format_html(
        "{}{}<table><thead><tr><th>reason</th><th>first run</th><th>last run</th>"
        "<th>runs</th><th>recorded</th></tr></thead><tbody>{}</tbody></table>",
        total,
        tail,
        rows,
    )
