"""Time-ordered ids: inserts append to the clustered index and an id is a cursor."""

import uuid

import uuid_utils
from uuid_utils.compat import uuid7


def new_id() -> uuid.UUID:
    return uuid7()


def new_id_text(native_uuid: bool) -> str:
    """A fresh id already formatted for raw SQL (dashed, or hex for char(32) columns);
    several times cheaper than formatting a stdlib UUID in a hot loop."""
    value = uuid_utils.uuid7()
    return str(value) if native_uuid else value.hex
