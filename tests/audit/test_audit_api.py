"""GET /v1/audit: the tenant's own entries, newest first, paged and filtered; read-only."""

from datetime import UTC, datetime, timedelta

import pytest
from django.db import transaction

from audit.models import AuditEntry
from audit.record import record


def write(tenant_id, action="task.update", target="t1", at=None, actor="jti-1") -> AuditEntry:
    with transaction.atomic():
        entry = record(tenant_id=tenant_id, actor=actor, action=action, target=target)
    if at is not None:
        AuditEntry.objects.filter(id=entry.id).update(at=at)
    return entry


def ids(response) -> list[str]:
    assert response.status_code == 200, response.content
    return [entry["id"] for entry in response.json()["results"]]


@pytest.mark.parametrize("near", ["T1", "t1 "])
def test_the_target_filter_is_exact_case_and_trailing_spaces_included(api, tenant, near):
    write(tenant.id, target=near)
    assert ids(api.get("/v1/audit", {"target": "t1"})) == []


def test_an_entry_shows_its_id_time_actor_action_target_and_changes(api, tenant):
    with transaction.atomic():
        entry = record(
            tenant_id=tenant.id,
            actor="jti-1",
            action="task.update",
            target="t1",
            changes={"cron": {"old": "0 3 * * *", "new": "0 4 * * *"}},
        )
    (shown,) = api.get("/v1/audit").json()["results"]
    assert shown == {
        "id": str(entry.id),
        "at": entry.at.astimezone(UTC).isoformat().replace("+00:00", "Z"),
        "actor": "jti-1",
        "action": "task.update",
        "target": "t1",
        "changes": {"cron": {"old": "0 3 * * *", "new": "0 4 * * *"}},
    }


def test_entries_come_newest_first(api, tenant):
    first, second = write(tenant.id), write(tenant.id)
    assert ids(api.get("/v1/audit")) == [str(second.id), str(first.id)]


def test_another_tenants_entries_never_show(api, other_api, tenant, other_tenant):
    mine = write(tenant.id)
    write(other_tenant.id, target="t1")
    assert ids(api.get("/v1/audit")) == [str(mine.id)]
    assert ids(api.get("/v1/audit?target=t1")) == [str(mine.id)]
    assert str(mine.id) not in ids(other_api.get("/v1/audit"))


def test_another_tenants_changes_through_the_api_never_show(api, other_api):
    other_api.post(
        "/v1/tasks", {"cron": "0 3 * * *", "url": "https://93.184.216.34/"}, format="json"
    )
    assert AuditEntry.objects.filter(action="task.create").exists()
    assert ids(api.get("/v1/audit")) == []


def test_an_operators_action_on_the_tenants_things_shows(api, tenant):
    entry = write(tenant.id, action="task.pause", actor="operator:ops")
    (shown,) = api.get("/v1/audit").json()["results"]
    assert (shown["id"], shown["actor"]) == (str(entry.id), "operator:ops")


def test_an_operators_action_on_no_tenant_shows_to_no_tenant(api):
    write(None, action="tenant.create")
    assert ids(api.get("/v1/audit")) == []


def test_pages_follow_the_next_link_to_the_end(api, tenant):
    written = [str(write(tenant.id).id) for _ in range(5)][::-1]
    first = api.get("/v1/audit?limit=2").json()
    second = api.get(first["next"]).json()
    third = api.get(second["next"]).json()
    pages = [first, second, third]
    assert [e["id"] for page in pages for e in page["results"]] == written
    assert third["next"] is None


def test_the_next_link_keeps_the_filters(api, tenant):
    kept = [str(write(tenant.id, target="t1").id) for _ in range(3)][::-1]
    write(tenant.id, target="t2")
    first = api.get("/v1/audit?target=t1&limit=2").json()
    second = api.get(first["next"]).json()
    assert [e["id"] for e in first["results"] + second["results"]] == kept


def test_filter_by_target(api, tenant):
    wanted = write(tenant.id, target="a")
    write(tenant.id, target="b")
    assert ids(api.get("/v1/audit?target=a")) == [str(wanted.id)]


def test_filter_by_action(api, tenant):
    wanted = write(tenant.id, action="task.pause")
    write(tenant.id, action="task.resume")
    assert ids(api.get("/v1/audit?action=task.pause")) == [str(wanted.id)]


def test_filter_by_a_time_range_since_included_until_excluded(api, tenant):
    start = datetime(2027, 3, 1, 9, 0, tzinfo=UTC)
    before = write(tenant.id, at=start - timedelta(seconds=1))
    at_start = write(tenant.id, at=start)
    at_end = write(tenant.id, at=start + timedelta(hours=1))
    query = {"since": "2027-03-01T10:00:00+01:00", "until": "2027-03-01T10:00:00Z"}
    assert ids(api.get("/v1/audit", query)) == [str(at_start.id)]
    assert {str(before.id), str(at_end.id)}.isdisjoint(ids(api.get("/v1/audit", query)))


def test_an_offset_whose_plus_became_a_space_is_still_read(api, tenant):
    entry = write(tenant.id, at=datetime(2027, 3, 1, 9, 0, tzinfo=UTC))
    assert ids(api.get("/v1/audit?since=2027-03-01T10:00:00+01:00")) == [str(entry.id)]


def test_a_filter_that_matches_nothing_is_an_empty_page(api, tenant):
    write(tenant.id)
    assert api.get("/v1/audit?action=task.nothing").json() == {"results": [], "next": None}


@pytest.mark.parametrize(
    ("query", "field"),
    [
        ("since=yesterday", "since"),
        ("until=2027-03-01T10:00:00", "until"),  # no offset
        ("since=0001-01-01T00:00:00Z", "since"),
        ("since=2027-03-02T00:00:00Z&until=2027-03-01T00:00:00Z", "until"),
        ("action=Task%20Update", "action"),
        ("target=", "target"),
        ("target=" + "x" * 201, "target"),
        ("limit=0", "limit"),
        ("cursor=not-a-cursor", "cursor"),
    ],
)
def test_a_bad_parameter_is_a_400_naming_it(api, query, field):
    response = api.get(f"/v1/audit?{query}")
    assert response.status_code == 400
    assert field in response.json()["error"]["fields"]


def test_a_cursor_with_a_non_numeric_position_is_a_400(api):
    from scheduler_site.pagination import encode_cursor

    response = api.get(f"/v1/audit?cursor={encode_cursor({'before': 'abc'})}")
    assert response.status_code == 400 and "cursor" in response.json()["error"]["fields"]


@pytest.mark.parametrize("method", ["post", "put", "patch", "delete"])
def test_the_log_is_read_only(api, tenant, method):
    entry = write(tenant.id)
    response = getattr(api, method)("/v1/audit", {"id": entry.id}, format="json")
    assert response.status_code == 405
    assert response.json()["error"]["code"] == "method_not_allowed"
    assert list(AuditEntry.objects.values_list("id", flat=True)) == [entry.id]


def test_the_log_needs_a_token(client, db):
    assert client.get("/v1/audit").status_code == 401


def test_an_unknown_query_parameter_is_a_400_naming_it(api, tenant):
    write(tenant.id)
    response = api.get("/v1/audit", {"actoin": "task.update"})
    assert response.status_code == 400, response.content
    assert "actoin" in response.json()["error"]["fields"]


def test_the_paging_parameters_are_known(api, tenant):
    write(tenant.id), write(tenant.id)
    first = api.get("/v1/audit", {"limit": 1}).json()
    assert api.get(first["next"]).status_code == 200
