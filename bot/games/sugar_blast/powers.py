"""Power cards: the one interpreter of ``data/sugar_blast/power_cards.json``.

A card is data: its template type (``board``: tokens never leave the board;
``pile``: tokens that leave wait in a pile and all come back together;
``discard``: players gain tokens and discard one to use it; ``card``: the token
stays on the card), where its tokens go, and a few effects, each a
``(hook, verb)`` pair, or the event that earns a token (``gain``) and what
discarding one does (``use``). The rules call the hooks here at fixed moments:
when a swap is checked and a Blast is looked for (:func:`board_rules`), when
chips are removed (:func:`removal`), when a candy is kept (:func:`bonus_keeps`),
when the board tilts and refills (:func:`board_rules` anchors,
:func:`move_tokens`, :func:`return_piles`) and when something happens that earns
tokens (:func:`gain`). Each hook only looks up verbs; nothing here knows a card
by its id. The texts players read are generated from the same data
(:func:`card_text`), so what a card says and what it does cannot disagree.

The state of the cards in play lives in ``state["power"]`` and exists only when
power cards are in play, so a basic game's states are exactly what they were.
"""

from __future__ import annotations

import copy
import re
from dataclasses import dataclass
from typing import Any, cast

from bot.games.content import by_id, load_json
from bot.games.engine import Action, OptionsError, State
from bot.games.grid import Cell, cell_name, neighbours, parse_cell
from bot.games.rng import Rng
from bot.games.sugar_blast import board as bd
from bot.games.sugar_blast import objectives as obj

NONE = "none"
RANDOM = ("random 1", "random 2")

#: Verbs of the board hooks and the :class:`bd.BoardRules` field each fills.
_BOARD_VERBS = {("match", "wild"): "wild", ("match", "blocked"): "blocked",
                ("swap", "locked"): "locked", ("tilt", "anchor"): "anchors"}
#: Which event earns a ``discard`` card's token, and for whom.
_GAINS = {"own_big_blast": ("big_blast", "self"), "rival_big_blast": ("big_blast", "others"),
          "chain": ("chain", "self"), "empty_turn": ("empty_turn", "self")}
#: Verbs a discarded token can do; the notation's first word is the card's id.
USES = ("diagonal_swap", "take_chip", "extra_turn", "take_kept")
#: Uses that are a turn action (the others come at a fixed moment of the turn).
TURN_USES = ("diagonal_swap", "take_chip", "take_kept")


# --------------------------------------------------------------------------- the cards


def cards() -> list[dict[str, Any]]:
    """All twelve power cards, in the order of the data file."""
    return list(load_json("sugar_blast", "power_cards.json")["cards"])


def card(card_id: str) -> dict[str, Any]:
    return by_id(cards(), card_id)


def ids() -> list[str]:
    return [c["id"] for c in cards()]


def token_name(entry: dict[str, Any], count: int = 1) -> str:
    return str(entry["token"][0] if count == 1 else entry["token"][1])


def _a(noun: str) -> str:
    return f"{'an' if noun[0] in 'aeiou' else 'a'} {noun}"


def effects(entry: dict[str, Any], hook: str) -> list[str]:
    """The verbs a card has at ``hook``."""
    return [e["verb"] for e in entry.get("effects", []) if e["hook"] == hook]


def in_play(state: State) -> list[str]:
    power = state.get("power")
    return list(power["cards"]) if power else []


# --------------------------------------------------------------------------- the option

_SPLIT = re.compile(r"\s*(?:\+|,|&|\band\b)\s*")


def option_choices() -> tuple[str, ...]:
    """The values of the ``power`` option other than pairs (those join two ids by ``+``)."""
    return (NONE, *RANDOM, *ids())


def _card_id(text: str) -> str | None:
    for entry in cards():
        names = {entry["id"], entry["name"].lower(), token_name(entry).lower(),
                 token_name(entry, 2).lower()}
        if text in names:
            return str(entry["id"])
    return None


def parse_option(value: Any) -> str:
    """The canonical ``power`` option: none, random 1, random 2, ``bomb`` or ``bomb + wild``.

    Named cards may be given by id or name, joined by ``+``, ``,`` or ``and``,
    in any order; a pair is written in the order of the card list.
    """
    text = re.sub(r"\s+", " ", str(value).strip().lower())
    if text in (NONE, "", "no", "off", "0"):
        return NONE
    if text in RANDOM or text in ("random", "1", "2"):
        return {"random": "random 1", "1": "random 1", "2": "random 2"}.get(text, text)
    parts = [p for p in _SPLIT.split(text) if p]
    chosen = [_card_id(p) for p in parts]
    if not parts or len(parts) > 2 or None in chosen:
        unknown = next((p for p, c in zip(parts, chosen, strict=True) if c is None), text)
        raise OptionsError(
            f"Option 'power' cannot be {unknown!r}: choose none, random 1, random 2, or one or "
            f"two power cards joined by +, e.g. “bomb + wild”. The cards: {', '.join(ids())}.")
    if len(set(chosen)) != len(chosen):
        raise OptionsError("Option 'power' names the same card twice: choose two different "
                           "cards, or just one.")
    order = ids()
    return " + ".join(sorted((c for c in chosen if c), key=order.index))


def suggestions(current: str) -> list[str]:
    """Up to 25 values of the ``power`` option matching what a player has typed so far.

    ``bomb`` offers the Candy Bombs card and every pair with it; ``bomb +``
    offers the pairs only.
    """
    text = current.strip().lower()
    singles = list(option_choices())
    pairs = [f"{a} + {b}" for i, a in enumerate(ids()) for b in ids()[i + 1:]]
    if not text:
        return singles[:25]
    head = [p.strip() for p in _SPLIT.split(text)]
    words = [w for w in head if w]
    found = [v for v in singles + pairs
             if all(any(part.startswith(w) for part in v.split(" + ")) for w in words)
             or text in v]
    if len(head) > 1:  # "bomb +": the pairs only
        found = [v for v in found if " + " in v]
    return found[:25]


def chosen_cards(option: str, rng: Rng) -> list[str]:
    """The cards a ``power`` option puts in play; random ones are drawn from ``rng``."""
    order = ids()
    if option == NONE:
        return []
    if option in RANDOM:
        deck = list(order)
        rng.shuffle(deck)
        return sorted(deck[: int(option[-1])], key=order.index)
    return option.split(" + ")


# --------------------------------------------------------------------------- set-up


def setup(state: State, option: str, rng: Rng) -> None:
    """Draw the cards and lay out their tokens, after the basic set-up."""
    chosen = chosen_cards(option, rng)
    power: dict[str, Any] = {"cards": chosen, "chips": {}, "spaces": {}, "pile": {},
                             "supply": {}, "hands": [{} for _ in state["seats"]],
                             "marker": None, "progress": 0, "extra": False}
    state["power"] = power
    for card_id in chosen:
        entry = card(card_id)
        if entry["type"] == "pile":
            power["pile"][card_id] = 0
        if entry["place"] in ("chip", "space"):
            placed = _place(state, card_id, int(entry["tokens"]), rng, avoid_blasts=True)
            if entry["type"] == "pile":
                power["pile"][card_id] = int(entry["tokens"]) - placed
        elif entry["place"] == "hand":
            power["supply"][card_id] = int(entry["tokens"])
        else:
            power["marker"] = rng.choice(obj.candy_kinds())


def _place(state: State, card_id: str, count: int, rng: Rng, avoid_blasts: bool) -> int:
    """Put up to ``count`` tokens of a card on random free candies or spaces."""
    power, board = state["power"], state["board"]
    layer = power["chips"] if card(card_id)["place"] == "chip" else power["spaces"]
    free = [c for c in bd.all_cells() if cell_name(c) not in layer
            and (layer is power["spaces"] or bd.at(board, c) is not None)]
    rng.shuffle(free)
    placed = 0
    for cell in free:
        if placed == count:
            break
        layer[cell_name(cell)] = card_id
        if avoid_blasts and bd.has_blast(board, board_rules(power)):
            del layer[cell_name(cell)]
            continue
        placed += 1
    return placed


# --------------------------------------------------------------------------- board hooks


def board_rules(power: dict[str, Any]) -> bd.BoardRules:
    """What the tokens on the board change for swaps, Blasts and the tilt."""
    sets: dict[str, set[Cell]] = {field: set() for field in _BOARD_VERBS.values()}
    for layer in ("chips", "spaces"):
        for name, card_id in power[layer].items():
            cell = parse_cell(name, bd.SIZE, bd.SIZE)
            assert cell is not None
            for effect in card(card_id).get("effects", []):
                field = _BOARD_VERBS.get((effect["hook"], effect["verb"]))
                if field:
                    sets[field].add(cell)
    return bd.BoardRules(**{k: frozenset(v) for k, v in sets.items()})


def swap_tokens(power: dict[str, Any], a: Cell, b: Cell) -> None:
    """Tokens on candies travel with them when they are swapped."""
    chips = power["chips"]
    na, nb = cell_name(a), cell_name(b)
    ta, tb = chips.pop(na, None), chips.pop(nb, None)
    if ta:
        chips[nb] = ta
    if tb:
        chips[na] = tb


def move_tokens(power: dict[str, Any], moves: dict[Cell, Cell]) -> None:
    """Tokens on candies slide with them when the board tilts."""
    chips = {}
    for name, card_id in power["chips"].items():
        cell = parse_cell(name, bd.SIZE, bd.SIZE)
        assert cell is not None
        chips[cell_name(moves.get(cell, cell))] = card_id
    power["chips"] = chips


@dataclass(frozen=True)
class Removal:
    """What a Blast removes once the tokens have had their say."""

    cells: tuple[Cell, ...]
    """Every cell emptied: the Blast's own and those cleared by tokens."""
    cleared: tuple[Cell, ...]
    """Cells emptied by tokens (a bomb's square), not by the Blast itself."""
    kept_cells: tuple[tuple[Cell, str], ...]
    """Cells whose candy the player keeps as well (a star under it), with that card."""
    full: tuple[str, ...]
    """Cards whose pile this Blast filled."""
    freed: tuple[Cell, ...]
    """Candies that stay but lost their token (a cage broken beside the Blast)."""


def removal(state: State, cells: tuple[Cell, ...]) -> Removal:
    """The ``removed`` hook: widen a Blast by its tokens and send tokens to their piles.

    Call before the cells are emptied. Tokens on removed candies leave the
    board with them (to their pile); a pile token on a space leaves when the
    candy on it is blasted; ``board`` tokens stay for good.
    """
    power, board = state["power"], state["board"]
    gone = [c for c in cells if bd.at(board, c) is not None]
    cleared: list[Cell] = []
    queue = [c for c in gone if "clear_square" in _verbs_on(power, c, "removed")]
    while queue:
        col, row = queue.pop(0)
        for dr in (-1, 0, 1):
            for dc in (-1, 0, 1):
                cell = (col + dc, row + dr)
                if not (0 <= cell[0] < bd.SIZE and 0 <= cell[1] < bd.SIZE) or cell in gone \
                        or bd.at(board, cell) is None:
                    continue
                gone.append(cell)
                cleared.append(cell)
                if "clear_square" in _verbs_on(power, cell, "removed"):
                    queue.append(cell)
    kept_cells = tuple((c, power[layer][cell_name(c)]) for c in gone
                       for layer in ("chips", "spaces") if cell_name(c) in power[layer]
                       and "keep_chip" in effects(card(power[layer][cell_name(c)]), "removed"))
    before = dict(power["pile"])
    for cell in gone:
        name = cell_name(cell)
        _leave(power, power["chips"], name)
        if name in power["spaces"] and card(power["spaces"][name])["type"] == "pile":
            _leave(power, power["spaces"], name)
    gone_set = set(gone)
    freed = []
    for name, card_id in sorted(power["chips"].items()):
        caged = parse_cell(name, bd.SIZE, bd.SIZE)
        assert caged is not None
        if "break_by_neighbour" in effects(card(card_id), "removed") and \
                any(n in gone_set for n in neighbours(caged, bd.SIZE, bd.SIZE)):
            _leave(power, power["chips"], name)
            freed.append(caged)
    full = tuple(c for c in power["cards"] if c in power["pile"]
                 and power["pile"][c] == int(card(c)["tokens"]) > before[c])
    return Removal(tuple(gone), tuple(cleared), kept_cells, full, tuple(freed))


def _verbs_on(power: dict[str, Any], cell: Cell, hook: str) -> list[str]:
    name = cell_name(cell)
    verbs: list[str] = []
    for layer in ("chips", "spaces"):
        if name in power[layer]:
            verbs.extend(effects(card(power[layer][name]), hook))
    return verbs


def _leave(power: dict[str, Any], layer: dict[str, str], name: str) -> None:
    card_id = layer.pop(name, None)
    if card_id is None:
        return
    assert card(card_id)["type"] == "pile", f"{card_id} tokens never leave the board"
    power["pile"][card_id] += 1


def take(power: dict[str, Any], cell: Cell) -> None:
    """A candy taken off the board by hand (not by a Blast) takes its token to the pile."""
    _leave(power, power["chips"], cell_name(cell))


def return_piles(state: State, rng: Rng) -> list[tuple[str, int]]:
    """Full piles go back on the board at random; returns ``(card, tokens placed)``."""
    power = state["power"]
    back = []
    for card_id in power["cards"]:
        entry = card(card_id)
        if entry["type"] != "pile" or power["pile"][card_id] < int(entry["tokens"]):
            continue
        placed = _place(state, card_id, power["pile"][card_id], rng, avoid_blasts=False)
        power["pile"][card_id] -= placed
        if placed:
            back.append((card_id, placed))
    return back


# --------------------------------------------------------------------------- keep hooks


def bonus_keeps(state: State, blast: bd.Blast, removed: Removal,
                kinds: dict[Cell, str]) -> list[tuple[str, str]]:
    """The ``kept`` hook: extra candies a Blast lets the player keep, with why.

    ``kinds`` are the candies that were on the removed cells. Moves the
    flavour marker on when its kind was blasted.
    """
    power = state["power"]
    out: list[tuple[str, str]] = []
    for cell, card_id in removed.kept_cells:
        entry = card(card_id)
        out.append((kinds[cell], f"the {token_name(entry)} on {cell_name(cell)}"))
    for card_id in power["cards"]:
        entry = card(card_id)
        if "bonus_kind" in effects(entry, "kept") and power["marker"] == blast.candy:
            out.append((blast.candy, entry["name"]))
            order = obj.candy_kinds()
            power["marker"] = order[(order.index(blast.candy) + 1) % len(order)]
    for card_id in removed.full:
        entry = card(card_id)
        if "keep_matched" in effects(entry, "pile_full"):
            out.append((blast.candy, f"the last {token_name(entry)} on the pile"))
    return out


# --------------------------------------------------------------------------- tokens in hand


def gain(state: State, event: str, seat: int) -> list[tuple[int, str]]:
    """Hand out tokens that ``event`` (made by ``seat``) earns; returns who took what."""
    power = state["power"]
    count = len(state["seats"])
    taken = []
    for card_id in power["cards"]:
        rule = _GAINS.get(card(card_id).get("gain", ""))
        if rule is None or rule[0] != event:
            continue
        takers = [seat] if rule[1] == "self" else [(seat + i) % count for i in range(1, count)]
        for taker in takers:
            if power["supply"][card_id] == 0:
                break
            power["supply"][card_id] -= 1
            hand = power["hands"][taker]
            hand[card_id] = hand.get(card_id, 0) + 1
            taken.append((taker, card_id))
    return taken


def holds(state: State, seat: int, use: str) -> str | None:
    """The card in ``seat``'s hand whose use is ``use``, if any."""
    power = state.get("power")
    if not power:
        return None
    for card_id, n in power["hands"][seat].items():
        if n and card(card_id).get("use") == use:
            return str(card_id)
    return None


def discard(state: State, seat: int, card_id: str) -> None:
    """Use a token: it goes back on its card, ready to be gained again."""
    power = state["power"]
    hand = power["hands"][seat]
    hand[card_id] -= 1
    if not hand[card_id]:
        del hand[card_id]
    power["supply"][card_id] += 1


def use_of(word: str) -> str | None:
    """The use of the card whose id is the notation's first word."""
    try:
        entry = card(word)
    except KeyError:
        return None
    use = entry.get("use")
    return str(use) if use else None


def token_count(power: dict[str, Any], card_id: str) -> int:
    """Every token of a card wherever it is: board, pile, card or a player's hand."""
    on_board = sum(1 for layer in ("chips", "spaces") for c in power[layer].values()
                   if c == card_id)
    in_hands = sum(h.get(card_id, 0) for h in power["hands"])
    on_card = power["supply"].get(card_id, 0) + (1 if card(card_id)["place"] == "card" else 0)
    return cast("int", on_board + in_hands + on_card + power["pile"].get(card_id, 0))


def use_actions(state: State, seat: int) -> list[Action]:
    """The turn actions the tokens in ``seat``'s hand offer now (one per way to use them)."""
    power = state.get("power")
    if not power:
        return []
    board = state["board"]
    rules = board_rules(power)
    actions: list[Action] = []
    sides = bd.SEATING[len(state["seats"])]
    for card_id in sorted(power["hands"][seat], key=ids().index):
        entry = card(card_id)
        use = entry.get("use")
        if not power["hands"][seat][card_id] or use not in TURN_USES:
            continue
        if use == "diagonal_swap":
            for a, b in bd.blasting_swaps(board, rules, diagonal=True):
                actions.append(Action(f"{card_id} {cell_name(a)} {cell_name(b)}",
                                      f"{entry['name']}: swap {cell_name(a)} and "
                                      f"{cell_name(b)} diagonally"))
        elif use == "take_chip":
            for cell in bd.all_cells():
                candy = bd.at(board, cell)
                if candy is not None and cell not in rules.locked:
                    actions.append(Action(f"{card_id} {cell_name(cell)}",
                                          f"{entry['name']}: take the {obj.candy_name(candy)} "
                                          f"on {cell_name(cell)} and keep it"))
        elif use == "take_kept":
            for other, kept in enumerate(state["kept"]):
                if other == seat:
                    continue
                for kind in obj.candy_kinds():
                    if kept.get(kind):
                        actions.append(Action(
                            f"{card_id} {kind} {sides[other]}",
                            f"{entry['name']}: take a kept {obj.candy_name(kind)} from "
                            f"{state['seats'][other]['name']} ({sides[other]})"))
    return actions


# --------------------------------------------------------------------------- texts

_SUBJECT = {"chip": "a candy with {a}", "space": "a candy on {a}"}
_VERB_TEXT: dict[tuple[str, str], tuple[str, str]] = {
    ("tilt", "anchor"): ("{Subject} never slides when the board tilts, and candies behind it "
                         "stop against it{catch}.", "stays put and blocks the tilt"),
    ("swap", "locked"): ("{Subject} cannot be swapped, replaced or taken.", "cannot be swapped"),
    ("match", "wild"): ("{Subject} matches every kind in a Blast (a Blast still needs one "
                        "candy of its own kind without {a_token}).", "matches any kind"),
    ("match", "blocked"): ("{Subject} never counts in a Blast.", "never in a Blast"),
    ("removed", "break_by_neighbour"): ("A Blast that removes a candy next to it breaks the "
                                        "{token}, which goes to the pile.",
                                        "a Blast beside it breaks it"),
    ("removed", "clear_square"): ("When a Blast removes {subject}, the rest of the 3x3 square "
                                  "around it goes too, into the bag.", "blasted: clears its 3x3"),
    ("removed", "keep_chip"): ("When a Blast removes {subject}, you keep that candy as well.",
                               "blasted: you keep it too"),
    ("pile_full", "keep_matched"): ("Whoever puts the last {token} on the pile keeps 1 more "
                                    "candy of the kind they blasted.",
                                    "last one cleared: keep 1 more"),
    ("kept", "bonus_kind"): ("A Blast of the kind the {token} shows lets you keep 1 more "
                             "candy of that kind; then the {token} moves on to the next kind.",
                             "Blast its kind: keep 1 more"),
}
_GAIN_TEXT = {
    "own_big_blast": ("When you make a Blast of 4 or more or a Mega-Blast, take",
                      "your Blast of 4+"),
    "rival_big_blast": ("When another player makes a Blast of 4 or more or a Mega-Blast, "
                        "each other player takes", "a rival's Blast of 4+"),
    "chain": ("When a refill makes a chain Blast on your turn, take", "your chain Blast"),
    "empty_turn": ("When your turn ends without bringing you closer to the objective, take",
                   "a turn with no progress"),
}
_USE_TEXT = {
    "diagonal_swap": ("Discard {a_token} instead of a swap to swap two diagonal neighbours "
                      "that then make a Blast: “{id} c3 d4”.", "diagonal swap: {id} c3 d4"),
    "take_chip": ("Discard {a_token} instead of a swap to take any candy from the board and "
                  "keep it; then the board tilts toward you and refills: “{id} c3”.",
                  "take a candy: {id} c3"),
    "extra_turn": ("Discard {a_token} when your turn ends to play another turn at once: "
                   "“{id}”.", "play again: {id}"),
    "take_kept": ("Discard {a_token} before your move to take 1 kept candy from another "
                  "player: “{id} corn north”.", "take a kept candy: {id} corn north"),
}


def card_text(entry: dict[str, Any]) -> dict[str, str]:
    """The card as players read it: ``reminder`` (how to play with the token),
    ``condition`` (the template's condition) and ``short`` (a line for the picture)."""
    n = int(entry["tokens"])
    one, many = token_name(entry), token_name(entry, 2)
    place = entry["place"]
    subject = _SUBJECT.get(place, "{a}").format(a=_a(one))
    fill = {"subject": subject, "Subject": subject[0].upper() + subject[1:], "token": one,
            "a_token": _a(one),
            "tokens": many, "id": entry["id"],
            "catch": f"; an empty {one} catches the first candy that slides onto it"
            if place == "space" else ""}
    reminder: list[str] = []
    short: list[str] = []
    if place in ("chip", "space"):
        where = "candies" if place == "chip" else "spaces"
        moves = f"; {_a(one)} moves with its candy" if place == "chip" else ""
        reminder.append(f"Set-up: put the {n} {many} on {n} random {where}{moves}.")
    elif place == "hand":
        reminder.append(f"Set-up: put the {n} {many} on this card.")
    else:
        reminder.append(f"Set-up: put the {one} on a random candy kind.")
    for effect in entry.get("effects", []):
        full, brief = _VERB_TEXT[(effect["hook"], effect["verb"])]
        reminder.append(full.format(**fill))
        short.append(brief.format(**fill))
    if entry["type"] == "discard":
        gain_full, gain_brief = _GAIN_TEXT[entry["gain"]]
        use_full, use_brief = _USE_TEXT[entry["use"]]
        reminder.append(use_full.format(**fill))
        condition = (f"{gain_full} {_a(one)} from this card while any are left. "
                     f"You have to discard {_a(one)} to use it; it goes back on the card.")
        short = [use_brief.format(**fill), f"gain: {gain_brief}"]
    elif entry["type"] == "board":
        condition = f"The {many} can never be removed from the board."
        short.append("never leaves the board")
    elif entry["type"] == "pile":
        leaves = (f"{_a(one).capitalize()} leaves the board with its candy"
                  if place == "chip" else
                  f"When a Blast removes the candy on {_a(one)}, the {one} leaves the board")
        where = "candies" if place == "chip" else "spaces"
        condition = (f"{leaves}. Off the board the {many} form a pile; when all {n} are in "
                     f"the pile, they go back on {n} random {where}.")
        short.append(("leaves with its candy" if place == "chip" else "a Blast on it clears it")
                     + f"; all {n} return together")
    else:
        condition = f"The {one} stays on this card."
    return {"reminder": " ".join(reminder), "condition": condition, "short": "; ".join(short)}


# --------------------------------------------------------------------------- views


def view(state: State) -> dict[str, Any] | None:
    """The power cards in play as the picture and the AI see them (nothing is hidden).

    The same fields as ``state["power"]``, so the hooks above work on a view
    too, plus ``texts``: each card's name, template type and generated texts.
    """
    power = state.get("power")
    if not power:
        return None
    out = copy.deepcopy(power)
    out["texts"] = [{"id": c, "name": card(c)["name"], "type": card(c)["type"],
                     "place": card(c)["place"], "tokens": int(card(c)["tokens"]),
                     "token": token_name(card(c)), "use": card(c).get("use"), **card_text(card(c))}
                    for c in power["cards"]]
    return cast("dict[str, Any] | None", out)


def preview(board: bd.Board, power: dict[str, Any],
            blast: bd.Blast) -> tuple[tuple[Cell, ...], list[str]]:
    """What a Blast would remove and which extra kinds the cards would let its maker keep.

    Runs the real hooks on copies, so the AI's foresight follows the rules.
    """
    trial: State = {"board": copy.deepcopy(board), "power": copy.deepcopy(power)}
    removed = removal(trial, blast.removed)
    kinds = {c: k for c in removed.cells if (k := bd.at(board, c)) is not None}
    return removed.cells, [k for k, _ in bonus_keeps(trial, blast, removed, kinds)]
