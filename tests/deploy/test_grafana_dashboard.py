"""deploy/grafana/dashboard.json: Grafana's JSON, each panel querying metrics that exist."""

import json

from tests.deploy.metric_names import PROMETHEUS_OWN, defined_metrics, metrics_in
from tests.processes import ROOT

DASHBOARD = ROOT / "deploy" / "grafana" / "dashboard.json"


def panels() -> list[dict]:
    return json.loads(DASHBOARD.read_text())["panels"]


def test_the_dashboard_is_json_with_panels_that_query_prometheus():
    assert panels()
    for panel in panels():
        assert panel["title"] and panel["targets"], panel
        assert all(target["expr"].strip() for target in panel["targets"]), panel["title"]


def test_every_panel_names_only_metrics_the_code_defines():
    known = defined_metrics() | PROMETHEUS_OWN
    unknown = {
        panel["title"]: sorted(metrics_in(target["expr"]) - known)
        for panel in panels()
        for target in panel["targets"]
        if metrics_in(target["expr"]) - known
    }
    assert unknown == {}


def test_the_metrics_behind_each_alert_have_a_panel():
    from tests.deploy.test_alert_rules import rules

    shown = {name for panel in panels() for t in panel["targets"] for name in metrics_in(t["expr"])}
    alerted = {name for rule in rules() for name in metrics_in(rule["expr"])}
    assert alerted - shown == set()


def test_the_reader_of_metric_names_finds_series_not_functions_or_labels():
    expr = 'sum by (le) (rate(a_bucket{job="x", b="c"}[5m])) / sum(d offset 1h) > 0.1 and up'
    assert metrics_in(expr) == {"a_bucket", "d", "up"}
