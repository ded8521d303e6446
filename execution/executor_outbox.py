"""What the executor's event loop hands to its database round, across the two threads.

Results and hand-backs wait here for the next round's transaction; `held` counts the jobs
claimed and not yet resolved, which bounds what the round may claim. Everything is under
one lock: the loop thread adds, the database thread takes (and puts back on a failure).
"""

from __future__ import annotations

import threading

from jobs.models import JobStatus
from jobs.queue import ClaimedJob, HandBack, JobResult


class Outbox:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._results: list[JobResult] = []
        self._hand_backs: list[HandBack] = []
        self._held = 0

    # --- the loop thread -----------------------------------------------------------------

    def add_result(self, result: JobResult) -> int:
        """Returns how many results now wait."""
        with self._lock:
            self._results.append(result)
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

    def take(self, max_results: int) -> tuple[list[JobResult], list[HandBack]]:
        with self._lock:
            results, self._results = self._results[:max_results], self._results[max_results:]
            hand_backs, self._hand_backs = self._hand_backs, []
            return results, hand_backs

    def put_back(self, results: list[JobResult], hand_backs: list[HandBack]) -> None:
        """A round failed: what it took is written by the next one."""
        with self._lock:
            self._results[:0] = results
            self._hand_backs[:0] = hand_backs
