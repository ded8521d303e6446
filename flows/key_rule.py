"""Whether a text can be a flow key: all of it of the key's characters (KEY_PATTERN's `$`
would let a trailing newline through, to be stored in the key or cut off by the column),
and neither `.` nor `..`, which HTTP clients and proxies resolve out of a URL's path, so no
request could reach that flow."""

from __future__ import annotations

import re

_KEY = re.compile(r"[A-Za-z0-9_.:-]{1,100}")
UNREACHABLE = frozenset({".", ".."})


def is_flow_key(text: object) -> bool:
    return isinstance(text, str) and bool(_KEY.fullmatch(text)) and text not in UNREACHABLE
