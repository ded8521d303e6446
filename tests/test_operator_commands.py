"""Operator commands: tenants, tokens and keys; each prints one value and nothing else."""

from datetime import UTC, datetime, timedelta
from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from rest_framework.test import APIClient
from rest_framework_simplejwt.tokens import AccessToken

from tasks.models import Tenant


def run(*args) -> str:
    out = StringIO()
    call_command(*args, stdout=out)
    return out.getvalue().strip()


def test_create_tenant_prints_only_the_new_id(db):
    printed = run("create_tenant", "acme")
    tenant = Tenant.objects.get()
    assert printed == str(tenant.id)
    assert tenant.name == "acme"
    assert tenant.signing_secret.startswith("whsec_")


def test_issue_token_prints_a_token_that_authenticates_the_tenant(tenant):
    token = run("issue_token", str(tenant.id))
    assert AccessToken(token)["tenant_id"] == str(tenant.id)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {token}")
    assert client.get("/v1/tasks").status_code == 200


def test_issue_token_honours_ttl(tenant):
    token = AccessToken(run("issue_token", str(tenant.id), "--ttl", "60"))
    assert token["exp"] - token["iat"] == 60


@pytest.mark.parametrize("tenant_id", ["01a22754-6026-7ed2-b47c-5491fcc5bdc5", "nonsense"])
def test_issue_token_for_an_unknown_tenant_fails(db, tenant_id):
    with pytest.raises(CommandError):
        run("issue_token", tenant_id)


@pytest.mark.parametrize("ttl", ["0", "-5", str(366 * 86400 + 1), str(10**12)])
def test_issue_token_refuses_a_lifetime_outside_one_second_to_a_year(tenant, ttl):
    with pytest.raises(CommandError, match="--ttl: a token lives from 1 to"):
        run("issue_token", str(tenant.id), "--ttl", ttl)


def test_issue_token_accepts_a_year(tenant):
    token = AccessToken(run("issue_token", str(tenant.id), "--ttl", str(366 * 86400)))
    assert token["exp"] - token["iat"] == 366 * 86400


def test_revoke_tokens_refuses_the_tenants_earlier_tokens(tenant):
    token = run("issue_token", str(tenant.id))
    run("revoke_tokens", str(tenant.id))
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {token}")
    assert client.get("/v1/tasks").status_code == 401


def test_rotate_signing_secret_prints_the_new_secret_and_keeps_the_old_one_signing(tenant):
    old = tenant.signing_secret
    printed = run("rotate_signing_secret", str(tenant.id))
    tenant.refresh_from_db()
    assert printed == tenant.signing_secret != old
    assert tenant.previous_signing_secret == old
    assert tenant.previous_signing_secret_until > datetime.now(UTC) + timedelta(hours=23)
