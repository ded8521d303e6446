"""Loaded by the processes the faketime tests start (PYTHONPATH): libfaketime 0.9.10 makes
Python's time.sleep fail with EINVAL, so sleeping waits in select() on the monotonic clock
(which FAKETIME_DONT_FAKE_MONOTONIC leaves real)."""

import select
import time


def _sleep(seconds: float) -> None:
    if seconds < 0:
        raise ValueError("sleep length must be non-negative")
    end = time.monotonic() + seconds
    while (left := end - time.monotonic()) > 0:
        select.select([], [], [], left)


time.sleep = _sleep
