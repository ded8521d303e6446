"""The image's API, from its container on the host's MariaDB: the probes, and a tenant's
token (made with the image's own create_tenant and issue_token) reading its tasks."""

import requests


def test_the_containers_api_answers_healthz_and_readyz(api_url):
    assert requests.get(f"{api_url}/healthz", timeout=10).status_code == 200
    ready = requests.get(f"{api_url}/readyz", timeout=10)
    assert ready.status_code == 200, ready.text
    assert ready.json()["checks"] == {"database": "ok", "history": "ok"}


def test_a_tenants_token_lists_its_tasks_from_the_container(api_url, tenant_token):
    listed = requests.get(
        f"{api_url}/v1/tasks", headers={"Authorization": f"Bearer {tenant_token}"}, timeout=10
    )
    assert listed.status_code == 200, listed.text
    assert listed.json() == {"results": [], "next": None}
    assert requests.get(f"{api_url}/v1/tasks", timeout=10).status_code == 401
