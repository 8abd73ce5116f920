"""Who may know what: the state as a seat may know it, worlds it cannot tell apart, and the
view, the one way out of a state for a seat.

Every part of a state is public unless the game lists it in its ``hidden`` hook; the
generator's state and the unrevealed answers to an open joint decision are hidden by the
engine itself. A game's ``show`` is only ever given :func:`known_to`'s state, so a view
cannot show what its seat does not know, whatever the game's own code reads.
"""

from __future__ import annotations

import copy
import json
from functools import lru_cache
from typing import Any

from bot.games.engine.acting import to_act
from bot.games.engine.contract import Rules
from bot.games.engine.decisions import take_step, top
from bot.games.engine.values import Decision, Hidden, Json, State, View, copied
from bot.games.rng import Rng

#: The seed of the fixed arrangement :func:`known_to` puts unknown things in, and the
#: generator state a view is drawn with (never the game's own).
VEIL_SEED = 0x5EC12E7
_VEILED_RNG = Rng.from_seed(VEIL_SEED).state


def view(rules: Rules, state: State, seat: int | None) -> View:
    """What ``seat`` (or a spectator, ``None``) may see. JSON-compatible.

    The game's ``show`` draws the view from :func:`known_to`, never from the state itself,
    so a view cannot show what the seat does not know, whatever the game's own code reads;
    the engine adds :func:`table`.
    """
    known = known_to(rules, state, seat)
    return {**rules._show(known, seat), "table": table(rules, known, seat)}


def table(rules: Rules, state: State, seat: int | None) -> Json:
    """The envelope every view carries under ``"table"``, the same for every game, so
    that pictures and messages draw their header from one place::

        viewer    int | None   the seat the view is for (None: a spectator)
        move      int          actions applied so far
        acting    [int]        seats that may act now (empty once it is over)
        decision  {"kind", "seats", "joint", "answered"} | None   the open decision
        result    {"ranking": [[int]], "scores": {seat: int}, "summary"} | None
        scores    [int]        each seat's score so far (the game's ``scores``)
        seats     [{"name", "ai", "colour"}]   colour: a name of colours.PAINTS

    Everything in it is public: who has answered a joint decision, never what; the
    scores are those of the state as the viewer knows it (scores are public).
    """
    decision = top(state)
    result = rules._result(state)
    colours = rules.seat_colours
    scores = rules.scores(state)
    return {
        "viewer": seat,
        "move": int(state["move"]),
        "acting": sorted(to_act(rules, state)),
        "decision": None if decision is None or result is not None else {
            "kind": decision.kind, "seats": list(decision.seats), "joint": decision.joint,
            "answered": list(decision.answered)},
        "result": None if result is None else result.to_json(),
        "scores": [int(scores.get(i, 0)) for i in range(len(state["seats"]))],
        "seats": [{"name": str(s["name"]), "ai": bool(s["ai"]),
                   "colour": colours[i % len(colours)]}
                  for i, s in enumerate(state["seats"])],
    }


def known_to(rules: Rules, state: State, viewer: int | None) -> State:
    """``state`` as ``viewer`` may know it: everything it cannot know put in one fixed
    arrangement that depends only on what it knows.

    The items of the hidden places the viewer does not know are sorted and dealt back by
    a generator with a fixed seed (each only where an item with the same back was), other
    seats' unrevealed joint answers are drawn by that generator, and the game's own
    generator is replaced. Two states the viewer cannot tell apart give the same result,
    so nothing drawn from it can tell them apart either.
    """
    places = [p for p in rules._hidden(state) if not p.known_to(viewer)]
    decision = top(state)
    answers = (decision is not None and decision.joint
               and any(s != viewer for s in decision.steps))
    if not places and not answers:
        return {**state, "rng": _VEILED_RNG} if "rng" in state else state
    # A state is JSON: a round trip copies it faster than deepcopy.
    return _redeal(rules, json.loads(json.dumps(state)), viewer, places,
                   Rng.from_seed(VEIL_SEED), canonical=True)


def resample(rules: Rules, state: State, viewer: int | None, rng: Rng) -> State:
    """Another state that ``viewer`` cannot tell from ``state`` (a determinisation).

    Everything ``viewer`` does not know is drawn again: the items of the hidden places it
    does not know are dealt afresh among those places (each item only where one with the
    same back was), other seats' answers to an open joint decision are redrawn from their
    legal answers, and the generator is reseeded. A searching AI samples worlds with it;
    the invariant suite checks that the viewer's view, choices and narration do not
    change.
    """
    new = copied(state)
    places = [p for p in rules._hidden(new) if not p.known_to(viewer)]
    return _redeal(rules, new, viewer, places, rng)


def secrets_of(rules: Rules, state: State, seat: int) -> list[str]:
    """The items of the hidden places only ``seat`` knows, as strings (the default of the
    game's ``secrets``)."""
    return [str(holder[key]) for place in rules._hidden(state) if place.owner == seat
            for holder, key in place.slots(state)]


def _redeal(rules: Rules, new: State, viewer: int | None, places: list[Hidden], rng: Rng, *,
            canonical: bool = False) -> State:
    """Deal the items of ``places`` afresh among them (in ``new``, a copy), redraw
    others' unrevealed joint answers and replace the generator. ``canonical`` sorts
    the items first, so the deal depends only on which items there are."""
    new["rng"] = _VEILED_RNG if canonical else Rng.from_seed(rng.next64()).state
    groups: dict[tuple[str, str], list[tuple[Any, str | int]]] = {}
    for place in places:
        for holder, key in place.slots(new):
            back = _back_text(rules, place.pool, holder[key])
            groups.setdefault((place.pool, back), []).append((holder, key))
    for slots in groups.values():
        items = [holder[key] for holder, key in slots]
        if canonical:
            items.sort(key=_json_text)
        rng.shuffle(items)
        for (holder, key), item in zip(slots, items, strict=True):
            holder[key] = item
    _redraw_answers(rules, new, viewer, rng)
    return new


def _redraw_answers(rules: Rules, state: State, viewer: int | None, rng: Rng,
                    attempts: int = 8) -> None:
    # Only the top decision can hold answers: a decision asked on top of a joint
    # one is asked while it resolves, when its answers are gone.
    decision = top(state)
    if decision is None or not decision.joint:
        return
    stack = state["decisions"]
    for seat, steps in sorted(decision.steps.items()):
        if seat == viewer:
            continue
        done, kept = seat in decision.answered, stack[-1]
        for _ in range(attempts):
            stack[-1] = trial = copy.deepcopy(kept)
            trial["answers"].pop(str(seat), None)
            trial.get("drafts", {}).pop(str(seat), None)
            for _ in steps:
                legal = rules._decision_actions(state, Decision.from_json(trial), seat)
                if not legal or str(seat) in trial["answers"]:
                    break
                take_step(rules, state, trial, seat, rng.choice(legal).notation)
            redrawn = Decision.from_json(trial)
            if (len(redrawn.steps.get(seat, ())) == len(steps)
                    and (seat in redrawn.answered) == done):
                break
        else:
            stack[-1] = kept


def _json_text(item: Any) -> str:
    """``json.dumps(item, sort_keys=True)``, kept for the card ids and numbers that hidden
    items mostly are (every view of a game with decks sorts them all)."""
    if type(item) is str or type(item) is int:
        return _scalar_text(item)
    return json.dumps(item, sort_keys=True)


@lru_cache(maxsize=65536, typed=True)
def _scalar_text(item: str | int) -> str:
    return json.dumps(item)


def _back_text(rules: Rules, pool: str, item: Any) -> str:
    """The JSON text of the game's ``back_of`` (a function of the pool and the item alone),
    kept for items that are card ids or numbers."""
    if type(item) is str or type(item) is int:
        return _kept_back(rules, pool, item)
    return json.dumps(rules._back_of(pool, item), sort_keys=True)


@lru_cache(maxsize=65536, typed=True)
def _kept_back(rules: Rules, pool: str, item: str | int) -> str:
    return json.dumps(rules._back_of(pool, item), sort_keys=True)
