"""deploy/prometheus/alerts.yml: valid rules (`promtool check rules`), a few of them on
made-up series (`promtool test rules alerts_test.yml`), naming metrics the code defines.

promtool comes from scripts/ensure_promtool.sh (built once, cached): without it these tests
fail, naming the script."""

import subprocess

import pytest
import yaml

from tests.deploy.metric_names import PROMETHEUS_OWN, defined_metrics, metrics_in
from tests.processes import ROOT

RULES = ROOT / "deploy" / "prometheus"
ENSURE = "scripts/ensure_promtool.sh"


@pytest.fixture(scope="module")
def promtool() -> str:
    found = subprocess.run(
        [ENSURE], cwd=ROOT, capture_output=True, text=True, timeout=3600, check=False
    )
    assert found.returncode == 0, f"{ENSURE} gave no promtool:\n{found.stderr[-3000:]}"
    return found.stdout.strip().splitlines()[-1]


def rules() -> list[dict]:
    groups = yaml.safe_load((RULES / "alerts.yml").read_text())["groups"]
    return [rule for group in groups for rule in group["rules"]]


def run(promtool: str, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [promtool, *args], cwd=RULES, capture_output=True, text=True, timeout=120, check=False
    )


def test_promtool_finds_the_rules_valid(promtool):
    checked = run(promtool, "check", "rules", "alerts.yml")
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert f"SUCCESS: {len(rules())} rules found" in checked.stdout


def test_the_alerts_fire_as_their_unit_tests_expect(promtool):
    tested = run(promtool, "test", "rules", "alerts_test.yml")
    assert tested.returncode == 0, tested.stdout + tested.stderr


def test_the_rules_cover_what_an_operator_is_paged_for():
    assert {rule["alert"] for rule in rules()} >= {
        "SchedulerExecutorsBehind",
        "SchedulerDeadLetterQueueGrowing",
        "SchedulerArchiverLagging",
        "SchedulerProcessHeartbeatMissing",
        "SchedulerProcessDown",
        "SchedulerCallErrorRate",
        "SchedulerApiServerErrors",
    }


def test_every_rule_names_only_metrics_the_code_defines():
    known = defined_metrics() | PROMETHEUS_OWN
    unknown = {rule["alert"]: metrics_in(rule["expr"]) - known for rule in rules()}
    assert {alert: names for alert, names in unknown.items() if names} == {}
