"""Time-ordered ids: inserts append to the clustered index and an id is a cursor."""

import uuid

from uuid_utils.compat import uuid7


def new_id() -> uuid.UUID:
    return uuid7()
