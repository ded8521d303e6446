"""Work in a thread of its own: its own database session (Django opens one per thread),
closed when the work ends, so no test leaves a session holding locks behind it."""

from __future__ import annotations

import threading
from collections.abc import Callable

from django.db import connections


def in_thread(work: Callable[[], object], errors: list | None = None) -> threading.Thread:
    """Start `work` in a new thread; with `errors`, what it raises is added there (the
    test's answer) instead of ending the thread."""

    def run() -> None:
        try:
            work()
        except BaseException as exc:
            if errors is None:
                raise
            errors.append(exc)
        finally:
            connections.close_all()

    thread = threading.Thread(target=run)
    thread.start()
    return thread
