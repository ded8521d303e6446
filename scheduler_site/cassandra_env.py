"""The history keyspace's replication and the consistency of its writes and reads, read
from the environment and checked at start.

CASSANDRA_REPLICATION is `SimpleStrategy:FACTOR` or
`NetworkTopologyStrategy:DC=FACTOR[,DC=FACTOR...]`. The consistencies default from the
factor: LOCAL_QUORUM once every data centre keeps 3 copies or more (a node can be lost and
every write and read still reaches a majority), LOCAL_ONE below (one copy has no majority
to spare).
"""

from __future__ import annotations

import re

from django.core.exceptions import ImproperlyConfigured

from scheduler_site.env import env_str

DEFAULT_REPLICATION = "SimpleStrategy:1"
QUORUM_FROM_FACTOR = 3
# The driver's names; ANY is refused for writes too: it counts a hint as a copy, which the
# archiver must not take for a stored row before it deletes the job from the queue.
CONSISTENCIES = (
    "ONE",
    "TWO",
    "THREE",
    "QUORUM",
    "ALL",
    "LOCAL_QUORUM",
    "EACH_QUORUM",
    "LOCAL_ONE",
)
_DC_FACTOR = re.compile(r"([A-Za-z0-9_.-]+)=([1-9][0-9]*)")
_SYNTAX = (
    "SimpleStrategy:FACTOR or NetworkTopologyStrategy:DC=FACTOR[,DC=FACTOR...], "
    "e.g. SimpleStrategy:3 or NetworkTopologyStrategy:dc1=3"
)


def parse_replication(text: str) -> dict[str, str | int]:
    """The keyspace's replication map for `text`; ValueError says what is wrong."""
    strategy, _, factors = text.strip().partition(":")
    if strategy == "SimpleStrategy" and re.fullmatch(r"[1-9][0-9]*", factors):
        return {"class": "SimpleStrategy", "replication_factor": int(factors)}
    if strategy == "NetworkTopologyStrategy" and factors:
        replication: dict[str, str | int] = {"class": "NetworkTopologyStrategy"}
        for entry in factors.split(","):
            match = _DC_FACTOR.fullmatch(entry.strip())
            if match is None or match[1] in replication:
                raise ValueError(f"{entry.strip()!r} is not DC=FACTOR (once per DC); use {_SYNTAX}")
            replication[match[1]] = int(match[2])
        return replication
    raise ValueError(f"{text!r} is not a replication; use {_SYNTAX}")


def smallest_factor(replication: dict[str, str | int]) -> int:
    return min(int(value) for key, value in replication.items() if key != "class")


def default_consistency(replication: dict[str, str | int]) -> str:
    return "LOCAL_QUORUM" if smallest_factor(replication) >= QUORUM_FROM_FACTOR else "LOCAL_ONE"


def env_replication(name: str) -> dict[str, str | int]:
    try:
        return parse_replication(env_str(name, DEFAULT_REPLICATION) or DEFAULT_REPLICATION)
    except ValueError as exc:
        raise ImproperlyConfigured(f"{name}: {exc}") from exc


def env_consistency(name: str, default: str) -> str:
    value = env_str(name, default).strip().upper() or default
    if value not in CONSISTENCIES:
        choices = ", ".join(CONSISTENCIES)
        raise ImproperlyConfigured(f"{name} must be one of {choices}, not {value!r}")
    return value
