"""The kingdom and the players' tables as plain JSON, and the moves of tokens and cards.

State fields used here::

    kingdom  {"sugar", "black", "candy", "tokens"}   what the kingdom holds (by value)
    players  [{"sugar", "candy", "black",
               "monsters": [{"card": id, "tucked": [ability ids]}],   in the order bought
               "kept": [ability ids], "used": [card ids used this round],
               "tokens": [card ids carrying a one-time-use token]}]
    decks    {"monsters": [ids], "abilities": [ids], "events": [ids]}   the end is the top
    market   {"monsters": [id | None] * 3, "abilities": [id | None] * 3}
    discard  {"monsters": [ids], "abilities": [ids]}
    box      [ids]   starting monsters not in play

Every token moves between the kingdom and a player, so the totals never change.
"""

from __future__ import annotations

from typing import Any, cast

from bot.games.candy_monsters import cards
from bot.games.engine import State, Turn
from bot.games.pieces import seats_from

Player = dict[str, Any]


def player(state: State, seat: int) -> Player:
    return cast("dict[str, Any]", state["players"][seat])


def monster_ids(state: State, seat: int) -> list[str]:
    return [m["card"] for m in player(state, seat)["monsters"]]


def monster_entry(state: State, seat: int, monster: str) -> dict[str, Any] | None:
    return next((m for m in player(state, seat)["monsters"] if m["card"] == monster), None)


def tucked_ids(state: State, seat: int) -> list[str]:
    return [a for m in player(state, seat)["monsters"] for a in m["tucked"]]


def host_of(state: State, seat: int, ability: str) -> str | None:
    """The monster an ability is tucked under."""
    for m in player(state, seat)["monsters"]:
        if ability in m["tucked"]:
            return cast("str | None", m["card"])
    return None


def active_cards(state: State, seat: int) -> list[str]:
    """Cards whose abilities the seat may use: its monsters and their tucked abilities."""
    out = []
    for m in player(state, seat)["monsters"]:
        out.append(m["card"])
        out.extend(m["tucked"])
    return out


def colour_counts(state: State, seat: int) -> dict[str, int]:
    """Monsters per candy colour."""
    counts = {c: 0 for c in cards.colours()}
    for monster in monster_ids(state, seat):
        colour = cards.card(monster).colour
        if colour:
            counts[colour] += 1
    return counts


def kept_candies(state: State, seat: int) -> dict[str, int]:
    """Candies shown on the seat's kept (untucked) abilities, per colour."""
    counts = {c: 0 for c in cards.colours()}
    for ability in player(state, seat)["kept"]:
        c = cards.card(ability)
        if c.colour:
            counts[c.colour] += c.value
    return counts


def full_sets(counts: dict[str, int]) -> int:
    """How many separate sets of one of each colour the counts hold."""
    return min(counts.values()) if counts else 0


def measure(state: State, seat: int, name: str, source: str | None = None) -> int:
    """A number about one seat that card texts and conditions refer to."""
    p = player(state, seat)
    kind, _, colour = name.partition(":")
    if kind == "monsters":
        return colour_counts(state, seat)[colour] if colour else len(p["monsters"])
    if kind == "other_monsters":
        mine = source is not None and cards.card(source).colour == colour
        return colour_counts(state, seat)[colour] - (1 if mine else 0)
    if kind == "colours":
        return sum(1 for n in colour_counts(state, seat).values() if n)
    if kind == "tucked":
        return len(tucked_ids(state, seat))
    if kind == "tucked_here":
        entry = monster_entry(state, seat, source or "")
        return len(entry["tucked"]) if entry else 0
    if kind == "kept":
        return len(p["kept"])
    if kind in ("sugar", "candy", "black"):
        return int(p[kind])
    raise ValueError(f"unknown measure {name!r}")


def holds(state: State, seat: int, condition: dict[str, Any] | None,
          source: str | None = None) -> bool:
    """Does ``seat`` meet a card's condition? Ties on most/fewest all meet it."""
    if not condition:
        return True
    players = range(len(state["players"]))
    if "most" in condition:
        values = [measure(state, s, condition["most"]) for s in players]
        return values[seat] == max(values)
    if "fewest" in condition:
        values = [measure(state, s, condition["fewest"]) for s in players]
        return values[seat] == min(values)
    value = measure(state, seat, condition["measure"], source)
    if "at_least" in condition and value < condition["at_least"]:
        return False
    return not ("at_most" in condition and value > condition["at_most"])


# --------------------------------------------------------------------------- tokens


def gain_sugar(state: State, seat: int, n: int) -> int:
    """Take up to ``n`` sugar from the kingdom; returns how many came."""
    return _moved(state["kingdom"], player(state, seat), "sugar", n)


def pay_sugar(state: State, seat: int, n: int) -> int:
    """Return up to ``n`` sugar to the kingdom; returns how many went."""
    return _moved(player(state, seat), state["kingdom"], "sugar", n)


def gain_candy(state: State, seat: int, n: int) -> int:
    """Take up to ``n`` candies from the kingdom; returns how many came."""
    return _moved(state["kingdom"], player(state, seat), "candy", n)


def pay_candy(state: State, seat: int, n: int) -> int:
    """Return up to ``n`` candies to the kingdom; returns how many went."""
    return _moved(player(state, seat), state["kingdom"], "candy", n)


def _moved(source: dict[str, Any], to: dict[str, Any], token: str, n: int) -> int:
    """Move up to ``n`` of ``token`` (as many as ``source`` holds) from ``source`` to ``to``;
    returns how many moved."""
    moved = max(0, min(n, source[token]))
    source[token] -= moved
    to[token] += moved
    return cast("int", moved)


def take_black(state: State, seat: int, n: int) -> tuple[int, int]:
    """Take ``n`` black cubes; a cube the kingdom lacks costs 1 candy instead.

    Returns (black cubes taken, candies paid in their place).
    """
    taken = min(n, state["kingdom"]["black"])
    state["kingdom"]["black"] -= taken
    player(state, seat)["black"] += taken
    return taken, pay_candy(state, seat, n - taken)


def remove_black(state: State, seat: int, n: int) -> int:
    """Return up to ``n`` of the seat's black cubes to the kingdom."""
    removed = max(0, min(n, player(state, seat)["black"]))
    player(state, seat)["black"] -= removed
    state["kingdom"]["black"] += removed
    return cast("int", removed)


def seats_after(state: State, seat: int) -> list[int]:
    """The other seats in turn order after ``seat``."""
    return seats_from(seat, len(state["players"]))[1:]


def richest_other(state: State, seat: int) -> int | None:
    """The other player with the most sugar (ties: the first after ``seat`` in turn order)."""
    best = None
    for other in seats_from(seat, len(state["players"]))[1:]:
        sugar = player(state, other)["sugar"]
        if sugar > 0 and (best is None or sugar > player(state, best)["sugar"]):
            best = other
    return best


def take_sugar_from(state: State, seat: int, victim: int, n: int) -> int:
    taken = max(0, min(n, player(state, victim)["sugar"]))
    player(state, victim)["sugar"] -= taken
    player(state, seat)["sugar"] += taken
    return cast("int", taken)


# --------------------------------------------------------------------------- cards


def draw(state: State, pile: str, turn: Turn) -> str | None:
    """The top card of a deck; an empty deck is first refilled from its shuffled discard."""
    deck = state["decks"][pile]
    if not deck and state["discard"].get(pile):
        deck.extend(state["discard"][pile])
        state["discard"][pile] = []
        turn.rng.shuffle(deck)
        turn.say(f"The {pile[:-1]} deck ran out: its discard pile is shuffled into a new deck.",
                 None, "reshuffle", reveals=True)
    return deck.pop() if deck else None


def refill(state: State, pile: str, slot: int, turn: Turn) -> str | None:
    """Fill an empty face-up slot of the market from its deck."""
    drawn = draw(state, pile, turn)
    state["market"][pile][slot] = drawn
    return drawn


def discard_card(state: State, card_id: str) -> None:
    """Put a card on its discard pile; a starting monster goes back to the box."""
    c = cards.card(card_id)
    if c.kind == "starting":
        state["box"].append(card_id)
    elif c.kind == "monster":
        state["discard"]["monsters"].append(card_id)
    else:
        state["discard"]["abilities"].append(card_id)
    for p in state["players"]:
        if card_id in p["tokens"]:
            p["tokens"].remove(card_id)
            state["kingdom"]["tokens"] += 1
        if card_id in p["used"]:
            p["used"].remove(card_id)


def let_go(state: State, seat: int, monster: str) -> list[str]:
    """Discard a monster and everything tucked under it; returns the tucked ids."""
    p = player(state, seat)
    entry = monster_entry(state, seat, monster)
    assert entry is not None, monster
    p["monsters"].remove(entry)
    discard_card(state, monster)
    for ability in entry["tucked"]:
        discard_card(state, ability)
    return list(entry["tucked"])
