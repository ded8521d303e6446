"""The console's side of "retry all matching": starting the background operation with one
message, and the line that shows its progress, then its summary, above the list."""

from __future__ import annotations

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest

from jobs.bulk_retry import REFUSALS
from jobs.models import RetryAllOperation
from jobs.retry_all import retry_all_start
from scheduler_site.errors import Conflict


def start_retry_all(
    model_admin: admin.ModelAdmin, request: HttpRequest, dead_jobs: QuerySet
) -> None:
    filters = ", ".join(f"{name} = {value}" for name, value in request.GET.items())
    try:
        operation = retry_all_start(
            dead_jobs=dead_jobs, requested_by=request.user.get_username(), filters=filters[:500]
        )
    except Conflict as exc:
        model_admin.message_user(request, exc.message, messages.ERROR)
        return
    # One entry for the operation, not one per job: it may hold tens of thousands.
    model_admin.log_change(
        request, operation, f"Asked to retry all {operation.total:,} matching dead jobs"
    )
    model_admin.message_user(
        request,
        f"Retrying {operation.total:,} dead job(s) in the background: the reconciler puts "
        "them back in batches; the progress shows above the list.",
        messages.SUCCESS,
    )


def retry_all_progress(operation: RetryAllOperation) -> str:
    """One line: how far it got, what was refused and why, and whether it still runs."""
    refused = sum(operation.refused.values())
    line = (
        f"Retry of all matching ({operation.filters or 'no filter'}), asked by "
        f"{operation.requested_by}: {operation.done:,} of {operation.total:,} done, "
        f"{operation.retried:,} put back in the queue, {refused:,} refused"
    )
    if refused:
        reasons = sorted(operation.refused.items(), key=lambda item: -item[1])
        line += " (" + "; ".join(f"{n:,} {REFUSALS.get(r, r)}" for r, n in reasons) + ")"
    if operation.finished_at is None:
        return line + ". Running."
    return line + f". Finished {operation.finished_at:%Y-%m-%d %H:%M:%S} UTC."
