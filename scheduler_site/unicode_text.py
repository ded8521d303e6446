"""Text a database can store: no lone surrogates.

JSON may escape half of a UTF-16 pair (`"\\ud800"`); Python decodes it to a str that no
UTF-8 column can hold or compare, so a field carrying one is refused as bad input. DRF's
CharField refuses them already; labels are a free-form JSON object and are checked here.
"""

from __future__ import annotations

LONE_SURROGATE = "must not hold a lone surrogate (an unpaired \\ud800-\\udfff escape)"


def has_lone_surrogate(text: str) -> bool:
    return any("\ud800" <= char <= "\udfff" for char in text)


def printable(text: str) -> str:
    """`text` safe to echo in an error body (a lone surrogate shown as its escape)."""
    return text.encode("utf-8", "backslashreplace").decode("utf-8")
