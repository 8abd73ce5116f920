"""A move carried out: the one way a state changes, on a copy, so that a refused move
never touches the caller's state."""

from __future__ import annotations

from bot.games.engine.acting import check_can_act, every_legal, standing_match
from bot.games.engine.contract import Rules
from bot.games.engine.decisions import answer, restamp, seat_name, take_step, top
from bot.games.engine.errors import IllegalActionError
from bot.games.engine.notation import canonical_of, parse
from bot.games.engine.tokens import check_token
from bot.games.engine.values import Action, Decision, Outcome, State, Turn, copied
from bot.games.rng import Rng


def apply(rules: Rules, state: State, seat: int, action: Action | str,
          expected: str | int | None = None) -> Outcome:
    """Apply ``action`` for ``seat``; the input state is never modified.

    ``expected`` is the token (or move number) the client saw; if the decision it was
    made for is no longer open for ``seat``,
    :class:`~bot.games.engine.errors.StaleActionError` is raised.
    """
    notation = canonical_of(rules, action) if isinstance(action, str) else action.notation
    if standing_match(rules, state, seat, notation) is None:
        check_can_act(rules, state, seat)
    check_token(state, seat, expected)
    if isinstance(action, str):
        chosen = parse(rules, state, seat, action)
    else:
        found = next((a for a in every_legal(rules, state, seat)
                      if a.notation == action.notation),
                     None) or standing_match(rules, state, seat, action.notation)
        if found is None:
            raise IllegalActionError(rules._explain(state, seat, action.notation))
        chosen = found
    new = copied(state)
    turn = Turn(Rng(new["rng"]))
    decision = top(new)
    public = chosen.public or chosen.notation
    if standing_match(rules, state, seat, chosen.notation) is not None:
        rules._play_standing(new, seat, chosen, turn)
        aside = new.setdefault("aside", {})
        aside[str(seat)] = aside.get(str(seat), 0) + 1
    elif decision is None:
        rules._play(new, seat, chosen, turn)
    else:
        raw = new["decisions"][-1]
        take_step(rules, new, raw, seat, chosen.notation)
        decided = Decision.from_json(raw)
        if decision.joint and not chosen.public:
            public = "is deciding" if seat not in decided.answered else "has decided"
        if not decided.waiting:
            new["decisions"].pop()
            answers = {int(s): answer(rules, new, decided, int(s), n[-1])
                       for s, n in sorted(raw["answers"].items(), key=lambda kv: int(kv[0]))}
            depth = len(new["decisions"])
            rules._resolve(new, decided, answers, turn)
            restamp(new, depth)
            if decision.joint:
                turn.reveal()
        elif decision.joint and seat in decided.answered:
            turn.say(f"{seat_name(new, seat)} has decided.", seat, "decided")
    new["rng"] = turn.rng.state
    new["move"] = state["move"] + 1
    undoable = new["rng"] == state["rng"] and not any(e.reveals for e in turn.events)
    return Outcome(new, turn.events, chosen, undoable, public)
