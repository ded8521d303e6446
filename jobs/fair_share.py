"""How a claim round shares its free slots among tenants: round robin inside each priority.

The round first learns, per priority level, which tenants have due jobs and how long the
oldest has waited; tenants are served oldest first, each asked for an equal share of the
level's slots, and the rows that come back are interleaved one tenant at a time. So a tenant
with 20,000 due jobs takes at most its share of a round, and a tenant with 100 due beside
it waits one round at most. Slots a tenant could not fill are claimed in the next round.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass

from jobs.turns import in_turns
from jobs.wake_index import DueGroup

# Bounds one round's statement: more tenants than this wait for the next round, oldest first.
MAX_TENANTS_PER_LEVEL = 64


@dataclass(frozen=True)
class Ask:
    """Claim up to `count` due jobs of one tenant at one priority level."""

    priority: int
    tenant: str
    count: int


def plan_asks(
    groups: Iterable[DueGroup], slots_by_priority: dict[int, int], skip: frozenset[str]
) -> list[Ask]:
    by_level: dict[int, list[DueGroup]] = defaultdict(list)
    for group in groups:
        if group.tenant not in skip and slots_by_priority.get(group.priority, 0) > 0:
            by_level[group.priority].append(group)
    asks = []
    for priority in sorted(by_level):
        waiting = sorted(by_level[priority], key=lambda g: g.oldest)[:MAX_TENANTS_PER_LEVEL]
        share = math.ceil(slots_by_priority[priority] / len(waiting))
        asks += [Ask(priority, group.tenant, share) for group in waiting]
    return asks


def interleave(rows: Iterable[tuple], ask_order: list[Ask]) -> list[tuple]:
    """Rows (key, tenant, priority, next_attempt_at) in claim order: priority first, then one
    row of each tenant in turn (tenants in ask order, each tenant's rows oldest first)."""
    rank = {(ask.priority, ask.tenant): index for index, ask in enumerate(ask_order)}
    asked = sorted(
        (row for row in rows if (row[2], row[1]) in rank),
        key=lambda row: (rank[(row[2], row[1])], row[3]),
    )
    return in_turns(asked, key=lambda row: (row[2], row[1]))
