"""Sugar Heist content: costumes, hideout cards, boards and tracks read from ``data/``.

Every card is data: effects and bad stuff are lists of steps run by
:mod:`bot.games.sugar_heist.effects`, a challenge is a list of needs paid by
:mod:`bot.games.sugar_heist.dice`. The text players read is generated here from
the same data, so what a card says and what it does cannot disagree.
"""

from __future__ import annotations

import json
from functools import cache
from typing import Any, cast

from bot.games.content import load_json

Card = dict[str, Any]
Step = dict[str, Any]

NUMBERS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight")
FILTER_KEYS = ("odd", "even", "at_least", "at_most", "part_of_pair", "unique")


# --------------------------------------------------------------------------- loading


@cache
def costumes() -> dict[str, Card]:
    """Costume designs by key."""
    return {c["key"]: c for c in load_json("sugar_heist", "costumes.json")["costumes"]}


@cache
def hideout_cards(rules: int | None = None) -> dict[str, Card]:
    """Hideout designs (encounters and mods) by key, as printed under ``rules``.

    ``None`` (or the current rules version) gives the cards as ``hideout.json``
    lists them; its ``older`` sections give, for older rules versions, the fields
    a design had then (names, kinds, costs and copies never change, so card ids
    and decks are the same under every version).
    """
    data = load_json("sugar_heist", "hideout.json")
    out = {c["key"]: c for c in data["cards"]}
    for older in data.get("older", []):
        if rules in older["rules"]:
            out = {k: {**c, **older["cards"].get(k, {})} for k, c in out.items()}
    return out


@cache
def boards() -> list[Card]:
    """The six hideout boards, in the order players choose from."""
    return list(load_json("sugar_heist", "boards.json")["boards"])


def board(key: str) -> Card:
    return next(b for b in boards() if b["key"] == key)


@cache
def _tracks() -> dict[str, Any]:
    return cast("dict[str, Any]", load_json("sugar_heist", "tracks.json"))


def track(players: int) -> Card:
    """The target track side for ``players`` players (rounds and pass bonuses)."""
    return next(t for t in _tracks()["tracks"] if t["players"] == players)


def supply() -> dict[str, int]:
    """Tokens in the box: candy, money and sugar tax."""
    return dict(_tracks()["supply"])


def start() -> dict[str, Any]:
    """Starting candy, allowance, dice and the prep hand's size by cost."""
    return cast("dict[str, Any]", _tracks()["start"])


@cache
def instances() -> dict[str, str]:
    """Every physical card: id -> design key. Costumes c-01.., hideout cards h<cost>-01.."""
    out: dict[str, str] = {}
    n = 0
    for card in costumes().values():
        for _ in range(card["copies"]):
            n += 1
            out[f"c-{n:02d}"] = card["key"]
    counters = {1: 0, 2: 0, 3: 0}
    for card in hideout_cards().values():
        for _ in range(card["copies"]):
            counters[card["cost"]] += 1
            out[f"h{card['cost']}-{counters[card['cost']]:02d}"] = card["key"]
    return out


def design(card_id: str, rules: int | None = None) -> Card:
    """The design of a physical card id (a hideout card as printed under ``rules``)."""
    key = instances()[card_id]
    return costumes()[key] if card_id.startswith("c-") else hideout_cards(rules)[key]


def costume_ids() -> list[str]:
    return [i for i in instances() if i.startswith("c-")]


def hideout_ids(cost: int) -> list[str]:
    return [i for i in instances() if i.startswith(f"h{cost}-")]


def lower_name(card: Card) -> str:
    """The name as it appears in notation: lower case, no apostrophes."""
    return cast("str", card["name"].lower().replace("'", ""))


@cache
def names() -> dict[str, str]:
    """Notation name -> key, for costumes and hideout cards (names are unique)."""
    out = {lower_name(c): k for k, c in costumes().items()}
    out.update({lower_name(c): k for k, c in hideout_cards().items()})
    out.update({lower_name(b): b["key"] for b in boards()})
    return out


def freeze(steps: Any) -> str:
    """A hashable form of a challenge or step list (for caches)."""
    return json.dumps(steps, sort_keys=True)


# --------------------------------------------------------------------------- text


def _count(n: int, one: str, many: str) -> str:
    word = NUMBERS[n] if n < len(NUMBERS) else str(n)
    return f"{word} {one if n == 1 else many}"


def die_phrase(need: dict[str, Any], plural: bool = False) -> str:
    """ "odd die of 3 or more", "die that is part of a pair", "dice of 2 or less"."""
    noun = "dice" if plural else "die"
    words = []
    if need.get("odd"):
        words.append("odd")
    if need.get("even"):
        words.append("even")
    if need.get("unique"):
        words.append("unique")
    text = " ".join([*words, noun])
    low, high = need.get("at_least"), need.get("at_most")
    if low is not None and high is not None and low == high:
        text += f" showing {low}"
    else:
        if low is not None:
            text += " showing 6" if low == 6 else f" of {low} or more"
        if high is not None:
            text += " showing 1" if high == 1 else f" of {high} or less"
    if need.get("part_of_pair"):
        text += " that are part of a pair" if plural else " that is part of a pair"
    return text


def _article(phrase: str) -> str:
    return ("an " if phrase[0] in "aeiou" else "a ") + phrase


def need_text(need: dict[str, Any]) -> str:
    """One need of a challenge, e.g. "Sum 6 or more", "A pair", "Any die"."""
    kind = need["need"]
    if kind == "sum":
        return f"Sum {need['value']} or more"
    if kind == "pair":
        return "A pair" if not any(k in need for k in FILTER_KEYS) else \
            f"A pair of {die_phrase(need, plural=True)}"
    if not any(k in need for k in FILTER_KEYS):
        return "Any die"
    return _article(die_phrase(need)).capitalize()


def challenge_text(challenge: list[dict[str, Any]]) -> str:
    """A whole challenge: its needs joined with "+", each paid with its own dice."""
    return " + ".join(need_text(n) for n in challenge)


def _by(by: str) -> str:
    return {"attacker": "your choice", "defender": "defender's choice"}.get(by, by)


def step_phrase(step: Step) -> str:
    """One step as a lower-case phrase (no full stop), addressed to the attacker."""
    do = step["do"]
    count = step.get("count", 1)
    by = step.get("by", "attacker")
    if do == "reroll":
        who = "the defender rerolls" if by == "defender" else "reroll"
        if count == 1:
            return f"{who} one of your dice"
        return f"{who} up to {NUMBERS[count]} of your dice"
    if do == "reroll_all":
        return f"reroll every {die_phrase(step)}"
    if do == "lose":
        if by in ("highest", "lowest"):
            return f"lose your {by} die" if count == 1 else f"lose your {NUMBERS[count]} {by} dice"
        return f"lose {_count(count, 'die', 'dice')} ({_by(by)})"
    if do == "lose_all":
        return f"lose every {die_phrase(step)}"
    if do in ("add", "set"):
        change = f"{step['amount']:+d} to" if do == "add" else "set"
        target = f"{NUMBERS[count]} {'die' if count == 1 else 'dice'}"
        end = "" if do == "add" else f" to {step['value']}"
        if by == "defender":
            verb = f"the defender gives {target} {step['amount']:+d}" if do == "add" else \
                f"the defender sets {target}{end}"
            return verb
        if by in ("highest", "lowest"):
            return f"{change} your {by} die{end}" if do == "add" else f"set your {by} die{end}"
        many = "one of your dice" if count == 1 else f"up to {NUMBERS[count]} of your dice"
        return f"{change} {many}{end}" if do == "add" else f"set {many}{end}"
    if do == "add_all":
        if any(k in step for k in FILTER_KEYS):
            return f"{step['amount']:+d} to every {die_phrase(step)}"
        return f"{step['amount']:+d} to every die"
    if do == "gain_die":
        return f"roll {_count(count, 'extra die', 'extra dice')} into your pool"
    if do == "outside_roll":
        if "at_least" in step:
            when = "6" if step["at_least"] == 6 else f"{step['at_least']} or more"
        else:
            when = "1" if step["at_most"] == 1 else f"{step['at_most']} or less"
        text = f"roll a die from outside the pool: on {when}, {steps_phrase(step['then'])}"
        if step.get("else"):
            text += f"; otherwise {steps_phrase(step['else'])}"
        return text
    if do == "lose_candy":
        return f"lose {step['amount']} candy"
    if do == "give_candy":
        return f"give {step['amount']} candy to the defender"
    if do == "pay_money":
        return f"pay ${step['amount']} to the bank"
    if do == "give_money":
        return f"give ${step['amount']} to the defender"
    if do == "end_heist":
        return "end the heist"
    if do == "choice":
        options = [steps_phrase(o) for o in step["options"]]
        return "either " + ", or ".join(options) + " (your choice)"
    if do == "exhaust":
        return f"flip {_count(count, 'of your face-up costumes', 'of your face-up costumes')} " \
               "face down (your choice)"
    if do == "dodge":
        return "pass this room without paying or suffering (no candy for it)"
    raise ValueError(f"unknown verb {do!r}")


def steps_phrase(steps: list[Step]) -> str:
    """Several steps as one phrase: "lose one die (your choice) and lose 1 candy"."""
    parts = [step_phrase(s) for s in steps]
    if len(parts) <= 1:
        return "".join(parts)
    return ", ".join(parts[:-1]) + " and " + parts[-1]


def steps_text(steps: list[Step]) -> str:
    """Steps as a sentence, or "" for none."""
    if not steps:
        return ""
    phrase = steps_phrase(steps)
    return phrase[0].upper() + phrase[1:] + "."


def describe(card: Card, rules: int | None = None) -> dict[str, Any]:
    """The printed card (a hideout card as printed under ``rules``): name, cost, kind,
    the generated texts and, under ``data``, the steps and needs they were generated from
    (for pictures that draw them as icons); a fresh dict."""
    return dict(_described(card.get("key") or card["name"], "ability" in card, rules))


@cache
def _described(name: str, costume: bool, rules: int | None) -> dict[str, Any]:
    if costume:
        card = costumes()[name]
    elif name in hideout_cards(rules):
        card = hideout_cards(rules)[name]
    else:
        card = next(b["default"] for b in boards() if b["default"]["name"] == name)
    return _describe(card)


def _describe(card: Card) -> dict[str, Any]:
    out: dict[str, Any] = {"key": card.get("key", ""), "name": card["name"],
                           "cost": card.get("cost", 0)}
    if "ability" in card:
        out.update(kind="costume", ability=steps_text(card["ability"]),
                   data={"ability": card["ability"]})
        return out
    out["kind"] = card.get("kind", "encounter")
    out["effect"] = steps_text(card.get("effect", []))
    data = {"effect": card.get("effect", [])}
    if out["kind"] == "encounter":
        out["challenge"] = challenge_text(card["challenge"])
        out["bad"] = steps_text(card["bad"])
        data.update(challenge=card["challenge"], bad=card["bad"])
    out["data"] = data
    return out
