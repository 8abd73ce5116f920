"""The Sugar Blast search: its flat simulation plays the rules, and it plays only from
what its seat may know."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from bot.games import get_game
from bot.games.engine import State, play_out
from bot.games.rng import Rng
from bot.games.sugar_blast import board as bd
from bot.games.sugar_blast import search as sr
from tests.support.playthrough import play, seats_for

GAME = get_game("sugar-blast")


def turn_starts(seeds: range, players: int = 2) -> Iterator[State]:
    """Every state of seeded AI games in which a player is about to swap."""
    states: list[State] = []
    for seed in seeds:
        play(GAME, seed, players, frozenset({1}),
             lambda step: states.append(step.outcome.state))
    yield from (s for s in states
                if not s["ended"] and GAME.top(s) is None and s["phase"] == "swap")


def position(state: State) -> sr.Position:
    return sr.Position(sr.flatten(state["board"]), sr.counts(state["bag"]),
                       [sr.counts(k) for k in state["kept"]],
                       bd.SEATING[len(state["seats"])], sr.Objective.of(state["objective"]))


def test_the_flat_board_finds_the_blasts_and_swaps_of_the_rules():
    compared = 0
    for state in turn_starts(range(6)):
        board = state["board"]
        for a, b in bd.blasting_swaps(board):
            trial = [list(row) for row in board]
            bd.swap(trial, a, b)
            flat = sr.flatten(trial)
            theirs = bd.find_blasts(trial)
            ours = sr.find_blasts(flat)
            assert [b.notation for b in ours] == [b.notation for b in theirs]
            for mine, rule in zip(ours, theirs, strict=True):
                assert mine.kind == rule.kind
                assert set(mine.matched) == {sr._index(c) for c in rule.matched}
                assert set(mine.extra) == {sr._index(c) for c in rule.extra}
            assert {b.notation for b in sr._swap_blasts(flat, sr._index(a), sr._index(b))} \
                == {b.notation for b in theirs}
            compared += 1
        assert sr.swaps(sr.flatten(board)) == [(sr._index(a), sr._index(b))
                                               for a, b in bd.blasting_swaps(board)]
    assert compared > 100


def test_a_simulated_turn_is_the_turn_the_rules_play_in_the_same_world():
    # The search draws refills from a world's generator exactly as the rules do, so a
    # turn it simulates is the turn the rules play there, its in-turn choices answered
    # the same way.
    compared = 0
    for state in turn_starts(range(8)):
        seat = state["turn"]
        world = GAME.resample(state, seat, Rng.from_seed(state["move"]))
        for action in GAME.legal_actions(state, seat)[:3]:
            step = sr._steps(state, None, [action])[0]
            simulated, won = sr.Search(position(state), seat).play(step, Rng(world["rng"]))
            real = GAME.apply(world, seat, action).state
            while GAME.top(real) is not None and seat in GAME.to_act(real):
                top = GAME.top(real)
                assert top is not None
                here = position(real)
                if top.kind == "blast":
                    chosen = sr._choose_blast(here, seat, sr.find_blasts(here.board)).notation
                else:
                    kind = sr.best_keep(here, seat, (sr.KIND_INDEX[k] for k in top.data["others"]))
                    chosen = f"keep {sr.KINDS[kind]}"
                real = GAME.apply(real, seat, chosen).state
            assert won == (real["winner"] == seat)
            assert simulated.kept == [sr.counts(k) for k in real["kept"]]
            if not won and real["drawn"] is None:
                assert simulated.board == sr.flatten(real["board"])
                assert simulated.bag == sr.counts(real["bag"])
            compared += 1
    assert compared > 100


def test_progress_on_counts_is_the_objective_cards_progress():
    from bot.games.sugar_blast import objectives as obj

    rng = Rng.from_seed(5)
    for card in obj.objectives():
        mine = sr.Objective.of(card["id"])
        for _ in range(50):
            kept = {k: rng.below(5) for k in obj.candy_kinds()}
            assert mine.progress(sr.counts(kept)) == obj.progress(card, kept)


@pytest.mark.parametrize("players", [3, 4])
def test_the_strong_ai_chooses_the_same_in_every_world_its_seat_cannot_tell_apart(players):
    # Only the order of the bag is hidden: a strong AI that read the real generator
    # would choose differently in some resampled twin. (Two players: test_ai_strength.)
    states: list[State] = []
    play(GAME, players, players, frozenset({0}), lambda step: states.append(step.before))
    compared = 0
    for state in states[1::2]:
        seat = min(GAME.to_act(state))
        if len(GAME.legal_actions(state, seat)) < 2 or compared == 4:
            continue
        chosen = GAME.ai_action(state, seat, "strong").notation
        for k in range(2):
            twin = GAME.resample(state, seat, Rng.from_seed(k))
            assert twin["rng"] != state["rng"]
            assert GAME.ai_action(twin, seat, "strong").notation == chosen
        compared += 1
    assert compared == 4


@pytest.mark.parametrize("power", ["bomb + wild", "twist + rush", "steal + tongs",
                                   "frozen + toffee", "cage + jelly", "star + flavour"])
def test_the_strong_ai_plays_whole_games_with_power_cards(power):
    # Every card once; the search plays them through the rules' own hooks.
    seats = seats_for(GAME, 2)
    state = GAME.new(seats, 11, {"power": power})
    final = play_out(GAME, state, lambda s, seat: GAME.ai_action(s, seat, "strong"))
    assert GAME.result(final) is not None


def test_the_strong_ai_takes_a_swap_that_completes_the_objective():
    for state in turn_starts(range(10)):
        seat = state["turn"]
        pos = position(state)
        gains = sr.Gains.of(pos.card, pos.kept[seat])
        _, progress, _ = sr.best_swap(pos.board, gains)
        if gains.base + progress < pos.card.needed:
            continue
        after = GAME.apply(state, seat, GAME.ai_action(state, seat, "strong")).state
        while GAME.top(after) is not None and seat in GAME.to_act(after):
            after = GAME.apply(after, seat, GAME.ai_action(after, seat, "strong")).state
        assert after["winner"] == seat
        return
    pytest.fail("no winning swap found in ten games")
