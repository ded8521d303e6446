"""The tenant a token names is read at most once a second per process; this process's own
tenant writes are seen at once, other processes' within the second."""

from django.db import connection
from django.test.utils import CaptureQueriesContext

from scheduler_site.ids import new_id
from tasks.models import Tenant
from tasks.tenant_cache import ROW_SECONDS, cached_tenant
from tasks.tenants import tenant_deactivate, tenant_revoke_tokens
from tests.conftest import client_for
from tests.processes import wait_until


def tenant_reads(api) -> int:
    with CaptureQueriesContext(connection) as queries:
        assert api.get("/v1/tasks").status_code == 200
    return sum("FROM `tenants`" in q["sql"] or 'FROM "tenants"' in q["sql"] for q in queries)


def test_a_second_request_within_the_second_reads_no_tenant_row(api):
    api.get("/v1/tasks")
    assert tenant_reads(api) == 0


def test_a_stop_made_in_this_process_refuses_the_next_request(api, tenant):
    api.get("/v1/tasks")
    tenant_deactivate(tenant=tenant, actor="test")
    assert api.get("/v1/tasks").status_code == 401


def test_a_revocation_made_in_this_process_refuses_the_next_request(api, tenant):
    api.get("/v1/tasks")
    tenant_revoke_tokens(tenant=tenant, actor="test")
    assert api.get("/v1/tasks").status_code == 401


def test_a_stop_written_by_another_process_is_seen_within_the_second(api, tenant):
    api.get("/v1/tasks")
    tenant_id = Tenant._meta.pk.get_db_prep_value(tenant.id, connection)
    with connection.cursor() as cursor:  # as another process would: no hook of this one
        cursor.execute("UPDATE tenants SET is_active = %s WHERE id = %s", [False, tenant_id])
    wait_until(
        lambda: api.get("/v1/tasks").status_code == 401,
        timeout=ROW_SECONDS + 1,
        message="the stop is seen within the second",
    )


def test_each_request_gets_a_tenant_object_of_its_own(tenant):
    first = cached_tenant(tenant.id)
    first.name = "changed by a view"
    assert cached_tenant(tenant.id).name == "acme"


def test_a_tenant_created_after_an_unknown_id_was_asked_is_found(db):
    tenant_id = new_id()
    assert cached_tenant(tenant_id) is None
    Tenant.objects.create(id=tenant_id, name="late")
    assert client_for(Tenant.objects.get(id=tenant_id)).get("/v1/tasks").status_code == 200
