"""What became of one burst's callbacks (bench/burst.py --callbacks): counted in the queue
(the callback jobs and their targets) and at the endpoint (its /callback/ log)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from bench.delivery import read_calls
from jobs.models import CALLBACK_PRIORITY, Callback, Job


@dataclass
class CallbackTally:
    expected: int  # one per run: each succeeds, so each makes its on_success_url callback
    made: int  # callback targets in the queue
    reported: int  # distinct runs they report on
    succeeded: int  # callback jobs that ended succeeded
    unfinished: int  # callback jobs not succeeded (pending, running, dead...)
    arrived: int  # distinct callbacks the endpoint saw (by webhook-id)
    repeats: int  # calls beyond the first of one callback
    last: float  # seconds from the burst's second to the last callback's arrival

    def row(self) -> list[object]:
        return [
            self.expected,
            self.made,
            self.reported,
            self.succeeded,
            self.unfinished,
            self.arrived,
            self.expected - self.arrived,
            self.repeats,
            self.last,
        ]


HEADERS = ["expected", "made", "runs", "succeeded", "unfinished", "arrived", "lost", "dup"]
HEADERS += ["last s"]


def tally(record: Path, expected: int, due: float) -> CallbackTally:
    """Callbacks of the burst due at `due` (epoch s): the queue holds only this burst's."""
    targets = dict(Callback.objects.values_list("job_id", "origin_job_id"))
    jobs = Job.objects.filter(priority=CALLBACK_PRIORITY)
    succeeded = jobs.filter(status="succeeded").count()
    ids = {str(job_id) for job_id in targets}
    calls = [call for call in read_calls(record) if call[1] in ids]
    per_key = Counter(call[1] for call in calls)
    return CallbackTally(
        expected=expected,
        made=len(targets),
        reported=len(set(targets.values())),
        succeeded=succeeded,
        unfinished=jobs.count() - succeeded,
        arrived=len(per_key),
        repeats=sum(n - 1 for n in per_key.values()),
        last=max((call[0] for call in calls), default=due) - due,
    )
