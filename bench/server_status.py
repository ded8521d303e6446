"""MariaDB's global counters of writes (statements, commits, InnoDB row changes) over one
workload. They are server-wide: on a shared server another engineer's work counts too, so
the idle rate is measured first and taken out, as for CPU."""

from __future__ import annotations

import time

from django.db import connection

COUNTERS = (
    "Com_insert",
    "Com_update",
    "Com_delete",
    "Com_commit",
    "Handler_commit",
    # rows the storage engine wrote, changed and removed (temporary tables count apart)
    "Handler_write",
    "Handler_update",
    "Handler_delete",
    "Innodb_log_writes",
)


def read() -> dict[str, int]:
    with connection.cursor() as cursor:
        cursor.execute("SHOW GLOBAL STATUS")
        found = {name: int(value) for name, value in cursor.fetchall() if name in COUNTERS}
    return found


class StatusMeter:
    def __init__(self) -> None:
        self.idle: dict[str, float] = dict.fromkeys(COUNTERS, 0.0)
        self.delta: dict[str, int] = {}
        self.seconds = 0.0

    def start(self) -> None:
        self._before, self._began = read(), time.monotonic()

    def stop(self) -> None:
        after = read()
        self.seconds = time.monotonic() - self._began
        self.delta = {name: after[name] - self._before[name] for name in COUNTERS}

    def take_idle(self) -> None:
        """The last window had no work: its rates are the background."""
        self.idle = {name: value / self.seconds for name, value in self.delta.items()}

    def net(self, name: str) -> float:
        return max(self.delta[name] - self.idle[name] * self.seconds, 0.0)
