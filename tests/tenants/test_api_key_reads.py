"""GET /v1/api-keys (paged, newest first) and GET /v1/api-keys/{id}: the tenant's own live
keys only, never the key or its hash."""

from tests.tenants.keys import create_key

LISTED = {"id", "name", "scope", "prefix", "created_at", "last_used_at", "expires_at"}


def test_the_list_shows_each_keys_fields_newest_first(api):
    first, second = create_key(api, name="one"), create_key(api, name="two", scope="read")
    body = api.get("/v1/api-keys").json()
    assert [key["id"] for key in body["results"]] == [second["id"], first["id"]]
    assert all(set(key) == LISTED for key in body["results"])
    assert body["results"][0]["prefix"] == second["prefix"] and body["next"] is None


def test_the_list_is_paged(api):
    made = [create_key(api, name=f"k{n}")["id"] for n in range(3)]
    page = api.get("/v1/api-keys?limit=2").json()
    rest = api.get(page["next"]).json()
    assert [k["id"] for k in page["results"] + rest["results"]] == made[::-1]
    assert rest["next"] is None


def test_a_bad_cursor_or_limit_or_parameter_is_400(api):
    assert api.get("/v1/api-keys?cursor=nope").status_code == 400
    assert api.get("/v1/api-keys?limit=0").status_code == 400
    response = api.get("/v1/api-keys?scope=read")
    assert response.status_code == 400 and "scope" in response.json()["error"]["fields"]


def test_one_key_reads_as_in_the_list(api):
    created = create_key(api)
    one = api.get(f"/v1/api-keys/{created['id']}").json()
    assert set(one) == LISTED and one["name"] == created["name"]


def test_the_list_leaves_out_revoked_keys(api):
    gone, kept = create_key(api, name="gone"), create_key(api, name="kept")
    api.delete(f"/v1/api-keys/{gone['id']}")
    assert [k["id"] for k in api.get("/v1/api-keys").json()["results"]] == [kept["id"]]
    assert api.get(f"/v1/api-keys/{gone['id']}").status_code == 404


def test_another_tenants_keys_are_neither_listed_nor_found(api, other_api):
    theirs = create_key(other_api)
    assert api.get("/v1/api-keys").json()["results"] == []
    assert api.get(f"/v1/api-keys/{theirs['id']}").status_code == 404
    assert api.delete(f"/v1/api-keys/{theirs['id']}").status_code == 404
    assert other_api.get(f"/v1/api-keys/{theirs['id']}").status_code == 200


def test_an_id_that_is_no_uuid_is_404(api):
    assert api.get("/v1/api-keys/not-an-id").status_code == 404
    assert api.delete("/v1/api-keys/not-an-id").status_code == 404
