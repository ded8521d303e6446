"""A wait in words, as an operator reads it at a glance: "4 s", "3 min 20 s", "2 h 5 min"."""

from __future__ import annotations


def age_text(seconds: float) -> str:
    whole = int(seconds)
    if whole < 60:
        return f"{seconds:.1f} s" if seconds < 10 else f"{whole} s"
    minutes, rest = divmod(whole, 60)
    if minutes < 60:
        return f"{minutes} min {rest} s"
    hours, minutes = divmod(minutes, 60)
    if hours < 48:
        return f"{hours} h {minutes} min"
    return f"{hours // 24} d {hours % 24} h"
