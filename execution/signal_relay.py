"""Signals handed to a thread of their own before anything else is done with them.

Python runs a signal handler in the main thread between two bytecodes, possibly inside
`threading.Event.wait()` or `.clear()` while that thread holds the Event's (non-reentrant)
lock. A handler that then sets the Event waits on a lock its own thread holds: the process
hangs for good, deaf to every later SIGTERM (an executor did, once in some thousand stops).
So a handler here only writes the signal's number to a pipe, which takes no lock, and a
relay thread reads it and does the work.
"""

from __future__ import annotations

import os
import signal
import threading
from collections.abc import Callable, Iterable


class SignalRelay:
    """Calls `on_signal(signum)` on the relay thread for every signal `send` is given."""

    def __init__(self, on_signal: Callable[[int], None]) -> None:
        self._read_end, self._write_end = os.pipe()
        self._on_signal = on_signal
        threading.Thread(target=self._relay, name="signal-relay", daemon=True).start()

    def send(self, signum: int) -> None:
        """Safe in a signal handler: one write to a pipe."""
        os.write(self._write_end, bytes([signum]))

    def _relay(self) -> None:
        while True:
            for signum in os.read(self._read_end, 64):
                self._on_signal(signum)


def relay_signals(on_signal: Callable[[int], None], signums: Iterable[int]) -> SignalRelay:
    """Handle `signums` by relaying each to `on_signal`, called outside the handler."""
    relay = SignalRelay(on_signal)
    for signum in signums:
        signal.signal(signum, lambda number, frame: relay.send(number))
    return relay
