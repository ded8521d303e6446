"""A token whose signature was checked once is not checked again (tasks/verified_tokens.py),
and still loses what a check per request gives: its expiry, its tenant's stop and its
tenant's revocation of tokens."""

from __future__ import annotations

import time

from rest_framework.test import APIClient

from tasks import verified_tokens
from tasks.auth import issue_token
from tasks.models import Tenant
from tasks.tenants import tenant_revoke_tokens


def call_with(token: str) -> int:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {token}")
    return client.get("/v1/tasks").status_code


def test_a_token_checked_once_is_known_by_its_bytes(tenant):
    token = issue_token(tenant)
    assert call_with(token) == 200
    assert verified_tokens.known(token.encode()) is not None


def test_a_known_token_is_refused_once_it_expires(tenant):
    token = issue_token(tenant, ttl_seconds=1)
    assert call_with(token) == 200
    expires = verified_tokens.known(token.encode())["exp"]
    while time.time() < expires:  # the token's own second, not a guess
        time.sleep(0.05)
    assert call_with(token) == 401
    assert verified_tokens.known(token.encode()) is None


def test_a_known_token_is_refused_after_its_tenant_revokes_tokens(tenant):
    token = issue_token(tenant)
    assert call_with(token) == 200
    tenant_revoke_tokens(actor="tests", tenant=tenant)
    assert call_with(token) == 401


def test_a_known_token_is_refused_once_its_tenant_is_stopped(tenant):
    token = issue_token(tenant)
    assert call_with(token) == 200
    Tenant.objects.filter(id=tenant.id).update(is_active=False)
    assert call_with(token) == 401


def test_a_known_token_with_its_signature_changed_is_checked_again(tenant):
    token = issue_token(tenant)
    assert call_with(token) == 200
    head, claims, signature = token.split(".")
    forged = f"{head}.{claims}.{'A' if signature[0] != 'A' else 'B'}{signature[1:]}"
    assert call_with(forged) == 401


def test_the_tokens_kept_are_bounded(tenant):
    verified_tokens.forget_tokens()
    lasting = {"exp": time.time() + 60}
    for n in range(verified_tokens.MAX_TOKENS):
        verified_tokens.keep(f"filler-{n}".encode(), lasting)
    token = issue_token(tenant)
    assert call_with(token) == 200  # one more: the process starts again from it
    assert verified_tokens.known(b"filler-0") is None
    assert verified_tokens.known(token.encode()) is not None
