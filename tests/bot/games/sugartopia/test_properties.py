"""Sugartopia over many whole games: cubes, edges, hidden cards, replays and the AI.
(The engine contract at every step is tests/bot/games/test_invariants.py's.)"""

from __future__ import annotations

import json

import pytest

from bot.games.engine import Engine, dumps, loads
from bot.games.sugartopia import Sugartopia, tiles
from bot.games.sugartopia.board import Table
from tests.support.playthrough import Step, play, seats_for

GAME = Engine(Sugartopia())
SUPPLY = tiles.supply()


def cubes_everywhere(state: dict) -> dict[str, int]:
    """Sugar and honey counted in the supply, on cards (sheep and bears) and with players."""
    sugar = state["supply"]["sugar"] + sum(h["sugar"] for h in state["held"])
    honey = state["supply"]["honey"] + sum(h["honey"] for h in state["held"])
    for entry in state["table"]:
        for f in entry["fields"]:
            sugar += f["sugar"] + sum(f["fed"])
            honey += f["honey"]
    return {"sugar": sugar, "honey": honey}


def check_table(state: dict) -> None:
    """Every cube is in exactly one place and every touching pair of sides matches."""
    assert cubes_everywhere(state) == SUPPLY
    assert all(v >= 0 for v in state["supply"].values())
    table = Table(state["table"], tiles.catalogue())
    assert len(table.at) == len(state["table"]), "two cards on one spot"
    for i in range(len(state["table"])):
        for side in range(tiles.SIDES):
            j = table.at.get(tiles.neighbour(table.pos(i), side))
            if j is None or table.is_gingerman(i) or table.is_gingerman(j):
                continue
            assert table.edge(i, side) == table.edge(j, tiles.opposite(side))
    for f in (f for e in state["table"] for f in e["fields"]):
        assert f["sugar"] >= 0 and f["honey"] >= 0


def check_placements(state: dict) -> None:
    """The fast list of placements agrees with the rule, spot by spot and turn by turn."""
    table = Table(state["table"], tiles.catalogue())
    for hand in (h for h in state["hands"] if h):
        card = tiles.catalogue()[hand]
        slow = [(pos, rot) for pos in table.open_spots() for rot in tiles.ROTATIONS
                if table.fits(card, pos, rot)]
        assert table.placements(card) == slow


def check_events(step: Step) -> None:
    """Drawing a card never names it in public narration."""
    after = step.outcome.state
    hidden = {h for h in after["hands"] if h} | set(after["deck"])
    for event in step.outcome.events:
        for card_id in hidden:
            assert card_id not in event.text.lower(), event.text


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("seed", range(2))
def test_placements_and_public_narration_hold_through_whole_games(players: int, seed: int):
    random_seats = frozenset({1}) if seed else frozenset()

    def on_step(step: Step) -> None:
        check_table(step.outcome.state)
        check_placements(step.outcome.state)
        check_events(step)

    final, log = play(GAME, seed, players, random_seats, on_step)
    result = GAME.result(final)
    assert result is not None
    assert sorted(s for group in result.ranking for s in group) == list(range(players))
    assert loads(dumps(final), GAME) == final
    assert GAME.replay(seats_for(GAME, players), seed, None, log) == final


@pytest.mark.parametrize("seed", range(15))
def test_cubes_are_conserved_and_edges_match_in_every_state_of_many_games(seed: int):
    players = 2 + seed % 3
    random_seats = frozenset({seed % players}) if seed % 2 else frozenset()

    def on_step(step: Step) -> None:
        check_table(step.outcome.state)
        assert loads(dumps(step.outcome.state), GAME) == step.outcome.state

    final, log = play(GAME, 100 + seed, players, random_seats, on_step)
    assert final["phase"] == "over"
    assert all(h is None for h in final["hands"]) and not final["deck"]
    assert not any(final["gingermen"])
    # Final scoring empties every area: what is not with a player is back in the supply.
    assert all(f["sugar"] == 0 and f["honey"] == 0 and not any(f["fed"])
               for e in final["table"] for f in e["fields"])
    placed = sorted(e["card"] for e in final["table"] if e["card"].startswith("l"))
    assert sorted(placed + final["set_aside"]) == sorted(tiles.land_ids())
    assert GAME.replay(seats_for(GAME, players), 100 + seed, None, log) == final


def test_a_seats_view_never_shows_another_seats_hand_card():
    def on_step(step: Step) -> None:
        state = step.outcome.state
        for owner, hand in enumerate(state["hands"]):
            if hand is None:
                continue
            for viewer in [None, *range(len(state["hands"]))]:
                text = json.dumps(GAME.view(state, viewer))
                assert (hand in text) == (viewer == owner)

    play(GAME, 7, 3, frozenset(), on_step)


@pytest.mark.slow  # a match of whole AI games
def test_the_ai_beats_random_players_in_most_three_player_games():
    wins = 0
    games = 30
    for seed in range(games):
        ai_seat = seed % 3
        final, _ = play(GAME, 500 + seed, 3, frozenset({0, 1, 2}) - {ai_seat})
        result = GAME.result(final)
        assert result is not None
        if result.ranking[0] == (ai_seat,):
            wins += 1
    assert wins >= 20, f"the AI won only {wins} of {games}"
