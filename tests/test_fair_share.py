"""The fair share of a claim round: tenants take turns inside each priority level."""

from datetime import UTC, datetime, timedelta

from jobs.fair_share import MAX_TENANTS_PER_LEVEL, Ask, DueGroup, interleave, plan_asks

T0 = datetime(2026, 6, 1, 12, 0, tzinfo=UTC)


def group(priority: int, tenant: str, seconds_waiting: float = 0) -> DueGroup:
    return DueGroup(priority, tenant, T0 - timedelta(seconds=seconds_waiting))


def test_each_tenant_is_asked_for_an_equal_share_of_the_level():
    asks = plan_asks([group(5, "noisy"), group(5, "quiet")], {5: 200}, frozenset())
    assert asks == [Ask(5, "noisy", 100), Ask(5, "quiet", 100)]


def test_the_longest_waiting_tenant_is_asked_first():
    asks = plan_asks([group(5, "a", 1), group(5, "b", 9)], {5: 10}, frozenset())
    assert [ask.tenant for ask in asks] == ["b", "a"]


def test_levels_are_served_most_urgent_first():
    asks = plan_asks([group(5, "a"), group(0, "b")], {0: 10, 5: 10}, frozenset())
    assert [ask.priority for ask in asks] == [0, 5]


def test_skipped_tenants_and_levels_without_slots_are_not_asked():
    groups = [group(5, "saturated"), group(5, "ok"), group(3, "ok")]
    asks = plan_asks(groups, {5: 10, 3: 0}, frozenset({"saturated"}))
    assert asks == [Ask(5, "ok", 10)]


def test_a_round_asks_a_bounded_number_of_tenants_oldest_first():
    groups = [group(5, f"t{n}", n) for n in range(MAX_TENANTS_PER_LEVEL + 10)]
    asks = plan_asks(groups, {5: 1000}, frozenset())
    assert len(asks) == MAX_TENANTS_PER_LEVEL
    assert asks[0].tenant == f"t{MAX_TENANTS_PER_LEVEL + 9}"


def test_rows_come_out_one_tenant_at_a_time():
    rows = [(f"n{i}", "noisy", 5, T0 + timedelta(seconds=i)) for i in range(4)]
    rows += [(f"q{i}", "quiet", 5, T0 + timedelta(seconds=10 + i)) for i in range(2)]
    asks = [Ask(5, "noisy", 4), Ask(5, "quiet", 4)]
    assert [row[0] for row in interleave(rows, asks)] == ["n0", "q0", "n1", "q1", "n2", "n3"]


def test_a_more_urgent_level_comes_out_whole_before_the_next():
    rows = [("late", "a", 5, T0), ("urgent", "b", 0, T0 + timedelta(seconds=5))]
    asks = [Ask(0, "b", 1), Ask(5, "a", 1)]
    assert [row[0] for row in interleave(rows, asks)] == ["urgent", "late"]
