"""The SDK takes any bearer: an API key (the other tests' default) or a tenant's JWT."""

import pytest
from atcron import Client

from tasks.auth import issue_token

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_tenants_jwt_works_as_the_bearer(base_url, tenant):
    with Client(base_url, issue_token(tenant)) as client:
        assert client.signing_secret.get().signing_secret == tenant.signing_secret
