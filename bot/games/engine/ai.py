"""The AI's move at every level, and why a stand-in made its move: each sees only what its
seat, or everybody, may know."""

from __future__ import annotations

import hashlib

from bot.games.engine.contract import AI_LEVELS, Lookahead, Playable, Rules
from bot.games.engine.decisions import seat_name
from bot.games.engine.errors import NotYourTurnError
from bot.games.engine.hidden import known_to, view
from bot.games.engine.values import Action, Outcome, State
from bot.games.rng import Rng


def ai_action(game: Playable, state: State, seat: int, level: str = "normal") -> Action:
    """The AI's choice for ``seat`` at ``level`` (one of :data:`AI_LEVELS`).

    Every level sees only what the seat may know: its view, its legal actions and, for
    ``strong``, worlds made from the state as the seat knows it (:class:`Lookahead`, which
    plays them forward with ``game``). ``easy`` is ``normal`` that plays a random legal
    move a share ``ai_easy_slips`` of the time.
    """
    if level not in AI_LEVELS:
        raise ValueError(f"unknown AI level {level!r}")
    rules = game.rules
    legal = game.legal_actions(state, seat)
    if not legal:
        raise NotYourTurnError(f"{seat_name(state, seat)} has nothing to do now.")
    # The AI draws from its own generator so that its choices never shift the
    # game's randomness: replaying the log alone reproduces the game.
    digest = hashlib.sha256(f"{state['seed']}:{state['move']}:{seat}".encode()).digest()
    rng = Rng.from_seed(int.from_bytes(digest[:8], "big"))
    if level == "easy" and rng.random() < rules.ai_easy_slips:
        return rng.choice(legal)
    # Through the engine's own view, the one place anybody gets what a seat sees.
    seen = game.view(state, seat)
    if level == "strong":
        return rules._ai_strong(seen, legal, rng,
                               Lookahead(game, seat, known_to(rules, state, seat)))
    return rules._ai(seen, legal, rng)


def reason_for(rules: Rules, before: State, outcome: Outcome, seat: int) -> str | None:
    """Why the stand-in for ``seat`` made the move of ``outcome`` (applied to ``before``):
    the game's ``stand_in_reason`` told only the spectators' views before and after and
    the move as everybody else reads it, so it cannot give a secret away."""
    return rules._stand_in_reason(view(rules, before, None), view(rules, outcome.state, None),
                                 seat, outcome.public or outcome.action.notation)
