"""DELETE /v1/api-keys/{id}: 204, then the key opens nothing; a second delete is a 404."""

from tenants.models import ApiKey
from tests.tenants.keys import client_with_key, create_key


def test_revoking_answers_204_and_keeps_the_row_as_revoked(api, write_key):
    assert api.delete(f"/v1/api-keys/{write_key['id']}").status_code == 204
    assert ApiKey.objects.get(id=write_key["id"]).revoked_at is not None


def test_revoking_twice_is_404(api, write_key):
    api.delete(f"/v1/api-keys/{write_key['id']}")
    assert api.delete(f"/v1/api-keys/{write_key['id']}").status_code == 404


def test_a_write_key_may_revoke_itself(write_key, write_api):
    assert write_api.delete(f"/v1/api-keys/{write_key['id']}").status_code == 204
    assert write_api.get("/v1/tasks").status_code == 401


def test_revoking_one_key_leaves_the_others(api, write_key):
    other = create_key(api, name="other")
    api.delete(f"/v1/api-keys/{write_key['id']}")
    assert client_with_key(other["key"]).get("/v1/tasks").status_code == 200
