"""CHANGELOG.md tells an operator what an upgrade changes: no entry is left a placeholder."""

from __future__ import annotations

from tests.processes import ROOT


def test_the_changelog_has_no_placeholder_left():
    text = (ROOT / "CHANGELOG.md").read_text()
    assert "as they land" not in text


def test_the_changelog_names_the_renamed_attempts_metric():
    """A dashboard or alert on the old name sees nothing after the upgrade: it must be said."""
    text = (ROOT / "CHANGELOG.md").read_text()
    assert "scheduler_job_outcomes_total" in text and "scheduler_attempts_total" in text
