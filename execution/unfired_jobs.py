"""The jobs an executor claimed and has not called yet, by task and by flow: when a round
reads that a task was paused or deleted, or a flow paused or opened, since the claim, its
jobs are found here at once, not by a walk through every timer and the call pool's queue."""

from __future__ import annotations

from execution.held_job import HeldJob


class UnfiredJobs:
    """Changed in the event loop's thread only (the round reads `holds_flows` from its own)."""

    def __init__(self) -> None:
        self._by_task: dict[str, dict[str, HeldJob]] = {}
        self._by_flow: dict[int, dict[str, HeldJob]] = {}

    def add(self, held: HeldJob) -> None:
        self._by_task.setdefault(held.job.task_id, {})[held.job.key] = held
        if held.job.flow_id is not None:
            self._by_flow.setdefault(held.job.flow_id, {})[held.job.key] = held

    def discard(self, held: HeldJob) -> None:
        _pop(self._by_task, held.job.task_id, held)
        if held.job.flow_id is not None:
            _pop(self._by_flow, held.job.flow_id, held)

    def of_task(self, task_id: str) -> list[HeldJob]:
        return list(self._by_task.get(task_id, {}).values())

    def of_flow(self, flow_id: int) -> list[HeldJob]:
        return list(self._by_flow.get(flow_id, {}).values())

    @property
    def holds_flows(self) -> bool:
        """Whether any job held is in a flow: only then does a round read the flows stopped."""
        return bool(self._by_flow)

    def clear(self) -> None:
        self._by_task.clear()
        self._by_flow.clear()

    def __len__(self) -> int:
        return sum(len(jobs) for jobs in self._by_task.values())


def _pop(index: dict, name, held: HeldJob) -> None:
    jobs = index.get(name)
    if jobs is not None:
        jobs.pop(held.job.key, None)
        if not jobs:
            del index[name]
