"""The small version of the campaign's scenario 13 (bench/campaign.py): a primary and its
semi-synchronous replica of the test's own, the primary SIGKILLed under a short steady mix,
the replica promoted and the proxy moved; the processes are never restarted."""

import pytest

from tests.campaign.test_small_campaign import STEADY_SCALE, STEADY_SECONDS, run_small

pytestmark = pytest.mark.django_db(transaction=True)


def test_primary_killed_and_replica_promoted_loses_nothing_and_makes_no_run_twice(tmp_path):
    figures = run_small(
        "13-mariadb-failover", tmp_path, scale=STEADY_SCALE, steady_seconds=STEADY_SECONDS
    )
    notes = figures["notes"]
    assert figures["runs_made_twice"] == 0, figures
    assert notes["semi-sync before the kill"]["no_tx"] == 0, notes
    assert notes["processes with a good turn on the new primary"] >= 5, notes
    assert notes["kill to first delivery after the switch s"] is not None, notes
