"""The Sugar Heist AI, for both sides of a heist, working from its own view only.

Prep: it values each card by what it does (:mod:`bot.games.sugar_heist.worth`):
a hideout card by how much more candy the room costs an attacker with it, at the
dice an attacker usually brings to that room and with the viewer's own stake
(steal plus sugar tax); a costume by the candy it saves over the box's
encounters; both times the rounds left to use them, against what the money would
be worth kept. Heist, as attacker: it pays with the dice it can spare best
(low, few), uses a costume when that turns a failure into a clear, and picks the
lightest bad stuff. As defender: it rerolls and removes the dice that make the
attacker's payment likely, counting every outcome of the dice.
"""

from __future__ import annotations

from collections import Counter
from functools import cache
from itertools import combinations_with_replacement
from math import factorial, prod
from typing import Any, cast

from bot.games.engine import Action, View
from bot.games.rng import Rng
from bot.games.sugar_heist import cards, worth
from bot.games.sugar_heist.dice import can_pay, clamp

#: What bad stuff costs the attacker, per unit.
CANDY_COST = 1.6
DIE_COST = 0.8
MONEY_COST = 0.3
END_COST = 4.0


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


#: Dice an attacker usually still holds on reaching rooms 1, 2 and 3.
ROOM_DICE = (6, 5, 4)
#: Candy a heist still stands to win per room after the one it might end in.
ROOM_STAKE = 0.5
#: What a dollar kept is worth, in candy, per round still to come after this one.
MONEY_PER_ROUND = 0.12
#: Each costume already owned makes the next one worth this much less (fewer rooms
#: left to use it in, once per heist).
COSTUME_CROWD = 0.2
#: What making the attacker flip a costume is worth, in candy.
EXHAUST_WORTH = 0.4


def _rules(view: View) -> int:
    """The rules version the game is played under (its cards differ between them)."""
    return int(view["rules"])


def _held(view: View, room: int, slot: str) -> dict[str, Any] | None:
    """The design in one of the viewer's own slots (a board default for an empty
    encounter slot, None for an empty mod slot)."""
    me = view["seats"][view["viewer"]]
    held = me["rooms"][room][slot]
    if held is not None:
        return cards.hideout_cards(_rules(view))[held["key"]]
    if slot == "encounter" and me["board"]:
        return cast("dict[str, Any] | None", cards.board(me["board"]["key"])["default"])
    return None


def _room_harm(view: View, room: int, encounter: dict[str, Any] | None,
               mod: dict[str, Any] | None) -> float:
    """What room ``room`` of the viewer's hideout costs an attacker, in candy: the
    chances of the dice against its cards, what its bad stuff takes, and the steal
    (1 + the viewer's sugar tax) plus the rooms after it that ending the heist saves."""
    if encounter is None:
        return 0.0
    me = view["seats"][view["viewer"]]
    stake = 1 + me["tax"] + ROOM_STAKE * (2 - room)
    harm = worth.room_harm(encounter, mod, ROOM_DICE[room], stake)
    if mod is not None and any(s["do"] == "exhaust" for s in mod["effect"]):
        harm += EXHAUST_WORTH
    return harm


def _rounds_left(view: View) -> int:
    """Rounds still to play, this one included."""
    return max(1, int(view["rounds"]) - int(view["round"]) + 1)


def _money_worth(view: View) -> float:
    return MONEY_PER_ROUND * (_rounds_left(view) - 1)


def _build_gain(view: View, d: dict[str, Any], room: int, how: str, to: int) -> float:
    """How much harder building ``d`` in ``room`` makes the hideout, per heist."""
    slot = d["kind"]
    enc, mod = _held(view, room, "encounter"), _held(view, room, "mod")
    before = _room_harm(view, room, enc, mod)
    after = _room_harm(view, room, d if slot == "encounter" else enc,
                       d if slot == "mod" else mod)
    gain = after - before
    if how == "move":
        # The card there moves on to room ``to``, whose slot of that kind is empty.
        old = _held(view, room, slot)
        enc2, mod2 = _held(view, to, "encounter"), _held(view, to, "mod")
        gain += _room_harm(view, to, old if slot == "encounter" else enc2,
                           old if slot == "mod" else mod2) - _room_harm(view, to, enc2, mod2)
    return gain


@cache
def _costume_worth(key: str, rules: int) -> float:
    """The candy a costume saves per heist, over the encounters of the box (each design
    as often as it is printed, the boards' defaults as one design each) met with
    four dice."""
    ability = cards.costumes()[key]["ability"]
    encounters = [(c, c["copies"]) for c in cards.hideout_cards(rules).values()
                  if c["kind"] == "encounter"]
    encounters += [(b["default"], 6) for b in cards.boards()]
    total = sum(n for _, n in encounters)
    dice = ROOM_DICE[-1]
    per_room = sum(n * worth.costume_gain(ability, c, dice, 1.0 + ROOM_STAKE)
                   for c, n in encounters) / total
    # Used once per heist, in the room where it helps most: about two rooms' worth.
    return cast("float", 2.0 * per_room)


def chances_asked(rules: int) -> list[tuple[list[dict[str, Any]], list[dict[str, Any]], int]]:
    """Every chance of paying (challenge, effect, dice) that the prep values ask
    :func:`worth.pay_chance` for under ``rules``: each encounter design (the boards'
    defaults too) with each mod or none, at the dice of each room; and each with and
    without each costume's ability, at the dice a costume is valued at."""
    designs = cards.hideout_cards(rules).values()
    encounters = [c for c in designs if c["kind"] == "encounter"]
    encounters += [b["default"] for b in cards.boards()]
    mods: list[dict[str, Any] | None] = [None, *(c for c in designs if c["kind"] == "mod")]
    out = []
    for encounter in encounters:
        for mod in mods:
            effect = [*(mod["effect"] if mod else []), *encounter.get("effect", [])]
            out += [(encounter["challenge"], effect, dice) for dice in ROOM_DICE]
        effect = encounter.get("effect", [])
        for costume in cards.costumes().values():
            out.append((encounter["challenge"], effect, ROOM_DICE[-1]))
            out.append((encounter["challenge"], [*effect, *worth.optional(costume["ability"])],
                        ROOM_DICE[-1]))
    return out


def _prep_value(view: View, notation: str) -> float:
    me = view["seats"][view["viewer"]]
    words = notation.split(" ")
    money = _money_worth(view)
    if words[0] == "pass":
        passed = len(view["prep"]["passed"]) if view["prep"] else 0
        bonuses = cards.track(len(view["seats"]))["pass_bonus"]
        bonus = bonuses[passed] if passed < len(bonuses) else 0
        # Money left over also breaks ties at the end: passing beats a card worth nothing.
        return money * bonus + 0.01
    rounds = _rounds_left(view)
    if words[0] == "buy":
        key = cards.names()[" ".join(words[1:])]
        d = cards.costumes()[key]
        crowd = max(0.0, 1.0 - COSTUME_CROWD * len(me["costumes"]))
        return cast("float", rounds * crowd * _costume_worth(key, _rules(view)) - money * d["cost"])
    # build <name> room r [discard | move m]
    room_at = words.index("room")
    d = cards.hideout_cards(_rules(view))[cards.names()[" ".join(words[1:room_at])]]
    room = int(words[room_at + 1]) - 1
    how = words[-2] if words[-2] == "move" else words[-1]
    to = int(words[-1]) - 1 if how == "move" else room
    return cast("float", rounds * _build_gain(view, d, room, how, to) - money * d["cost"])


# --------------------------------------------------------------------------- heist


def _encounter_part(view: View, part: str) -> list[dict[str, Any]]:
    """The steps ``part`` (``"challenge"`` or ``"bad"``) of the heist's encounter: its
    hideout card's, or the defender's board's default encounter's."""
    heist = view["heist"]
    key = heist["encounter"]["key"]
    if key:
        return cast("list[dict[str, Any]]", cards.hideout_cards(_rules(view))[key][part])
    board = view["seats"][heist["defender"]]["board"]["key"]
    return cast("list[dict[str, Any]]", cards.board(board)["default"][part])


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
    """Probability the attacker can pay after rerolling ``rerolled`` and rolling ``extra``.

    The rolls that pay are counted over each distinct roll of the fresh dice, times the
    orders it comes in: the same count as going through all ``6 ** k`` of them, found a
    tenth as often for four dice.
    """
    base = list(pool)
    for v in rerolled:
        base.remove(v)
    k = len(rerolled) + extra
    if k == 0:
        return 1.0 if can_pay(tuple(sorted(base)), challenge) else 0.0
    hits = 0
    for faces, ways in _rolls(k):
        if can_pay(tuple(sorted(base + faces)), challenge):
            hits += ways
    return cast("float", hits / 6 ** k)


@cache
def _rolls(k: int) -> tuple[tuple[list[int], int], ...]:
    """Each distinct roll of ``k`` dice with the number of orders it comes in."""
    return tuple((list(faces), factorial(k) // prod(factorial(n)
                                                   for n in Counter(faces).values()))
                 for faces in combinations_with_replacement(range(1, 7), k))


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
    challenge = _encounter_part(view, "challenge")
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
        return cast("float", -cards.costumes()[cards.names()[name]]["cost"])
    return 0.0


def _decision_step(view: View) -> dict[str, Any]:
    """The card step the open decision is about (public: it is printed on the card)."""
    return view["decision"]["step"] or {}


def _challenge_value(view: View, words: list[str]) -> float:
    heist = view["heist"]
    pool = heist["pool"]
    challenge = _encounter_part(view, "challenge")
    mine = view["seats"][view["viewer"]]
    hurt = severity(_encounter_part(view, "bad"), len(pool), mine["candy"], mine["money"])
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
    return cast("float", -10.0 * hurt + chance * (10.0 * hurt + 20.0) - 3.0 * d["cost"])


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
