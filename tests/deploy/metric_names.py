"""The metric names the product defines, and those a PromQL expression uses: what the alert
rules and the Grafana dashboard may name."""

from __future__ import annotations

import re
from pathlib import Path

from tests.processes import ROOT

PRODUCT = ("execution", "jobs", "tasks", "flows", "history", "scheduler_site", "console")
# What the client library adds to a family's name in the exposition format.
SUFFIXES = ("", "_total", "_bucket", "_sum", "_count", "_created")
PROMETHEUS_OWN = {"up"}  # added by Prometheus to every scrape target
KEYWORDS = {"by", "without", "offset", "and", "or", "unless", "on", "ignoring", "bool"}
KEYWORDS |= {"group_left", "group_right", "inf", "nan"}


def defined_metrics() -> set[str]:
    """Every `scheduler_...` name a product module spells out, with its exposed suffixes."""
    names = set()
    for folder in PRODUCT:
        for path in (ROOT / folder).rglob("*.py"):
            names |= set(re.findall(r'"(scheduler_[a-z0-9_]+)"', Path(path).read_text()))
    return {name + suffix for name in names for suffix in SUFFIXES}


def metrics_in(expr: str) -> set[str]:
    """The series names of a PromQL expression: its identifiers less functions, keywords,
    label names and values, groupings, durations and numbers."""
    text = re.sub(r'"[^"]*"', "", expr)  # label values
    text = re.sub(r"\{[^}]*\}", "", text)  # label matchers
    text = re.sub(r"\[[^\]]*\]", "", text)  # ranges
    text = re.sub(r"\b(by|without|on|ignoring)\s*\([^)]*\)", "", text)  # groupings
    text = re.sub(r"\boffset\s+\w+", "", text)
    names = re.findall(r"\b([a-zA-Z_:][a-zA-Z0-9_:]*)\b(?!\s*\()", text)
    return {name for name in names if name.lower() not in KEYWORDS}
