"""Bake-off: a tiny test-only game that exercises every kind of decision the engine has.

Each round has two phases. In *bid* every player secretly picks a flavour and
then a bid of 1 to 3 (a joint decision answered in two secret steps). When all
bids are in they are revealed: the highest unique bid wins that many points
(no unique highest bid: nobody scores). In *bake* the winner of the bid decides
whether to ``steal`` a point from the next player or ``pass``, but before the
winner decides, the next player may ``warn`` or keep ``quiet`` (a decision
nested inside the winner's). A warned victim is asked whether to ``block`` or
``allow`` a steal, and a block asks the thief whether to ``push`` (roll a die:
4 or more steals anyway, a chance draw) or ``yield``. After three rounds most
points wins.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from bot.games import engine
from bot.games.engine import (
    Action,
    BaseRules,
    Decision,
    Engine,
    Result,
    State,
    Turn,
    View,
)
from bot.games.pieces import next_seat, rank_by
from bot.games.rng import Rng

FLAVOURS = ("vanilla", "cocoa")
ROUNDS = 3
_FORMS = re.compile(
    r"^(flavour (vanilla|cocoa)|bid [1-3]|steal|pass|warn|quiet|block|allow|push|yield)$")


class BakeOff(BaseRules):
    """Secret bids, then a steal that the victim may block and the thief may push."""

    slug = "bake-off"
    title = "Bake-off"
    min_seats = 2
    max_seats = 4
    has_hidden_information = True
    private_choices = True
    phases = ("bid", "bake")
    notation_help = ("Moves: `flavour cocoa` then `bid 2` (secret), `steal` or `pass`, "
                     "`block` or `allow`, `push` or `yield`.")

    def _setup(self, state: State, turn: Turn) -> None:
        state["points"] = [0 for _ in state["seats"]]
        state["flavours"] = [None for _ in state["seats"]]
        state["winner"] = None
        state["over"] = False
        engine.start_phases(self, state, turn)

    def _begin_phase(self, state: State, phase: str, turn: Turn) -> None:
        if engine.round_of(state) > ROUNDS:
            state["over"] = True
            turn.say("The bake-off is over.", None, "end")
            return
        if phase == "bid":
            engine.ask(state, "bid", range(len(state["seats"])), joint=True, public=False)
            turn.say(f"Round {engine.round_of(state)}: everybody bids in secret.", None, "phase")
            return
        winner = state["winner"]
        if winner is None:
            turn.say("Nobody won the bid, so nobody bakes.", None, "phase")
            engine.next_phase(self, state, turn)
            return
        victim = next_seat(winner, len(state["seats"]))
        engine.ask(state, "steal", [winner], {"victim": victim, "warned": False})
        engine.ask(state, "warn", [victim], {"thief": winner})

    # ----------------------------------------------------------------- turns and decisions

    def _turn_actors(self, state: State) -> frozenset[int]:
        return frozenset()  # everything in Bake-off is a decision

    def _turn_actions(self, state: State, seat: int) -> list[Action]:
        return []

    def _play(self, state: State, seat: int, action: Action, turn: Turn) -> None:
        raise AssertionError("Bake-off has no turn actions")

    def _answer_complete(self, state: State, decision: Decision, seat: int,
                         steps: Sequence[str]) -> bool:
        return len(steps) == 2

    def _decision_actions(self, state: State, decision: Decision, seat: int) -> list[Action]:
        if decision.kind == "bid":
            if not decision.steps.get(seat):
                return [Action(f"flavour {f}", f"bake with {f}", public="chose a flavour")
                        for f in FLAVOURS]
            return [Action(f"bid {n}", f"bid {n}", public="placed a bid") for n in (1, 2, 3)]
        options = {"steal": ("steal", "pass"), "warn": ("warn", "quiet"),
                   "block": ("block", "allow"),
                   "push": ("push", "yield")}[decision.kind]
        return [Action(o) for o in options]

    def _resolve(self, state: State, decision: Decision, answers: dict[int, Action],
                 turn: Turn) -> None:
        if decision.kind == "bid":
            self._reveal_bids(state, decision, turn)
            engine.next_phase(self, state, turn)
            return
        seat, action = next(iter(answers.items()))
        name = engine.seat_name(state, seat)
        data = decision.data
        if decision.kind == "warn":
            # The steal decision below is still open: the warning is written into it.
            state["decisions"][-1]["data"]["warned"] = action.notation == "warn"
            turn.say(f"{name} {'is on guard' if action.notation == 'warn' else 'keeps quiet'}.",
                     seat)
        elif decision.kind == "steal":
            victim = data["victim"]
            if action.notation == "pass":
                turn.say(f"{name} lets the others be.", seat)
                engine.next_phase(self, state, turn)
            elif not data["warned"]:
                self._steal(state, seat, victim, turn)
                engine.next_phase(self, state, turn)
            else:
                turn.say(f"{name} tries to steal from {engine.seat_name(state, victim)}.", seat)
                engine.ask(state, "block", [victim], {"thief": seat})
        elif decision.kind == "block":
            thief = data["thief"]
            if action.notation == "allow":
                self._steal(state, thief, seat, turn)
                engine.next_phase(self, state, turn)
            else:
                turn.say(f"{name} blocks the steal.", seat)
                engine.ask(state, "push", [thief], {"victim": seat})
        else:
            victim = data["victim"]
            if action.notation == "yield":
                turn.say(f"{name} backs off.", seat)
            else:
                roll = turn.rng.roll(6)
                turn.say(f"{name} pushes and rolls a {roll}.", seat, reveals=True)
                if roll >= 4:
                    self._steal(state, seat, victim, turn)
            engine.next_phase(self, state, turn)

    def _reveal_bids(self, state: State, decision: Decision, turn: Turn) -> None:
        bids: dict[int, int] = {}
        for seat, steps in decision.steps.items():
            state["flavours"][seat] = steps[0].split(" ")[1]
            bids[seat] = int(steps[1].split(" ")[1])
        shown = ", ".join(f"{engine.seat_name(state, s)} {state['flavours'][s]} {b}"
                          for s, b in sorted(bids.items()))
        turn.say(f"The bids: {shown}.", None, "reveal", reveals=True)
        top = max(bids.values())
        highest = [s for s, b in bids.items() if b == top]
        state["winner"] = highest[0] if len(highest) == 1 else None
        if state["winner"] is not None:
            state["points"][state["winner"]] += top
            turn.say(f"{engine.seat_name(state, state['winner'])} wins the bid and {top} "
                     f"{'point' if top == 1 else 'points'}.", state["winner"])

    def _steal(self, state: State, thief: int, victim: int, turn: Turn) -> None:
        if state["points"][victim] > 0:
            state["points"][victim] -= 1
            state["points"][thief] += 1
            turn.say(f"{engine.seat_name(state, thief)} steals a point from "
                     f"{engine.seat_name(state, victim)}.", thief)
        else:
            turn.say(f"{engine.seat_name(state, victim)} has no point to steal.", thief)

    # ----------------------------------------------------------------- the rest of the contract

    def _canonical(self, text: str) -> str | None:
        return text if _FORMS.match(text) else None

    def _show(self, state: State, seat: int | None) -> View:
        return {"game": self.slug, "viewer": seat, "move": state["move"],
                "round": min(engine.round_of(state), ROUNDS), "phase": engine.phase_of(state),
                "points": list(state["points"]), "flavours": list(state["flavours"]),
                "to_act": sorted(engine.to_act(self, state)),
                "decision": engine.decision_view(state, seat)}

    def _result(self, state: State) -> Result | None:
        if not state["over"]:
            return None
        scores = dict(enumerate(state["points"]))
        return Result(rank_by({s: (p,) for s, p in scores.items()}), scores, "Most points wins.")

    def scores(self, state: State) -> dict[int, int]:
        return dict(enumerate(state["points"]))

    def _ai(self, view: View, legal: list[Action], rng: Rng) -> Action:
        return legal[-1] if view["decision"]["kind"] == "bid" else rng.choice(legal)


GAME = Engine(BakeOff())
