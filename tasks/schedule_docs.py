"""How the API describes a task's schedule fields (OpenAPI descriptions and examples)."""

from drf_spectacular.utils import OpenApiExample

FIELD_HELP = {
    "interval_seconds": "run every this many seconds, 1 to 31,536,000, in elapsed time (no"
    " DST change moves it), at starts_at + k * interval, else from the creation instant"
    " rounded up to the second (exactly one of cron, run_at, interval_seconds), e.g. `90`",
    "starts_at": "cron and interval tasks: no run before this instant (with a UTC offset),"
    " e.g. `2030-01-01T08:00:00Z`",
    "ends_at": "cron and interval tasks: no run at or after this instant, after starts_at;"
    " once it is reached the task is `completed`, e.g. `2030-03-31T00:00:00Z`",
    "max_runs": "cron and interval tasks: the task is `completed` once the schedule made this"
    " many runs (run now and backfill do not count), e.g. `10`",
    "runs_made": "the runs the schedule made so far (run now and backfill not counted), e.g. `3`",
    "overlap": "what a run due while an earlier run of the task is unfinished (pending, held,"
    " running, waiting or throttled) becomes: `allow` (default) makes it, `skip` makes none"
    " and records it in the skipped-run ledger, `buffer_one` makes one `waiting` run that"
    " goes the moment the earlier one finishes (further ones skipped), e.g. `skip`",
    "skipped_runs": "how many scheduled runs were not made, in all (their entries:"
    " GET /v1/tasks/{id}/skipped), e.g. `0`",
    "next_run_at": "when the next scheduled run will be, or null when there is none"
    " (completed, or its window is over), e.g. `2030-01-01T08:01:30Z`",
}

TASK_EXAMPLES = [
    OpenApiExample(
        "An interval task",
        request_only=True,
        value={
            "name": "poll the feed",
            "interval_seconds": 90,
            "starts_at": "2030-01-01T08:00:00Z",
            "url": "https://example.com/hooks/poll",
        },
    ),
    OpenApiExample(
        "A windowed cron task with a run limit",
        request_only=True,
        value={
            "name": "quarter report",
            "cron": "0 9 * * 1",
            "timezone": "Europe/Madrid",
            "starts_at": "2030-01-07T00:00:00+01:00",
            "ends_at": "2030-04-01T00:00:00+02:00",
            "max_runs": 10,
            "url": "https://example.com/hooks/report",
        },
    ),
    OpenApiExample(
        "A labelled task (filter by ?label=env:prod)",
        request_only=True,
        value={
            "name": "nightly invoices",
            "cron": "0 3 * * *",
            "url": "https://example.com/hooks/invoices",
            "labels": {"env": "prod", "team": "billing"},
        },
    ),
]
