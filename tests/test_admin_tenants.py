"""Operators manage tenants' keys in the admin: a signing secret is shown once, at rotation."""

import pytest
from django.contrib.auth.models import User

from tests.conftest import client_for


@pytest.fixture
def operator_client(client, db):
    client.force_login(User.objects.create_superuser("ops", "ops@example.com", "pw"))
    return client


def act(operator_client, action: str, tenant):
    return operator_client.post(
        "/admin/tasks/tenant/",
        {"action": action, "_selected_action": [str(tenant.id)]},
        follow=True,
    )


def test_the_tenant_page_does_not_show_the_signing_secret(operator_client, tenant):
    page = operator_client.get(f"/admin/tasks/tenant/{tenant.id}/change/")
    assert page.status_code == 200
    assert tenant.name in page.content.decode()
    assert tenant.signing_secret not in page.content.decode()


def test_rotating_shows_the_new_signing_secret_once(operator_client, tenant):
    response = act(operator_client, "rotate_signing_secret", tenant)
    tenant.refresh_from_db()
    assert tenant.signing_secret in response.content.decode()
    later = operator_client.get(f"/admin/tasks/tenant/{tenant.id}/change/")
    assert tenant.signing_secret not in later.content.decode()


def test_revoking_refuses_the_tenants_tokens(operator_client, tenant):
    api = client_for(tenant)
    act(operator_client, "revoke_tokens", tenant)
    assert api.get("/v1/tasks").status_code == 401


def test_stopping_a_tenant_refuses_its_tokens_and_resuming_accepts_them(operator_client, tenant):
    api = client_for(tenant)
    act(operator_client, "deactivate", tenant)
    assert api.get("/v1/tasks").status_code == 401
    act(operator_client, "reactivate", tenant)
    assert api.get("/v1/tasks").status_code == 200
