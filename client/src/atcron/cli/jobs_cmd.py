"""`atcron jobs ...` and `atcron dlq ...`."""

from __future__ import annotations

from argparse import Namespace

from atcron.cli import columns
from atcron.cli.context import Context
from atcron.cli.output import as_json, table
from atcron.cli.parsing import Commands, list_flags
from atcron.errors import ConfigError
from atcron.models import Job

JOB_ID = "the job's id (`atcron jobs list --task ID` shows them)"


def register(commands: Commands) -> None:
    jobs = commands.group("jobs", "runs of tasks and their calls")
    listing = jobs.command("list", jobs_list, "the runs of one task, newest first")
    listing.add_argument("--task", required=True, help="the task's id")
    list_flags(listing)
    jobs.command("get", jobs_get, "one job").add_argument("id", help=JOB_ID)
    jobs.command("attempts", jobs_attempts, "every call of a job").add_argument("id", help=JOB_ID)
    jobs.command("cancel", jobs_cancel, "cancel a job not yet called").add_argument(
        "id", help=JOB_ID
    )
    dlq = commands.group("dlq", "the dead letter queue")
    dead = dlq.command("list", dlq_list, "the dead jobs, newest first")
    dead.add_argument("--task", help="only this task's")
    list_flags(dead)
    retry = dlq.command("retry", dlq_retry, "dead jobs back to pending")
    retry.add_argument("ids", nargs="*", metavar="ID", help="dead jobs' ids")
    retry.add_argument("--task", help="every dead job of this task instead")
    dlq.command("discard", dlq_discard, "give dead jobs up").add_argument(
        "ids", nargs="+", metavar="ID", help="dead jobs' ids"
    )


def jobs_list(args: Namespace, ctx: Context) -> None:
    ctx.show_many(ctx.client.jobs.list(args.task, page_size=_page(args)), columns.JOB)


def jobs_get(args: Namespace, ctx: Context) -> None:
    ctx.show(ctx.client.jobs.get(args.id))


def jobs_attempts(args: Namespace, ctx: Context) -> None:
    ctx.show_many(ctx.client.jobs.attempts(args.id), columns.ATTEMPT)


def jobs_cancel(args: Namespace, ctx: Context) -> None:
    ctx.show(ctx.client.jobs.cancel(args.id))


def dlq_list(args: Namespace, ctx: Context) -> None:
    ctx.show_many(ctx.client.dlq.list(task_id=args.task, page_size=_page(args)), columns.JOB)


def dlq_retry(args: Namespace, ctx: Context) -> None:
    if args.task:
        result = ctx.client.dlq.retry_all({"task_id": args.task})
        ctx.show(result)
        return
    _each(ctx, [ctx.client.dlq.retry(job_id) for job_id in _ids(args)])


def dlq_discard(args: Namespace, ctx: Context) -> None:
    _each(ctx, [ctx.client.dlq.discard(job_id) for job_id in args.ids])


def _each(ctx: Context, jobs: list[Job]) -> None:
    as_json(jobs) if ctx.json else table(jobs, columns.JOB)


def _ids(args: Namespace) -> list[str]:
    if not args.ids:
        raise ConfigError("name the dead jobs (ID ...) or pass --task")
    return list(args.ids)


def _page(args: Namespace) -> int | None:
    return None if args.all else min(args.limit + 1, 200)
