"""When an executor may start calls, from the beats that reached the database
(execution/executor_beat.py): never while the reconciler could take it for dead."""

from execution.executor_beat import Liveness

DEAD_AFTER = 5.0


def beaten_at(liveness: Liveness, at: float, took: float = 0.01) -> None:
    liveness.beaten(at, at + took)


def test_nothing_starts_before_the_first_beat():
    assert not Liveness(DEAD_AFTER).may_fire(claimed=100.0, now=100.5)


def test_a_job_claimed_after_a_beat_starts_while_the_beat_is_fresh():
    liveness = Liveness(DEAD_AFTER)
    beaten_at(liveness, 100.0)
    assert liveness.may_fire(claimed=101.0, now=103.0)


def test_nothing_starts_once_the_last_beat_nears_the_limit():
    liveness = Liveness(DEAD_AFTER)
    beaten_at(liveness, 100.0)
    assert not liveness.may_fire(claimed=101.0, now=100.0 + DEAD_AFTER * 0.8)


def test_regular_beats_keep_every_claim_startable():
    liveness = Liveness(DEAD_AFTER)
    for second in range(100, 110):
        beaten_at(liveness, float(second))
    assert liveness.may_fire(claimed=100.5, now=110.0)


def test_a_job_claimed_before_a_lapse_never_starts_after_it():
    liveness = Liveness(DEAD_AFTER)
    beaten_at(liveness, 100.0)
    beaten_at(liveness, 100.0 + DEAD_AFTER)  # late: the reconciler may have acted
    assert not liveness.may_fire(claimed=101.0, now=DEAD_AFTER + 101.0)
    assert liveness.may_fire(claimed=DEAD_AFTER + 100.5, now=DEAD_AFTER + 101.0)
