"""An executor's own pacing of a rate-limited flow's calls, by when it really offers them.

The claim counts a flow's starts at claim time (flows/room.py), for every executor. But a
call leaves a little after its claim, and that lag varies (a first connection, a loaded
loop): a window's calls that left late and the next window's that left promptly could land
in one period at the destination. So the executor also keeps, per flow, when it offered its
last `rate` calls, and holds a call on a timer until the oldest of them is a period old.
"""

from __future__ import annotations

import time
from collections import deque


class FlowPace:
    """Used in the event loop's thread only."""

    def __init__(self) -> None:
        self._offered: dict[int, deque[float]] = {}

    def wait(self, flow_id: int, rate: int, period: float) -> float:
        """Seconds the next call of the flow must wait (0: it may go now, and is counted)."""
        now = time.monotonic()
        offered = self._offered.setdefault(flow_id, deque())
        while offered and offered[0] <= now - period:
            offered.popleft()  # (a flow's times are kept only while its window lasts)
        if len(offered) < rate:
            offered.append(now)
            return 0.0
        return offered[0] + period - now + 0.001
