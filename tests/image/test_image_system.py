"""The whole system from the one image: the API, a scheduler, an executor, a reconciler and
an archiver, each its own container on the host's MariaDB, deliver a one-shot task made
through the API to a real endpoint on the host, and the run reaches the history."""

from datetime import UTC, datetime

import MySQLdb
import pytest
import requests
from django.conf import settings

from tests.endpoints import Endpoint
from tests.image.container import Container
from tests.processes import wait_until

PROCESSES = {
    "scheduler": ["python", "manage.py", "run_scheduler", "--tick", "0.5"],
    "executor": ["python", "manage.py", "run_executor", "--poll-interval", "0.5",
                 "--concurrency", "20"],
    "reconciler": ["python", "manage.py", "run_reconciler", "--interval", "1"],
    "archiver": ["python", "manage.py", "run_archiver", "--interval", "1"],
}  # fmt: skip


@pytest.fixture
def processes(env_file):
    started: list[Container] = []
    try:
        for role, command in PROCESSES.items():
            started.append(Container(role, env_file, command))
        yield started
    finally:
        for container in started:
            container.stop()


def queued_jobs(database_url: str) -> int:
    """The queue's rows in the tests' own database (this test's run is its only job)."""
    db = settings.DATABASES["default"]
    name = database_url.rsplit("/", 1)[1]
    connection = MySQLdb.connect(
        host=db["HOST"], port=int(db["PORT"] or 3306), user=db["USER"],
        passwd=db["PASSWORD"], db=name,
    )  # fmt: skip
    try:
        cursor = connection.cursor()
        cursor.execute("SELECT COUNT(*) FROM jobs")
        return cursor.fetchone()[0]
    finally:
        connection.close()


def test_the_whole_system_from_the_one_image_delivers_a_call(
    api_url, tenant_token, processes, image_database
):
    endpoint = Endpoint()
    auth = {"Authorization": f"Bearer {tenant_token}"}
    try:
        task = requests.post(
            f"{api_url}/v1/tasks",
            json={"name": "once", "run_at": datetime.now(UTC).isoformat(),
                  "url": endpoint.url("/ok"), "body": '{"from": "the image"}'},
            headers=auth, timeout=10,
        )  # fmt: skip
        assert task.status_code == 201, task.text
        wait_until(
            lambda: endpoint.received or not all(p.running() for p in processes),
            timeout=120, interval=0.5, message="no call reached the endpoint",
        )  # fmt: skip
        assert [call.body for call in endpoint.received] == [b'{"from": "the image"}'], "\n".join(
            p.logs() for p in processes
        )
        [job] = requests.get(f"{api_url}/v1/tasks/{task.json()['id']}/jobs", headers=auth,
                             timeout=10).json()["results"]  # fmt: skip
        wait_until(
            lambda: queued_jobs(image_database) == 0, timeout=60, interval=0.5,
            message="the archiver did not move the run to the history",
        )  # fmt: skip
        archived = requests.get(f"{api_url}/v1/jobs/{job['id']}", headers=auth, timeout=10)
        assert archived.json()["status"] == "succeeded", archived.text
    except AssertionError:
        print("\n".join(p.logs() for p in processes))
        raise
    finally:
        endpoint.close()
