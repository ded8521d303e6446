"""The start of a response body, inflated here within fixed bounds.

aiohttp's own decoding inflates whatever arrives before anyone can stop it (a 3.8 KB gzip
reply became 3.9 MB in memory and in the result batch). So the executor turns it off, asks
only for the encodings it decodes, and inflates here: at most BODY_LIMIT decoded bytes are
ever produced, from at most RAW_LIMIT bytes read off the wire. A body in an encoding not
decoded here (the task asked for it), or not encoded as it says, is kept as its first raw
bytes.
"""

from __future__ import annotations

import zlib
from collections.abc import Awaitable, Callable

BODY_LIMIT = 4096  # decoded bytes kept (and ever inflated)
# Wire bytes read at most to find them: a stream that inflates to nothing (empty blocks)
# must not keep the call reading until its deadline.
RAW_LIMIT = 64 * 1024
CHUNK = 16 * 1024
ACCEPT_ENCODING = "gzip, deflate"


async def read_body_start(
    read: Callable[[int], Awaitable[bytes | None]], content_encoding: str | None
) -> bytes:
    """The first BODY_LIMIT decoded bytes of the body (all of it when shorter), from
    `read(n)`: at most n more wire bytes, empty or None at the end."""
    decoder = decoder_for(content_encoding)
    kept, raw_read = bytearray(), 0
    while len(kept) < BODY_LIMIT and raw_read < RAW_LIMIT and not decoder.ended:
        chunk = await read(min(CHUNK, RAW_LIMIT - raw_read))
        if not chunk:
            break
        chunk = bytes(chunk)
        raw_read += len(chunk)
        kept += decoder.decode(chunk, BODY_LIMIT - len(kept))
    return bytes(kept)


class Identity:
    ended = False

    def decode(self, data: bytes, room: int) -> bytes:
        return data[:room]


class Inflater:
    """zlib's streaming inflate, asked for no more than the room left each time."""

    def __init__(self, wbits: int) -> None:
        self._inflate = zlib.decompressobj(wbits)
        self._inflated = False
        self._raw = False  # the body was never compressed: kept as it came
        self.ended = False

    def decode(self, data: bytes, room: int) -> bytes:
        if room <= 0:
            return b""  # zlib reads a max_length of 0 as "no limit"
        if self._raw:
            return data[:room]
        try:
            out = self._inflate.decompress(data, room)
        except zlib.error:
            # Not compressed at all (a misconfigured server): its bytes are what it said.
            # Damaged later on: what came out before the damage is.
            self._raw, self.ended = not self._inflated, self._inflated
            return b"" if self._inflated else data[:room]
        self._inflated = self._inflated or bool(out)
        self.ended = self._inflate.eof
        return out


class Deflate:
    """`deflate` should be zlib-wrapped, but some servers send the raw stream: the first
    two bytes tell which."""

    def __init__(self) -> None:
        self._inflater: Inflater | None = None
        self._head = b""

    @property
    def ended(self) -> bool:
        return self._inflater is not None and self._inflater.ended

    def decode(self, data: bytes, room: int) -> bytes:
        if self._inflater is None:
            self._head += data
            if len(self._head) < 2:
                return b""
            data, self._head = self._head, b""
            wrapped = data[0] & 0x0F == 8 and (data[0] << 8 | data[1]) % 31 == 0
            self._inflater = Inflater(zlib.MAX_WBITS if wrapped else -zlib.MAX_WBITS)
        return self._inflater.decode(data, room)


def decoder_for(content_encoding: str | None) -> Identity | Inflater | Deflate:
    encoding = (content_encoding or "").strip().lower()
    if encoding in ("gzip", "x-gzip"):
        return Inflater(16 + zlib.MAX_WBITS)
    if encoding == "deflate":
        return Deflate()
    return Identity()
