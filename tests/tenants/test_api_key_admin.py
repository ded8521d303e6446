"""Operators list tenants' keys and revoke them in the console; no key, no hash shown."""

from django.contrib.auth.models import Permission, User

from tenants.models import ApiKey
from tests.audit.log import only_entry
from tests.tenants.keys import client_with_key, create_key

LIST = "/admin/tenants/apikey/"


def revoke(client, *key_ids: str):
    return client.post(LIST, {"action": "revoke", "_selected_action": list(key_ids)}, follow=True)


def test_the_list_shows_each_key_and_never_its_secret_or_hash(operator_client, tenant, api):
    created = create_key(api, name="deploy", scope="read", expires_at="2031-01-01T00:00:00Z")
    page = operator_client.get(LIST).content.decode()
    for shown in (tenant.name, "deploy", "read", created["prefix"], "2031-01-01 00:00:00 UTC"):
        assert shown in page
    stored = ApiKey.objects.get(id=created["id"])
    assert created["key"] not in page and stored.key_hash not in page


def test_the_key_page_shows_no_secret_or_hash(operator_client, api):
    created = create_key(api)
    page = operator_client.get(f"{LIST}{created['id']}/change/")
    assert page.status_code == 200
    stored = ApiKey.objects.get(id=created["id"])
    text = page.content.decode()
    assert created["prefix"] in text
    assert created["key"] not in text and stored.key_hash not in text


def test_revoking_in_the_console_refuses_the_key_and_is_audited(operator_client, write_key):
    response = revoke(operator_client, write_key["id"])
    assert "1 API key(s) revoked." in response.content.decode()
    assert client_with_key(write_key["key"]).get("/v1/tasks").status_code == 401
    entry = only_entry(action="api_key.revoke", target=write_key["id"])
    assert entry.actor == "operator:ops"


def test_the_list_filters_revoked_keys(operator_client, api, write_key):
    kept = create_key(api, name="kept-key")
    revoke(operator_client, write_key["id"])
    page = operator_client.get(LIST + "?state=revoked").content.decode()
    assert write_key["prefix"] in page and kept["prefix"] not in page
    live = operator_client.get(LIST + "?state=live").content.decode()
    assert kept["prefix"] in live and write_key["prefix"] not in live


def test_a_search_by_prefix_finds_the_key(operator_client, api, write_key):
    other = create_key(api, name="other")
    page = operator_client.get(LIST, {"q": write_key["prefix"]}).content.decode()
    assert write_key["prefix"] in page and other["prefix"] not in page


def test_a_search_by_the_whole_key_finds_the_key_a_leak_showed(operator_client, api, write_key):
    other = create_key(api, name="other")
    page = operator_client.get(LIST, {"q": write_key["key"]}).content.decode()
    assert write_key["prefix"] in page and other["prefix"] not in page


def test_an_operator_without_the_revoke_permission_cannot_revoke(client, write_key):
    viewer = User.objects.create_user("viewer", password="pw", is_staff=True)
    viewer.user_permissions.add(Permission.objects.get(codename="view_apikey"))
    client.force_login(viewer)
    assert client.get(LIST).status_code == 200
    response = client.post(LIST, {"action": "revoke", "_selected_action": [write_key["id"]]})
    assert response.status_code == 403
    assert client_with_key(write_key["key"]).get("/v1/tasks").status_code == 200


def test_a_search_by_a_name_shaped_like_a_key_searches_names(operator_client, api):
    """`ops_nightly1_x` has a key's shape but not its `acs_` start: a name search."""
    named = create_key(api, name="ops_nightly1_x")
    other = create_key(api, name="other")
    page = operator_client.get(LIST, {"q": "ops_nightly1_x"}).content.decode()
    assert named["prefix"] in page and other["prefix"] not in page
