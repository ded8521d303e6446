"""Acting between two statements of the code under test, through Django's execute wrapper:
how a test makes a concurrent change land at the exact moment a race needs."""

from __future__ import annotations

from collections.abc import Callable


def once_after_first(matches: Callable[[str], bool], action: Callable[[], None]):
    """A hook for `connection.execute_wrapper`: `action` runs once, right after the first
    statement whose SQL `matches` has run."""
    state = {"done": False}

    def hook(execute, sql, params, many, context):
        result = execute(sql, params, many, context)
        if not state["done"] and matches(sql):
            state["done"] = True
            action()
        return result

    return hook
