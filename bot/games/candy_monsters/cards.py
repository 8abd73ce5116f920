"""The cards of Kingdom's Candy Monsters, read from ``data/candy_monsters/``.

Every card is a :class:`Card`; its ability (or an event's effect) is data, a
list of verbs that :mod:`bot.games.candy_monsters.effects` interprets and turns
into the printed text. Cards are found by id (``magmot``, ``pickpocket-red``,
``black-candy-2``) and, for typed moves, by key (``oni baba``, ``im inevitable``).

A card changed by a newer rules version gets a new id (``sugar-rush-3-red``) and
the old one stays in the catalogue with ``until``, the last rules version it is
dealt in: a stored game holds card ids, so it keeps the cards it was dealt, and
:func:`ids_of` deals each rules version its own cards.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from typing import Any, cast

from bot.games.content import load_json

PACKAGE = "candy_monsters"

#: Where an ability may be used, in the order the rulebook lists the symbols.
WINDOWS: tuple[str, ...] = ("turn", "start", "collect", "buy_ability", "buy_monster",
                            "black_candy", "once", "event")


@dataclass(frozen=True)
class Ability:
    """What a card lets its owner do: when, at what price, and the verbs it runs."""

    window: str
    cost: int
    effects: tuple[dict[str, Any], ...]


@dataclass(frozen=True)
class Card:
    """One card as printed."""

    id: str
    name: str
    #: "starting", "monster", "ability", "event", "black_candy" or "first_player".
    kind: str
    colour: str | None = None
    cost: int = 0
    value: int = 0
    #: Sugar eaten at Black Candy; ``None`` for a starting monster (1 per other monster).
    hunger: int | None = None
    ability: Ability | None = None
    #: End-game bonus verbs (``score``).
    end: tuple[dict[str, Any], ...] = ()
    #: The ability type (``pickpocket``) of an ability card.
    type: str | None = None
    #: An event's condition and effects.
    condition: dict[str, Any] | None = None
    effects: tuple[dict[str, Any], ...] = field(default_factory=tuple)
    #: The rules versions that deal this card: ``since`` to ``until`` (``None``: still dealt).
    since: int = 1
    until: int | None = None

    def dealt_in(self, rules: int | None) -> bool:
        """Is this card dealt in games of rules ``rules`` (``None``: the newest)?"""
        if rules is None:
            return self.until is None
        return self.since <= rules and (self.until is None or rules <= self.until)

    @property
    def key(self) -> str:
        """The card's name as typed in moves: ``oni baba``, ``im inevitable``."""
        return name_key(self.type_name if self.kind == "ability" else self.name)

    @property
    def type_name(self) -> str:
        """The name without the colour (abilities share it across their three copies)."""
        return self.name

    @property
    def is_monster(self) -> bool:
        return self.kind in ("starting", "monster")


@cache
def name_key(name: str) -> str:
    """A printed name as it is typed: lower case, no apostrophes, hyphens as spaces."""
    text = name.lower().replace("'", "").replace("’", "").replace("-", " ")
    return " ".join(text.split())


def _ability(raw: dict[str, Any] | None) -> Ability | None:
    if raw is None:
        return None
    return Ability(raw["window"], int(raw.get("cost", 0)), tuple(raw["effects"]))


@cache
def kingdom() -> dict[str, Any]:
    """The supply, the fixed numbers of a turn and the colours."""
    return cast("dict[str, Any]", load_json(PACKAGE, "kingdom.json"))


@cache
def colours() -> tuple[str, ...]:
    return tuple(c["id"] for c in kingdom()["colours"])


@cache
def colour_rgb() -> dict[str, tuple[int, int, int]]:
    return {c["id"]: tuple(c["rgb"]) for c in kingdom()["colours"]}


@cache
def supply() -> dict[str, int]:
    """The kingdom's tokens by value: sugar, black cubes, candy, one-time-use tokens."""
    raw = kingdom()["supply"]
    return {
        "sugar": raw["sugar_small"] + raw["sugar_large"] * raw["sugar_large_worth"],
        "black": raw["black"],
        "candy": raw["candy_ones"] + 5 * raw["candy_fives"],
        "tokens": raw["tokens"],
    }


def _in_place(current: list[dict[str, Any]],
              retired: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The current entries with each retired one just before its successor (same name), so
    every rules version deals its cards in the order it always did (the shuffles agree)."""
    out: list[dict[str, Any]] = []
    for raw in current:
        out.extend(old for old in retired if old["name"] == raw["name"])
        out.append(raw)
    return out


@cache
def catalogue() -> dict[str, Card]:
    """Every card by id."""
    cards: dict[str, Card] = {}
    monsters = load_json(PACKAGE, "monsters.json")
    for raw in monsters["starting"]:
        cards[raw["id"]] = Card(raw["id"], raw["name"], "starting", raw["colour"], 0,
                                raw["value"], None, _ability(raw.get("ability")),
                                tuple(raw.get("end", ())))
    for raw in _in_place(monsters["deck"], monsters.get("retired", [])):
        cards[raw["id"]] = Card(raw["id"], raw["name"], "monster", raw["colour"], raw["cost"],
                                raw["value"], raw["hunger"], _ability(raw.get("ability")),
                                tuple(raw.get("end", ())), since=raw.get("since", 1),
                                until=raw.get("until"))
    abilities = load_json(PACKAGE, "abilities.json")
    for raw in _in_place(abilities["types"], abilities.get("retired", [])):
        for colour in colours():
            card_id = f"{raw['id']}-{colour}"
            cards[card_id] = Card(card_id, raw["name"], "ability", colour, raw["cost"],
                                  raw["value"], None, _ability(raw["ability"]), (),
                                  raw["id"], since=raw.get("since", 1), until=raw.get("until"))
    events = load_json(PACKAGE, "events.json")
    for raw in events["events"]:
        cards[raw["id"]] = Card(raw["id"], raw["name"], "event", condition=raw.get("if"),
                                effects=tuple(raw["effects"]))
    black = events["black_candy"]
    for n in range(1, black["count"] + 1):
        card_id = f"{black['id']}-{n}"
        cards[card_id] = Card(card_id, black["name"], "black_candy")
    first = kingdom()["first_player"]
    cards[first["id"]] = Card(first["id"], first["name"], "first_player",
                              ability=_ability(first["ability"]))
    return cards


def card(card_id: str) -> Card:
    return catalogue()[card_id]


def ability(card_id: str) -> Ability:
    """The ability of an ability card (or a monster that has one)."""
    found = card(card_id).ability
    if found is None:
        raise KeyError(f"card {card_id} has no ability")
    return found


def ids_of(kind: str, rules: int | None = None) -> list[str]:
    """Card ids of one kind dealt under rules ``rules`` (``None``: the newest), in data order."""
    return [c.id for c in catalogue().values() if c.kind == kind and c.dealt_in(rules)]


def dealt(rules: int | None = None) -> list[str]:
    """Every card id a game of rules ``rules`` holds somewhere (not the first player card)."""
    return [c.id for c in catalogue().values()
            if c.kind != "first_player" and c.dealt_in(rules)]


@cache
def ability_types(rules: int | None = None) -> tuple[str, ...]:
    """The ability types dealt under rules ``rules`` (``None``: the newest)."""
    return tuple(dict.fromkeys(card(c).type or "" for c in ids_of("ability", rules)))


@cache
def typed_keys() -> dict[str, str]:
    """Typed key -> what it names: a monster id, or an ability type id."""
    out: dict[str, str] = {}
    for c in catalogue().values():
        if c.is_monster:
            out[c.key] = c.id
        elif c.kind == "ability":
            out[c.key] = c.type or c.id
    return out


def piles() -> tuple[int, int]:
    """(number of event piles, ordinary events per pile)."""
    raw = load_json(PACKAGE, "events.json")
    return raw["piles"], raw["events_per_pile"]


def is_black_candy(card_id: str) -> bool:
    return catalogue()[card_id].kind == "black_candy"
