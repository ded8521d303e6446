"""The charts' axes: round ticks whatever the data, bars stacked in the legend's order."""

from datetime import UTC, datetime, timedelta

import pytest

from console.charts import Series, lines, nice_top, stacked_bars

STARTS = [datetime(2026, 6, 1, 12, tzinfo=UTC) + timedelta(minutes=i) for i in range(4)]


@pytest.mark.parametrize(
    "value, top", [(0, 1), (3, 4), (24, 40), (100, 100), (101, 200), (0.9, 1.0)]
)
def test_the_axis_top_is_four_round_steps_at_or_above_the_data(value, top):
    assert nice_top(value) == pytest.approx(top)


def test_bars_stack_each_slots_outcomes_from_the_axis_up():
    chart = stacked_bars(
        "a",
        "t",
        STARTS,
        [Series("delivered", "g", [3, 0, 0, 0]), Series("dead", "r", [1, 0, 0, 0])],
        every=2,
    )
    (first, second) = chart.bars
    assert first[1] + first[3] == pytest.approx(chart.plot_bottom)  # on the axis
    assert second[1] + second[3] == pytest.approx(first[1])  # on top of the first
    assert [label for _, label in chart.x_ticks] == ["12:00", "12:02"]
    assert [label for _, label in chart.y_ticks] == ["0", "1", "2", "3", "4"]


def test_delay_ticks_read_in_milliseconds_below_a_second_and_gaps_are_skipped():
    chart = lines("d", "t", STARTS, [Series("p99", "p", [0.3, None, 0.7, None])], every=1)
    assert [label for _, label in chart.y_ticks] == ["0 s", "200 ms", "400 ms", "600 ms", "800 ms"]
    assert len(chart.lines[0][0].split()) == 2
