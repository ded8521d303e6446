"""The API's requests as Prometheus sees them: counted and timed by route (the URL pattern,
never the raw path), summed over gunicorn's workers, served by its master on
API_METRICS_PORT and not by the API itself."""

import uuid

import pytest
import requests

from tests.processes import ApiServer, free_port, wait_until
from tests.test_metrics import scrape

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def api(tmp_path):
    port = free_port()
    server = ApiServer(tmp_path / "api.log", workers=2, env={"API_METRICS_PORT": str(port)})
    server.metrics_port = port
    yield server
    assert server.stop() == 0, server.log()


def samples(port: int, name: str) -> dict[str, float]:
    lines = (line.rsplit(" ", 1) for line in scrape(port).splitlines() if line.startswith(name))
    return {key: float(value) for key, value in lines}


def test_requests_are_counted_by_route_not_by_path(api):
    task_ids = [uuid.uuid4() for _ in range(3)]
    for task_id in task_ids:
        requests.get(api.url(f"/v1/tasks/{task_id}"), timeout=5)
    route = 'method="GET",route="v1/tasks/<str:task_id>",status_class="4xx"'
    name = "scheduler_api_requests_total"
    wait_until(
        lambda: samples(api.metrics_port, name).get(f"{name}{{{route}}}") == 3,
        timeout=20,
        message=scrape(api.metrics_port),
    )
    assert not any(str(task_id) in scrape(api.metrics_port) for task_id in task_ids)


def test_every_workers_requests_are_summed(api):
    # Not /healthz: the start's probes call it, some answered after the test begins.
    for _ in range(40):
        assert requests.get(api.url("/v1/tasks"), timeout=5).status_code == 401
    name = "scheduler_api_request_duration_seconds_count"
    wait_until(
        lambda: samples(api.metrics_port, name).get(f'{name}{{route="v1/tasks"}}') == 40,
        timeout=20,
        message=scrape(api.metrics_port),
    )


def test_a_request_matching_no_route_is_unmatched(api):
    requests.get(api.url("/no/such/page/12345"), timeout=5)
    name = "scheduler_api_requests_total"
    key = f'{name}{{method="GET",route="unmatched",status_class="4xx"}}'
    wait_until(
        lambda: samples(api.metrics_port, name).get(key) == 1,
        timeout=20,
        message=scrape(api.metrics_port),
    )
    assert "12345" not in scrape(api.metrics_port)


def test_the_api_metrics_port_serves_the_api_families_only(api):
    requests.get(api.url("/healthz"), timeout=5)
    wait_until(
        lambda: "scheduler_api_requests_total{" in scrape(api.metrics_port),
        timeout=20,
        message=scrape(api.metrics_port),
    )
    names = {
        line.split()[2] for line in scrape(api.metrics_port).splitlines() if line[:6] == "# TYPE"
    }
    assert names == {"scheduler_api_requests_total", "scheduler_api_request_duration_seconds"}
    assert requests.get(api.url("/metrics"), timeout=5).status_code == 404


def test_the_samples_folder_gunicorn_made_is_removed_when_it_stops(tmp_path):
    temp = tmp_path / "temp"
    temp.mkdir()
    env = {"API_METRICS_PORT": str(free_port()), "TMPDIR": str(temp)}
    server = ApiServer(tmp_path / "api.log", workers=1, env=env)
    assert [path.name[:12] for path in temp.iterdir()] == ["api-metrics-"]
    assert server.stop() == 0, server.log()
    assert list(temp.iterdir()) == []
