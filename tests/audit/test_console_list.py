"""The console lists every tenant's entries, newest first, with filters, and lets no one
add, change or delete one."""

from datetime import UTC, datetime, timedelta

import pytest
from django.db import transaction

from audit.models import AuditEntry
from audit.record import record

LIST = "/admin/audit/auditentry/"


def write(tenant_id, *, action="task.update", target="t1", actor="jti-1") -> AuditEntry:
    with transaction.atomic():
        return record(tenant_id=tenant_id, actor=actor, action=action, target=target)


def shown(response) -> list[int]:
    assert response.status_code == 200, response.content[:500]
    return [entry.id for entry in response.context["cl"].result_list]


def test_every_tenants_entries_are_listed_newest_first(operator_client, tenant, other_tenant):
    made = [write(tenant.id), write(other_tenant.id), write(None, action="tenant.create")]
    page = operator_client.get(LIST)
    assert shown(page) == [entry.id for entry in made[::-1]]
    assert "acme" in page.content.decode() and "globex" in page.content.decode()


def test_the_list_filters_by_tenant(operator_client, tenant, other_tenant):
    mine = write(tenant.id)
    write(other_tenant.id)
    assert shown(operator_client.get(f"{LIST}?tenant={tenant.id}")) == [mine.id]


def test_the_list_filters_entries_of_no_tenant(operator_client, tenant):
    write(tenant.id)
    none = write(None, action="tenant.create")
    assert shown(operator_client.get(f"{LIST}?tenant=none")) == [none.id]


def test_the_list_filters_by_action(operator_client, tenant):
    paused = write(tenant.id, action="task.pause")
    write(tenant.id, action="task.resume")
    assert shown(operator_client.get(f"{LIST}?action=task.pause")) == [paused.id]


def test_the_list_filters_operators_from_tokens(operator_client, tenant):
    by_operator = write(tenant.id, actor="operator:ops")
    by_token = write(tenant.id, actor="jti-1")
    assert shown(operator_client.get(f"{LIST}?actor_kind=operator")) == [by_operator.id]
    assert shown(operator_client.get(f"{LIST}?actor_kind=token")) == [by_token.id]


def test_the_search_finds_an_exact_target_or_actor(operator_client, tenant):
    wanted = write(tenant.id, target="crm", actor="operator:ann")
    write(tenant.id, target="crm2", actor="operator:bob")
    assert shown(operator_client.get(f"{LIST}?q=crm")) == [wanted.id]
    assert shown(operator_client.get(f"{LIST}?q=operator:ann")) == [wanted.id]


def test_the_list_filters_by_date(operator_client, tenant):
    today = write(tenant.id)
    old = write(tenant.id)
    AuditEntry.objects.filter(id=old.id).update(at=datetime.now(UTC) - timedelta(days=30))
    since = str(datetime.now(UTC) - timedelta(days=1))  # as the filter's own links write it
    assert shown(operator_client.get(LIST, {"at__gte": since})) == [today.id]


def test_an_entrys_page_shows_its_changes(operator_client, tenant):
    with transaction.atomic():
        entry = record(
            tenant_id=tenant.id, actor="jti", action="task.update", changes={"cron": "x"}
        )
    page = operator_client.get(f"{LIST}{entry.id}/change/")
    assert page.status_code == 200 and "cron" in page.content.decode()
    assert 'name="_save"' not in page.content.decode()


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("get", "add/"),
        ("post", "add/"),
        ("post", "{id}/change/"),
        ("get", "{id}/delete/"),
        ("post", "{id}/delete/"),
    ],
)
def test_no_one_may_add_change_or_delete_an_entry(operator_client, tenant, method, path):
    entry = write(tenant.id)
    url = LIST + path.format(id=entry.id)
    response = getattr(operator_client, method)(url, {"actor": "x", "post": "yes"})
    assert response.status_code == 403
    assert AuditEntry.objects.get(id=entry.id).actor == "jti-1"


def test_the_list_offers_no_delete_action(operator_client, tenant):
    entry = write(tenant.id)
    form = {"action": "delete_selected", "_selected_action": [entry.id], "post": "yes"}
    operator_client.post(LIST, form)
    assert AuditEntry.objects.filter(id=entry.id).exists()


@pytest.mark.parametrize("query", ["tenant=not-an-id", "at__gte=yesterday", "actor_kind=x"])
def test_a_filter_the_list_cannot_apply_is_no_server_error(operator_client, tenant, query):
    write(tenant.id)
    assert operator_client.get(f"{LIST}?{query}").status_code in (200, 302)
