"""The rules of a tournament's rounds: everyone seated once, no pair twice while another
seating avoids it, byes to different players, points shared out whole.

Each property is checked against a brute force written here, over whole tournaments whose
results hypothesis draws."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from fractions import Fraction
from itertools import combinations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.organized.pairings import (
    Seating,
    met_pairs,
    pods,
    round_robin,
    round_robin_rounds,
    swiss,
    table_sizes,
)
from bot.organized.standings import Round, Table, standings

SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def partitions(players: Sequence[int], sizes: Sequence[int]) -> Iterator[list[tuple[int, ...]]]:
    """Every way to seat ``players`` (best first) at tables of ``sizes`` (the brute
    force), each table led by the best player left, larger tables tried first."""
    if not players:
        yield []
        return
    first, rest = players[0], list(players[1:])
    for size in sorted(set(sizes), reverse=True):
        others = list(sizes)
        others.remove(size)
        for mates in combinations(rest, size - 1):
            left = [p for p in rest if p not in mates]
            for tail in partitions(left, others):
                yield [(first, *mates), *tail]


def avoidable(players: Sequence[int], size: int, least: int, met: set[frozenset[int]],
              byes: set[int]) -> bool:
    """Whether any seating with byes to players without one meets no pair again."""
    sizes, out = table_sizes(len(players), size, least)
    fresh = [p for p in players if p not in byes]
    pool = fresh if len(fresh) >= out else list(players)
    for sitting_out in combinations(pool, out):
        rest = [p for p in players if p not in sitting_out]
        for tables in partitions(rest, sizes):
            if not met_pairs(tables) & met:
                return True
    return False


def ended(seating: Seating, draw: st.DrawFn) -> Round:
    """The round with places hypothesis draws for every table."""
    tables = []
    for table in seating.tables:
        places = draw(st.lists(st.integers(1, len(table)), min_size=len(table),
                               max_size=len(table)))
        ranked = sorted(places)
        tables.append(Table({e: ranked.index(p) + 1 for e, p in zip(table, places, strict=True)}))
    return Round(tuple(tables), seating.byes)


def everyone_once(players: Sequence[int], seating: Seating) -> None:
    seated = [p for t in seating.tables for p in t] + list(seating.byes)
    assert sorted(seated) == sorted(players)


Played = tuple[list[int], int, int, list[Round], list[Seating]]


@st.composite
def tournaments(draw: st.DrawFn, *, size: int) -> Played:
    """A tournament played round after round (pods of ``size``, Swiss at 2) with drawn
    results: its players, size, least, rounds and the seatings as they were formed."""
    count = draw(st.integers(2, 8 if size == 2 else 7))
    players = list(range(1, count + 1))
    least = draw(st.integers(2, size))
    rounds: list[Round] = []
    seatings: list[Seating] = []
    for _ in range(draw(st.integers(1, 5))):
        order = [s.entry for s in standings(players, rounds)]
        met = met_pairs(t.places for r in rounds for t in r.tables)
        byes = {b for r in rounds for b in r.byes}
        seating = (swiss(order, met=met, byes=byes) if size == 2
                   else pods(order, size=size, least=least, met=met, byes=byes))
        seatings.append(seating)
        rounds.append(ended(seating, draw))
    return players, size, least, rounds, seatings


def check_rounds(players: list[int], size: int, least: int, rounds: list[Round],
                 seatings: list[Seating]) -> None:
    for n, seating in enumerate(seatings):
        before = rounds[:n]
        met = met_pairs(t.places for r in before for t in r.tables)
        byes = {b for r in before for b in r.byes}
        everyone_once(players, seating)
        assert all(least <= len(t) <= size for t in seating.tables)
        assert max(map(len, seating.tables), default=0) - min(map(len, seating.tables),
                                                               default=0) <= 1
        if avoidable(players, size, least, met, byes):
            assert not met_pairs(seating.tables) & met, (n, seating, met)
        fresh = [p for p in players if p not in byes]
        if len(fresh) >= len(seating.byes):
            assert not set(seating.byes) & byes, "a second bye while others had none"


@SETTINGS
@given(tournaments(size=2))
def test_swiss_seats_everyone_once_meets_no_pair_twice_and_gives_byes_to_new_players(
        played: Played) -> None:
    check_rounds(*played)


@SETTINGS
@given(st.integers(3, 5).flatmap(lambda size: tournaments(size=size)))
def test_pods_seat_everyone_once_at_balanced_tables_and_meet_no_pair_twice(
        played: Played) -> None:
    check_rounds(*played)


def test_swiss_pairs_by_score() -> None:
    # 1 and 3 won, 2 and 4 lost: the winners meet, and the losers.
    rounds = [Round((Table({1: 1, 2: 2}), Table({3: 1, 4: 2})))]
    order = [s.entry for s in standings([1, 2, 3, 4], rounds)]
    assert swiss(order, met={frozenset((1, 2)), frozenset((3, 4))}, byes=set()).tables \
        == ((1, 3), (2, 4))


def test_the_bye_goes_to_the_lowest_placed_player_without_one() -> None:
    assert swiss([5, 4, 3, 2, 1], met=set(), byes={1}).byes == (2,)
    assert swiss([5, 4, 3, 2, 1], met=set(), byes={1, 2, 3, 4, 5}).byes == (1,)


@given(st.integers(2, 12))
def test_round_robin_meets_every_pair_once(count: int) -> None:
    players = list(range(10, 10 + count))
    meetings: list[frozenset[int]] = []
    byes: list[int] = []
    for r in range(round_robin_rounds(count)):
        seating = round_robin(players, r)
        everyone_once(players, seating)
        meetings += [frozenset(t) for t in seating.tables]
        byes += seating.byes
    assert sorted(map(sorted, meetings)) == sorted(map(sorted, combinations(players, 2)))
    assert len(byes) == len(set(byes)) == (count % 2) * count


@SETTINGS
@given(st.integers(3, 5).flatmap(lambda size: tournaments(size=size)))
def test_every_table_shares_out_half_a_point_a_seat(
        played: Played) -> None:
    players, _size, _least, rounds, _ = played
    lines = standings(players, rounds)
    expected = sum((Fraction(len(t.places), 2) for r in rounds for t in r.tables), Fraction(0))
    expected += sum(len(r.byes) for r in rounds)
    assert sum(s.points for s in lines) == expected
    assert [s.rank for s in lines] == sorted(s.rank for s in lines)
