"""Authentication: a valid token for an active tenant, or 401."""

import time
from datetime import timedelta

import jwt
import pytest
from django.conf import settings
from rest_framework.test import APIClient
from rest_framework_simplejwt.tokens import AccessToken

from scheduler_site import keys
from tasks.auth import issue_token
from tasks.models import Tenant
from tasks.tenants import tenant_revoke_tokens


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


def signed(payload: dict) -> str:
    """A token signed with this install's real key, carrying exactly `payload`."""
    return jwt.encode(payload, settings.JWT_SIGNING_KEY, algorithm="HS256")


def test_token_signed_with_the_development_key_is_401(tenant):
    payload = {"token_type": "access", "tenant_id": str(tenant.id), "exp": 7258118400}
    forged = jwt.encode(payload, keys.DEV_JWT_SIGNING_KEY, algorithm="HS256")
    assert call_with(forged).status_code == 401


@pytest.mark.parametrize("exp", [10**20, 2**63, 7258118400])  # overflow, overflow, year 2200
def test_token_living_beyond_the_maximum_lifetime_is_401(tenant, exp):
    payload = {"token_type": "access", "tenant_id": str(tenant.id), "exp": exp, "iat": 0}
    response = call_with(signed(payload))
    assert response.status_code == 401
    assert response.json()["error"]["code"]


def test_token_issued_before_a_revocation_is_401(tenant):
    token = issue_token(tenant)
    tenant_revoke_tokens(actor="tests", tenant=tenant)
    response = call_with(token)
    assert response.status_code == 401
    assert "revoked" in response.json()["error"]["message"]


def test_token_issued_after_a_revocation_is_accepted(tenant):
    tenant_revoke_tokens(actor="tests", tenant=tenant)
    assert call_with(issue_token(tenant)).status_code == 200


def test_revocation_leaves_other_tenants_tokens_alone(tenant, other_tenant):
    token = issue_token(other_tenant)
    tenant_revoke_tokens(actor="tests", tenant=tenant)
    assert call_with(token).status_code == 200


def test_token_without_an_issue_time_is_refused_once_tokens_were_revoked(tenant):
    tenant_revoke_tokens(actor="tests", tenant=tenant)
    payload = {"token_type": "access", "tenant_id": str(tenant.id), "exp": int(time.time()) + 60}
    assert call_with(signed(payload)).status_code == 401
