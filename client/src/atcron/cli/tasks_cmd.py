"""`atcron tasks ...` and `atcron apply FILE`."""

from __future__ import annotations

from argparse import Namespace
from pathlib import Path

from atcron.cli import columns
from atcron.cli.context import Context
from atcron.cli.parsing import Commands, list_flags
from atcron.cli.task_fields import add_task_flags, task_fields

TASK_ID = "the task's id (`atcron tasks list` shows them)"


def register(commands: Commands) -> None:
    group = commands.group("tasks", "create, read, edit and run tasks")
    listing = group.command("list", tasks_list, "the tasks, newest first")
    list_flags(listing)
    listing.add_argument("--status", help="active, paused, completed or deleted")
    listing.add_argument("--name", help="only the tasks of this name")
    listing.add_argument(
        "--label", action="append", metavar="KEY=VALUE", help="only tasks with this label (again)"
    )
    group.command("get", tasks_get, "one task").add_argument("id", help=TASK_ID)
    add_task_flags(group.command("create", tasks_create, "a new task"))
    update = group.command("update", tasks_update, "edit the fields given")
    update.add_argument("id", help=TASK_ID)
    add_task_flags(update)
    update.add_argument("--version", type=int, help="the version expected (else the current)")
    for name, handler in (("pause", tasks_pause), ("resume", tasks_resume)):
        action = group.command(name, handler, f"{name} a task")
        action.add_argument("id", help=TASK_ID)
        action.add_argument("--version", type=int, help="only if still at this version")
    delete = group.command("delete", tasks_delete, "delete a task")
    delete.add_argument("id", help=TASK_ID)
    delete.add_argument("--version", type=int, help="only if still at this version")
    run = group.command("run", tasks_run, "one run now, outside the schedule")
    run.add_argument("id", help=TASK_ID)
    run.add_argument("--idempotency-key", help="the same key again makes no second run")
    for parent in (group, commands):
        apply = parent.command("apply", tasks_apply, APPLY_HELP)
        apply.add_argument("file", help="YAML: a list of tasks, or `tasks:` and a list")


APPLY_HELP = "create or replace, by name, every task of a YAML file"


def tasks_list(args: Namespace, ctx: Context) -> None:
    labels = dict(item.partition("=")[::2] for item in args.label or [])
    found = ctx.client.tasks.list(
        status=args.status, name=args.name, labels=labels, page_size=_page(args)
    )
    ctx.show_many(found, columns.TASK)


def tasks_get(args: Namespace, ctx: Context) -> None:
    ctx.show(ctx.client.tasks.get(args.id))


def tasks_create(args: Namespace, ctx: Context) -> None:
    ctx.show(ctx.client.tasks.create(task_fields(args)))


def tasks_update(args: Namespace, ctx: Context) -> None:
    ctx.show(ctx.client.tasks.update(args.id, task_fields(args), version=args.version))


def tasks_pause(args: Namespace, ctx: Context) -> None:
    ctx.show(ctx.client.tasks.pause(args.id, version=args.version))


def tasks_resume(args: Namespace, ctx: Context) -> None:
    ctx.show(ctx.client.tasks.resume(args.id, version=args.version))


def tasks_delete(args: Namespace, ctx: Context) -> None:
    ctx.client.tasks.delete(args.id, version=args.version)
    ctx.done(f"deleted task {args.id}", {"id": args.id, "deleted": True})


def tasks_run(args: Namespace, ctx: Context) -> None:
    ctx.show(ctx.client.tasks.run(args.id, idempotency_key=args.idempotency_key))


def tasks_apply(args: Namespace, ctx: Context) -> None:
    results = ctx.client.apply(Path(args.file))
    ctx.show_many(results, columns.APPLIED)


def _page(args: Namespace) -> int | None:
    """Pages no larger than what is shown, and the one more that says whether more are
    left (the API's cap is 200)."""
    return None if args.all else min(args.limit + 1, 200)
