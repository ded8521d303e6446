"""The scheduler tests share the suite's fixed clock."""

from tests.conftest import NOW

__all__ = ["NOW"]
