"""The demo endpoint's paths (scripts/demo_endpoint.py): what each asks of a call."""

from __future__ import annotations

import pytest

from scripts.demo_endpoint import planned_status


def test_flaky_fails_its_first_calls_then_succeeds():
    assert [planned_status("/flaky/2", calls) for calls in (1, 2, 3)] == [500, 500, 200]


@pytest.mark.parametrize("count", ["\u00b2", "9" * 5000], ids=["superscript", "5000-digits"])
def test_a_flaky_count_that_is_no_small_number_is_a_plain_success(count):
    assert planned_status(f"/flaky/{count}", 1) == 200
