"""Who may act and what they may do: the open decision's waiting seats, else the game's
own turn; their legal actions; and standing actions, which any seat may take at any time.

Standing actions are not turns (Kingdom's Candy Monsters: "convert 4 Sugar Cubes into 1
Candy"): they never change who acts, the decision stack or the generator; a seat that may
act finds them among its legal actions, any other seat in :func:`standing`.
"""

from __future__ import annotations

from bot.games.engine.contract import Rules
from bot.games.engine.decisions import seat_names, top
from bot.games.engine.errors import GameOverError, NotYourTurnError
from bot.games.engine.values import Action, State


def actors(rules: Rules, state: State) -> frozenset[int]:
    """Seats that may act now: the top decision's waiting seats, else the turn's (whether
    or not the game is over)."""
    decision = top(state)
    if decision is not None:
        return frozenset(decision.waiting)
    return rules._turn_actors(state)


def to_act(rules: Rules, state: State) -> frozenset[int]:
    """Seats that may act now; empty once the game is over."""
    if rules._result(state) is not None:
        return frozenset()
    return actors(rules, state)


def every_legal(rules: Rules, state: State, seat: int) -> list[Action]:
    """Every legal action for ``seat``, standing actions last (empty if it may not act),
    whether or not the game is over."""
    if seat not in actors(rules, state):
        return []
    decision = top(state)
    actions = (rules._decision_actions(state, decision, seat) if decision is not None
               else rules._turn_actions(state, seat))
    known = {a.notation for a in actions}
    return actions + [a for a in standing(rules, state, seat) if a.notation not in known]


def legal_actions(rules: Rules, state: State, seat: int) -> list[Action]:
    """Legal actions of ``seat``; empty when it may not act."""
    if seat not in to_act(rules, state):
        return []
    return every_legal(rules, state, seat)


def standing(rules: Rules, state: State, seat: int) -> list[Action]:
    """``seat``'s standing actions now, whether or not it may act (none once over)."""
    if not 0 <= seat < len(state["seats"]) or rules._result(state) is not None:
        return []
    return rules._standing_actions(state, seat)


def standing_match(rules: Rules, state: State, seat: int, notation: str) -> Action | None:
    """The standing action of ``seat`` written ``notation``, if there is one now."""
    return next((a for a in standing(rules, state, seat) if a.notation == notation), None)


def check_can_act(rules: Rules, state: State, seat: int) -> None:
    """Raise :class:`GameOverError` or :class:`NotYourTurnError` unless ``seat`` may act."""
    if rules._result(state) is not None:
        raise GameOverError("This game is over.")
    waiting = actors(rules, state)
    if seat in waiting:
        return
    names = seat_names(state, waiting)
    listed = " and ".join(names) or "nobody"
    decision = top(state)
    if decision is not None and seat in decision.answered:
        raise NotYourTurnError(f"You have already decided; waiting for {listed}.",
                               waiting=names, decided=True)
    raise NotYourTurnError(f"It is not your turn: waiting for {listed}.", waiting=names)
