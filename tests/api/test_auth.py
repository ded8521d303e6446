"""Authentication: a valid token for an active tenant, or 401."""

from datetime import timedelta

import jwt
import pytest
from rest_framework.test import APIClient
from rest_framework_simplejwt.tokens import AccessToken

from tasks.auth import issue_token
from tasks.models import Tenant


def call_with(token: str | None):
    client = APIClient()
    if token is not None:
        client.credentials(HTTP_AUTHORIZATION=f"Bearer {token}")
    return client.get("/v1/tasks")


def test_request_without_a_token_is_401(db):
    response = call_with(None)
    assert response.status_code == 401
    assert response.json()["error"]["code"]


def test_request_with_a_valid_token_is_200(tenant):
    assert call_with(issue_token(tenant)).status_code == 200


def test_garbage_token_is_401(db):
    assert call_with("not.a.token").status_code == 401


def test_token_signed_with_another_key_is_401(tenant):
    token = AccessToken()
    token["tenant_id"] = str(tenant.id)
    forged = jwt.encode(dict(token.payload), "another-key-" + "x" * 32, algorithm="HS256")
    assert call_with(forged).status_code == 401


def test_expired_token_is_401(tenant):
    token = AccessToken()
    token["tenant_id"] = str(tenant.id)
    token.set_exp(lifetime=timedelta(seconds=-10))
    assert call_with(str(token)).status_code == 401


def test_token_for_an_unknown_tenant_is_401(db):
    ghost = Tenant(name="ghost")  # never saved
    assert call_with(issue_token(ghost)).status_code == 401


def test_token_for_a_deactivated_tenant_is_401(tenant):
    token = issue_token(tenant)
    Tenant.objects.filter(id=tenant.id).update(is_active=False)
    assert call_with(token).status_code == 401


@pytest.mark.parametrize("claim", [None, "not-a-uuid"])
def test_token_without_a_valid_tenant_claim_is_401(db, claim):
    token = AccessToken()
    if claim is not None:
        token["tenant_id"] = claim
    assert call_with(str(token)).status_code == 401
