"""GET and PATCH /v1/tenant: the tenant's own settings, only on_failure_url editable."""

import json

import pytest
from django.db import DatabaseError, connection

from audit.models import AuditEntry

pytestmark = pytest.mark.django_db
ALERTS = "https://93.184.216.34/alerts"
SECRET_VALUE = "Bearer do-not-show-me"


def put_secret(api) -> None:
    body = {"value": SECRET_VALUE, "allowed_hosts": ["api.example.com"]}
    assert api.put("/v1/secrets/one", body, format="json").status_code == 201


def patch(api, body: dict, **headers):
    return api.patch("/v1/tenant", json.dumps(body), content_type="application/json", **headers)


def test_get_shows_the_settings_and_quotas_of_the_calling_tenant(api, tenant, settings):
    tenant.max_secrets = 7
    tenant.save(update_fields=["max_secrets"])
    put_secret(api)
    response = api.get("/v1/tenant")
    assert response.status_code == 200
    body = response.json()
    assert body["id"] == str(tenant.id) and body["name"] == "acme" and body["is_active"] is True
    assert body["concurrency_limit"] == 1000 and body["allow_critical"] is False
    assert body["on_failure_url"] is None and body["created_at"].endswith("Z")
    assert body["quotas"]["max_secrets"] == {"limit": 7, "source": "tenant", "used": 1}
    assert body["quotas"]["max_tasks"] == {
        "limit": settings.TENANT_MAX_TASKS, "source": "default", "used": 0,
    }  # fmt: skip
    assert body["quotas"]["create_rate"] == {
        "limit": settings.TENANT_CREATE_RATE,
        "source": "default",
    }
    assert response["ETag"] == f'"{body["version"]}"'


def test_get_never_shows_the_signing_secret_or_a_secret_value(api, tenant):
    tenant.previous_signing_secret = "whsec_previous"
    tenant.save(update_fields=["previous_signing_secret"])
    put_secret(api)
    text = api.get("/v1/tenant").content.decode()
    assert tenant.signing_secret not in text and "whsec_" not in text
    assert "signing_secret" not in text and SECRET_VALUE not in text


def test_patch_sets_the_failure_url(api, tenant):
    response = patch(api, {"on_failure_url": ALERTS})
    assert response.status_code == 200 and response.json()["on_failure_url"] == ALERTS
    tenant.refresh_from_db()
    assert tenant.on_failure_url == ALERTS


def test_patch_with_null_clears_the_failure_url(api, tenant):
    patch(api, {"on_failure_url": ALERTS})
    response = patch(api, {"on_failure_url": None})
    assert response.status_code == 200 and response.json()["on_failure_url"] is None
    tenant.refresh_from_db()
    assert tenant.on_failure_url is None


@pytest.mark.parametrize(
    "field", ["name", "concurrency_limit", "max_tasks", "signing_secret", "quotas", "id"]
)
def test_patch_of_a_read_only_field_is_a_400_naming_it(api, tenant, field):
    response = patch(api, {field: 5, "on_failure_url": ALERTS})
    assert response.status_code == 400
    assert response.json()["error"]["fields"] == {field: "read-only"}
    tenant.refresh_from_db()
    assert tenant.on_failure_url is None and tenant.name == "acme"


def test_patch_of_an_unknown_field_is_a_400_naming_it(api):
    response = patch(api, {"on_failure_ur": ALERTS})
    assert response.status_code == 400
    assert response.json()["error"]["fields"] == {"on_failure_ur": "unknown field"}


@pytest.mark.parametrize(
    "url",
    ["http://127.0.0.1/alerts", "http://10.0.0.5/", "http://169.254.169.254/latest/meta-data/",
     "https://93.184.216.34:8443/alerts", "ftp://93.184.216.34/", "not a url"],
)  # fmt: skip
def test_patch_refuses_a_failure_url_a_task_could_not_have(api, tenant, url):
    response = patch(api, {"on_failure_url": url})
    assert response.status_code == 400
    assert set(response.json()["error"]["fields"]) == {"on_failure_url"}
    tenant.refresh_from_db()
    assert tenant.on_failure_url is None


def test_patch_changes_only_the_calling_tenants_settings(api, other_api, other_tenant):
    patch(api, {"on_failure_url": ALERTS})
    other_tenant.refresh_from_db()
    assert other_tenant.on_failure_url is None
    assert other_api.get("/v1/tenant").json()["id"] == str(other_tenant.id)
    assert other_api.get("/v1/tenant").json()["on_failure_url"] is None
    assert api.get(f"/v1/tenant/{other_tenant.id}").status_code == 404


def test_patch_honours_if_match_when_sent(api):
    version = api.get("/v1/tenant").json()["version"]
    assert patch(api, {"on_failure_url": ALERTS}, HTTP_IF_MATCH=f'"{version}"').status_code == 200
    stale = patch(api, {"on_failure_url": None}, HTTP_IF_MATCH=f'"{version}"')
    assert stale.status_code == 412
    assert api.get("/v1/tenant")["ETag"] == f'"{version + 1}"'


@pytest.mark.parametrize("method", ["post", "put", "delete"])
def test_other_methods_are_405(api, method):
    response = getattr(api, method)("/v1/tenant", {}, format="json")
    assert response.status_code == 405 and "error" in response.json()


def test_patch_writes_one_audit_entry_of_the_change(api, tenant):
    patch(api, {"on_failure_url": ALERTS})
    patch(api, {"on_failure_url": None})
    entries = list(AuditEntry.objects.filter(tenant_id=tenant.id).order_by("id"))
    assert [e.action for e in entries] == ["tenant.update", "tenant.update"]
    assert entries[0].target == str(tenant.id) and entries[0].actor != "token:unknown"
    assert entries[0].changes == {"on_failure_url": {"old": None, "new": ALERTS}}
    assert entries[1].changes == {"on_failure_url": {"old": ALERTS, "new": None}}


def test_a_patch_repeating_the_current_value_writes_no_entry(api, tenant):
    patch(api, {"on_failure_url": ALERTS})
    assert patch(api, {"on_failure_url": ALERTS}).status_code == 200
    changes = AuditEntry.objects.filter(tenant_id=tenant.id).values_list("changes", flat=True)
    assert list(changes) == [{"on_failure_url": {"old": None, "new": ALERTS}}]


def test_a_patch_repeating_the_current_value_keeps_the_version(api):
    patch(api, {"on_failure_url": ALERTS})
    version = api.get("/v1/tenant").json()["version"]
    assert patch(api, {"on_failure_url": ALERTS}).json()["version"] == version


def test_a_refused_patch_writes_no_audit_entry(api, tenant):
    patch(api, {"on_failure_url": "http://10.0.0.5/"})
    patch(api, {"name": "x"})
    assert not AuditEntry.objects.filter(tenant_id=tenant.id).exists()


def test_patch_without_if_match_or_with_a_blank_one_applies(api):
    assert patch(api, {"on_failure_url": ALERTS}, HTTP_IF_MATCH=" ").status_code == 200
    assert patch(api, {"on_failure_url": None}).status_code == 200


def test_a_patch_whose_audit_entry_fails_changes_nothing(api, tenant):
    def refuse_audit(execute, sql, params, many, context):
        if "audit_entries" in sql:
            raise DatabaseError("audit entry refused")
        return execute(sql, params, many, context)

    with connection.execute_wrapper(refuse_audit):
        assert patch(api, {"on_failure_url": ALERTS}).status_code == 500
    tenant.refresh_from_db()
    assert tenant.on_failure_url is None and tenant.settings_version == 1
