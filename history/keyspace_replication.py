"""The replication a keyspace really has. CREATE KEYSPACE IF NOT EXISTS leaves an older
keyspace as it was: asked for 3 copies of one made with 1 (the default before issue 22),
it changes nothing, and the archiver's quorum of that keyspace is then its one copy."""

from __future__ import annotations

from typing import Any

READ = "SELECT replication FROM system_schema.keyspaces WHERE keyspace_name = %s"


def normalized(replication: dict) -> dict[str, str]:
    """As system_schema writes it: the class's short name, every factor as text."""
    return {
        key: str(value).rsplit(".", 1)[-1] if key == "class" else str(value)
        for key, value in replication.items()
    }


def keyspace_replication(session: Any, keyspace: str) -> dict[str, str] | None:
    row = session.execute(READ, (keyspace,)).one()
    return None if row is None else normalized(dict(row.replication))


def replication_mismatch(session: Any, keyspace: str, wanted: dict) -> str | None:
    """What to tell an operator whose keyspace keeps another replication; None if it has
    the one wanted."""
    have = keyspace_replication(session, keyspace)
    if have is None or have == normalized(wanted):
        return None
    target = ", ".join(f"'{key}': '{value}'" for key, value in normalized(wanted).items())
    return (
        f"keyspace {keyspace} already exists with replication {have}, not {normalized(wanted)}: "
        f"change it with ALTER KEYSPACE {keyspace} WITH replication = {{{target}}}, "
        "then run `nodetool repair` on every node so the new copies are written"
    )
