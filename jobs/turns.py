"""Tenants taking turns inside each priority level: the queue's one round robin.

The claim orders the rows it took this way (jobs/fair_share.py), the executor's timers the
jobs of one due instant, and the call pool the jobs waiting for a slot. The most urgent
level comes first; inside a level a tenant's items keep their order and the tenant served
least recently goes next (one never served first, in order of arrival). Being served is
remembered when a tenant's queue runs empty: a tenant whose calls just started, and whose
next job comes while others wait, is not taken before them.
"""

from __future__ import annotations

import bisect
from collections import deque
from collections.abc import Callable, Iterator
from typing import Generic, TypeVar

T = TypeVar("T")
NEVER = -1


class Turns(Generic[T]):
    def __init__(self) -> None:
        self._queues: dict[int, dict[str, deque[T]]] = {}  # by priority, by tenant
        self._order: dict[int, list[tuple[int, int, str]]] = {}  # (served, arrival, tenant)
        self._served: dict[tuple[int, str], int] = {}  # when each was last served
        self._clock = self._arrivals = self._size = 0

    def push(self, priority: int, tenant: str, item: T) -> None:
        queues = self._queues.setdefault(priority, {})
        if tenant not in queues:
            queues[tenant] = deque()
            self._arrivals += 1
            served = self._served.get((priority, tenant), NEVER)
            bisect.insort(self._order.setdefault(priority, []), (served, self._arrivals, tenant))
        queues[tenant].append(item)
        self._size += 1

    def pop(
        self,
        allowed: Callable[[int, str], bool] | None = None,
        *,
        max_priority: int | None = None,
    ) -> T | None:
        """The next item in turn whose (priority, tenant) is `allowed`, from the levels up to
        `max_priority`; None when there is none."""
        for priority in sorted(self._queues):
            if max_priority is not None and priority > max_priority:
                break
            for place, (_, arrival, tenant) in enumerate(self._order[priority]):
                if allowed is None or allowed(priority, tenant):
                    return self._take(priority, place, arrival, tenant)
        return None

    def _take(self, priority: int, place: int, arrival: int, tenant: str) -> T:
        order, queues = self._order[priority], self._queues[priority]
        del order[place]
        item = queues[tenant].popleft()
        self._clock += 1
        self._served[(priority, tenant)] = self._clock
        if queues[tenant]:
            order.append((self._clock, arrival, tenant))  # the latest served: last in turn
        else:
            del queues[tenant]
        if not queues:
            del self._queues[priority], self._order[priority]
        self._size -= 1
        return item

    def drain(self) -> list[T]:
        """Every item, in turn."""
        return [self.pop() for _ in range(self._size)]

    def clear(self) -> None:
        self._queues.clear()
        self._order.clear()
        self._size = 0

    def __len__(self) -> int:
        return self._size

    def __iter__(self) -> Iterator[T]:
        for queues in self._queues.values():
            for queue in queues.values():
                yield from queue


def in_turns(items: list[T], key: Callable[[T], tuple[int, str]]) -> list[T]:
    """`items` in turn, by the (priority, tenant) `key` gives each (first seen, first served)."""
    turns: Turns[T] = Turns()
    for item in items:
        turns.push(*key(item), item)
    return turns.drain()
