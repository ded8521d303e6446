"""Reading the audit log in tests, and API clients whose token id is known."""

from __future__ import annotations

from rest_framework.test import APIClient
from rest_framework_simplejwt.tokens import AccessToken

from audit.models import AuditEntry
from tasks.auth import issue_token
from tasks.models import Tenant


def entries(**filters) -> list[AuditEntry]:
    """The entries matching, oldest first."""
    return list(AuditEntry.objects.filter(**filters).order_by("id"))


def only_entry(**filters) -> AuditEntry:
    (entry,) = entries(**filters)
    return entry


def client_with_jti(tenant: Tenant) -> tuple[APIClient, str]:
    token = issue_token(tenant)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {token}")
    return client, str(AccessToken(token)["jti"])
