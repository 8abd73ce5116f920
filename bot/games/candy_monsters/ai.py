"""The Kingdom's Candy Monsters AI: prices every choice in expected candies.

It sees only its own view. Sugar is worth more early (it buys income) than at
the end (1 candy per 4). A monster is worth its candies, plus the set bonuses
and ability income it adds for the turns left, less what it will eat at the
Black Candies to come and its price. An ability is worth the better of keeping
it (its candies, a cheaper colour, full kept sets) and tucking it (1 candy plus
its use every round). Abilities with a useful effect are used as soon as their
window opens; free ones first, those that cost sugar once the action is done.
Feeding: sugar first, black cubes for the rest; at the last Black Candy a
monster is let go when feeding it costs more than it scores.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, cast

from bot.games.candy_monsters import cards
from bot.games.engine import Action, View
from bot.games.rng import Rng

#: Expected events drawn in a whole game (the 4th Black Candy lies among the last three).
EXPECTED_EVENTS = 11
#: How often each window comes round per round, for an ability's income: about the share
#: of turns the AI collects (0.24, rounded up: a SWEET TOOTH owner collects more), buys a
#: monster (0.28) or an ability (0.48) in rules-3 games (3 players, 1017 turns).
FREQUENCY = {"turn": 1.0, "start": 1.0, "collect": 0.3, "buy_monster": 0.3,
             "buy_ability": 0.45, "black_candy": 0.0, "once": 0.0, "event": 0.0}
#: Tiers keep the order of a turn: window abilities before the action, the action, the rest.
FIRST, ACTION, LATER = 300.0, 200.0, 100.0


class Outlook:
    """What the AI reads off its view once per choice."""

    def __init__(self, view: View) -> None:
        self.view = view
        self.seat: int = view["viewer"]
        self.me: dict[str, Any] = view["players"][self.seat]
        left = view["black_candies"]["left"]
        self.black_candies = left
        self.rounds = max(1, EXPECTED_EVENTS - len(view["events"])) if left else 1
        #: Later turns of mine after this one.
        self.turns = max(0, self.rounds - 1)
        self.sugar_value = 0.25 + 0.1 * min(1.0, self.turns / 6)
        self.final = left == 1
        self.hunger = sum(m["eats"] for m in self.me["monsters"])
        self.black_candy_chance = _black_candy_chance(view)

    def shortfall(self, sugar_after: int, extra_hunger: int = 0) -> float:
        """Expected candies lost to black cubes if the sugar left cannot feed at Black Candy."""
        short = max(0, self.hunger + extra_hunger - sugar_after)
        return cast("float", short * self.black_candy_chance * 0.8)

    def counts(self, extra: str | None = None) -> dict[str, int]:
        out = {c: 0 for c in cards.colours()}
        for m in self.me["monsters"]:
            out[m["colour"]] += 1
        if extra:
            out[extra] += 1
        return out

    def set_income(self, counts: dict[str, int]) -> float:
        table = cards.kingdom()["monster_set_sugar"]
        sugar = sum(table[str(min(n, 4))] for n in counts.values() if n >= 2)
        return cast("float", sugar * self.sugar_value + min(counts.values()))

    def others_sugar(self) -> list[int]:
        return [p["sugar"] for p in self.view["players"] if p["seat"] != self.seat]


def _black_candy_chance(view: View) -> float:
    """The chance that the next event drawn is a Black Candy (the piles are known)."""
    drawn = len(view["events"])
    per_pile = cards.piles()[1] + 1
    pile, position = divmod(drawn, per_pile)
    if view["black_candies"]["resolved"] > pile or not view["black_candies"]["left"]:
        return 0.0
    return 1.0 / (per_pile - position)


def effect_value(out: Outlook, effect: dict[str, Any], adding: str | None = None) -> float:
    """What one use of an effect is worth now, in candies (``adding``: the colour of a
    monster being bought, counted as if it were already in play)."""
    verb = effect["verb"]
    n = float(effect.get("n", 1))
    sv = out.sugar_value
    if "per" in effect:
        per = effect["per"]
        kind, _, colour = per.partition(":")
        counts = out.counts(adding)
        n *= {"monsters": counts[colour] if colour else len(out.me["monsters"]),
              "colours": sum(1 for v in counts.values() if v),
              "kept": len(out.me["kept"])}.get(kind, 1)
    if "if" in effect:
        cond = effect["if"]
        if cond.get("measure") == "colours":
            # Every colour is usually within reach: a monster or two away.
            have = sum(1 for v in out.counts(adding).values() if v)
            n *= {0: 0.0, 1: 0.4, 2: 0.8}.get(have, 1.0)
    if verb == "gain_sugar":
        return n * sv
    if verb == "gain_candy":
        return float(n)
    if verb == "steal_sugar":
        return min(n, max(out.others_sugar(), default=0)) * sv * 1.4
    if verb == "remove_black":
        return cast("float", min(n, out.me["black"]) * 1.0)
    if verb == "halve_others_sugar":
        lost = sum(s // 2 for s in out.others_sugar())
        return lost * sv / max(1, len(out.others_sugar())) * 1.5
    if verb == "discount":
        return n * sv
    if verb == "ready_purchase":
        return ready_value(out)
    if verb == "eat_less":
        return n * sv
    return 0.0


def ready_value(out: Outlook) -> float:
    """One use now of the ability being bought (a SUGAR RUSH): worth it only for an
    ability used in the rest of this turn; before a purchase, about a third of them are."""
    turn = out.view.get("turn")
    buying = turn.get("buying") if turn else None
    if buying is None:
        return 0.3
    ability = cards.card(buying).ability
    if ability is None or ability.window not in ("turn", "once"):
        return 0.0
    return max(0.0, ability_value(out, ability))


def ability_value(out: Outlook, ability: Any, adding: str | None = None) -> float:
    """One use of an ability, less its activation cost."""
    if ability is None:
        return 0.0
    return cast("float", sum(effect_value(out, e, adding) for e in ability.effects)
                - ability.cost * out.sugar_value)


def income(out: Outlook, card: cards.Card, adding: str | None = None) -> float:
    """What a card's ability brings over the rest of the game if it is in play (``adding``:
    the colour of the monster being bought, when the card is that monster)."""
    ability = card.ability
    if ability is None:
        return 0.0
    per_use = max(0.0, ability_value(out, ability, adding))
    if ability.window == "black_candy":
        return cast("float", per_use * out.black_candies)
    if ability.window == "once":
        return per_use
    return per_use * FREQUENCY[ability.window] * out.turns


def end_estimate(out: Outlook, card: cards.Card) -> float:
    total = 0.0
    for effect in card.end:
        if "per" in effect:
            kind, _, colour = effect["per"].partition(":")
            # Monsters of that colour still to come: about one in three buys.
            later = min(2.0, out.turns * 0.1)
            total += out.counts()[colour] + later if kind == "other_monsters" else 1.0
        elif effect.get("if", {}).get("measure") == "black":
            total += effect.get("n", 1) * (0.8 if out.me["black"] == 0 else 0.3)
        else:
            total += effect.get("n", 1)
    return total


def monster_gain(out: Outlook, card_id: str, price: int) -> float:
    card = cards.card(card_id)
    assert card.colour is not None
    before = out.set_income(out.counts())
    after = out.set_income(out.counts(card.colour))
    kept_sets = min(out.me["kept_candies"].values()) if out.me["kept_candies"] else 0
    starters = sum(1 for m in out.me["monsters"] if m["kind"] == "starting")
    eats = ((card.hunger or 0) + starters) * out.black_candies * max(0.3, out.sugar_value)
    return cast("float", card.value + end_estimate(out, card) + (after - before) * out.turns
                + income(out, card, card.colour) + kept_sets - eats - price * out.sugar_value)


def ability_gain(out: Outlook, card_id: str, price: int, places: Sequence[str]) -> float:
    card = cards.card(card_id)
    best = -99.0
    if "keep" in places:
        candies = dict(out.me["kept_candies"])
        before = min(candies.values())
        candies[card.colour or ""] = candies.get(card.colour or "", 0) + card.value
        future_buys = out.turns * 0.3
        keep = (card.value + (min(candies.values()) - before) * future_buys
                + card.value * out.sugar_value * future_buys / 3)
        best = max(best, keep)
    if any(p != "keep" for p in places):
        best = max(best, 1.0 + income(out, card))
    return best - price * out.sugar_value


def _buy_price(out: Outlook, notation: str) -> tuple[str, int] | None:
    key = notation[4:]
    for pile in ("monsters", "abilities"):
        for c in out.view["market"][pile]:
            if c is None:
                continue
            typed = f"{c['key']} {c['colour']}" if c["kind"] == "ability" else c["key"]
            if typed == key:
                return c["id"], c["price"]
    return None


def _places(out: Outlook, card_id: str) -> list[str]:
    card = cards.card(card_id)
    places = []
    tucked = {cards.card(t["id"]).type for m in out.me["monsters"] for t in m["tucked"]}
    if card.type not in tucked and out.me["monsters"]:
        places.append("tuck")
    if card.type not in {cards.card(k["id"]).type for k in out.me["kept"]}:
        places.append("keep")
    return places


def _use_value(out: Outlook, notation: str) -> tuple[float, str]:
    key = notation[4:]
    for m in out.me["monsters"]:
        for c in (m, *m["tucked"]):
            if c["key"] == key:
                ability = cards.card(c["id"]).ability
                return ability_value(out, ability), ability.window if ability else ""
    return 0.0, ""


def action_values(view: View, actions: Sequence[Action]) -> dict[str, float]:
    """How good each action looks to the player whose view this is."""
    if view.get("viewer") is None:
        return {a.notation: 0.0 for a in actions}
    out = Outlook(view)
    decision = view.get("decision") or {}
    kind = decision.get("kind")
    if kind == "feed":
        return _feed_values(out, actions)
    values: dict[str, float] = {}
    for action in actions:
        values[action.notation] = _value(out, action.notation, kind)
    return values


def _value(out: Outlook, notation: str, kind: str | None) -> float:
    words = notation.split(" ")
    verb = words[0]
    sv = out.sugar_value
    if verb == "use":
        value, window = _use_value(out, notation)
        cost = cards.ability(_card_of(out, notation[4:])).cost
        value -= out.shortfall(out.me["sugar"] - cost) - out.shortfall(out.me["sugar"])
        if value <= 0:
            return -1.0
        costly = cost > 0
        starting = out.view["turn"] is not None and out.view["turn"]["step"] == "start"
        if kind == "buy":
            return FIRST + value
        if starting and costly and window in ("turn", "once"):
            return LATER - 1 + value  # after the action, when the sugar is not needed
        return FIRST + value
    if verb == "pay":
        return ACTION
    if verb == "cancel":
        return 0.0
    if verb == "keep" or verb == "tuck":
        return _place_value(out, notation)
    if verb == "remove":
        n = int(words[1])
        gain = n * (1 - 2 * sv) - out.shortfall(out.me["sugar"] - 2 * n) \
            + out.shortfall(out.me["sugar"])
        return FIRST + gain if gain > 0.05 else -1.0
    if verb == "convert":
        # Sugar and candy score the same at the end; candy cannot be stolen, but sugar buys.
        spare = out.me["sugar"] - cards.kingdom()["convert"] >= out.hunger
        after = out.view["turn"] is not None and out.view["turn"]["step"] == "after"
        return LATER - 4 if out.final and spare and after else -2.0
    if notation == "end turn":
        return LATER - 5
    if verb == "collect":
        return cast("float", ACTION + cards.kingdom()["collect"] * sv + 0.1)
    if verb == "buy":
        found = _buy_price(out, notation)
        if found is None:
            return -1.0
        card_id, price = found
        card = cards.card(card_id)
        after = out.me["sugar"] - price
        if card.is_monster:
            eats = (card.hunger or 0) + sum(1 for m in out.me["monsters"]
                                            if m["kind"] == "starting")
            return ACTION + monster_gain(out, card_id, price) - out.shortfall(after, eats)
        return (ACTION + ability_gain(out, card_id, price, _places(out, card_id))
                - out.shortfall(after))
    return 0.0


def _card_of(out: Outlook, key: str) -> str:
    for m in out.me["monsters"]:
        for c in (m, *m["tucked"]):
            if c["key"] == key:
                return cast("str", c["id"])
    raise KeyError(key)


def _place_value(out: Outlook, notation: str) -> float:
    buying = out.view["turn"]["buying"] if out.view["turn"] else None
    if buying is None:
        return 0.0
    card = cards.card(buying)
    if notation == "keep":
        return ability_gain(out, buying, 0, ["keep"])
    tuck = ability_gain(out, buying, 0, ["tuck"])
    host = next(m for m in out.me["monsters"] if m["key"] == notation[len("tuck under "):])
    # A monster that scores per tucked ability, then one unlikely to be let go.
    bonus = 0.5 if any(e.get("per") == "tucked_here" for e in cards.card(host["id"]).end) else 0
    return cast("float", tuck + bonus + 0.01 * (host["value"] + (card.value and 0)))


def _feed_values(out: Outlook, actions: Sequence[Action]) -> dict[str, float]:
    mine = out.view["feeding"]["mine"] if out.view.get("feeding") else None
    values = {a.notation: -1.0 for a in actions}
    if not mine:
        return values
    decided = {m[0] for m in mine["meals"]}
    to_let_go = _doomed(out, mine, decided)
    for action in actions:
        words = action.notation.split(" ")
        if action.notation == "convert":
            values[action.notation] = -3.0  # feeding first; sugar left over can wait
        elif action.notation == "use none":
            values[action.notation] = 0.0
        elif words[0] == "use":
            # Relief abilities ease hunger: use as many as the step allows.
            values[action.notation] = 10.0 + action.notation.count(" and ")
        elif action.notation == "feed all":
            values[action.notation] = 5.0 if not to_let_go else -1.0
        elif words[0] == "let":
            key = " ".join(words[1:-1])
            values[action.notation] = 8.0 if key in to_let_go else -5.0
        elif words[-1] == "sugar" and not words[-2].isdigit():
            values[action.notation] = 1.0
    return values


def _doomed(out: Outlook, mine: dict[str, Any], decided: set[str]) -> set[str]:
    """Monsters that cost more to feed than they will ever be worth."""
    sugar = mine["sugar"]
    relief = mine["relief"]
    doomed = set()
    monsters = {m["id"]: m for m in out.me["monsters"]}
    for monster_id, need in mine["hunger"]:
        if monster_id in decided or monster_id not in monsters:
            continue
        need = max(0, int(need) - relief)
        relief = max(0, relief - int(need))
        fed = min(sugar, need)
        sugar -= fed
        black = need - fed
        m = monsters[monster_id]
        card = cards.card(monster_id)
        worth = m["value"] + len(m["tucked"]) + end_estimate(out, card)
        if not out.final:
            worth += 2 + income(out, card)
        if black > worth + fed * 0.25:
            doomed.add(card.key)
    return doomed


def choose(view: View, legal: list[Action], rng: Rng) -> Action:
    """The best-valued legal action; ties broken at random."""
    values = action_values(view, legal)
    best = max(values.values())
    return rng.choice([a for a in legal if values[a.notation] >= best - 1e-9])


# --------------------------------------------------------------------------- benchmark
