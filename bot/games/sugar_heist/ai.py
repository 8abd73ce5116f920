"""The Sugar Heist AI, for both sides of a heist, working from its own view only.

Prep: it buys with a plan: an encounter card in every room first (dearer cards
are harder), then mods, then costumes up to three, keeping money when nothing
is worth its price. Heist, as attacker: it pays with the dice it can spare best
(low, few), uses a costume when that turns a failure into a clear, and picks the
lightest bad stuff. As defender: it rerolls and removes the dice that make the
attacker's payment likely, counting every outcome of the dice.
"""

from __future__ import annotations

from collections import Counter
from itertools import product
from typing import Any

from bot.games.engine import Action, View
from bot.games.rng import Rng
from bot.games.sugar_heist import cards
from bot.games.sugar_heist.dice import can_pay, clamp

#: What bad stuff costs the attacker, per unit.
CANDY_COST = 1.6
DIE_COST = 0.8
MONEY_COST = 0.3
END_COST = 4.0
#: Money kept for the next round is worth this much per dollar.
MONEY_VALUE = 0.9


def choose(view: View, legal: list[Action], rng: Rng) -> Action:
    """The AI's move: the best-valued legal action (first on ties)."""
    values = action_values(view, legal)
    best = max(values.values())
    return next(a for a in legal if values[a.notation] == best)


def ranked(view: View, actions: list[Action]) -> list[Action]:
    """Actions best first, for autocomplete."""
    if not actions:
        return []
    values = action_values(view, actions)
    return sorted(actions, key=lambda a: -values[a.notation])


def action_values(view: View, actions: list[Action]) -> dict[str, float]:
    decision = view.get("decision")
    kind = decision["kind"] if decision else "prep"
    if kind == "board":
        return {a.notation: -i for i, a in enumerate(actions)}
    if kind == "prep":
        return {a.notation: _prep_value(view, a.notation) for a in actions}
    return {a.notation: _heist_value(view, kind, a.notation) for a in actions}


# --------------------------------------------------------------------------- prep


def _held_cost(slot: dict[str, Any] | None) -> int:
    if slot is None:
        return 0
    if "key" in slot:
        return int(cards.hideout_cards()[slot["key"]]["cost"])
    return int(slot["cost"])


def _prep_value(view: View, notation: str) -> float:
    me = view["seats"][view["viewer"]]
    words = notation.split(" ")
    if words[0] == "pass":
        passed = len(view["prep"]["passed"]) if view["prep"] else 0
        return 3.0 + (2 if passed == 0 else 1 if passed == 1 else 0)
    if words[0] == "buy":
        d = cards.costumes()[cards.names()[" ".join(words[1:])]]
        owned = len(me["costumes"])
        want = 7.5 if owned < 2 else 5.0 if owned < 4 else 1.0
        return want + 1.6 * d["cost"] - MONEY_VALUE * d["cost"]
    # build <name> room r [discard | move m]
    room_at = words.index("room")
    d = cards.hideout_cards()[cards.names()[" ".join(words[1:room_at])]]
    room = int(words[room_at + 1]) - 1
    held = me["rooms"][room][d["kind"]]
    base = 8.0 if d["kind"] == "encounter" else 5.5
    strength = base + 2.2 * d["cost"] - MONEY_VALUE * d["cost"]
    if held is None:
        return strength
    if words[-2] == "move":
        return strength - 0.5
    # Replacing a card throws it away: worth only the step up in cost.
    return 2.5 * (d["cost"] - _held_cost(held)) - MONEY_VALUE * d["cost"]


# --------------------------------------------------------------------------- heist


def _challenge_of(view: View) -> list[dict[str, Any]]:
    heist = view["heist"]
    key = heist["encounter"]["key"]
    if key:
        return cards.hideout_cards()[key]["challenge"]
    board = view["seats"][heist["defender"]]["board"]["key"]
    return cards.board(board)["default"]["challenge"]


def _bad_of(view: View) -> list[dict[str, Any]]:
    heist = view["heist"]
    key = heist["encounter"]["key"]
    if key:
        return cards.hideout_cards()[key]["bad"]
    board = view["seats"][heist["defender"]]["board"]["key"]
    return cards.board(board)["default"]["bad"]


def severity(steps: list[dict[str, Any]], pool: int, candy: int, money: int) -> float:
    """How much suffering ``steps`` hurts; not finishing it ends the heist."""
    cost = 0.0
    for step in steps:
        do = step["do"]
        if do == "end_heist":
            cost += END_COST
        elif do in ("lose_candy", "give_candy"):
            cost += CANDY_COST * min(step["amount"], candy)
            if step["amount"] > candy:
                cost += END_COST
            candy -= step["amount"]
        elif do == "lose":
            cost += DIE_COST * min(step.get("count", 1), pool)
            if step.get("count", 1) > pool:
                cost += END_COST
            pool -= step.get("count", 1)
        elif do in ("pay_money", "give_money"):
            cost += MONEY_COST * step["amount"]
            if step["amount"] > money:
                cost += END_COST
        elif do == "choice":
            cost += min(severity(o, pool, candy, money) for o in step["options"])
        elif do == "exhaust":
            cost += 0.5
    return cost


def _pay_cost(values: list[int]) -> float:
    return sum(values) + 2.5 * len(values)


def _chance(pool: list[int], rerolled: list[int], extra: int,
            challenge: list[dict[str, Any]]) -> float:
    """Probability the attacker can pay after rerolling ``rerolled`` and rolling ``extra``."""
    base = list(pool)
    for v in rerolled:
        base.remove(v)
    k = len(rerolled) + extra
    if k == 0:
        return 1.0 if can_pay(tuple(sorted(base)), challenge) else 0.0
    hits = 0
    total = 0
    for faces in product(range(1, 7), repeat=k):
        total += 1
        hits += can_pay(tuple(sorted(base + list(faces))), challenge)
    return hits / total


def _pool_worth(pool: list[int]) -> float:
    """A pool's worth for rooms still unknown: its dice, their values, its pairs."""
    counts = Counter(pool)
    return 3.0 * len(pool) + 0.4 * sum(pool) + sum(0.6 for n in counts.values() if n >= 2)


def _after(pool: list[int], words: list[str], step: dict[str, Any]) -> list[int]:
    values = [int(w) for w in words[1:] if w.isdigit()]
    out = list(pool)
    for v in values:
        out.remove(v)
    if words[0] in ("raise", "lower"):
        out += [clamp(v + step["amount"]) for v in values]
    elif words[0] == "set":
        out += [clamp(step["value"]) for _ in values]
    return sorted(out)


def _heist_value(view: View, kind: str, notation: str) -> float:
    heist = view["heist"]
    me = view["viewer"]
    pool = heist["pool"]
    words = notation.split(" ")
    attacking = me == heist["attacker"]
    challenge = _challenge_of(view)
    upcoming = heist["stage"] == "effects"
    if kind == "challenge":
        return _challenge_value(view, words)
    if kind == "reroll":
        chosen = [] if words[1] == "none" else [int(w) for w in words[1:]]
        odds = _chance(pool, chosen, 0, challenge) if upcoming else 0.0
        drift = sum(v - 3.5 for v in chosen)
        score = -odds * 10 + 0.3 * drift
        return -score if attacking else score
    if kind in ("lose", "raise", "lower", "set"):
        left = _after(pool, words, _decision_step(view))
        worth = _pool_worth(left)
        if upcoming:
            worth += 10 * can_pay(tuple(left), challenge)
        return worth if attacking else -worth
    if kind == "choice":
        step = _decision_step(view)
        option = step["options"][int(words[1]) - 1]
        mine = view["seats"][me]
        return -severity(option, len(pool), mine["candy"], mine["money"])
    if kind == "exhaust":
        name = " ".join(words[1:])
        return -cards.costumes()[cards.names()[name]]["cost"]
    return 0.0


def _decision_step(view: View) -> dict[str, Any]:
    """The card step the open decision is about (public: it is printed on the card)."""
    return view["decision"]["step"] or {}


def _challenge_value(view: View, words: list[str]) -> float:
    heist = view["heist"]
    pool = heist["pool"]
    challenge = _challenge_of(view)
    mine = view["seats"][view["viewer"]]
    hurt = severity(_bad_of(view), len(pool), mine["candy"], mine["money"])
    if words[0] == "pay":
        values = [int(w) for w in words[1:]]
        left = list(pool)
        for v in values:
            left.remove(v)
        # Clearing gains a candy and avoids the bad stuff; spend what the pool can spare.
        return 100.0 - _pay_cost(values) + 0.5 * _pool_worth(left)
    if words[0] == "suffer":
        return -10.0 * hurt
    # use <costume> [on values]
    at = words.index("on") if "on" in words else len(words)
    key = cards.names()[" ".join(words[1:at])]
    d = cards.costumes()[key]
    targets = [int(w) for w in words[at + 1:]]
    chance = _costume_chance(pool, d, targets, challenge)
    if d["ability"][0]["do"] == "dodge":
        chance = 1.0 if hurt >= 2 else 0.0
    # A costume spent on a hopeless try is wasted; a sure clear is worth nearly a payment.
    return -10.0 * hurt + chance * (10.0 * hurt + 20.0) - 3.0 * d["cost"]


def _costume_chance(pool: list[int], d: dict[str, Any], targets: list[int],
                    challenge: list[dict[str, Any]]) -> float:
    step = d["ability"][0]
    do = step["do"]
    if do in ("add", "set"):
        left = list(pool)
        for v in targets:
            left.remove(v)
        left += [clamp(v + step["amount"]) if do == "add" else step["value"] for v in targets]
        return 1.0 if can_pay(tuple(sorted(left)), challenge) else 0.0
    if do == "add_all":
        return 1.0 if can_pay(tuple(sorted(clamp(v + step["amount"]) for v in pool)),
                              challenge) else 0.0
    if do == "reroll":
        return _chance(pool, targets, 0, challenge)
    if do == "gain_die":
        room = cards.start()["max_dice"] - len(pool)
        return _chance(pool, [], min(room, step.get("count", 1)), challenge)
    return 0.0
