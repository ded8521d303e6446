"""Schedulers share the partitions through lease rows; a dead one's are taken over."""

from datetime import UTC, datetime, timedelta

from tasks.models import SchedulerLease
from tasks.partitions import PartitionLeases, partition_ranges

T0 = datetime(2026, 6, 1, 12, 0, tzinfo=UTC)


def node(name: str) -> PartitionLeases:
    leases = PartitionLeases(node_id=name, partition_count=16, lease_seconds=10)
    leases.ensure_rows()
    return leases


def test_partition_ranges_cover_contiguous_buckets_and_merge_neighbours():
    assert partition_ranges({0, 1, 5}, 16) == [(0, 127), (320, 383)]
    assert partition_ranges(set(range(16)), 16) == [(0, 1023)]


def test_a_lone_scheduler_owns_every_partition(db):
    assert node("a").rebalance(T0) == set(range(16))


def test_two_schedulers_split_the_partitions_evenly(db):
    a, b = node("a"), node("b")
    a.rebalance(T0)
    b.rebalance(T0)
    a.rebalance(T0 + timedelta(seconds=1))
    b.rebalance(T0 + timedelta(seconds=1))
    assert len(a.owned) == len(b.owned) == 8
    assert a.owned.isdisjoint(b.owned)


def test_three_schedulers_never_share_a_partition(db):
    nodes = [node(name) for name in "abc"]
    for second in range(4):
        for each in nodes:
            each.rebalance(T0 + timedelta(seconds=second))
    owned = [each.owned for each in nodes]
    assert sum(len(o) for o in owned) == 16
    assert all(len(o) <= 6 for o in owned)
    assert set().union(*owned) == set(range(16))


def test_a_dead_schedulers_partitions_are_taken_over_after_the_lease(db):
    a, b = node("a"), node("b")
    for second in range(2):
        a.rebalance(T0 + timedelta(seconds=second))
        b.rebalance(T0 + timedelta(seconds=second))
    dead = set(b.owned)
    assert a.rebalance(T0 + timedelta(seconds=5)).isdisjoint(dead)  # b's lease still runs
    assert a.rebalance(T0 + timedelta(seconds=12)) == set(range(16))


def test_a_clean_stop_hands_partitions_back_at_once(db):
    a, b = node("a"), node("b")
    for second in range(2):
        a.rebalance(T0 + timedelta(seconds=second))
        b.rebalance(T0 + timedelta(seconds=second))
    b.release_all()
    assert a.rebalance(T0 + timedelta(seconds=2)) == set(range(16))
    assert not SchedulerLease.objects.filter(owner="b").exists()


def test_a_scheduler_that_lost_its_lease_does_not_count_it_as_owned(db):
    a, b = node("a"), node("b")
    a.rebalance(T0)
    # a stalls past its lease; b comes up alone and takes everything
    assert b.rebalance(T0 + timedelta(seconds=15)) == set(range(16))
    assert a.rebalance(T0 + timedelta(seconds=16)) == set()
    b.rebalance(T0 + timedelta(seconds=17))  # b sees a again and gives back half
    assert len(a.rebalance(T0 + timedelta(seconds=18))) == 8
    assert a.owned.isdisjoint(b.owned)


def test_lease_rows_beyond_the_partition_count_are_never_taken(db):
    SchedulerLease.objects.bulk_create([SchedulerLease(partition=p) for p in range(16, 32)])
    assert node("a").rebalance(T0) == set(range(16))
