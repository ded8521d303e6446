"""Default names of running processes: host and pid, unique on one database."""

import os
import socket


def default_worker_id(kind: str) -> str:
    return f"{kind}-{socket.gethostname()}-{os.getpid()}"
