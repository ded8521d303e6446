"""The schedule preview: the next runs of a schedule, each marked with the daylight-saving
rule that shaped it (tasks/schedule.py states the rules), without creating anything.

`H` has no task id to be stable for, so a preview resolves it with one fixed seed
(PREVIEW_SEED) and answers the expression it used: a task's own `H` values come from its id.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime

from tasks import schedule
from tasks.timing import Schedule, ceil_second

PREVIEW_SEED = "schedule-preview"
MAX_COUNT = 100


class DstMark:
    MOVED = "moved"  # one wall time of a spring-forward gap, run when the gap ends
    MERGED = "merged"  # several wall times (gap times, maybe the gap end's own) in one run
    REPEATED = "repeated"  # the second pass of a fall-back's repeated hour (elapsed time)


@dataclass(frozen=True)
class PreviewRun:
    at: datetime  # UTC
    local: datetime  # in the schedule's zone
    dst: str | None
    wall_times: tuple[datetime, ...] = ()  # the wall times a moved or merged run stands for


def preview_schedule(
    *,
    cron: str | None,
    interval_seconds: int | None,
    timezone: str,
    starts_at: datetime | None,
    ends_at: datetime | None,
    max_runs: int | None,
    count: int,
    now: datetime,
) -> list[PreviewRun]:
    """The first `count` runs after `now` (a new task's: max_runs counts from none made)."""
    anchor = (starts_at or ceil_second(now)) if interval_seconds else None
    steps = Schedule(cron, timezone, interval_seconds, anchor, starts_at, ends_at)
    limit = count if max_runs is None else min(count, max_runs)
    runs: list[PreviewRun] = []
    run = _next(steps, now)
    while run is not None and len(runs) < limit:
        try:
            runs.append(marked_run(run, cron, timezone))
        except (OverflowError, ValueError):  # its local time is past year 9999: the end
            break
        run = _next(steps, run)
    return runs


def _next(steps: Schedule, after: datetime) -> datetime | None:
    try:
        return steps.next_after(after)
    except (OverflowError, ValueError):  # past year 9999, the calendar's end: no more runs
        return None


def marked_run(run: datetime, cron: str | None, timezone: str) -> PreviewRun:
    local = run.astimezone(schedule.get_zone(timezone))
    if not cron:  # interval runs are elapsed time in UTC: no rule moves them
        return PreviewRun(run, local, None)
    if local.fold:
        return PreviewRun(run, local, DstMark.REPEATED)
    walls = schedule.gap_wall_times(cron, timezone, run)
    if len(walls) > 1:
        return PreviewRun(run, local, DstMark.MERGED, walls)
    if walls and walls[0] != local.replace(tzinfo=None):
        return PreviewRun(run, local, DstMark.MOVED, walls)
    return PreviewRun(run, local, None)


def run_body(run: PreviewRun) -> dict:
    return {
        "at": run.at.astimezone(UTC).isoformat().replace("+00:00", "Z"),
        "local": run.local.isoformat(),
        "dst": run.dst,
        "merged_count": len(run.wall_times) if run.dst == DstMark.MERGED else None,
        "wall_times": [wall.strftime("%Y-%m-%dT%H:%M") for wall in run.wall_times] or None,
    }
