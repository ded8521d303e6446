"""What the executor's event loop hands to its database round, across the two threads.

Results and hand-backs wait here for the next round's transaction; `held` counts the jobs
claimed and not yet resolved, which bounds what the round may claim. Everything is under
one lock: the loop thread adds, the database thread takes (and puts back on a failure).
A result is cut to its limits before it waits here, and a round takes results up to a
count and a number of bytes, so no endpoint's reply decides the size of a batch.
"""

from __future__ import annotations

import threading
from typing import NamedTuple

from jobs.models import JobStatus
from jobs.queue import ClaimedJob, HandBack, JobResult
from jobs.result_limits import encoded_size, within_limits


class Taken(NamedTuple):
    results: list[JobResult]
    hand_backs: list[HandBack]
    cut_by_bytes: bool  # results that the count bound allowed wait for the next round


class Outbox:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._results: list[tuple[JobResult, int]] = []  # each with its encoded size
        self._hand_backs: list[HandBack] = []
        self._held = 0

    # --- the loop thread -----------------------------------------------------------------

    def add_result(self, result: JobResult) -> int:
        """Returns how many results now wait."""
        result = within_limits(result)
        weighed = (result, encoded_size(result))
        with self._lock:
            self._results.append(weighed)
            self._held -= 1
            return len(self._results)

    def give_back(self, job: ClaimedJob, status: str = JobStatus.PENDING) -> None:
        """A claimed job goes back unfired, charging no attempt (written next round)."""
        with self._lock:
            self._hand_backs.append((job.key, job.attempt, status))
            self._held -= 1

    # --- the database thread -------------------------------------------------------------

    def claimed(self, count: int) -> None:
        with self._lock:
            self._held += count

    @property
    def held(self) -> int:
        return self._held

    @property
    def waiting(self) -> int:
        return len(self._results) + len(self._hand_backs)

    @property
    def results_waiting(self) -> int:
        return len(self._results)

    def take(self, max_results: int, max_bytes: int) -> Taken:
        """The oldest results up to `max_results` and `max_bytes` (the first one whatever
        its size), and every hand-back."""
        with self._lock:
            count, size = 0, 0
            for _, weight in self._results[:max_results]:
                if count and size + weight > max_bytes:
                    break
                count, size = count + 1, size + weight
            cut = count < min(max_results, len(self._results))
            taken, self._results = self._results[:count], self._results[count:]
            hand_backs, self._hand_backs = self._hand_backs, []
            return Taken([result for result, _ in taken], hand_backs, cut)

    def put_back(self, results: list[JobResult], hand_backs: list[HandBack]) -> None:
        """A round failed: what it took is written by the next one."""
        with self._lock:
            self._results[:0] = [(result, encoded_size(result)) for result in results]
            self._hand_backs[:0] = hand_backs
