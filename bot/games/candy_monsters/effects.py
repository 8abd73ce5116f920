"""The one interpreter of card effects, and the card text generated from the same data.

An effect is a dict with a ``verb`` and its arguments; an ability is a timing
window, an activation cost in sugar and a list of effects. Verbs:

``gain_sugar`` (``n``, or ``per`` a measure), ``lose_sugar`` n, ``gain_candy`` n,
``steal_sugar`` n (from the other player with the most sugar), ``remove_black`` n,
``halve_others_sugar``, ``others_gain_sugar`` n, ``discount`` n (the card being bought),
``ready_purchase`` (the ability being bought may be used this turn), ``eat_less`` n (Black Candy),
``refresh_market`` (events), ``score`` (end-game bonus: ``n`` candies, or 1 ``per``
a measure). Any effect may carry ``if``: a condition (see :func:`board.holds`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from bot.games.candy_monsters import board, cards
from bot.games.engine import State, Turn
from bot.games.words import plural

Effect = dict[str, Any]

WINDOW_TEXT = {
    "turn": "Any time in your turn",
    "start": "Start of your turn",
    "collect": "When you collect",
    "buy_ability": "When you buy an ability",
    "buy_monster": "When you buy a monster",
    "black_candy": "During Black Candy",
    "once": "Once per game, in your turn",
    "event": "Event phase",
}

#: Short window names for buttons and small card faces.
WINDOW_SHORT = {
    "turn": "any time", "start": "start", "collect": "collect", "buy_ability": "buy ability",
    "buy_monster": "buy monster", "black_candy": "Black Candy", "once": "once per game",
    "event": "event",
}

MEASURE_TEXT = {
    "monsters": ("monster you control", "monsters you control"),
    "colours": ("candy colour among your monsters", "candy colours among your monsters"),
    "kept": ("ability you keep", "abilities you keep"),
    "tucked": ("ability you have tucked", "abilities you have tucked"),
    "tucked_here": ("ability tucked under this monster", "abilities tucked under this monster"),
    "sugar": ("sugar", "sugar"),
    "candy": ("candy token", "candy tokens"),
    "black": ("black cube", "black cubes"),
}


def measure_text(name: str, many: bool = False) -> str:
    kind, _, colour = name.partition(":")
    if kind == "monsters" and colour:
        return f"{colour} monster{'s' if many else ''} you control"
    if kind == "other_monsters":
        return f"other {colour} monster{'s' if many else ''} you control"
    one, plural = MEASURE_TEXT[kind]
    return plural if many else one


def condition_text(cond: dict[str, Any] | None, players: bool = False) -> str:
    """A condition as words; ``players`` phrases it for an event ("players with ...")."""
    if not cond:
        return ""
    if "most" in cond or "fewest" in cond:
        which = "most" if "most" in cond else "fewest"
        return f"the players with the {which} {measure_text(cond[which], True)}"
    name = cond["measure"]
    if name == "colours" and cond.get("at_least") == len(cards.colours()):
        return ("the players who control monsters of every colour" if players
                else "you control monsters of every colour")
    if cond.get("at_most") == 0:
        what = measure_text(name, True)
        return f"the players with no {what}" if players else f"you have no {what}"
    if "at_least" in cond:
        amount = f"{cond['at_least']} or more {measure_text(name, True)}"
        return f"the players with {amount}" if players else f"you have {amount}"
    amount = f"at most {cond['at_most']} {measure_text(name, True)}"
    return f"the players with {amount}" if players else f"you have {amount}"


#: The effects said in one fixed shape: ``{n}`` is the effect's count, ``{candies}`` and
#: ``{black_cubes}`` the count with its noun.
_VERB_TEXTS = {
    "lose_sugar": "return {n} sugar to the kingdom",
    "gain_candy": "gain {candies}",
    "steal_sugar": "take {n} sugar from the other player with the most sugar",
    "remove_black": "return up to {black_cubes} to the kingdom",
    "others_gain_sugar": "every other player gains {n} sugar",
    "halve_others_sugar":
        "every other player returns half their sugar (rounded down) to the kingdom",
    "discount": "it costs {n} less",
    "ready_purchase": "you may use the ability you are buying this turn",
    "eat_less": "your monsters eat {n} less in total",
    "refresh_market": "discard the face-up monsters and abilities and reveal new ones",
}


def effect_text(effect: Effect, subject: str = "you") -> str:
    """One effect as a sentence fragment, e.g. "gain 2 sugar"."""
    verb = effect["verb"]
    n = int(effect.get("n", 1))
    if verb in ("gain_sugar", "score"):
        word, unit = ("gain", "sugar") if verb == "gain_sugar" else ("score", "candy")
        if "per" in effect:
            text = f"{word} {n} {unit} per {measure_text(effect['per'])}"
        else:
            text = f"{word} {plural(n, unit, 'sugar' if unit == 'sugar' else 'candies')}"
    elif verb in _VERB_TEXTS:
        text = _VERB_TEXTS[verb].format(n=n, candies=plural(n, "candy", "candies"),
                                        black_cubes=plural(n, "black cube", "black cubes"))
    else:
        raise ValueError(f"unknown verb {verb!r}")
    if "if" in effect:
        text += f" if {condition_text(effect['if'])}"
    return text


def _sentence(parts: list[str]) -> str:
    text = ", then ".join(parts)
    return text[:1].upper() + text[1:] + "."


def ability_text(ability: cards.Ability) -> str:
    """``Start of your turn: gain 2 sugar.`` (with ``pay N sugar:`` for a cost)."""
    parts = [effect_text(e) for e in ability.effects]
    if ability.window == "collect":
        parts = [p.replace("gain ", "take ", 1).replace(" sugar", " more sugar", 1)
                 if p.startswith("gain ") and " sugar" in p else p for p in parts]
    body = _sentence(parts)
    if ability.cost:
        body = f"pay {ability.cost} sugar: {body[:1].lower()}{body[1:]}"
    return f"{WINDOW_TEXT[ability.window]}: {body[:1].lower()}{body[1:]}"


def end_text(end: tuple[Effect, ...]) -> str:
    """``Game end: score 2 candies if you have no black cubes.``"""
    if not end:
        return ""
    body = _sentence([effect_text(e) for e in end])
    return f"Game end: {body[:1].lower()}{body[1:]}"


def event_text(card: cards.Card) -> str:
    """What an event does, e.g. "The players with no black cubes gain 3 sugar."."""
    if card.kind == "black_candy":
        return ("Every player feeds each monster its hunger with sugar (candy 1 for 1 if they "
                "choose), takes a black cube per sugar not fed, or lets the monster go.")
    parts = [effect_text(e) for e in card.effects]
    if card.effects and card.effects[0]["verb"] == "refresh_market":
        return _sentence(parts)
    who = condition_text(card.condition, players=True) if card.condition else "every player"
    if who == "every player":
        parts = [_third_person(p) for p in parts]
    parts = [p.replace("you control", "they control").replace("your ", "their ") for p in parts]
    return _sentence([f"{who} {parts[0]}", *parts[1:]])


def _third_person(text: str) -> str:
    verb, _, rest = text.partition(" ")
    return f"{verb}s {rest}" if verb in ("gain", "return", "take") else text


def card_text(card: cards.Card) -> str:
    """The whole printed text of a card's lower area."""
    if card.kind in ("event", "black_candy"):
        return event_text(card)
    if card.kind == "first_player" and card.ability:
        body = _sentence([_third_person(effect_text(e)) for e in card.ability.effects])
        way = cards.kingdom()["first_player"]["passes"].replace("counterclockwise",
                                                                "counter-clockwise")
        who = "" if body.startswith("Every") else "the first player "
        return (f"{WINDOW_TEXT['event']}: {who}{body[:1].lower()}{body[1:]} "
                f"Then the card passes to the next player {way}.")
    parts = []
    if card.ability:
        parts.append(ability_text(card.ability))
    if card.end:
        parts.append(end_text(card.end))
    return " ".join(parts)


# --------------------------------------------------------------------------- running effects


@dataclass
class Context:
    """Who an effect works for, and where its narration goes."""

    state: State
    seat: int
    turn: Turn
    names: list[str]
    #: The card whose ability fires (for "this monster" measures).
    source: str | None = None
    said: list[str] = field(default_factory=list)
    #: Other seats the effects hurt (sugar taken from them): alerted (see ``Turn.say``).
    hit: set[int] = field(default_factory=set)


def amount(ctx: Context, effect: Effect) -> int:
    """The number an effect works with, ``per`` measures counted now."""
    n = int(effect.get("n", 1))
    if "per" in effect:
        n *= board.measure(ctx.state, ctx.seat, effect["per"], ctx.source)
    return n


def useful(ctx: Context, effects: tuple[Effect, ...]) -> bool:
    """Would using these effects now change anything? (Pointless uses are not offered.)"""
    return any(_useful(ctx, e) for e in effects)


def _useful(ctx: Context, effect: Effect) -> bool:
    state, seat = ctx.state, ctx.seat
    if not board.holds(state, seat, effect.get("if"), ctx.source):
        return False
    verb = effect["verb"]
    me = board.player(state, seat)
    if verb == "gain_sugar":
        return amount(ctx, effect) > 0 and state["kingdom"]["sugar"] > 0
    if verb == "gain_candy":
        return bool(state["kingdom"]["candy"] > 0)
    if verb == "steal_sugar":
        return board.richest_other(state, seat) is not None
    if verb == "remove_black":
        return bool(me["black"] > 0)
    if verb == "others_gain_sugar":
        return bool(state["kingdom"]["sugar"] > 0)
    if verb == "halve_others_sugar":
        return any(p["sugar"] >= 2 for s, p in enumerate(state["players"]) if s != seat)
    if verb in ("discount", "ready_purchase"):
        purchase = state["turn"].get("purchase")
        if purchase is None:
            return False
        if verb == "ready_purchase":
            return cards.card(purchase["card"]).kind == "ability" and not purchase["ready"]
        return True
    if verb == "eat_less":
        return True
    if verb == "lose_sugar":
        return bool(me["sugar"] > 0)
    return bool(verb == "refresh_market")


def run(ctx: Context, effects: tuple[Effect, ...]) -> list[str]:
    """Apply effects in order; returns what happened, as narration fragments."""
    for effect in effects:
        if board.holds(ctx.state, ctx.seat, effect.get("if"), ctx.source):
            _run(ctx, effect)
    return ctx.said


def _run(ctx: Context, effect: Effect) -> None:
    state, seat, verb = ctx.state, ctx.seat, effect["verb"]
    n = amount(ctx, effect)
    if verb == "gain_sugar":
        ctx.said.append(f"gained {board.gain_sugar(state, seat, n)} sugar")
    elif verb == "lose_sugar":
        ctx.said.append(f"returned {board.pay_sugar(state, seat, n)} sugar")
    elif verb == "gain_candy":
        got = board.gain_candy(state, seat, n)
        ctx.said.append(f"gained {plural(got, 'candy', 'candies')}")
    elif verb == "steal_sugar":
        victim = board.richest_other(state, seat)
        if victim is None:
            ctx.said.append("found nobody with sugar to rob")
        else:
            got = board.take_sugar_from(state, seat, victim, n)
            ctx.said.append(f"took {got} sugar from {ctx.names[victim]}")
            if got:
                ctx.hit.add(victim)
    elif verb == "remove_black":
        got = board.remove_black(state, seat, n)
        ctx.said.append(f"returned {plural(got, 'black cube', 'black cubes')}")
    elif verb == "others_gain_sugar":
        gains = [f"{ctx.names[o]} {board.gain_sugar(state, o, n)}"
                 for o in board.seats_after(state, seat)]
        ctx.said.append(f"gave every other player {n} sugar ({', '.join(gains)})")
    elif verb == "halve_others_sugar":
        lost = []
        for other, p in enumerate(state["players"]):
            if other != seat and p["sugar"] >= 2:
                lost.append(f"{ctx.names[other]} {board.pay_sugar(state, other, p['sugar'] // 2)}")
                ctx.hit.add(other)
        ctx.said.append("made every other player return half their sugar"
                        + (f" ({', '.join(lost)})" if lost else ""))
    elif verb == "discount":
        state["turn"]["purchase"]["discount"] += n
        ctx.said.append(f"made it {n} cheaper")
    elif verb == "ready_purchase":
        state["turn"]["purchase"]["ready"] = True
        ctx.said.append("may use the ability being bought at once")
    elif verb == "eat_less":
        ctx.said.append(f"fed {n} less")
    elif verb == "refresh_market":
        ctx.said.append("refreshed the market")
    else:
        raise ValueError(f"unknown verb {verb!r}")


def relief(ability: cards.Ability | None) -> int:
    """How much less a Black Candy ability lets the monsters eat."""
    if ability is None:
        return 0
    return sum(int(e.get("n", 1)) for e in ability.effects if e["verb"] == "eat_less")


def end_bonus(state: State, seat: int, source: str) -> int:
    """The end-game candies a card scores for its owner."""
    total = 0
    for effect in cards.card(source).end:
        if not board.holds(state, seat, effect.get("if"), source):
            continue
        n = int(effect.get("n", 1))
        if "per" in effect:
            n *= board.measure(state, seat, effect["per"], source)
        total += n
    return total
