"""A flow's settings are refused with a 400 naming the field unless they are whole numbers
within their bounds; unknown and read-only fields are refused too."""

import pytest

pytestmark = pytest.mark.django_db


def refused(api, body, key: str = "crm") -> dict:
    response = api.put(f"/v1/flows/{key}", body, format="json")
    assert response.status_code == 400, response.content
    error = response.json()["error"]
    assert error["code"] == "invalid"
    return error["fields"]


@pytest.mark.parametrize("value", [0, -1, True, False, "3", 2.5, 2.0, [], {}])
@pytest.mark.parametrize("field", ["parallelism", "rate", "breaker_cooldown_seconds"])
def test_a_limit_that_is_not_a_positive_whole_number_is_refused(api, field, value):
    body = {field: value, "rate": 5} if field != "rate" else {field: value}
    assert field in refused(api, body)


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("parallelism", 10_001),
        ("rate", 100_001),
        ("period_seconds", 86_401),
        ("breaker_failures", 1_001),
        ("breaker_cooldown_seconds", 86_401),
    ],
)
def test_a_value_over_its_bound_is_refused(api, field, value):
    assert field in refused(
        api, {field: value, "rate": 1} if field == "period_seconds" else {field: value}
    )


def test_the_bounds_themselves_are_taken(api):
    body = {
        "parallelism": 10_000,
        "rate": 100_000,
        "period_seconds": 86_400,
        "breaker_failures": 1_000,
        "breaker_cooldown_seconds": 86_400,
    }
    assert api.put("/v1/flows/crm", body, format="json").status_code == 201


def test_breaker_failures_zero_turns_the_breaker_off(api):
    response = api.put("/v1/flows/crm", {"breaker_failures": 0}, format="json")
    assert response.status_code == 201 and response.json()["breaker_failures"] == 0


@pytest.mark.parametrize("value", [-1, True, "10", 1.5, None])
def test_a_bad_breaker_failures_is_refused(api, value):
    assert "breaker_failures" in refused(api, {"breaker_failures": value})


def test_a_period_without_a_rate_is_refused(api):
    assert "period_seconds" in refused(api, {"period_seconds": 60})
    assert "period_seconds" in refused(api, {"period_seconds": 60, "rate": None})


def test_an_unknown_field_is_refused_by_name(api):
    assert refused(api, {"parallelsm": 2}) == {"parallelsm": "unknown field"}


def test_a_shown_field_is_refused_as_read_only(api):
    assert refused(api, {"paused": True}) == {"paused": "read-only"}


def test_a_body_that_is_not_an_object_is_refused(api):
    response = api.put("/v1/flows/crm", "[1]", content_type="application/json")
    assert response.status_code == 400


@pytest.mark.parametrize("key", ["bad key", "x" * 101, "é", "a,b"])
def test_a_bad_key_is_refused_naming_key(api, key):
    response = api.put(f"/v1/flows/{key}", {}, format="json")
    assert response.status_code == 400
    assert "key" in response.json()["error"]["fields"]


def test_pause_of_a_bad_key_is_refused_naming_key(api):
    response = api.post("/v1/flows/bad%20key/pause")
    assert response.status_code == 400
    assert "key" in response.json()["error"]["fields"]


def test_a_body_over_the_size_limit_is_413(api, settings):
    settings.REQUEST_BODY_MAX_BYTES = 100
    body = '{"parallelism": 2' + " " * 200 + "}"
    response = api.put("/v1/flows/crm", body, content_type="application/json")
    assert response.status_code == 413


@pytest.mark.parametrize("route", ["/v1/flows/{}", "/v1/flows/{}/resume"])
@pytest.mark.parametrize("key", ["💥", "a b", "x" * 101])
def test_a_key_no_flow_can_have_names_none_on_reads_and_resume(api, route, key):
    path = route.format(key)
    response = api.get(path) if "resume" not in route else api.post(path)
    assert response.status_code == 404
    assert api.delete(f"/v1/flows/{key}").status_code == 404


@pytest.mark.parametrize("path_key", ["crm%0A", "x" * 100 + "%0A", "..", ".", "%2E%2E"])
def test_a_key_ending_in_a_newline_or_made_of_dots_is_refused_naming_key(api, path_key):
    # `..` and `.` are resolved out of a URL's path by clients and proxies: unreachable.
    response = api.put(f"/v1/flows/{path_key}", {}, format="json")
    assert response.status_code == 400, response.content
    assert "key" in response.json()["error"]["fields"]


def test_pause_of_a_101_character_key_ending_in_a_newline_is_a_400_not_a_500(api):
    response = api.post("/v1/flows/" + "x" * 100 + "%0A/pause")
    assert response.status_code == 400
    assert "key" in response.json()["error"]["fields"]
