"""docker-compose.yml, read as YAML (no Docker engine runs here): every part of the system,
every process of the application from the one image, each with its own command."""

from pathlib import Path

import pytest
import yaml
from django.core.management import get_commands

ROOT = Path(__file__).resolve().parent.parent
COMPOSE = ROOT / "docker-compose.yml"
BACKING = {"mariadb", "cassandra", "redis"}
PROCESSES = {
    "scheduler": "run_scheduler",
    "executor-1": "run_executor",
    "executor-2": "run_executor",
    "reconciler": "run_reconciler",
    "archiver": "run_archiver",
}


@pytest.fixture(scope="module")
def services() -> dict:
    return yaml.safe_load(COMPOSE.read_text())["services"]


def app_services(services: dict) -> dict:
    return {name: spec for name, spec in services.items() if name not in BACKING}


def test_every_part_of_the_system_is_a_service(services):
    assert {"nginx", "api", *BACKING, *PROCESSES} <= set(services)


def test_every_application_service_runs_the_one_image(services):
    apps = app_services(services)
    assert {(spec["image"], spec["build"]) for spec in apps.values()} == {
        ("at-cron-scheduler:latest", ".")
    }


def test_each_process_runs_its_own_management_command(services):
    known = get_commands()
    for name, command in PROCESSES.items():
        assert services[name]["command"] == ["python", "manage.py", command]
        assert command in known


def test_nginx_faces_the_clients_in_front_of_the_api(services):
    nginx, api = services["nginx"], services["api"]
    assert nginx["ports"] == ["8443:8443"] and "ports" not in api
    assert nginx["command"][1] == "0.0.0.0:8443"
    assert nginx["command"][2] == "api:8010" and "--bind 0.0.0.0:8010" in api["command"]


def test_nginx_ends_tls_with_a_certificate_mounted_read_only(services):
    nginx = services["nginx"]
    [volume] = nginx["volumes"]
    source, target, mode = volume.rsplit(":", 2)
    assert (source, mode) == ("${TLS_DIR:-./tls}", "ro")
    for name in ("TLS_CERT", "TLS_KEY"):
        assert nginx["environment"][name].startswith(f"{target}/")


def test_the_api_and_every_process_run_with_https_on(services):
    for name, spec in app_services(services).items():
        if name != "nginx":
            assert spec["environment"]["HTTPS"] == "true", name


def test_nginx_holds_none_of_the_applications_keys(services):
    assert set(services["nginx"]["environment"]) == {"TLS_CERT", "TLS_KEY"}


def test_the_processes_start_after_the_migration(services):
    for name in ("api", *PROCESSES):
        condition = services[name]["depends_on"]["migrate"]["condition"]
        assert condition == "service_completed_successfully"


def test_the_api_counts_the_address_nginx_appends(services):
    # One proxy (nginx) in front: the login throttle reads the client from X-Forwarded-For.
    assert services["api"]["environment"]["PROXY_HOPS"] == "1"


def test_the_api_is_healthy_once_readyz_answers_on_its_own_port(services):
    api = services["api"]
    check = api["healthcheck"]
    bind = api["command"].split("--bind ")[1].split()[0]
    port = bind.rsplit(":", 1)[1]
    assert check["test"] == [
        "CMD", "python", "scripts/http_probe.py", f"http://127.0.0.1:{port}/readyz",
    ]  # fmt: skip
    assert (ROOT / "scripts/http_probe.py").exists()
    assert {"interval", "timeout", "retries", "start_period"} <= set(check)


def test_nginx_sends_clients_to_the_api_only_once_it_is_healthy(services):
    assert services["nginx"]["depends_on"]["api"] == {"condition": "service_healthy"}


def test_the_header_documents_the_bootstrap_with_the_existing_commands():
    header = COMPOSE.read_text().split("\nx-app:")[0]
    known = get_commands()
    for command in ("createsuperuser", "create_tenant", "issue_token"):
        assert f"python manage.py {command}" in header and command in known
    assert "migrate" in header
