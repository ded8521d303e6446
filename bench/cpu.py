"""CPU time of a process from /proc/<pid>/stat (all its threads), e.g. the shared MariaDB's."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

TICK = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid: int) -> float:
    """utime + stime of the whole process (every thread), in seconds."""
    stat = Path(f"/proc/{pid}/stat").read_text()
    fields = stat.rsplit(")", 1)[1].split()  # the name may hold spaces or parentheses
    return (int(fields[11]) + int(fields[12])) / TICK


def start_ticks(pid: int) -> int:
    return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[19])


def pid_of(name: str, marker: str = "") -> int:
    """The process named `name` whose command line holds `marker` (another engineer may run a
    private server of the same name), else the oldest of that name."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if (entry / "comm").read_text().strip() == name:
                    marked = marker and marker in (entry / "cmdline").read_text()
                    found.append((not marked, start_ticks(int(entry.name)), int(entry.name)))
            except OSError:
                continue
    if not found:
        raise SystemExit(f"no {name} process on this machine")
    return min(found)[2]


@dataclass
class CpuMeter:
    """CPU seconds a process spends between `start` and `stop`. Other engineers may restart
    the shared MariaDB: a meter whose process changed says so instead of a wrong figure."""

    pid: int
    begun: float = 0.0
    identity: int = 0

    @classmethod
    def of(cls, name: str, marker: str = "") -> CpuMeter:
        return cls(pid_of(name, marker))

    @classmethod
    def mariadb(cls) -> CpuMeter:
        """The shared server on port 3306 (the benchmarks' databases live there)."""
        return cls.of("mariadbd", "--port=3306")

    def start(self) -> None:
        self.identity = start_ticks(self.pid)
        self.begun = cpu_seconds(self.pid)

    def stop(self) -> float:
        try:
            if start_ticks(self.pid) == self.identity:
                return cpu_seconds(self.pid) - self.begun
        except OSError:
            pass
        raise RuntimeError(f"process {self.pid} went away during the measurement")
