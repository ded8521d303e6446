"""Default names of running processes: host and pid, unique on one database."""

import os
import secrets
import socket


def default_worker_id(kind: str) -> str:
    return f"{kind}-{socket.gethostname()[:60]}-{os.getpid()}"


def executor_worker_id() -> str:
    """A new executor's name, for its claims and its heartbeat row alike. The reconciler
    hands back the jobs of a name whose beat went stale: a restarted executor that took its
    predecessor's name would keep that beat fresh, and the dead one's jobs would wait for
    their leases. Host and pid do not tell the two apart in a container restarted in its
    pod (the same hostname, pid 1 again): a random part does."""
    return f"{default_worker_id('executor')}-{secrets.token_hex(3)}"
