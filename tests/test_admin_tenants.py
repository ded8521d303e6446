"""Operators manage tenants' keys in the admin: a signing secret is shown once, at rotation."""

import pytest
from django.contrib.auth.models import Permission, User
from django.contrib.messages.storage.cookie import CookieStorage
from django.http import HttpRequest

from tasks.models import Tenant
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


def act_without_follow(client, action: str, tenant):
    return client.post(
        "/admin/tasks/tenant/",
        {"action": action, "index": 0, "_selected_action": [str(tenant.id)]},
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


def test_the_new_signing_secret_page_is_never_stored_and_shown_once(operator_client, tenant):
    rotated = act_without_follow(operator_client, "rotate_signing_secret", tenant)
    page = operator_client.get(rotated["Location"])
    tenant.refresh_from_db()
    assert tenant.signing_secret in page.content.decode()
    assert "no-store" in page["Cache-Control"]
    again = operator_client.get(rotated["Location"])
    assert again.status_code == 410
    assert tenant.signing_secret not in again.content.decode()


def cookie_texts(response) -> list[str]:
    """Each cookie the response sets, and each message its messages cookie carries (that
    cookie is signed and compressed: the secret would not show in its raw value)."""
    texts = [morsel.value for morsel in response.cookies.values()]
    if "messages" in response.cookies:
        stored = CookieStorage(HttpRequest())._decode(response.cookies["messages"].value)
        texts += [message.message for message in stored or []]
    return texts


def test_the_new_signing_secret_is_in_no_cookie(operator_client, tenant):
    rotated = act_without_follow(operator_client, "rotate_signing_secret", tenant)
    shown = operator_client.get(rotated["Location"])
    tenant.refresh_from_db()
    texts = cookie_texts(rotated) + cookie_texts(shown)
    assert texts and all(tenant.signing_secret not in text for text in texts)


TENANT_ACTIONS = ["deactivate", "reactivate", "revoke_tokens", "rotate_signing_secret"]


@pytest.mark.parametrize("action", TENANT_ACTIONS)
def test_editing_tenants_grants_none_of_their_actions(client, tenant, action):
    editor = User.objects.create_user("editor", "editor@example.com", "pw", is_staff=True)
    editor.user_permissions.set(
        Permission.objects.filter(codename__in=["view_tenant", "change_tenant"])
    )
    client.force_login(editor)
    listed = client.get("/admin/tasks/tenant/").content.decode()
    assert f'value="{action}"' not in listed
    before = Tenant.objects.values().get(id=tenant.id)
    assert act_without_follow(client, action, tenant).status_code == 403
    assert Tenant.objects.values().get(id=tenant.id) == before


@pytest.mark.parametrize(
    ("action", "permission"),
    [
        ("deactivate", "stop_tenant"),
        ("reactivate", "stop_tenant"),
        ("revoke_tokens", "revoke_tenant_tokens"),
        ("rotate_signing_secret", "rotate_signing_secret"),
    ],
)
def test_each_tenant_action_is_offered_with_its_own_permission(client, tenant, action, permission):
    user = User.objects.create_user("granted", "granted@example.com", "pw", is_staff=True)
    user.user_permissions.set(Permission.objects.filter(codename__in=["view_tenant", permission]))
    client.force_login(user)
    assert f'value="{action}"' in client.get("/admin/tasks/tenant/").content.decode()
    assert act_without_follow(client, action, tenant).status_code == 302
