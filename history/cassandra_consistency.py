"""How many replicas must answer each history statement: writes at one level, reads at
another (CASSANDRA_WRITE_CONSISTENCY, CASSANDRA_READ_CONSISTENCY).

A write that returns has reached `write` replicas; the archiver deletes a job from the
queue only after that, so on a factor of 3 at LOCAL_QUORUM a job leaves the queue only once
two copies of its history row exist.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from cassandra import ConsistencyLevel

WRITES = ("INSERT", "UPDATE", "DELETE")


@dataclass(frozen=True)
class Consistency:
    write: str = "LOCAL_ONE"
    read: str = "LOCAL_ONE"

    def level_for(self, cql: str) -> int:
        name = self.write if cql.lstrip().upper().startswith(WRITES) else self.read
        return ConsistencyLevel.name_to_value[name]

    def prepare(self, session: Any, cql: str) -> Any:
        """The prepared statement, carrying the level its kind (write or read) runs at.

        Every history statement is idempotent (a read, or an insert of the same row with
        the same values): marked so, one caught on a node that dies is tried on another
        node by the driver instead of failing."""
        statement = session.prepare(cql)
        statement.consistency_level = self.level_for(cql)
        statement.is_idempotent = True
        return statement
