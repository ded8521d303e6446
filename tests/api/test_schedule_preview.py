"""POST /v1/schedule-preview: the next runs of a schedule, DST rules marked, nothing created.

The instants are in 2037, so "from now" never reaches them: each preview starts there.
"""

import pytest

from tasks.models import Task
from tasks.preview import PREVIEW_SEED
from tasks.schedule import resolve_hash

MADRID_GAP_DAY = "2037-03-29T00:00:00Z"  # 02:00 CET becomes 03:00 CEST at 01:00 UTC
NEW_YORK_FALL_BACK = "2037-11-01T05:00:00Z"  # 01:00-01:59 happens twice, 06:00 UTC the change


def preview(api, **body):
    response = api.post("/v1/schedule-preview", body, format="json")
    assert response.status_code == 200, response.content
    return response.json()


def rejected(api, field: str, **body):
    response = api.post("/v1/schedule-preview", body, format="json")
    assert response.status_code == 400, response.content
    assert field in response.json()["error"]["fields"], response.json()


def test_runs_are_answered_in_utc_and_in_the_zone(api):
    body = preview(api, cron="0 9 * * *", timezone="Europe/Madrid", starts_at=MADRID_GAP_DAY,
                   count=2)  # fmt: skip
    assert body["runs"] == [
        {"at": "2037-03-29T07:00:00Z", "local": "2037-03-29T09:00:00+02:00", "dst": None,
         "merged_count": None, "wall_times": None},
        {"at": "2037-03-30T07:00:00Z", "local": "2037-03-30T09:00:00+02:00", "dst": None,
         "merged_count": None, "wall_times": None},
    ]  # fmt: skip


def test_a_gap_wall_time_is_marked_moved(api):
    (run,) = preview(api, cron="30 2 * * *", timezone="Europe/Madrid",
                     starts_at=MADRID_GAP_DAY, count=1)["runs"]  # fmt: skip
    assert (run["at"], run["local"], run["dst"]) == (
        "2037-03-29T01:00:00Z",
        "2037-03-29T03:00:00+02:00",
        "moved",
    )
    assert run["wall_times"] == ["2037-03-29T02:30"]


def test_several_gap_wall_times_are_marked_merged_with_their_number(api):
    (run,) = preview(api, cron="15,45 2 * * *", timezone="Europe/Madrid",
                     starts_at=MADRID_GAP_DAY, count=1)["runs"]  # fmt: skip
    assert (run["at"], run["dst"], run["merged_count"]) == ("2037-03-29T01:00:00Z", "merged", 2)


def test_the_gap_ends_own_wall_time_is_not_marked(api):
    (run,) = preview(api, cron="0 3 * * *", timezone="Europe/Madrid",
                     starts_at=MADRID_GAP_DAY, count=1)["runs"]  # fmt: skip
    assert (run["at"], run["dst"]) == ("2037-03-29T01:00:00Z", None)


def test_an_hourly_schedule_is_marked_repeated_in_the_second_pass(api):
    runs = preview(api, cron="0 * * * *", timezone="America/New_York",
                   starts_at=NEW_YORK_FALL_BACK, count=3)["runs"]  # fmt: skip
    assert [(r["at"], r["local"], r["dst"]) for r in runs] == [
        ("2037-11-01T05:00:00Z", "2037-11-01T01:00:00-04:00", None),
        ("2037-11-01T06:00:00Z", "2037-11-01T01:00:00-05:00", "repeated"),
        ("2037-11-01T07:00:00Z", "2037-11-01T02:00:00-05:00", None),
    ]


def test_a_fixed_hour_runs_once_in_the_repeated_hour(api):
    runs = preview(api, cron="30 1 * * *", timezone="America/New_York",
                   starts_at=NEW_YORK_FALL_BACK, count=2)["runs"]  # fmt: skip
    assert [r["at"] for r in runs] == ["2037-11-01T05:30:00Z", "2037-11-02T06:30:00Z"]


def test_an_interval_steps_from_starts_at_inside_the_window(api):
    runs = preview(api, interval_seconds=5400, starts_at="2037-01-01T00:00:00Z",
                   ends_at="2037-01-01T04:00:00Z", count=10)["runs"]  # fmt: skip
    assert [r["at"] for r in runs] == [
        "2037-01-01T00:00:00Z",
        "2037-01-01T01:30:00Z",
        "2037-01-01T03:00:00Z",
    ]


def test_max_runs_limits_the_list(api):
    runs = preview(api, cron="* * * * *", starts_at=MADRID_GAP_DAY, max_runs=3, count=10)["runs"]
    assert len(runs) == 3


def test_count_defaults_to_ten(api):
    assert len(preview(api, cron="* * * * *")["runs"]) == 10


def test_h_is_resolved_with_the_preview_seed_and_answered(api):
    body = preview(api, cron="H/15 * * * *", starts_at=MADRID_GAP_DAY, count=1)
    assert body["cron"] == resolve_hash("H/15 * * * *", PREVIEW_SEED)
    assert "H" not in body["cron"]


def test_nothing_is_created(api):
    preview(api, cron="* * * * *")
    assert not Task.objects.exists()


def test_a_token_is_needed(client, db):
    response = client.post("/v1/schedule-preview", {"cron": "* * * * *"}, "application/json")
    assert response.status_code == 401


@pytest.mark.parametrize(
    ("field", "body"),
    [
        ("count", {"cron": "* * * * *", "count": 101}),
        ("count", {"cron": "* * * * *", "count": 0}),
        ("cron", {"cron": "61 * * * *"}),
        ("cron", {"cron": "* * * * *", "interval_seconds": 60}),
        ("interval_seconds", {}),
        ("interval_seconds", {"interval_seconds": 0}),
        ("interval_seconds", {"interval_seconds": 31_536_001}),
        ("timezone", {"cron": "* * * * *", "timezone": "Mars/Olympus"}),
        ("timezone", {"interval_seconds": 60, "timezone": "localtime"}),
        ("starts_at", {"cron": "* * * * *", "starts_at": "2037-01-01T00:00:00"}),
        ("ends_at", {"cron": "* * * * *", "starts_at": "2037-01-02T00:00:00Z",
                     "ends_at": "2037-01-01T00:00:00Z"}),
        ("max_runs", {"cron": "* * * * *", "max_runs": 0}),
        ("run_at", {"cron": "* * * * *", "run_at": "2037-01-01T00:00:00Z"}),
    ],
)  # fmt: skip
def test_bad_schedule_fields_are_a_400_naming_the_field(api, field, body):
    rejected(api, field, **body)


@pytest.mark.parametrize(
    "body",
    [
        {"cron": "* * * * *", "starts_at": "9999-12-31T23:58:00Z"},
        {
            "cron": "* * * * *",
            "timezone": "Pacific/Kiritimati",
            "starts_at": "9999-12-31T23:58:00Z",
        },
        {"interval_seconds": 31_536_000, "starts_at": "9999-12-31T23:58:00Z"},
        {
            "interval_seconds": 3600,
            "timezone": "Pacific/Kiritimati",
            "starts_at": "9999-12-31T12:00:00Z",
        },
    ],
)
def test_runs_stop_at_the_end_of_the_calendar(api, body):
    assert len(preview(api, **body)["runs"]) <= 2
