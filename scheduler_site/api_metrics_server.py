"""The API's metrics, from every gunicorn worker at once: the workers write their samples
to files in PROMETHEUS_MULTIPROC_DIR (prometheus_client's multiprocess mode) and the master
serves the sum on API_METRICS_PORT, so a scrape never depends on which worker answers.

Only the `scheduler_api_` families are served: the workers also import the pipeline's
metrics (the console reads the queue), which mean nothing from the API's processes.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

API_PREFIX = "scheduler_api_"
MADE_HERE = "SCHEDULER_API_METRICS_TEMP_DIR"  # set when the folder is ours to remove at exit


def prepare_folder() -> None:
    """Before any worker starts: a folder for the samples, emptied of an earlier run's."""
    folder = os.environ.get("PROMETHEUS_MULTIPROC_DIR")
    if not folder:
        folder = tempfile.mkdtemp(prefix="api-metrics-")
        os.environ["PROMETHEUS_MULTIPROC_DIR"] = os.environ[MADE_HERE] = folder
        return
    path = Path(folder)
    path.mkdir(parents=True, exist_ok=True)
    # Only the sample files: the folder is the operator's and may hold anything else.
    for samples in path.glob("*.db"):
        samples.unlink(missing_ok=True)


def serve(port: int, address: str) -> None:
    """In gunicorn's master, once its workers are being started."""
    from prometheus_client import CollectorRegistry, start_http_server
    from prometheus_client.multiprocess import MultiProcessCollector

    registry = CollectorRegistry(auto_describe=True)
    MultiProcessCollector(registry)
    start_http_server(port, addr=address, registry=_ApiOnly(registry))


def remove_folder() -> None:
    """When gunicorn exits: the temporary folder it made (a folder named by the operator
    stays, emptied at the next start)."""
    folder = os.environ.get(MADE_HERE)
    if folder:
        shutil.rmtree(folder, ignore_errors=True)


def forget_worker(pid: int) -> None:
    from prometheus_client import multiprocess

    multiprocess.mark_process_dead(pid)


class _ApiOnly:
    def __init__(self, registry) -> None:
        self.registry = registry

    def collect(self):
        return (family for family in self.registry.collect() if family.name.startswith(API_PREFIX))
