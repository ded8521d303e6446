"""The River peer (bench/river) on a tiny burst: the real Go program on the real Postgres
(scripts/ensure_postgres.sh) against the real nginx endpoint, counted at the endpoint as the
peer benchmark counts it."""

import pytest

from bench import river_peer
from bench.burst import Burst
from bench.harness import recorded_endpoint, stop

JOBS, CRITICAL = 50, 5
# A database of the test's own: a benchmark's River database may be in use beside it.
DATABASE_URL = river_peer.DATABASE_URL.replace("/river_peer", "/river_peer_test")


@pytest.fixture(scope="module")
def binary():
    try:
        river_peer.require_postgres()
        return river_peer.build()
    except RuntimeError as missing:  # a missing Postgres or Go fails, naming what starts it
        pytest.fail(str(missing))


@pytest.fixture(scope="module")
def burst(binary):
    """One burst for the module's checks: running the Go program costs seconds."""
    endpoint = recorded_endpoint("river-test")
    try:
        result = river_peer.run_river(
            "river",
            Burst(JOBS, CRITICAL, lead=5.0),
            endpoint.url,
            endpoint.record,
            endpoint.work,
            run=river_peer.RiverRun(binary, workers=10, database_url=DATABASE_URL),
        )
    finally:
        stop(endpoint.process)
    return result, endpoint.work


def test_every_call_of_the_burst_arrives_at_the_endpoint_once(burst):
    result, _ = burst
    assert (len(result.delays), result.lost, result.duplicates) == (JOBS + CRITICAL, 0, 0)


def test_the_critical_calls_are_counted_as_critical(burst):
    result, _ = burst
    assert len(result.critical) == CRITICAL


def test_no_call_starts_before_its_scheduled_instant(burst):
    result, _ = burst
    assert min(result.delays) >= -0.001  # nginx logs arrivals to the millisecond


def test_river_holds_every_job_as_completed_when_it_stops(burst):
    _, work = burst
    assert river_peer.river_states(work) == f"completed: {JOBS + CRITICAL}"
