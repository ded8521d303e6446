"""A stop signal is heard whatever the main thread was doing when it came, even inside the
lock of the very Event the stop sets (the interleaving that once left an executor deaf to
SIGTERM for good)."""

import subprocess
import sys
import textwrap

from tests.processes import ROOT

INSIDE_THE_WAKEUP_LOCK = textwrap.dedent(
    """
    import os, signal, django
    django.setup()
    from execution.runtime import LoopProcess, install_stop_signals

    process = LoopProcess(poll_interval=1)
    install_stop_signals(process)
    # Where Event.wait() and Event.clear() are between two bytecodes: holding its lock.
    with process._wakeup._cond:
        os.kill(os.getpid(), signal.SIGTERM)  # the handler runs in this thread, here
        sum(range(1000))
    print("stopped" if process._stopping.wait(5) else "not stopped", flush=True)
    """
)

RELAYED = textwrap.dedent(
    """
    import os, signal, threading
    from execution.signal_relay import relay_signals

    heard = []
    done = threading.Event()
    relay_signals(lambda signum: (heard.append((signum, threading.current_thread().name)),
                                  done.set()), [signal.SIGUSR1])
    os.kill(os.getpid(), signal.SIGUSR1)
    done.wait(5)
    print(heard, int(signal.SIGUSR1), flush=True)
    """
)


def run(script: str) -> str:
    result = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=20
    )
    assert result.returncode == 0, result.stderr
    return result.stdout.strip()


def test_a_stop_signal_landing_inside_the_wakeup_lock_still_stops_the_loop():
    assert run(INSIDE_THE_WAKEUP_LOCK) == "stopped"


def test_a_relayed_signal_is_handled_on_the_relay_thread_not_in_the_handler():
    heard, number = run(RELAYED).rsplit(" ", 1)
    assert heard == f"[({number}, 'signal-relay')]"
