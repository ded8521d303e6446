"""The jobs an executor claimed and has not called yet, by task: when a round reads that a
task was paused or deleted since the claim, its jobs are found here at once, not by a walk
through every timer and the call pool's queue."""

from __future__ import annotations

from execution.held_job import HeldJob


class UnfiredJobs:
    """Used in the event loop's thread only."""

    def __init__(self) -> None:
        self._by_task: dict[str, dict[str, HeldJob]] = {}

    def add(self, held: HeldJob) -> None:
        self._by_task.setdefault(held.job.task_id, {})[held.job.key] = held

    def discard(self, held: HeldJob) -> None:
        jobs = self._by_task.get(held.job.task_id)
        if jobs is not None:
            jobs.pop(held.job.key, None)
            if not jobs:
                del self._by_task[held.job.task_id]

    def of_task(self, task_id: str) -> list[HeldJob]:
        return list(self._by_task.get(task_id, {}).values())

    def clear(self) -> None:
        self._by_task.clear()

    def __len__(self) -> int:
        return sum(len(jobs) for jobs in self._by_task.values())
