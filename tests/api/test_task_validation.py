"""POST /v1/tasks rejects bad input with 400 naming the field, and writes nothing."""

import pytest

from tasks.models import Task, Tenant
from tests.conftest import PUBLIC_URL, cron_task, one_off_task


def assert_rejected(api, body: dict, field: str):
    response = api.post("/v1/tasks", body, format="json")
    assert response.status_code == 400, response.content
    assert field in response.json()["error"]["fields"], response.json()
    assert not Task.objects.exists()


@pytest.mark.parametrize("cron", ["61 * * * *", "* * * *", "* * * * * *", "hello", "0 0 30 2 *"])
def test_bad_cron_is_rejected(api, cron):
    assert_rejected(api, cron_task(cron=cron), "cron")


def test_unknown_time_zone_is_rejected(api):
    assert_rejected(api, cron_task(timezone="Mars/Olympus"), "timezone")


@pytest.mark.parametrize("zone", ["localtime", "Factory"])
def test_time_zone_that_names_no_place_is_rejected(api, zone):
    assert_rejected(api, cron_task(timezone=zone), "timezone")


@pytest.mark.parametrize("zone", ["localtime", "Factory"])
def test_one_off_with_a_time_zone_that_names_no_place_is_rejected(api, zone):
    assert_rejected(api, one_off_task(timezone=zone), "timezone")


# Arabic-Indic, full-width and Devanagari digits: int() reads each as a number.
OTHER_DIGITS = ["\u0661 * * * *", "\uff11 * * * *", "* * * * \u0663", "*/\u0967 * * * *"]


@pytest.mark.parametrize("cron", OTHER_DIGITS)
def test_cron_with_digits_of_another_script_is_rejected(api, cron):
    assert_rejected(api, cron_task(cron=cron), "cron")


def test_both_cron_and_run_at_is_rejected(api):
    assert_rejected(api, cron_task(run_at="2030-01-01T00:00:00Z"), "run_at")


def test_neither_cron_nor_run_at_is_rejected(api):
    assert_rejected(api, {"url": PUBLIC_URL}, "cron")


def test_run_at_without_offset_is_rejected(api):
    assert_rejected(api, one_off_task(run_at="2030-01-01T09:00:00"), "run_at")


def test_run_at_that_is_not_a_date_is_rejected(api):
    assert_rejected(api, one_off_task(run_at="tomorrow"), "run_at")


def test_missing_url_is_rejected(api):
    assert_rejected(api, {"cron": "* * * * *"}, "url")


@pytest.mark.parametrize(
    "url",
    [
        "ftp://93.184.216.34/x",
        "file:///etc/passwd",
        "gopher://93.184.216.34/",
        "93.184.216.34/hook",
        "https://user:pass@93.184.216.34/hook",
        "https://user@93.184.216.34/hook",
        "https://93.184.216.34:8080/hook",
        "http://93.184.216.34:22/",
        "https://93.184.216.34:99999/",
        "http://127.0.0.1/",
        "http://localhost/",
        "http://LOCALHOST./",
        "http://10.0.0.5/",
        "http://172.16.3.4/",
        "http://192.168.1.1/",
        "http://169.254.169.254/latest/meta-data/",
        "http://100.64.0.1/",
        "http://224.0.0.1/",
        "http://240.0.0.1/",
        "http://0.0.0.0/",
        "http://[::1]/",
        "http://[::ffff:127.0.0.1]/",
        "http://[::ffff:a9fe:a9fe]/",
        "http://[fe80::1]/",
        "http://[fc00::1]/",
        "http://2130706433/",
        "http://0x7f000001/",
        "http://0177.0.0.1/",
        "http://127.1/",
        "http://0xa9fea9fe/",
        "http://0251.0376.0251.0376/",
        "http://does-not-resolve.invalid/",
        "https://",
    ],
)
def test_url_that_is_not_a_public_http_destination_is_rejected(api, url):
    assert_rejected(api, cron_task(url=url), "url")


def test_url_allowed_by_egress_allow_list(api, settings):
    settings.EGRESS_ALLOW = "127.0.0.0/8"
    response = api.post("/v1/tasks", cron_task(url="http://127.0.0.1:8080/hook"), format="json")
    assert response.status_code == 201


@pytest.mark.parametrize(
    "header",
    [
        "Authorization",
        "authorization",
        "Proxy-Authorization",
        "Cookie",
        "Connection",
        "Transfer-Encoding",
        "Upgrade",
        "Host",
        "Idempotency-Key",
        "X-Scheduled-At",
        "X-Attempt",
        "webhook-signature",
    ],
)
def test_forbidden_header_is_rejected(api, header):
    assert_rejected(api, cron_task(headers={header: "x"}), "headers")


def test_header_value_with_line_break_is_rejected(api):
    assert_rejected(api, cron_task(headers={"X-Trace": "a\r\nInjected: 1"}), "headers")


def test_header_value_that_is_not_a_string_is_rejected(api):
    assert_rejected(api, cron_task(headers={"X-Count": {"nested": 1}}), "headers")


def test_custom_header_is_accepted(api):
    response = api.post("/v1/tasks", cron_task(headers={"X-Trace": "abc"}), format="json")
    assert response.status_code == 201
    assert response.json()["headers"] == {"X-Trace": "abc"}


def test_body_over_64_kib_is_rejected(api):
    assert_rejected(api, cron_task(body="x" * (64 * 1024 + 1)), "body")


def test_body_of_exactly_64_kib_is_accepted(api):
    response = api.post("/v1/tasks", cron_task(body="x" * (64 * 1024)), format="json")
    assert response.status_code == 201


@pytest.mark.parametrize(
    "field, value",
    [
        ("priority", -1),
        ("priority", 10),
        ("timeout_seconds", 0),
        ("timeout_seconds", 901),
        ("max_attempts", 0),
        ("max_attempts", 51),
        ("backoff_base_seconds", 0),
        ("backoff_base_seconds", 86401),
        ("priority", "high"),
        ("method", "TRACE"),
        ("misfire_policy", "sometimes"),
    ],
)
def test_out_of_range_option_is_rejected(api, field, value):
    assert_rejected(api, cron_task(**{field: value}), field)


@pytest.mark.parametrize(
    "field, value",
    [("priority", 0), ("priority", 9), ("timeout_seconds", 900), ("max_attempts", 50)],
)
def test_option_at_the_edge_of_its_range_is_accepted(api, tenant, field, value):
    Tenant.objects.filter(id=tenant.id).update(allow_critical=True)
    assert api.post("/v1/tasks", cron_task(**{field: value}), format="json").status_code == 201


def test_priority_0_without_the_operators_grant_is_400_naming_priority(api):
    assert_rejected(api, cron_task(priority=0), "priority")


def test_raising_a_task_to_priority_0_without_the_grant_is_400(api, make_task):
    task = make_task(priority=5)
    response = api.patch(
        f"/v1/tasks/{task['id']}", {"priority": 0}, format="json", HTTP_IF_MATCH='"1"'
    )
    assert response.status_code == 400
    assert "priority" in response.json()["error"]["fields"]


def test_secret_ref_with_bad_characters_is_rejected(api):
    assert_rejected(api, cron_task(secret_ref="no spaces/here"), "secret_ref")


@pytest.mark.parametrize("field", ["id", "status", "next_run_at", "version", "tenant_id", "tenant"])
def test_read_only_or_unknown_field_is_rejected(api, field):
    assert_rejected(api, cron_task(**{field: "x"}), field)


def test_body_that_is_not_an_object_is_rejected(api):
    response = api.post("/v1/tasks", [1, 2], format="json")
    assert response.status_code == 400


def test_malformed_json_is_a_400(api):
    response = api.post("/v1/tasks", "{not json", content_type="application/json")
    assert response.status_code == 400
    assert not Task.objects.exists()


def test_bad_idempotency_key_is_rejected(api):
    response = api.post("/v1/tasks", cron_task(), format="json", HTTP_IDEMPOTENCY_KEY="x" * 300)
    assert response.status_code == 400
    assert "Idempotency-Key" in response.json()["error"]["fields"]
