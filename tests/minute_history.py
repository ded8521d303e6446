"""An hour of attempts made through the real result write (claim, then record_results), for
the console's tests: per-minute counts as executors leave them."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from jobs.models import Job
from jobs.queue import JobResult, claim_jobs, record_results


def attempts_in_the_last_hour(
    make_job, *, tenant=None, per_minute: int = 3, every: timedelta = timedelta(minutes=5)
) -> int:
    """In 12 minutes `every` apart from a minute ago (the last hour by default),
    `per_minute` attempts each: most delivered, some failed, one dead; their start delays
    grow with their age. Returns how many."""
    now = datetime.now(UTC).replace(second=0, microsecond=0)
    made = 0
    for step in range(12):
        started = now - every * step - timedelta(minutes=1)
        jobs = [
            make_job("https://example.com/", due=started - timedelta(hours=2), task_tenant=tenant)
            for _ in range(per_minute)
        ]
        batch = claim_jobs(
            worker_id="console",
            critical_limit=per_minute,
            normal_limit=per_minute,
            lookahead_seconds=0,
        )
        results = []
        for index, job in enumerate(batch.jobs):
            delay = 0.02 * (step + 1) * (index + 1)
            Job.objects.filter(id=job.id).update(next_attempt_at=started - timedelta(seconds=delay))
            status = (
                "dead" if step == 3 and index == 0 else "pending" if index == 1 else "succeeded"
            )
            results.append(
                JobResult(
                    job.key,
                    job.attempt,
                    status,
                    started_at=started,
                    finished_at=None if status == "pending" else started,
                    next_attempt_at=started + timedelta(days=1) if status == "pending" else None,
                )
            )
        made += record_results(worker_id="console", results=results)
        assert len(jobs) == len(batch.jobs)
    return made
