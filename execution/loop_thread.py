"""An asyncio event loop in a thread of its own, driven from the process's main thread.

The loop is uvloop's (libuv, in C) where it is installed: the executor's call thread spends
most of its time in the loop's own machinery (selector, transports, callbacks), which uvloop
does at a fraction of the CPU. EVENT_LOOP=asyncio picks the standard loop (what the
benchmarks compare it with, and a way out should uvloop misbehave somewhere).
"""

from __future__ import annotations

import asyncio
import os
import threading
from collections.abc import Coroutine
from typing import Any


def new_event_loop() -> asyncio.AbstractEventLoop:
    """uvloop's loop unless EVENT_LOOP=asyncio or uvloop is not installed."""
    if os.environ.get("EVENT_LOOP", "uvloop") != "asyncio":
        try:
            import uvloop
        except ImportError:
            pass
        else:
            return uvloop.new_event_loop()
    return asyncio.new_event_loop()


class LoopThread:
    def __init__(self, name: str) -> None:
        self.loop = new_event_loop()
        self._thread = threading.Thread(target=self.loop.run_forever, name=name, daemon=True)

    def start(self) -> None:
        self._thread.start()

    def wait_for(self, coroutine: Coroutine, timeout: float | None = None) -> Any:
        """Run a coroutine in the loop and wait for its result here."""
        return asyncio.run_coroutine_threadsafe(coroutine, self.loop).result(timeout)

    def stop(self) -> None:
        self.loop.call_soon_threadsafe(self.loop.stop)
        self._thread.join(10)
        if not self._thread.is_alive():
            self.loop.close()
