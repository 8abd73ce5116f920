"""Test-only games that prove the Discord layer is generic.

Candy Race (and its open-handed twins Candy Dash and Candy Stroll) is a plain
turn game; Candy Duel has joint secret decisions, a multi-select choice,
episodes and places to zoom to.

Candy Race:

Each player holds a hidden hand of three cards (1 to 3). On your turn either
``step`` (move 1, draws nothing, so it can be undone) or ``play N`` (move N and
draw a new card, which reveals something, so it cannot). First to the target
wins; ties share a place.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from bot.games import engine
from bot.games.engine import (
    Action,
    BaseRules,
    Decision,
    MultiSelect,
    OptionSpec,
    Result,
    State,
    Turn,
    View,
)
from bot.games.rng import Rng

_PLAY = re.compile(r"^(?:play )?([1-9])$")


class CandyRace(BaseRules):
    """Race to the target with hidden cards."""

    slug = "candy-race"
    title = "Candy Race"
    min_seats = 2
    max_seats = 4
    has_hidden_information = True
    private_choices = True
    options = (
        OptionSpec("target", "Points needed to win.", "int", 10, minimum=3, maximum=30),
        OptionSpec("pace", "How the race is paced.", "choice", "steady",
                   choices=("steady", "brisk")),
    )
    notation_help = "Moves: `step` (one space) or `play 2` (a card from your hand)."

    def _setup(self, state: State, turn: Turn) -> None:
        state["totals"] = [0 for _ in state["seats"]]
        state["hands"] = [[turn.rng.roll(3) for _ in range(3)] for _ in state["seats"]]
        state["turn"] = 0

    def _turn_actors(self, state: State) -> frozenset[int]:
        return frozenset({state["turn"]})

    def _turn_actions(self, state: State, seat: int) -> list[Action]:
        if seat != state["turn"]:
            return []
        cards = sorted(set(state["hands"][seat]))
        return [Action("step", "step one space"),
                *(Action(f"play {c}", f"play your {c} card") for c in cards)]

    def _play(self, state: State, seat: int, action: Action, turn: Turn) -> None:
        name = engine.seat_name(state, seat)
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

    def _show(self, state: State, seat: int | None) -> View:
        return {"game": self.slug, "totals": list(state["totals"]),
                "hand": list(state["hands"][seat]) if seat is not None else None,
                "hand_sizes": [len(h) for h in state["hands"]]}

    def _result(self, state: State) -> Result | None:
        target = state["options"]["target"]
        if max(state["totals"]) < target:
            return None
        by_total: dict[int, list[int]] = {}
        for seat, total in enumerate(state["totals"]):
            by_total.setdefault(total, []).append(seat)
        ranking = tuple(tuple(by_total[t]) for t in sorted(by_total, reverse=True))
        return Result(ranking, dict(enumerate(state["totals"])),
                      f"{engine.seat_name(state, ranking[0][0])} reached {target} first.")

    def _ai(self, view: View, legal: list[Action], rng: Rng) -> Action:
        return max(legal, key=lambda a: 1 if a.notation == "step" else int(a.notation[-1]))

    def _canonical(self, text: str) -> str | None:
        if text == "step":
            return "step"
        match = _PLAY.match(text)
        return f"play {match.group(1)}" if match else None

    def scores(self, state: State) -> dict[int, int]:
        return dict(enumerate(state["totals"]))

    def summary(self, state: State) -> str:
        return f"Move {state['move']}; first to {state['options']['target']} wins."

    def quick_choices(self, state: State, seat: int) -> list[Action]:
        return engine.legal_actions(self, state, seat)

    def rank_actions(self, state: State, seat: int, actions: list[Action]) -> list[Action]:
        return sorted(actions, key=lambda a: 0 if a.notation == "step" else -int(a.notation[-1]))


class CandyDash(CandyRace):
    """The same race with every hand face up: its choices may be shown as public buttons."""

    slug = "candy-dash"
    title = "Candy Dash"
    has_hidden_information = False
    private_choices = False
    options = (OptionSpec("target", "Points needed to win.", "int", 10, minimum=3, maximum=30),)


class CandyStroll(CandyDash):
    """Candy Dash whose AI always steps, so its replies reveal nothing and can be undone."""

    slug = "candy-stroll"
    title = "Candy Stroll"

    def _ai(self, view: View, legal: list[Action], rng: Rng) -> Action:
        return next(a for a in legal if a.notation == "step")


class CandyHop(CandyDash):
    """Candy Dash where a ``hop`` (two spaces) keeps the turn: the same player must then
    ``rest`` before the next player moves, as a swap is followed by its Blast."""

    slug = "candy-hop"
    title = "Candy Hop"
    notation_help = "Moves: `step`, or `hop` (two spaces) and then `rest`."

    def _setup(self, state: State, turn: Turn) -> None:
        super()._setup(state, turn)
        state["resting"] = False

    def _turn_actions(self, state: State, seat: int) -> list[Action]:
        if seat != state["turn"]:
            return []
        if state["resting"]:
            return [Action("rest", "rest after the hop")]
        return [Action("step", "step one space"), Action("hop", "hop two spaces, then rest")]

    def _play(self, state: State, seat: int, action: Action, turn: Turn) -> None:
        name = engine.seat_name(state, seat)
        if action.notation == "hop":
            state["totals"][seat] += 2
            state["resting"] = True
            turn.say(f"{name} hops to {state['totals'][seat]}.", seat)
        elif action.notation == "rest":
            state["resting"] = False
            state["turn"] = (seat + 1) % len(state["seats"])
            turn.say(f"{name} rests.", seat)
        else:
            super()._play(state, seat, action, turn)

    def _canonical(self, text: str) -> str | None:
        return text if text in ("step", "hop", "rest") else None

    def _ai(self, view: View, legal: list[Action], rng: Rng) -> Action:
        return legal[0]


_BID = re.compile(r"^(?:bid )?([0-3])$")
_TAKE = re.compile(r"^take((?: [a-e])+)$")
CANDY_VALUES = {"a": 1, "b": 2, "c": 3, "d": 4, "e": 5}


class CandyDuel(BaseRules):
    """Secret bids, then the winner picks candies: joint decisions and a multi-select.

    Every round all players bid 0 to 3 coins from a secret purse at once (a joint,
    secret decision; with the ``double`` option each bid takes two steps, added up).
    The highest single bid wins the round and takes one or two candies from the
    pool (a public decision offered as a multi-select menu). A round is one
    episode. Highest total after the last round wins.
    """

    slug = "candy-duel"
    title = "Candy Duel"
    min_seats = 2
    max_seats = 4
    has_hidden_information = True
    private_choices = True
    options = (
        OptionSpec("rounds", "How many rounds.", "int", 2, minimum=1, maximum=5),
        OptionSpec("double", "Each bid takes two secret steps.", "bool", False),
    )
    notation_help = "Moves: `bid 2` (secretly), `take a c` (one or two candies of the pool)."

    def _setup(self, state: State, turn: Turn) -> None:
        state["purses"] = [6 for _ in state["seats"]]
        state["totals"] = [0 for _ in state["seats"]]
        state["pool"] = sorted(CANDY_VALUES)
        state["round"] = 1
        state["over"] = False
        self._ask_bids(state)

    def _ask_bids(self, state: State) -> None:
        engine.ask(state, "bid", range(len(state["seats"])), joint=True, public=False)

    def _turn_actors(self, state: State) -> frozenset[int]:
        return frozenset()

    def _turn_actions(self, state: State, seat: int) -> list[Action]:
        return []

    def _play(self, state: State, seat: int, action: Action, turn: Turn) -> None:
        raise AssertionError("every action of Candy Duel answers a decision")

    def _decision_actions(self, state: State, decision: Decision, seat: int) -> list[Action]:
        if decision.kind == "bid":
            spent = sum(int(n.split()[1]) for n in decision.steps.get(seat, ()))
            most = min(3, state["purses"][seat] - spent)
            return [Action(f"bid {n}", f"bid {n} coin" + ("" if n == 1 else "s"),
                           public="placed a bid")
                    for n in range(most + 1)]
        pool = state["pool"]
        singles = [(c,) for c in pool]
        pairs = [(a, b) for i, a in enumerate(pool) for b in pool[i + 1:]]
        return [Action("take " + " ".join(p), "take " + " and ".join(p)) for p in singles + pairs]

    def _answer_complete(self, state: State, decision: Decision, seat: int,
                         steps: Sequence[str]) -> bool:
        return len(steps) >= (2 if state["options"]["double"] else 1)

    def _resolve(self, state: State, decision: Decision, answers: dict[int, Action],
                 turn: Turn) -> None:
        if decision.kind == "bid":
            bids = {s: sum(int(n.split()[1]) for n in decision.steps[s]) for s in answers}
            for seat, bid in bids.items():
                state["purses"][seat] -= bid
                turn.say(f"You have {state['purses'][seat]} coins left.", seat, to=(seat,))
            shown = ", ".join(f"{engine.seat_name(state, s)} {b}" for s, b in sorted(bids.items()))
            best = max(bids.values())
            winners = [s for s, b in bids.items() if b == best]
            if len(winners) == 1:
                turn.say(f"Bids: {shown}. {engine.seat_name(state, winners[0])} wins the round.")
                engine.ask(state, "take", [winners[0]])
                return
            turn.say(f"Bids: {shown}. A tie: nobody takes a candy.")
        else:
            (seat, action), = answers.items()
            taken = action.notation.split()[1:]
            for candy in taken:
                state["pool"].remove(candy)
                state["totals"][seat] += CANDY_VALUES[candy]
            turn.say(f"{engine.seat_name(state, seat)} takes {' and '.join(taken)}.", seat)
        state["round"] += 1
        if state["round"] > state["options"]["rounds"] or not state["pool"]:
            state["over"] = True
            return
        self._ask_bids(state)

    def multi_select(self, state: State, seat: int) -> MultiSelect | None:
        top = engine.top(state)
        if top is None or top.kind != "take" or seat not in top.waiting:
            return None
        return MultiSelect(tuple((c, f"candy {c} ({CANDY_VALUES[c]})") for c in state["pool"]),
                           "take {}", 1, 2, "Take one or two candies…")

    def episode(self, state: State) -> str | None:
        return None if state["over"] else f"round-{state['round']}"

    def zoom_spots(self, state: State) -> list[str]:
        return ["pool", *(f"seat-{i + 1}" for i in range(len(state["seats"])))]

    def _show(self, state: State, seat: int | None) -> View:
        return {"game": self.slug, "viewer": seat, "move": state["move"],
                "to_act": sorted(engine.to_act(self, state)), "pool": list(state["pool"]),
                "totals": list(state["totals"]), "round": state["round"],
                "purse": state["purses"][seat] if seat is not None else None,
                "decision": engine.decision_view(state, seat)}

    def _result(self, state: State) -> Result | None:
        if not state["over"]:
            return None
        by_total: dict[int, list[int]] = {}
        for seat, total in enumerate(state["totals"]):
            by_total.setdefault(total, []).append(seat)
        ranking = tuple(tuple(by_total[t]) for t in sorted(by_total, reverse=True))
        return Result(ranking, dict(enumerate(state["totals"])), "The candies are shared out.")

    def _ai(self, view: View, legal: list[Action], rng: Rng) -> Action:
        return legal[-1]

    def _canonical(self, text: str) -> str | None:
        match = _BID.match(text)
        if match:
            return f"bid {match.group(1)}"
        match = _TAKE.match(text)
        return f"take{match.group(1)}" if match else None

    def scores(self, state: State) -> dict[int, int]:
        return dict(enumerate(state["totals"]))

    def summary(self, state: State) -> str:
        return f"Round {state['round']} of {state['options']['rounds']}."
