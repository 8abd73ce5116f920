"""What one seat (or a spectator) may see of a Kingdom's Candy Monsters game."""

from __future__ import annotations

import copy
from functools import cache
from typing import Any, Protocol

from bot.games import engine
from bot.games.candy_monsters import board, cards, effects, feeding, scoring
from bot.games.engine import CardText, Rules, State, View


class CandyMonsters(Rules, Protocol):
    """What the view reads of the rules (a protocol: the rules import this module)."""

    def price(self, state: State, seat: int, card_id: str, extra: int = 0) -> int: ...
    def answer_tag(self, state: State, seat: int, steps: Any) -> str: ...


def describe(card_id: str) -> dict[str, Any]:
    """A card as printed: cost, colour, value, hunger, window, its ability's verbs (for a
    picture to draw as icons) and the generated text."""
    return dict(_printed(card_id))


def brief(card_id: str) -> dict[str, Any]:
    """A card in play, briefly: the rest is in the view's ``cards``."""
    c = cards.card(card_id)
    return {"id": c.id, "key": c.key, "kind": c.kind, "colour": c.colour, "value": c.value}


@cache
def _printed(card_id: str) -> dict[str, Any]:
    c = cards.card(card_id)
    ability = c.ability
    return {
        "id": c.id, "name": c.name, "key": c.key, "kind": c.kind, "colour": c.colour,
        "cost": c.cost, "value": c.value,
        "hunger": c.hunger if c.is_monster else None,
        "window": ability.window if ability else ("end" if c.end else None),
        "activation": ability.cost if ability else 0,
        "effects": copy.deepcopy(list(ability.effects if ability else c.end or c.effects)),
        "text": effects.card_text(c),
    }


def build_view(game: CandyMonsters, state: State, seat: int | None) -> View:
    """The game as ``seat`` sees it (``None``: a spectator). JSON-compatible.

    Schema::

        game, viewer, move, to_act   the engine's fields
        phase        "turn" | "feeding" | "event" | "over": the engine's phase of the round
                     ("turns" reads "turn"), "feeding" while the Black Candy decision is
                     open, "over" once the final count is made
        round        int (the engine's round)
        first        seat holding the first player card
        turn         None | {"seat", "step": "start" | "after", "action": None | "collect" |
                             "buy", "buying": card | None (the card being bought),
                             "fresh": [card ids bought this turn]}
        kingdom      {"sugar", "black", "candy", "tokens"}
        colours      [{"id", "name", "rgb"}]
        market       {"monsters": [card | None] x3, "abilities": [card | None] x3}; each card
                     is :func:`describe` plus "price" (what the viewer would pay, monsters
                     after their kept-colour discount). A described card: {"id", "name",
                     "key", "kind", "colour", "cost", "value", "hunger", "window",
                     "activation", "effects": [the verbs of its ability, end bonus or
                     event, as in data/candy_monsters], "text"}
        decks        {"monsters", "abilities", "events"}: cards left (face down)
        discard      {"monsters", "abilities"}: cards on the discard piles
        events       [card]  events drawn so far, oldest first
        black_candies {"resolved", "left"}
        players      [{"seat", "name", "ai", "sugar", "candy", "black", "score",
                       "monsters": [brief + {"eats": int (now), "used": bool,
                                    "tucked": [brief + {"used", "token"}]}],
                       "kept": [brief], "kept_candies": {colour: n},
                       "set_sugar": int, "set_candy": int (start-of-turn bonus now),
                       "tokens": [card ids with a one-time-use token],
                       "first": bool, "acting": bool, "feeding": "waiting" | "decided" | None}]
        feeding      None | {"card", "waiting": [seats], "decided": [seats],
                     "mine": None | {"steps": [notations], "hunger": [[id, n]],
                                     "sugar": left, "candy": left, "relief": left,
                                     "meals": [[id, how, sugar, candy, black]]}}
                     ("mine" only in the deciding seat's own view)
        last_feeding None | {seat: {"meals", "used", "black", "gone"}} the last Black Candy
        decision     None | the open decision as this seat may see it (engine's form)
        cards        {id: card}  :func:`describe` of every card the players hold and of the
                     card being bought (a brief is {"id", "key", "kind", "colour", "value"})
        final, result
    """
    players = len(state["seats"])
    top = engine.top(state)
    feeding_top = top if top is not None and top.kind == "feed" else None
    t = state["turn"]
    held = [c for p in state["players"] for m in p["monsters"] for c in (m["card"], *m["tucked"])]
    held += [c for p in state["players"] for c in p["kept"]]
    if t is not None and t["purchase"]:
        held.append(t["purchase"]["card"])  # being bought: no longer in the market
    return {
        "game": game.slug,
        "viewer": seat,
        "move": state["move"],
        "to_act": sorted(engine.to_act(game, state)),
        "phase": _phase(game, state, feeding_top),
        "round": engine.round_of(state),
        "first": state["first"],
        "turn": None if t is None else {
            "seat": t["seat"], "step": t["step"], "action": t["action"],
            "buying": t["purchase"]["card"] if t["purchase"] else None,
            "fresh": list(t["fresh"])},
        "kingdom": dict(state["kingdom"]),
        "colours": [dict(c) for c in cards.kingdom()["colours"]],
        "market": {pile: [_market_card(game, state, seat, c) for c in state["market"][pile]]
                   for pile in ("monsters", "abilities")},
        "decks": {pile: len(state["decks"][pile]) for pile in ("monsters", "abilities",
                                                                 "events")},
        "discard": {pile: len(state["discard"][pile]) for pile in ("monsters", "abilities")},
        "events": [describe(c) for c in state["drawn"]],
        "black_candies": {"resolved": state["black_candies"],
                          "left": len(cards.ids_of("black_candy")) - state["black_candies"]},
        "players": [_player(game, state, s, feeding_top) for s in range(players)],
        "feeding": _feeding(game, state, seat, feeding_top),
        "last_feeding": state["last_feeding"],
        "decision": engine.decision_view(state, seat),
        "cards": {c: _printed(c) for c in held},
        "final": state["final"],
        "result": (r.to_json() if (r := game._result(state)) else None),
    }


def _phase(game: CandyMonsters, state: State, feeding_top: Any) -> str:
    if state["final"] is not None:
        return "over"
    if feeding_top is not None:
        return "feeding"
    return "turn" if engine.phase_of(state) == "turns" else "event"


def _market_card(game: CandyMonsters, state: State, seat: int | None,
                 card_id: str | None) -> dict[str, Any] | None:
    if card_id is None:
        return None
    out = describe(card_id)
    out["price"] = game.price(state, seat, card_id) if seat is not None else out["cost"]
    return out


def _player(game: CandyMonsters, state: State, seat: int, top: Any) -> dict[str, Any]:
    p = board.player(state, seat)
    hunger = dict((str(m), int(n)) for m, n in feeding.hunger_of(state, seat))
    counts = board.colour_counts(state, seat)
    table = cards.kingdom()["monster_set_sugar"]
    monsters = []
    for entry in p["monsters"]:
        card = brief(entry["card"])
        card["eats"] = hunger[entry["card"]]
        card["used"] = entry["card"] in p["used"]
        card["tucked"] = [{**brief(a), "used": a in p["used"], "token": a in p["tokens"]}
                          for a in entry["tucked"]]
        monsters.append(card)
    status = None
    if top is not None and seat in top.seats:
        status = "decided" if seat in top.answered else "waiting"
    t = state["turn"]
    return {
        "seat": seat, "name": engine.seat_name(state, seat), "ai": state["seats"][seat]["ai"],
        "sugar": p["sugar"], "candy": p["candy"], "black": p["black"],
        "score": scoring.breakdown(state, seat)["total"],
        "monsters": monsters,
        "kept": [brief(a) for a in p["kept"]],
        "kept_candies": board.kept_candies(state, seat),
        "set_sugar": sum(table[str(min(n, 4))] for n in counts.values() if n >= 2),
        "set_candy": board.full_sets(counts),
        "tokens": list(p["tokens"]),
        "first": seat == state["first"],
        "acting": t is not None and t["seat"] == seat and engine.phase_of(state) == "turns",
        "feeding": status,
    }


def _feeding(game: CandyMonsters, state: State, seat: int | None,
             top: Any) -> dict[str, Any] | None:
    if top is None:
        return None
    out: dict[str, Any] = {"card": top.data["card"], "waiting": list(top.waiting),
                           "decided": list(top.answered), "mine": None}
    if seat is not None and str(seat) in top.data["hunger"]:
        hunger = top.data["hunger"][str(seat)]
        steps = list(top.steps.get(seat, ()))
        plan = feeding.plan(state, seat, hunger, steps)
        out["mine"] = {
            "answer": game.answer_tag(state, seat, steps) if steps else None,
            "steps": steps, "hunger": hunger, "sugar": plan.sugar, "candy": plan.candy,
            "relief": plan.relief,
            "meals": [[m.monster, m.how, m.sugar, m.candy, m.black]
                      for m in plan.meals.values()],
        }
    return out


def card_texts(view: View) -> list[CardText]:
    """Every card ``view`` shows, each once with every place it lies, in the picture's
    order: the cards for sale, each player's monsters with the abilities tucked under
    them and kept, and the events drawn. A card's facts are its kind, colour, price,
    worth and hunger; its text is what it does."""
    found: dict[str, tuple[dict[str, Any], list[str]]] = {}

    def add(card: dict[str, Any], place: str) -> None:
        found.setdefault(card["id"], (card, []))[1].append(place)

    for pile in ("monsters", "abilities"):
        for card in view["market"][pile]:
            if card is not None:
                add(card, "for sale")
    held = view["cards"]
    for p in view["players"]:
        for m in p["monsters"]:
            monster = held[m["id"]]
            add(monster, f"{p['name']}'s monster" + (", used" if m["used"] else ""))
            for a in m["tucked"]:
                add(held[a["id"]], f"{p['name']}, under {monster['name']}"
                    + (", used" if a["used"] else ""))
        for a in p["kept"]:
            add(held[a["id"]], f"{p['name']}, kept")
    for event in view["events"]:
        add(event, "events drawn")
    return [CardText(card["name"], _facts(card), tuple(places), str(card["text"]))
            for card, places in found.values()]


def _facts(card: dict[str, Any]) -> str:
    """ "monster, red, 5 sugar, worth 3, eats 2"; "ability, red, 4 sugar, worth 1";
    "event"; "Black Candy"."""
    kind = str(card["kind"])
    names = {"starting": "starting monster", "black_candy": "Black Candy"}
    if kind not in ("starting", "monster", "ability"):
        return names.get(kind, kind.replace("_", " "))
    facts = [names.get(kind, kind), str(card["colour"]),
             f"{card.get('price', card['cost'])} sugar", f"worth {card['value']}"]
    if kind != "ability":
        hunger = card["hunger"]
        facts.append("eats 1 per other monster" if hunger is None else f"eats {hunger}")
    return ", ".join(facts)
