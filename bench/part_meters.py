"""CPU seconds of each part of the system over one workload: a named group of processes (the
Cassandra nodes are one part of several JVMs), read from /proc before and after, with the
rate each part spends while idle so the shared machine's background can be taken out."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path

from bench.cpu import CpuMeter


def pid_listening(host: str, port: int) -> int:
    """The process with a listening TCP socket on host:port (a Cassandra node's CQL port);
    /proc/net/tcp names the socket's inode, the owner's fd table holds it."""
    wanted = f"{''.join(f'{int(b):02X}' for b in reversed(host.split('.')))}:{port:04X}"
    inodes = set()
    for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
        cols = line.split()
        if cols[1] == wanted and cols[3] == "0A":  # 0A: LISTEN
            inodes.add(f"socket:[{cols[9]}]")
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            for fd in (entry / "fd").iterdir():
                if fd.readlink().as_posix() in inodes:
                    return int(entry.name)
        except OSError:
            continue
    raise SystemExit(f"nothing listens on {host}:{port}")


@dataclass
class Part:
    name: str
    meters: list[CpuMeter]
    idle_rate: float = 0.0  # CPU seconds per second while no work runs
    spent: float = 0.0

    def start(self) -> None:
        for meter in self.meters:
            meter.start()

    def stop(self) -> float:
        self.spent = sum(meter.stop() for meter in self.meters)
        return self.spent


@dataclass
class PartMeters:
    parts: list[Part] = field(default_factory=list)
    seconds: float = 0.0
    _began: float = 0.0

    def add(self, name: str, pids: list[int]) -> None:
        self.parts.append(Part(name, [CpuMeter(pid) for pid in pids]))

    def start(self) -> None:
        self._began = time.monotonic()
        for part in self.parts:
            part.start()

    def stop(self) -> None:
        for part in self.parts:
            part.stop()
        self.seconds = time.monotonic() - self._began

    def settle(self, names: set[str], timeout: float = 90.0) -> None:
        """Until the parts in `names` (freshly started processes) have done starting: under a
        second of CPU per 10 s each, measured over 2 s."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            self.start()
            time.sleep(2)
            self.stop()
            if all(p.spent < 0.2 for p in self.parts if p.name in names):
                return
        raise SystemExit(f"{sorted(names)} still busy after {timeout}s with nothing to do")

    def take_idle(self) -> None:
        """The last window had no work: each part's rate then (polling, other engineers'
        load) is its background."""
        for part in self.parts:
            part.idle_rate = part.spent / self.seconds

    def net(self, part: Part) -> float:
        """CPU seconds of the workload: what the part spent, less its idle rate meanwhile."""
        return max(part.spent - part.idle_rate * self.seconds, 0.0)
