"""Applying a YAML file of tasks by name: created once, replaced after, never duplicated."""

import pytest
from atcron import ConfigError

from tests.client.conftest import write
from tests.conftest import PUBLIC_URL

pytestmark = pytest.mark.django_db(transaction=True)

TASKS = f"""
tasks:
  - name: nightly-report
    cron: "0 3 * * *"
    timezone: Europe/Madrid
    url: {PUBLIC_URL}
    labels: {{team: billing}}
  - name: new-year
    run_at: 2030-01-01T00:00:00Z
    url: {PUBLIC_URL}
    body: '{{"hello": "world"}}'
"""


def test_applying_a_file_twice_creates_the_tasks_then_changes_nothing(sdk, tmp_path):
    path = write(tmp_path / "tasks.yaml", TASKS)
    first = sdk.apply(path)
    second = sdk.apply(path)
    assert [(r.name, r.action) for r in first] == [
        ("nightly-report", "created"),
        ("new-year", "created"),
    ]
    assert [(r.name, r.action) for r in second] == [
        ("nightly-report", "unchanged"),
        ("new-year", "unchanged"),
    ]
    assert [(r.task.id, r.task.version) for r in second] == [
        (r.task.id, r.task.version) for r in first
    ]
    assert sorted(task.name for task in sdk.tasks.list()) == ["new-year", "nightly-report"]


def test_an_applied_file_sets_every_field_it_names(sdk, tmp_path):
    (cron, one_off) = sdk.apply(write(tmp_path / "tasks.yaml", TASKS))
    assert (cron.task.cron, cron.task.timezone, cron.task.labels) == (
        "0 3 * * *",
        "Europe/Madrid",
        {"team": "billing"},
    )
    # YAML reads an unquoted instant as a datetime: it goes out as ISO 8601.
    assert one_off.task.raw["run_at"] == "2030-01-01T00:00:00Z"


def test_a_changed_task_is_updated_in_place(sdk):
    (first,) = sdk.apply_tasks([{"name": "poll", "interval_seconds": 60, "url": PUBLIC_URL}])
    (second,) = sdk.apply_tasks([{"name": "poll", "interval_seconds": 90, "url": PUBLIC_URL}])
    assert (second.action, second.task.id) == ("updated", first.task.id)
    assert second.task.interval_seconds == 90


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (f"- cron: '* * * * *'\n  url: {PUBLIC_URL}\n", "has no `name`"),
        (f"- {{name: a, url: {PUBLIC_URL}}}\n- {{name: a, url: {PUBLIC_URL}}}\n", "given twice"),
        ("name: alone\n", "expected a list"),
        ("- [unclosed\n", "tasks.yaml"),
    ],
)
def test_a_bad_file_is_refused_before_anything_is_sent(sdk, tmp_path, text, message):
    with pytest.raises(ConfigError, match=message):
        sdk.apply(write(tmp_path / "tasks.yaml", text))
    assert list(sdk.tasks.list()) == []
