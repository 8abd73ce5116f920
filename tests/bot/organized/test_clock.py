"""The clock's arithmetic (bot/organized/clock.py): what is charged, when a clock runs,
what a bank gains, when the loop must look, and the choices a lobby has."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.organized.clock import (
    CHECKPOINT,
    CHOICES,
    DAY,
    HOUR,
    ClockError,
    ClockRule,
    SeatClock,
    charged,
    dump,
    fresh,
    load,
    next_look,
    paused,
    settle,
    short,
    timeout_rule,
    warnings_due,
)

moments = st.floats(min_value=0, max_value=60 * DAY, allow_nan=False)
spans = st.lists(st.tuples(moments, moments).map(lambda ab: (min(ab), max(ab))), max_size=6)
rules = st.sampled_from([rule for rule in CHOICES if rule.timed])


@given(moments, moments, spans)
def test_a_clock_is_charged_the_time_between_less_the_pauses_never_less_than_nothing(
        a: float, b: float, pauses: list[tuple[float, float]]) -> None:
    start, end = min(a, b), max(a, b)
    cost = charged(start, end, pauses)
    assert 0 <= cost <= end - start + 1e-6
    # Overlapping pauses are taken off once: the same pause twice changes nothing.
    assert charged(start, end, pauses + pauses) == pytest.approx(cost)


@given(moments, moments, spans, moments)
def test_charging_in_two_steps_is_charging_in_one(a: float, b: float,
                                                  pauses: list[tuple[float, float]],
                                                  cut: float) -> None:
    start, end = min(a, b), max(a, b)
    middle = min(max(cut, start), end)
    both = charged(start, middle, pauses) + charged(middle, end, pauses)
    assert both == pytest.approx(charged(start, end, pauses), abs=1e-6)


def test_a_pause_counts_only_where_it_overlaps() -> None:
    assert paused(10, 20, [(0, 12), (18, 30)]) == 4
    assert paused(10, 20, [(30, 40)]) == 0


@given(rules, st.lists(st.tuples(st.booleans(), moments), min_size=1, max_size=12))
def test_a_clock_runs_only_while_its_seat_is_to_act(rule: ClockRule,
                                                    steps: list[tuple[bool, float]]) -> None:
    clocks = {0: fresh(rule)}
    now = 0.0
    for acting, later in steps:
        now += later / 12
        before = clocks[0]
        clocks = settle(rule, clocks, {0} if acting else set(), now)
        if not before.running:
            # A stopped clock loses nothing while its seat waits.
            assert clocks[0].left == pytest.approx(
                rule.turn if acting and rule.per_move else before.left)
        assert clocks[0].running == acting
        if rule.bank:
            assert clocks[0].left <= rule.bank * DAY


def test_days_per_move_give_the_whole_time_at_every_turn() -> None:
    rule = ClockRule.parse("2d")
    clocks = settle(rule, {0: fresh(rule)}, {0}, now=0.0)
    clocks = settle(rule, clocks, set(), now=1.5 * DAY)
    assert clocks[0].left == pytest.approx(0.5 * DAY)
    clocks = settle(rule, clocks, {0}, now=3 * DAY)
    assert clocks[0].left == 2 * DAY and clocks[0].at == 3 * DAY


def test_a_bank_keeps_what_is_left_gains_its_increment_and_never_passes_the_bank() -> None:
    rule = ClockRule.parse("7d+1d")
    clocks = settle(rule, {0: fresh(rule)}, {0}, now=0.0)
    clocks = settle(rule, clocks, set(), now=HOUR)
    assert clocks[0].left == 7 * DAY, "a quick move gains no more than the bank"
    clocks = settle(rule, clocks, {0}, now=DAY)
    clocks = settle(rule, clocks, set(), now=4 * DAY)
    assert clocks[0].left == 5 * DAY
    # Run out, the seat keeps only the increment for its next move.
    clocks = settle(rule, settle(rule, clocks, {0}, now=5 * DAY), set(), now=11 * DAY)
    assert clocks[0].left == DAY


def test_time_in_a_pause_is_not_charged_and_a_clock_checkpoints() -> None:
    rule = ClockRule.parse("3d")
    clocks = settle(rule, {0: fresh(rule)}, {0}, now=0.0)
    clocks = settle(rule, clocks, {0}, now=2 * DAY, pauses={0: [(DAY, 2 * DAY)]})
    assert clocks[0].left == 2 * DAY and clocks[0].at == 2 * DAY and clocks[0].running


def test_a_turn_that_starts_with_less_than_a_day_is_not_told_it_has_a_day() -> None:
    rule = ClockRule.parse("1d")
    clocks = settle(rule, {0: fresh(rule)}, {0}, now=0.0)
    assert clocks[0].warned == 1
    assert warnings_due(SeatClock(2 * HOUR, 0.0, 1)) == 2
    assert warnings_due(SeatClock(0.0, 0.0, 1)) == 0, "out of time is no reminder"


@given(st.floats(min_value=1, max_value=30 * DAY), st.integers(0, 2), moments)
def test_the_loop_never_looks_later_than_a_reminder_or_the_end(left: float, warned: int,
                                                               at: float) -> None:
    clock = SeatClock(left, at, warned)
    look = next_look({0: clock}, now=at)
    assert look is not None and at <= look <= at + CHECKPOINT
    assert look <= at + left
    for i, mark in enumerate((DAY, 2 * HOUR)):
        if i >= warned and left > mark:
            assert look <= at + left - mark


def test_a_table_whose_clocks_all_stopped_needs_no_look() -> None:
    assert next_look({0: SeatClock(DAY)}, now=0.0) is None


def test_the_stored_form_reads_back() -> None:
    clocks = {0: SeatClock(DAY, 5.0, 1), 1: SeatClock(2 * DAY)}
    assert load(dump(clocks)) == clocks


def test_the_choices_are_the_offered_ones_and_nothing_else() -> None:
    assert [rule.code for rule in CHOICES] == ["none", "1d", "2d", "3d", "5d", "7d", "14d",
                                               "3d+1d", "7d+1d", "14d+2d"]
    assert all(len(rule.said) <= 80 for rule in CHOICES)
    for wrong in ("4d", "7d+3d", "forever", "-1d"):
        with pytest.raises(ClockError):
            ClockRule.parse(wrong)
    with pytest.raises(ClockError):
        timeout_rule("explode")
    assert timeout_rule("Stand in") == "stand_in"


@given(st.floats(min_value=0, max_value=60 * DAY))
def test_a_clock_never_shows_more_than_it_has(seconds: float) -> None:
    text = short(seconds)
    numbers = [int(part) for part in text.split() if part.isdigit()]
    units = [part for part in text.split() if not part.isdigit()]
    scale = {"d": DAY, "h": HOUR, "min": 60}
    assert sum(n * scale[u] for n, u in zip(numbers, units, strict=True)) <= seconds
