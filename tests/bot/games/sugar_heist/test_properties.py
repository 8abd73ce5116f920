"""Sugar Heist over whole seeded games: tokens and cards conserved, dice in range, no leaks in
narration. (The engine contract at every step, views included, is
tests/bot/games/test_invariants.py's.)"""

from __future__ import annotations

import re

import pytest

from bot.games.engine import dumps, loads
from bot.games.sugar_heist import GAME, cards
from tests.support.playthrough import Step, play, seats_for
from tools.arena import win_rate_vs_random

SUPPLY = cards.supply()


def card_places(state: dict) -> list[str]:
    """Every card id wherever it lies: decks, market, hands, boards, costume rows."""
    places = [c for deck in state["decks"].values() for c in deck] + list(state["market"])
    for p in state["players"]:
        places += p["hand"] + [c["id"] for c in p["costumes"]]
        places += [room[slot]["id"] for room in p["rooms"] for slot in ("encounter", "mod")
                   if room[slot] is not None]
    return places


def check_conserved(state: dict) -> None:
    players = state["players"]
    assert sum(p["candy"] for p in players) + state["supply"]["candy"] == SUPPLY["candy"]
    assert sum(p["money"] for p in players) + state["supply"]["money"] == SUPPLY["money"]
    assert sum(p["tax"] for p in players) + state["supply"]["sugar_tax"] == SUPPLY["sugar_tax"]
    assert all(p["candy"] >= 0 and p["money"] >= 0 for p in players)
    assert state["supply"]["candy"] >= 0 and state["supply"]["sugar_tax"] >= 0
    places = card_places(state)
    assert sorted(places) == sorted(cards.instances()), "every card is in exactly one place"
    if state["heist"] is not None:
        pool = state["heist"]["pool"]
        assert all(1 <= v <= 6 for v in pool) and len(pool) <= 8
        assert pool == sorted(pool)


def check_no_leaks(step: Step) -> None:
    """Public narration of a build names neither the card built face down nor any card id."""
    built = step.outcome.action.notation.startswith("build")
    for event in step.outcome.events:
        if event.to is None and built:
            name = " ".join(step.outcome.action.notation.split(" room ")[0].split(" ")[1:])
            # A face-up card discarded from the slot is public, even if it has the same name.
            text = re.sub(r"\([^()]*face up[^()]*\)", "", event.text)
            assert name not in text.lower(), event.text
            assert not any(c in event.text for c in cards.instances())


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_cards_candy_money_and_tax_are_conserved_through_whole_games(players: int):
    random_seats = frozenset({1}) if players % 2 else frozenset()

    def on_step(step: Step) -> None:
        check_conserved(step.outcome.state)
        check_no_leaks(step)

    final, log = play(GAME, 40 + players, players, random_seats, on_step)
    assert final["over"] and len(final["heists"]) == players * players
    assert loads(dumps(final), GAME) == final
    assert GAME.replay(seats_for(GAME, players), 40 + players, None, log) == final


@pytest.mark.slow  # a match of whole AI games
def test_the_ai_beats_random_players_in_most_four_player_games():
    # One AI against three uniformly random players: a fair share would be 25%.
    assert win_rate_vs_random(GAME, 12, 4) >= 0.6
