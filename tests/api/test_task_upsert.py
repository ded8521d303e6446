"""PUT /v1/tasks/by-name/{name}: creates the tenant's task of that name (201) or replaces it
(200, same id), so applying the same body again is a no-op; several of the name are a 409."""

from audit.models import AuditEntry
from tasks.models import Task
from tests.conftest import PUBLIC_URL

BODY = {"cron": "0 3 * * *", "url": PUBLIC_URL}


def put(api, name: str, body: dict, **headers):
    return api.put(f"/v1/tasks/by-name/{name}", body, format="json", **headers)


def test_upsert_of_a_new_name_creates_the_task(api):
    response = put(api, "nightly", BODY)
    assert response.status_code == 201
    body = response.json()
    assert body["name"] == "nightly" and body["cron"] == "0 3 * * *" and body["version"] == 1
    assert response["ETag"] == '"1"'
    assert response["Location"].endswith(f"/v1/tasks/{body['id']}")


def test_upsert_of_an_existing_name_replaces_it_keeping_its_id(api):
    first = put(api, "nightly", BODY).json()
    response = put(api, "nightly", {**BODY, "cron": "30 4 * * *"})
    assert response.status_code == 200
    body = response.json()
    assert body["id"] == first["id"] and body["cron"] == "30 4 * * *" and body["version"] == 2
    assert Task.objects.filter(name="nightly").count() == 1


def test_upsert_replaces_a_task_made_by_post(api, make_task):
    made = make_task(name="nightly")
    response = put(api, "nightly", {**BODY, "priority": 2})
    assert response.status_code == 200 and response.json()["id"] == made["id"]


def test_upsert_of_the_same_body_twice_changes_nothing(api, tenant):
    first = put(api, "nightly", {**BODY, "labels": {"env": "prod"}, "headers": {"X-A": "1"}})
    again = put(api, "nightly", {**BODY, "labels": {"env": "prod"}, "headers": {"X-A": "1"}})
    assert again.status_code == 200
    assert again.json()["version"] == 1 and again.json()["updated_at"] == first.json()["updated_at"]
    assert not AuditEntry.objects.filter(tenant_id=tenant.id, action="task.update").exists()


def test_upsert_puts_fields_left_out_back_to_their_defaults(api):
    put(api, "nightly", {**BODY, "priority": 1, "labels": {"env": "prod"}, "body": "x"})
    body = put(api, "nightly", BODY).json()
    assert body["priority"] == 5 and body["labels"] == {} and body["body"] == ""


def test_upsert_can_change_the_kind_of_schedule(api):
    put(api, "nightly", BODY)
    body = put(api, "nightly", {"interval_seconds": 60, "url": PUBLIC_URL}).json()
    assert body["cron"] is None and body["interval_seconds"] == 60


def test_upsert_keeps_a_paused_task_paused(api):
    task = put(api, "nightly", BODY).json()
    api.post(f"/v1/tasks/{task['id']}/pause")
    body = put(api, "nightly", {**BODY, "cron": "0 4 * * *"}).json()
    assert body["status"] == "paused"


def test_upsert_with_the_same_name_in_the_body_is_accepted(api):
    assert put(api, "nightly", {**BODY, "name": "nightly"}).status_code == 201


def test_upsert_with_another_name_in_the_body_is_400_naming_name(api):
    response = put(api, "nightly", {**BODY, "name": "weekly"})
    assert response.status_code == 400 and "name" in response.json()["error"]["fields"]
    assert not Task.objects.exists()


def test_upsert_of_an_invalid_body_is_400_naming_the_field(api):
    response = put(api, "nightly", {"cron": "not cron", "url": PUBLIC_URL})
    assert response.status_code == 400 and "cron" in response.json()["error"]["fields"]


def test_upsert_with_an_unknown_body_field_is_400(api):
    response = put(api, "nightly", {**BODY, "crn": "x"})
    assert response.status_code == 400 and "crn" in response.json()["error"]["fields"]


def test_upsert_of_a_name_that_several_tasks_share_is_409_naming_them(api, make_task):
    ids = {make_task(name="nightly")["id"], make_task(name="nightly")["id"]}
    response = put(api, "nightly", BODY)
    assert response.status_code == 409
    error = response.json()["error"]
    assert error["code"] == "name_not_unique" and all(i in error["message"] for i in ids)
    assert Task.objects.filter(name="nightly").count() == 2


def test_upsert_matches_the_name_exactly(api, make_task):
    make_task(name="Nightly")
    assert put(api, "nightly", BODY).status_code == 201
    assert Task.objects.filter(name__in=["Nightly", "nightly"]).count() == 2


def test_upsert_ignores_a_deleted_task_of_the_name(api, make_task):
    old = make_task(name="nightly")
    api.delete(f"/v1/tasks/{old['id']}", HTTP_IF_MATCH="*")
    response = put(api, "nightly", BODY)
    assert response.status_code == 201 and response.json()["id"] != old["id"]


def test_upsert_never_touches_another_tenants_task(api, other_api):
    theirs = put(other_api, "nightly", BODY).json()
    mine = put(api, "nightly", BODY)
    assert mine.status_code == 201 and mine.json()["id"] != theirs["id"]


def test_upsert_with_the_current_if_match_replaces(api):
    put(api, "nightly", BODY)
    response = put(api, "nightly", {**BODY, "priority": 3}, HTTP_IF_MATCH='"1"')
    assert response.status_code == 200 and response.json()["version"] == 2


def test_upsert_with_a_stale_if_match_is_412_and_changes_nothing(api):
    put(api, "nightly", BODY)
    response = put(api, "nightly", {**BODY, "priority": 3}, HTTP_IF_MATCH='"7"')
    assert response.status_code == 412
    assert Task.objects.get(name="nightly").priority == 5


def test_upsert_with_a_stale_if_match_is_412_even_when_nothing_would_change(api):
    put(api, "nightly", BODY)
    assert put(api, "nightly", BODY, HTTP_IF_MATCH='"7"').status_code == 412


def test_upsert_with_an_if_match_for_a_name_no_task_has_is_412(api):
    assert put(api, "nightly", BODY, HTTP_IF_MATCH='"1"').status_code == 412
    assert not Task.objects.exists()


def test_upsert_of_a_name_with_a_slash_and_spaces_inside(api):
    response = put(api, "reports%2Fdaily%20run", BODY)
    assert response.status_code == 201 and response.json()["name"] == "reports/daily run"
    assert put(api, "reports%2Fdaily%20run", BODY).status_code == 200


def test_upsert_of_a_name_named_like_a_task_action(api):
    assert put(api, "pause", BODY).status_code == 201
    assert Task.objects.get().name == "pause"


def test_upsert_of_a_name_too_long_is_400_naming_name(api):
    response = put(api, "x" * 201, BODY)
    assert response.status_code == 400 and "name" in response.json()["error"]["fields"]


def test_upsert_of_a_name_with_a_space_at_an_end_is_400_naming_name(api):
    response = put(api, "nightly%20", BODY)
    assert response.status_code == 400 and "name" in response.json()["error"]["fields"]


def test_upsert_is_audited_as_a_create_then_an_update(api, tenant):
    put(api, "nightly", BODY)
    put(api, "nightly", {**BODY, "priority": 3})
    actions = AuditEntry.objects.filter(tenant_id=tenant.id).values_list("action", flat=True)
    assert sorted(actions) == ["task.create", "task.update"]


def test_get_by_name_answers_the_task(api):
    made = put(api, "nightly", BODY).json()
    response = api.get("/v1/tasks/by-name/nightly")
    assert response.status_code == 200 and response.json()["id"] == made["id"]
    assert response["ETag"] == '"1"'


def test_get_by_name_of_a_name_no_task_has_is_404(api):
    assert api.get("/v1/tasks/by-name/nightly").status_code == 404


def test_upsert_of_a_name_with_a_newline_inside_reaches_the_route(api):
    response = put(api, "first%0Asecond", BODY)
    assert response.status_code == 201 and response.json()["name"] == "first\nsecond"


def test_upsert_of_a_name_of_only_a_newline_is_400_naming_name(api):
    response = put(api, "%0A", BODY)
    assert response.status_code == 400 and "name" in response.json()["error"]["fields"]


def test_upsert_of_a_name_with_a_nul_is_400_as_a_body_name_with_one_is(api):
    response = put(api, "a%00b", BODY)
    assert response.status_code == 400 and "name" in response.json()["error"]["fields"]
    assert not Task.objects.exists()


def test_upsert_with_if_match_star_of_a_name_no_task_has_is_412_and_creates_nothing(api):
    response = put(api, "nightly", BODY, HTTP_IF_MATCH="*")
    assert response.status_code == 412
    assert not Task.objects.exists()


def test_upsert_with_if_match_star_replaces_the_task_of_the_name(api):
    made = put(api, "nightly", BODY).json()
    response = put(api, "nightly", {**BODY, "priority": 3}, HTTP_IF_MATCH="*")
    assert response.status_code == 200 and response.json()["id"] == made["id"]
