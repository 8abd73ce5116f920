"""The decision stack and rounds of phases: the turn structure the engine keeps in a
state for every game.

A game's own turn structure says who acts when no decision is open. Inside a turn a
game *asks* a decision (:func:`ask`): who decides, what kind, the data to resume with.
The decision goes on a stack in the state; while it is open its seats act, and when it
is answered the engine pops it and calls the game's ``resolve``, which may ask further
decisions (they nest) or let the one below resume. A *joint* decision is answered by
all its seats in any order; each answer stays secret until the last one is in.

These are functions of the state (and, for phases, of the rules that begin them): a
game's own code calls them, and the engine offers those the bot needs as services.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from bot.games.engine.contract import Rules
from bot.games.engine.values import Action, Decision, Json, State, Turn


def ask(state: State, kind: str, seats: Iterable[int], data: Json | None = None, *,
        joint: bool = False, public: bool = True) -> Decision:
    """Open a decision on top of the stack.

    ``seats`` decide; with ``joint`` every one of them answers (in secret, in any order)
    and the decision resolves once all have. ``public`` says whether its answers may be
    offered as buttons in the channel. ``data`` is whatever the game's ``resolve`` needs
    (JSON).
    """
    deciders = sorted(set(seats))
    if not deciders:
        raise ValueError(f"a {kind!r} decision needs at least one seat")
    if not joint and len(deciders) > 1:
        raise ValueError("a decision of several seats must be joint")
    state["decision_counter"] = state.get("decision_counter", 0) + 1
    raw = {"id": state["decision_counter"], "kind": kind, "seats": deciders,
           "data": dict(data or {}), "joint": joint, "public": public, "answers": {}}
    state.setdefault("decisions", []).append(raw)
    return Decision.from_json(raw)


def top(state: State) -> Decision | None:
    """The decision being made now, or ``None``."""
    stack = state.get("decisions") or []
    return Decision.from_json(stack[-1]) if stack else None


def open_decisions(state: State) -> list[Decision]:
    """Every open decision, bottom first."""
    return [Decision.from_json(raw) for raw in state.get("decisions") or []]


def answer_of(state: State, seat: int) -> list[str]:
    """``seat``'s answer (or draft) to the open decision so far: its own eyes only."""
    decision = top(state)
    return list(decision.steps.get(seat, ())) if decision is not None else []


def decision_view(state: State, seat: int | None) -> Json | None:
    """The top decision as ``seat`` may see it, for views: never another seat's answer."""
    decision = top(state)
    if decision is None:
        return None
    out: Json = {"id": decision.id, "kind": decision.kind, "seats": list(decision.seats),
                 "joint": decision.joint, "waiting": list(decision.waiting),
                 "answered": list(decision.answered)}
    if seat is not None and seat in decision.steps:
        out["mine"] = answer_of(state, seat)
    return out


def seat_name(state: State, seat: int) -> str:
    """A seat as the narration names it."""
    return str(state["seats"][seat]["name"])


def seat_names(state: State, seats: Iterable[int]) -> tuple[str, ...]:
    """The names of ``seats``, in seat order."""
    return tuple(seat_name(state, s) for s in sorted(seats))


# --------------------------------------------------------------------------- answering


def take_step(rules: Rules, state: State, raw: dict[str, Any], seat: int,
              notation: str) -> None:
    """Record ``seat``'s next step in the open decision ``raw`` (an answer or a draft)."""
    decision = Decision.from_json(raw)
    drafts = raw.setdefault("drafts", {})
    steps = [*drafts.pop(str(seat), []), notation]
    if not decision.joint or rules._answer_complete(state, decision, seat, steps):
        raw["answers"][str(seat)] = steps
    else:
        drafts[str(seat)] = steps
    if not drafts:
        raw.pop("drafts")


def answer(rules: Rules, state: State, decision: Decision, seat: int,
           notation: str) -> Action:
    """The action ``seat`` answered ``decision`` with. A joint answer is checked when given;
    it is looked up again at resolution only for its label and public form."""
    for action in rules._decision_actions(state, decision, seat):
        if action.notation == notation:
            return action
    return Action(notation)


def restamp(state: State, depth: int) -> None:
    """Give the decision under one that just resolved a new id: it is open again, but what
    its seats saw when it was offered may have changed, so old buttons must expire."""
    stack = state.get("decisions") or []
    if stack and len(stack) == depth:
        state["decision_counter"] += 1
        stack[-1]["id"] = state["decision_counter"]


# --------------------------------------------------------------------------- phases


def start_phases(rules: Rules, state: State, turn: Turn) -> None:
    """Begin round 1 with the first of the game's phases."""
    state["flow"] = {"round": 1, "phase": rules.phases[0]}
    rules._begin_phase(state, rules.phases[0], turn)


def next_phase(rules: Rules, state: State, turn: Turn) -> None:
    """Move on to the next phase; after the last, the next round's first phase."""
    flow = state["flow"]
    index = rules.phases.index(flow["phase"]) + 1
    if index == len(rules.phases):
        flow["round"] += 1
        index = 0
    flow["phase"] = rules.phases[index]
    rules._begin_phase(state, flow["phase"], turn)


def round_of(state: State) -> int:
    """The round the game is in (for games that declare phases)."""
    return int(state["flow"]["round"])


def phase_of(state: State) -> str:
    """The phase the game is in (for games that declare phases)."""
    return str(state["flow"]["phase"])
