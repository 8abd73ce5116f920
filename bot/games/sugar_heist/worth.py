"""What a card does, in numbers: read from its steps, not from its price.

The AI values cards with these figures, and the balance notes quote them. Everything
is exact over the dice (pools of ``n`` dice as multisets, with their chances) and
assumes both sides play each step to the attacker's payment: the defender picks
the dice that make paying least likely, the attacker the ones that make it most
likely. Costumes are left out of :func:`pay_chance`; :func:`costume_gain` measures them.
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from functools import cache
from itertools import combinations_with_replacement
from math import factorial, prod
from typing import Any

from bot.games.content import load_json
from bot.games.sugar_heist import cards
from bot.games.sugar_heist.dice import can_pay, choices, clamp, matches

Pool = tuple[int, ...]
Steps = list[dict[str, Any]]

#: The most dice a pool can hold (the box has 8).
MAX_DICE = 8


@cache
def rolls(n: int) -> tuple[tuple[Pool, float], ...]:
    """Every multiset of ``n`` dice with its chance."""
    out = []
    for pool in combinations_with_replacement(range(1, 7), n):
        ways = factorial(n) // prod(factorial(c) for c in Counter(pool).values())
        out.append((pool, ways / 6 ** n))
    return tuple(out)


def _sorted(values: list[int] | Pool) -> Pool:
    return tuple(sorted(values))


def _without(pool: Pool, values: Pool) -> Pool:
    left = list(pool)
    for v in values:
        left.remove(v)
    return tuple(left)


def _filtered(step: dict[str, Any]) -> bool:
    """Does the step name die words (only dice that fit them are touched)?"""
    return any(k in step for k in cards.FILTER_KEYS)


@cache
def _fill(base: Pool, k: int, steps: str, challenge: str) -> float:
    """The chance of paying after ``k`` fresh dice join ``base``, then ``steps``."""
    return sum(p * _chance_after(_sorted(base + r), steps, challenge) for r, p in rolls(k))


@cache
def _chance_after(pool: Pool, frozen_steps: str, frozen_challenge: str) -> float:
    """The chance the attacker can pay after ``steps`` run on ``pool``."""
    if frozen_steps == "[]":
        return 1.0 if can_pay(pool, _load(frozen_challenge)) else 0.0
    step, rest = _split(frozen_steps)
    do, count, by = step["do"], step.get("count", 1), step.get("by", "attacker")
    pick = min if by == "defender" else max
    counts = Counter(pool)

    def then(p: Pool) -> float:
        return _chance_after(_sorted(p), rest, frozen_challenge)

    if do == "reroll":
        options = [(), *_choices(pool, count, up_to=True)] if pool else [()]
        return pick(_fill(_without(pool, s), len(s), rest, frozen_challenge) for s in options)
    if do == "reroll_all":
        hit = tuple(v for v in pool if matches(v, step, counts))
        return _fill(_without(pool, hit), len(hit), rest, frozen_challenge)
    if do == "lose":
        if by in ("highest", "lowest"):
            drop = sorted(pool, reverse=by == "highest")[:count]
            return then(_without(pool, tuple(drop)))
        if len(pool) <= count:
            return then(())
        return pick(then(_without(pool, s)) for s in _choices(pool, count, up_to=False))
    if do == "lose_all":
        return then(tuple(v for v in pool if not matches(v, step, counts)))
    if do in ("add", "set"):
        def changed(s: Pool) -> Pool:
            new = [clamp(v + step["amount"]) if do == "add" else clamp(step["value"]) for v in s]
            return _without(pool, s) + tuple(new)
        if not pool:
            return then(())
        if by in ("highest", "lowest"):
            s = tuple(sorted(pool, reverse=by == "highest")[:count])
            return then(changed(s))
        options = _choices(pool, count, up_to=by != "defender")
        if by != "defender":
            options = [(), *options]
        return pick(then(changed(s)) for s in options)
    if do == "add_all":
        return then(tuple(clamp(v + step["amount"]) if not _filtered(step)
                          or matches(v, step, counts) else v for v in pool))
    if do == "gain_die":
        k = min(count, MAX_DICE - len(pool))
        return _fill(pool, k, rest, frozen_challenge)
    if do == "outside_roll":
        chance = sum(1 for face in range(1, 7)
                     if face >= step.get("at_least", 7) or face <= step.get("at_most", 0)) / 6
        now = _join(_freeze(step["then"]), rest)
        other = _join(_freeze(step.get("else", [])), rest)
        return chance * _chance_after(pool, now, frozen_challenge) + \
            (1 - chance) * _chance_after(pool, other, frozen_challenge)
    if do == "choice":
        return max(_chance_after(pool, _join(_freeze(o), rest), frozen_challenge)
                   for o in step["options"])
    if do == "dodge":
        return 1.0
    # Steps that do not touch the dice (candy, money, costumes) leave the chance as it is.
    return then(pool)


def _freeze(data: Any) -> str:
    """A hashable text of a challenge or step list (the caches' keys)."""
    return json.dumps(data, sort_keys=True)


@cache
def _split(frozen_steps: str) -> tuple[dict[str, Any], str]:
    """The first step of a frozen list and the frozen rest."""
    steps = _load(frozen_steps)
    return steps[0], _freeze(steps[1:])


@cache
def _join(first: str, then: str) -> str:
    """Two frozen step lists as one."""
    return _freeze([*_load(first), *_load(then)])


@cache
def _choices(pool: Pool, count: int, up_to: bool) -> list[Pool]:
    """:func:`~bot.games.sugar_heist.dice.choices`, kept (pools recur very often)."""
    return choices(pool, count, up_to)


@cache
def _load(frozen: str) -> Any:
    """The one parsed copy of a frozen challenge or step list (the dice caches key on it)."""
    return json.loads(frozen)


def pay_chance(challenge: list[dict[str, Any]], effect: Steps, dice: int) -> float:
    """The chance a fresh roll of ``dice`` dice pays ``challenge`` after ``effect``."""
    return _pay_chance(_freeze(challenge), _freeze(effect), dice)


@cache
def _pay_chance(challenge: str, effect: str, dice: int) -> float:
    known = _known_chances().get(chance_key(challenge, effect, dice))
    if known is not None:
        return float(known)
    return computed_chance(challenge, effect, dice)


def computed_chance(challenge: str, effect: str, dice: int) -> float:
    """:func:`pay_chance` of a frozen challenge and effect, worked out over every roll."""
    return sum(p * _chance_after(pool, effect, challenge) for pool, p in rolls(dice))


def chance_key(challenge: str, effect: str, dice: int) -> str:
    """The key of a frozen challenge, effect and dice count in ``chances.json``."""
    return hashlib.sha256(f"{challenge}|{effect}|{dice}".encode()).hexdigest()[:16]


@cache
def _known_chances() -> dict[str, float]:
    """The chances worked out ahead (``data/sugar_heist/chances.json``, written by
    ``python -m tools.heist_chances``): every one the AI asks for, exactly as
    :func:`computed_chance` gives it, so that a bot's first heists do not spend seconds
    working them out. A card whose text changed has a key not in the file, and its
    chance is worked out as before."""
    try:
        return dict(load_json("sugar_heist", "chances.json")["chances"])
    except FileNotFoundError:
        return {}


def dice_lost(effect: Steps, dice: int) -> float:
    """About how many dice ``effect`` takes from a pool of ``dice`` (expected, rough)."""
    lost = 0.0
    for step in effect:
        do = step["do"]
        if do == "lose":
            lost += min(step.get("count", 1), dice)
        elif do == "lose_all":
            lost += dice * _share(step)
        elif do == "outside_roll":
            hit = sum(1 for face in range(1, 7)
                      if face >= step.get("at_least", 7) or face <= step.get("at_most", 0)) / 6
            lost += hit * dice_lost(step["then"], dice) + \
                (1 - hit) * dice_lost(step.get("else", []), dice)
    return min(lost, dice)


def _share(step: dict[str, Any]) -> float:
    """The share of faces a die-word filter catches."""
    return sum(matches(f, step, Counter({f: 1})) for f in range(1, 7)) / 6


def suffering(bad: Steps, dice: int, candy: int = 3) -> dict[str, float]:
    """What suffering ``bad`` takes: candy, dice, money and whether the heist ends
    (1.0 when it says so or cannot be suffered in full). A choice takes the option
    that ends the heist least, then costs least candy."""
    out = {"candy": 0.0, "dice": 0.0, "money": 0.0, "ends": 0.0}
    for step in bad:
        do = step["do"]
        if do == "end_heist":
            out["ends"] = 1.0
        elif do in ("lose_candy", "give_candy"):
            out["candy"] += step["amount"]
            if step["amount"] > candy:
                out["ends"] = 1.0
            candy -= step["amount"]
        elif do == "lose":
            out["dice"] += step.get("count", 1)
            if step.get("count", 1) > dice:
                out["ends"] = 1.0
            dice -= step.get("count", 1)
        elif do in ("pay_money", "give_money"):
            out["money"] += step["amount"]
        elif do == "choice":
            best = min((suffering(o, dice, candy) for o in step["options"]),
                       key=lambda s: (s["ends"], s["candy"]))
            for k, v in best.items():
                out[k] = max(out[k], v) if k == "ends" else out[k] + v
    out["dice"] = min(out["dice"], float(dice))
    return out


def room_harm(encounter: dict[str, Any], mod: dict[str, Any] | None, dice: int,
              stake: float, candy: int = 3, die: float = 0.5, money: float = 0.3) -> float:
    """The candy a room costs an attacker arriving with ``dice`` dice, on average:
    the candy not gained when it cannot pay, its bad stuff (candy, dice and money at
    ``die`` and ``money`` candy apiece) and ``stake`` (what ending the heist forgoes)."""
    effect = [*(mod["effect"] if mod else []), *encounter.get("effect", [])]
    paid = pay_chance(encounter["challenge"], effect, dice)
    left = max(0.0, dice - dice_lost(effect, dice))
    bad = suffering(encounter["bad"], round(left), candy)
    fail = 1.0 + bad["candy"] + die * bad["dice"] + money * bad["money"] + stake * bad["ends"]
    return (1 - paid) * fail + die * dice_lost(effect, dice)


def stop_chance(encounter: dict[str, Any], mod: dict[str, Any] | None, dice: int,
                candy: int = 3) -> float:
    """The chance the room ends a heist that reaches it with ``dice`` dice."""
    effect = [*(mod["effect"] if mod else []), *encounter.get("effect", [])]
    paid = pay_chance(encounter["challenge"], effect, dice)
    left = max(0.0, dice - dice_lost(effect, dice))
    return (1 - paid) * suffering(encounter["bad"], round(left), candy)["ends"]


def optional(ability: Steps) -> Steps:
    """A costume's ability as one step the attacker may take or leave."""
    return [{"do": "choice", "options": [[], ability]}]


def fail_cost(encounter: dict[str, Any], dice: int, stake: float, candy: int = 3,
              die: float = 0.5, money: float = 0.3) -> float:
    """What failing ``encounter`` costs, in candy: the room's candy, then its bad stuff."""
    bad = suffering(encounter["bad"], dice, candy)
    return 1.0 + bad["candy"] + die * bad["dice"] + money * bad["money"] + stake * bad["ends"]


def costume_gain(ability: Steps, encounter: dict[str, Any], dice: int, stake: float) -> float:
    """The candy a costume saves in one room of ``encounter`` met with ``dice`` dice:
    the rise in the chance of paying times what failing costs (a dodge saves the bad
    stuff but gains no candy)."""
    effect = encounter.get("effect", [])
    before = pay_chance(encounter["challenge"], effect, dice)
    after = pay_chance(encounter["challenge"], [*effect, *optional(ability)], dice)
    left = max(0, round(dice - dice_lost(effect, dice)))
    fail = fail_cost(encounter, left, stake)
    if any(s["do"] == "dodge" for s in ability):
        return (1 - before) * (fail - 1.0)
    return (after - before) * fail
