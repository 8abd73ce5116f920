"""Tokens: the stamp a button or command carries to prove it was made for the situation
now, so that a stale or doubled click changes nothing.

The open decision's id (``d17``; inside a joint decision with the number of secret steps
the seat has taken, ``d17.1``), or the move number in the game's own turn (``m42``, not
counting standing actions); once the seat has taken standing actions, their count
follows (``m42_1``). A button made for a decision stays valid while that decision is open
for that seat, whatever other seats do meanwhile.
"""

from __future__ import annotations

from bot.games.engine.decisions import top
from bot.games.engine.errors import StaleActionError
from bot.games.engine.values import State


def token(state: State, seat: int) -> str:
    """What a button for ``seat`` carries to prove it was made for the situation now.

    The open decision's id while one is open, else the move number. Inside a joint
    decision it also counts the secret steps ``seat`` has taken, so a button for one step
    cannot be used again for the next (a double click), while other seats' answers leave
    it valid.

    >>> token({"move": 3, "decisions": []}, 0)
    'm3'
    """
    decision = top(state)
    aside = state.get("aside") or {}
    # Standing actions leave other seats' buttons valid; one's own expire (a double click).
    own = aside.get(str(seat), 0)
    mine = f"_{own}" if own else ""
    if decision is None:
        return f"m{state['move'] - sum(aside.values())}{mine}"
    if decision.joint:
        return f"d{decision.id}.{len(decision.steps.get(seat, ()))}{mine}"
    return f"d{decision.id}{mine}"


def check_token(state: State, seat: int, expected: str | int | None) -> None:
    """Raise :class:`StaleActionError` unless ``expected`` is ``seat``'s token now.

    An ``int`` is an old-style move number and must equal the move counter.
    """
    if expected is None:
        return
    if isinstance(expected, int):
        if expected != state["move"]:
            raise StaleActionError("That choice has expired: the game has moved on since.")
        return
    if expected != token(state, seat):
        raise StaleActionError("That choice has expired: the game has moved on since.")
