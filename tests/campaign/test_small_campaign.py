"""Small versions of the campaign's scenarios 3, 5, 6, 9 and 11 (bench/campaign.py): the
same code, a few hundred jobs each, on the suite's MariaDB through the TCP proxy."""

from functools import partial

import pytest
from django.conf import settings
from django.db import connection

from bench.reliability import report
from bench.reliability.processes import Settings
from bench.reliability.runner import Scenario, run_scenario
from bench.reliability.scenarios import SCENARIOS, executors

pytestmark = pytest.mark.django_db(transaction=True)
SCALE = 0.06  # 300 slow jobs for scenario 3, 180 for 9, 300 for 5
STEADY_SCALE = 0.02  # 400 cron tasks and 120 one-off tasks over the window
STEADY_SECONDS = 20


def run_small(name: str, tmp_path, scenario: Scenario | None = None, **size) -> dict:
    if connection.vendor != "mysql":
        pytest.fail("the campaign's scenarios need MariaDB (DATABASE_URL=mysql://...)")
    db = settings.DATABASES["default"]
    outcome = run_scenario(
        scenario or SCENARIOS[name].run,
        name=name,
        title=SCENARIOS[name].title,
        settings=Settings(db["NAME"], int(db["PORT"] or 3306), tmp_path),
        work=tmp_path / name,
        progress=False,
        **size,
    )
    figures = outcome.as_json()
    report.save(figures, tmp_path)  # beside the processes' logs, for a failure's post-mortem
    assert figures["lost"] == 0, figures
    assert figures["expected"] > 0
    assert figures["delivered_at_least_once"] + figures["dead"] == figures["expected"], figures
    failed = [check for check, ok in figures["checks"].items() if not ok]
    assert not failed, figures
    return figures


def test_executor_killed_with_calls_in_flight_loses_nothing(tmp_path):
    figures = run_small("03-executor-killed", tmp_path, scale=SCALE)
    assert figures["notes"]["calls out at the kill"] >= 150
    # A call the killed executor made may arrive again: only ever because of the kill.
    assert all(name.startswith("executor SIGKILL") for name in figures["repeats_by_fault"])


def test_archiver_killed_between_its_two_writes_five_times(tmp_path):
    figures = run_small("05-archiver-killed", tmp_path, scale=SCALE)
    assert figures["notes"]["jobs in neither store"] == 0


def test_database_cut_under_the_steady_mix(tmp_path):
    figures = run_small(
        "06-database-cut", tmp_path, scale=STEADY_SCALE, steady_seconds=STEADY_SECONDS
    )
    assert figures["faults"] and figures["faults"][0]["for_s"] >= 5


def test_executor_paused_past_its_leases_is_fenced(tmp_path):
    paused = partial(executors.executor_paused, pause=20)
    figures = run_small("09-executor-paused", tmp_path, paused, scale=SCALE)
    assert figures["notes"]["late results dropped by the fence"] > 0


def test_executor_sigterm_beside_two_schedulers_hands_jobs_back(tmp_path):
    figures = run_small(
        "11-executor-sigterm", tmp_path, scale=STEADY_SCALE, steady_seconds=STEADY_SECONDS
    )
    assert figures["notes"]["leases returned by the reconciler"] == 0
