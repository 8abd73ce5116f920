"""Candy Hunch: a tiny test-only game written from docs/engine.md alone.

Never registered for players: it proves that the invariant suite holds a new
game to the contract. Each player holds one secret card (1 to 9) dealt from a
shuffled deck. Every round all players stake 1 or 2 candies at once, in secret
(a joint decision). Then cards and stakes are shown: the highest card takes
every stake, and rolls a die, gaining one more candy on a 6. Everybody draws a
new card; when the deck cannot deal a card to everybody, most candies wins.
"""

from __future__ import annotations

import re

from bot.games import engine
from bot.games.engine import Action, BaseRules, Decision, Engine, Hidden, Result, State, Turn, View
from bot.games.pieces import deck_draw, deck_shuffled, rank_by
from bot.games.rng import Rng

_FORMS = re.compile(r"^stake [12]$")


class CandyHunch(BaseRules):
    """Secret cards, secret stakes, a die for the winner."""

    slug = "candy-hunch"
    title = "Candy Hunch"
    min_seats = 2
    max_seats = 3
    has_hidden_information = True
    private_choices = True
    has_joint_decisions = True
    has_chance = True
    has_content_files = False
    notation_help = "Moves: `stake 1` or `stake 2` (secret until everybody has staked)."
    rules_summary = "Stake on your secret card; the highest card takes every stake."

    def _setup(self, state: State, turn: Turn) -> None:
        deck = deck_shuffled([f"n{v}" for v in range(1, 10)], turn.rng)
        state["hands"] = [deck_draw(deck) for _ in state["seats"]]
        state["deck"] = deck
        state["candies"] = [0 for _ in state["seats"]]
        state["shown"] = None
        state["over"] = False
        self._stake(state, turn)

    def _stake(self, state: State, turn: Turn) -> None:
        engine.ask(state, "stake", range(len(state["seats"])), joint=True, public=False)
        turn.say("Everybody stakes in secret.", None, "round")

    def _hidden(self, state: State) -> list[Hidden]:
        return [Hidden(("deck",), None, "card"),
                *(Hidden(("hands", s), s, "card", single=True)
                  for s in range(len(state["seats"])))]

    def _turn_actors(self, state: State) -> frozenset[int]:
        return frozenset()

    def _turn_actions(self, state: State, seat: int) -> list[Action]:
        return []

    def _play(self, state: State, seat: int, action: Action, turn: Turn) -> None:
        raise AssertionError("Candy Hunch has no turn actions")

    def _decision_actions(self, state: State, decision: Decision, seat: int) -> list[Action]:
        return [Action(f"stake {n}", f"stake {n} candies", public="staked") for n in (1, 2)]

    def _resolve(self, state: State, decision: Decision, answers: dict[int, Action],
                 turn: Turn) -> None:
        stakes = {s: int(a.notation.split()[1]) for s, a in answers.items()}
        cards = {s: int(state["hands"][s][1:]) for s in stakes}
        best = max(cards, key=cards.__getitem__)
        won = sum(stakes.values())
        state["candies"][best] += won
        shown = ", ".join(f"{engine.seat_name(state, s)} card {cards[s]} stake {stakes[s]}"
                          for s in sorted(stakes))
        turn.say(f"Shown: {shown}. {engine.seat_name(state, best)} takes {won}.", best,
                 "reveal", reveals=True)
        roll = turn.rng.roll(6)
        if roll == 6:
            state["candies"][best] += 1
        turn.say(f"{engine.seat_name(state, best)} rolls a {roll}.", best, "roll")
        state["shown"] = {"cards": [cards[s] for s in sorted(cards)],
                          "stakes": [stakes[s] for s in sorted(stakes)]}
        if len(state["deck"]) < len(state["seats"]):
            state["over"] = True
            return
        state["hands"] = [deck_draw(state["deck"]) for _ in state["seats"]]
        self._stake(state, turn)

    def _canonical(self, text: str) -> str | None:
        return text if _FORMS.match(text) else None

    def _show(self, state: State, seat: int | None) -> View:
        own = seat is not None and 0 <= seat < len(state["seats"])
        return {"game": self.slug, "viewer": seat, "move": state["move"],
                "candies": list(state["candies"]), "deck": len(state["deck"]),
                "hand": state["hands"][seat] if own else None, "shown": state["shown"],
                "to_act": sorted(engine.to_act(self, state)),
                "decision": engine.decision_view(state, seat)}

    def _result(self, state: State) -> Result | None:
        if not state["over"]:
            return None
        scores = dict(enumerate(state["candies"]))
        return Result(rank_by({s: (c,) for s, c in scores.items()}), scores,
                      "Most candies wins.")

    def _ai(self, view: View, legal: list[Action], rng: Rng) -> Action:
        return legal[-1] if view["hand"] and int(view["hand"][1:]) > 5 else rng.choice(legal)


GAME = Engine(CandyHunch())
