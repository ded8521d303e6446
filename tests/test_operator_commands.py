"""Operator commands: create_tenant and issue_token print one value and nothing else."""

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
