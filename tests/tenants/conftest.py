import pytest
from django.contrib.auth.models import User

from tests.tenants.keys import client_with_key, create_key


@pytest.fixture
def read_key(api) -> dict:
    return create_key(api, name="dashboard", scope="read")


@pytest.fixture
def read_api(read_key):
    return client_with_key(read_key["key"])


@pytest.fixture
def write_key(api) -> dict:
    return create_key(api, name="deploy", scope="write")


@pytest.fixture
def write_api(write_key):
    return client_with_key(write_key["key"])


@pytest.fixture
def operator_client(client, db):
    client.force_login(User.objects.create_superuser("ops", "ops@example.com", "pw"))
    return client
