"""Whether a key looks random enough to protect anything: cheap checks that catch the keys
people type (a word repeated, a phrase, a run of one character), never a generated one.

The thresholds sit far below what a generator gives: `secrets.token_urlsafe(64)` has about
47 distinct characters and 400 bits by the estimate below, `token_hex(32)` 16 and 250;
32 random bytes have about 30 distinct values and are all printable once in 10^13 draws.
"""

from __future__ import annotations

import math
from collections import Counter

MIN_KEY_LENGTH = 50
MIN_DISTINCT_CHARACTERS = 10
MIN_ENTROPY_BITS = 128
MIN_DISTINCT_BYTES = 16


def estimated_bits(value: str) -> float:
    """Length times the entropy of its character frequencies (an upper bound, enough to
    catch a key made mostly of one character)."""
    counts = Counter(value)
    per_char = -sum(n / len(value) * math.log2(n / len(value)) for n in counts.values())
    return per_char * len(value)


def repeats_a_pattern(value: str) -> bool:
    """Whether the value is a shorter piece written at least twice (`abc123abc123ab`)."""
    return any(value[period:] == value[:-period] for period in range(1, len(value) // 2 + 1))


def signing_key_weakness(value: str) -> str | None:
    if len(value) < MIN_KEY_LENGTH:
        return f"is shorter than {MIN_KEY_LENGTH} characters"
    if len(set(value)) < MIN_DISTINCT_CHARACTERS:
        return f"has fewer than {MIN_DISTINCT_CHARACTERS} distinct characters"
    if repeats_a_pattern(value):
        return "repeats a pattern"
    if estimated_bits(value) < MIN_ENTROPY_BITS:
        return f"has too little entropy (under {MIN_ENTROPY_BITS} bits)"
    return None


def fernet_key_weakness(raw: bytes) -> str | None:
    """`raw`: the 32 bytes a Fernet key encodes."""
    if not any(raw):
        return "is all zeros"
    if len(set(raw)) < MIN_DISTINCT_BYTES:
        return f"has too little entropy (fewer than {MIN_DISTINCT_BYTES} distinct bytes of 32)"
    if all(32 <= byte < 127 for byte in raw):
        return "is text, not 32 random bytes"
    return None
