"""Candy Race: a tiny test-only game that proves the Discord layer is generic.

Each player holds a hidden hand of three cards (1 to 3). On your turn either
``step`` (move 1, draws nothing, so it can be undone) or ``play N`` (move N and
draw a new card, which reveals something, so it cannot). First to the target
wins; ties share a place.
"""

from __future__ import annotations

import re

from bot.games.engine import Action, Game, OptionSpec, Result, State, Turn, View
from bot.games.rng import Rng

_PLAY = re.compile(r"^(?:play )?([1-9])$")


class CandyRace(Game):
    """Race to the target with hidden cards."""

    slug = "candy-race"
    title = "Candy Race"
    min_seats = 2
    max_seats = 4
    has_hidden_information = True
    options = (
        OptionSpec("target", "Points needed to win.", "int", 10, minimum=3, maximum=30),
        OptionSpec("pace", "How the race is paced.", "choice", "steady",
                   choices=("steady", "brisk")),
    )
    notation_help = "Moves: `step` (one space) or `play 2` (a card from your hand)."

    def setup(self, state: State, turn: Turn) -> None:
        state["totals"] = [0 for _ in state["seats"]]
        state["hands"] = [[turn.rng.roll(3) for _ in range(3)] for _ in state["seats"]]
        state["turn"] = 0

    def turn_actors(self, state: State) -> frozenset[int]:
        return frozenset({state["turn"]})

    def turn_actions(self, state: State, seat: int) -> list[Action]:
        if seat != state["turn"]:
            return []
        cards = sorted(set(state["hands"][seat]))
        return [Action("step", "step one space"),
                *(Action(f"play {c}", f"play your {c} card") for c in cards)]

    def play(self, state: State, seat: int, action: Action, turn: Turn) -> None:
        name = self.seat_name(state, seat)
        if action.notation == "step":
            state["totals"][seat] += 1
            turn.say(f"{name} steps to {state['totals'][seat]}.", seat)
        else:
            card = int(action.notation.split()[1])
            state["hands"][seat].remove(card)
            state["hands"][seat].append(turn.rng.roll(3))
            state["totals"][seat] += card
            turn.say(f"{name} plays a {card} and reaches {state['totals'][seat]}.", seat)
        state["turn"] = (seat + 1) % len(state["seats"])

    def view(self, state: State, seat: int | None) -> View:
        return {"game": self.slug, "totals": list(state["totals"]),
                "hand": list(state["hands"][seat]) if seat is not None else None,
                "hand_sizes": [len(h) for h in state["hands"]]}

    def result(self, state: State) -> Result | None:
        target = state["options"]["target"]
        if max(state["totals"]) < target:
            return None
        by_total: dict[int, list[int]] = {}
        for seat, total in enumerate(state["totals"]):
            by_total.setdefault(total, []).append(seat)
        ranking = tuple(tuple(by_total[t]) for t in sorted(by_total, reverse=True))
        return Result(ranking, dict(enumerate(state["totals"])),
                      f"{self.seat_name(state, ranking[0][0])} reached {target} first.")

    def ai(self, view: View, legal: list[Action], rng: Rng) -> Action:
        return max(legal, key=lambda a: 1 if a.notation == "step" else int(a.notation[-1]))

    def canonical(self, text: str) -> str | None:
        if text == "step":
            return "step"
        match = _PLAY.match(text)
        return f"play {match.group(1)}" if match else None

    def scores(self, state: State) -> dict[int, int]:
        return dict(enumerate(state["totals"]))

    def summary(self, state: State) -> str:
        return f"Move {state['move']}; first to {state['options']['target']} wins."

    def quick_choices(self, state: State, seat: int) -> list[Action]:
        return self.legal_actions(state, seat)

    def rank_actions(self, state: State, seat: int, actions: list[Action]) -> list[Action]:
        return sorted(actions, key=lambda a: 0 if a.notation == "step" else -int(a.notation[-1]))


class CandyDash(CandyRace):
    """The same race with every hand face up: its choices may be shown as public buttons."""

    slug = "candy-dash"
    title = "Candy Dash"
    has_hidden_information = False
    options = (OptionSpec("target", "Points needed to win.", "int", 10, minimum=3, maximum=30),)
