"""The one round robin: tenants take turns inside each priority level."""

from jobs.turns import Turns, in_turns


def test_tenants_take_turns_inside_a_level_in_order_of_arrival():
    items = [(5, "a", "a1"), (5, "a", "a2"), (5, "a", "a3"), (5, "b", "b1"), (5, "c", "c1")]
    ordered = in_turns(items, key=lambda item: item[:2])
    assert [item[2] for item in ordered] == ["a1", "b1", "c1", "a2", "a3"]


def test_a_more_urgent_level_comes_out_whole_first():
    ordered = in_turns([(5, "a", "late"), (0, "b", "urgent")], key=lambda item: item[:2])
    assert [item[2] for item in ordered] == ["urgent", "late"]


def test_a_tenant_just_served_goes_after_one_that_has_waited():
    turns = Turns()
    turns.push(5, "a", "a1")
    assert turns.pop() == "a1"
    turns.push(5, "a", "a2")  # its queue ran empty: being served is still remembered
    turns.push(5, "b", "b1")
    assert turns.drain() == ["b1", "a2"]


def test_a_tenant_not_allowed_is_passed_over_and_keeps_its_turn():
    turns = Turns()
    for tenant in "ab":
        turns.push(5, tenant, f"{tenant}1")
    assert turns.pop(lambda priority, tenant: tenant != "a") == "b1"
    turns.push(5, "b", "b2")
    assert turns.drain() == ["a1", "b2"]


def test_levels_past_the_bound_are_not_taken():
    turns = Turns()
    turns.push(5, "a", "normal")
    assert turns.pop(max_priority=0) is None
    assert len(turns) == 1
