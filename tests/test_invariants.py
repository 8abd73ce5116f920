"""The engine contract, checked for every registered game over many seeded games."""

from __future__ import annotations

import json

import pytest
from playthrough import Step, play, seats_for

from bot.games import GAMES
from bot.games.engine import Game, dumps, loads

GAME_LIST = sorted(GAMES.values(), key=lambda g: g.slug)
SEEDS = range(12)


def check_step(game: Game, step: Step) -> None:
    state = step.before
    actors = game.to_act(state)
    players = len(state["seats"])
    assert actors, "somebody can act while the game is not over"
    for seat in range(players):
        legal = game.legal_actions(state, seat)
        if seat in actors:
            assert legal, f"seat {seat} may act but has no legal action"
            notations = [a.notation for a in legal]
            assert len(set(notations)) == len(notations), "notations are unique"
            for action in legal:
                assert game.parse(state, seat, action.notation) == action
        else:
            assert not legal, f"seat {seat} may not act but has legal actions"
    check_views(game, state)


def check_views(game: Game, state: dict) -> None:
    players = len(state["seats"])
    views = {None: json.dumps(game.view(state, None))}
    for seat in range(players):
        views[seat] = json.dumps(game.view(state, seat))
    for owner in range(players):
        for secret in game.secrets(state, owner):
            for viewer, text in views.items():
                if viewer != owner:
                    assert secret not in text, f"seat {viewer} can see seat {owner}'s {secret}"


@pytest.mark.parametrize("game", GAME_LIST, ids=lambda g: g.slug)
@pytest.mark.parametrize("seed", SEEDS)
def test_contract_holds_through_whole_games(game: Game, seed: int):
    players = game.min_seats + seed % (game.max_seats - game.min_seats + 1)
    random_seats = frozenset({0}) if seed % 2 else frozenset()
    final, log = play(game, seed, players, random_seats, lambda step: check_step(game, step))
    result = game.result(final)
    assert result is not None and not game.to_act(final)
    assert sorted(s for group in result.ranking for s in group) == list(range(players))
    check_views(game, final)
    # JSON round trip and replay from seed + log are exact.
    assert loads(dumps(final), game) == final
    assert game.replay(seats_for(game, players), seed, None, log) == final


@pytest.mark.parametrize("game", GAME_LIST, ids=lambda g: g.slug)
def test_every_state_round_trips_through_json(game: Game):
    def round_trip(step: Step) -> None:
        assert loads(dumps(step.outcome.state), game) == step.outcome.state

    play(game, 99, game.max_seats, frozenset(), round_trip)


@pytest.mark.parametrize("game", GAME_LIST, ids=lambda g: g.slug)
def test_the_ai_only_ever_chooses_legal_actions_from_its_own_view(game: Game, monkeypatch):
    seen: list[int | None] = []
    original = game.view

    def spy(state, seat):
        seen.append(seat)
        return original(state, seat)

    monkeypatch.setattr(game, "view", spy)
    state = game.new(seats_for(game, game.min_seats), 5)
    seat = min(game.to_act(state))
    action = game.ai_action(state, seat)
    assert seen == [seat]
    assert action in game.legal_actions(state, seat)
