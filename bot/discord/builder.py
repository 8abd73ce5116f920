"""The move builder: every legal move chosen by clicks, one step at a time.

A move is chosen step by step (verb, then piece or card, then place, then
rotation or option), each step a row of buttons or select menus. The steps come
from the engine (the rules' ``move_steps``): the legal notations of the player,
cut into steps, form a prefix tree. A step that every move left shares is taken
as read, so a card name of several words is one choice and a step with one
option is never asked. While the moves left fit one menu (25), a step offers
them whole, each with its full label. A move chosen in one tap (an answer on the first step) is
played at once, as any choice button; a move built in several steps is first
previewed privately when it reveals nothing and draws no chance. Everything
offered is a prefix of a legal notation; the last pick goes through the tables'
normal play path with the decision's token, so a stale or forged click is
refused there as for any other.

Nothing is kept in memory: a component carries the words chosen so far (its
*path*) in its custom id, and a click recomputes the player's legal moves from
the store. A path too long for a custom id is carried as ``#<i>.<w>``: the first
``w`` words of the ``i``-th legal move, which the recomputed list gives back.

This module only reads games and builds components; what a click does is in
:mod:`bot.discord.flows`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import discord

from bot.discord import components
from bot.discord.components import (
    MAX_BUTTON_LABEL,
    MAX_CUSTOM_ID,
    MAX_SELECT_TEXT,
    Routed,
    choice_button,
    choice_select,
    many_select,
    step_button,
    step_select,
)
from bot.games.engine import Action, Engine, MultiSelect
from bot.games.words import plural, shorten

#: At most this many options are buttons; more are select menus of 25.
MAX_STEP_BUTTONS = 10
MAX_MENU = 25
#: Select menus per page: the fifth row is kept for Back and the page buttons.
MENUS_PER_PAGE = 4


@dataclass(frozen=True)
class Option:
    """One choice of a step: the words chosen once it is taken, and the move when it
    completes one."""

    path: str
    label: str
    action: Action | None = None


@dataclass(frozen=True)
class Node:
    """A step of the builder: the words chosen so far and what may follow them."""

    path: str
    options: tuple[Option, ...] = ()
    #: Set when the words chosen make one whole move, with nothing left to choose.
    action: Action | None = None


@dataclass
class _Entry:
    action: Action
    steps: tuple[str, ...]
    depth: int

    @property
    def ended(self) -> bool:
        return self.depth == len(self.steps)

    @property
    def next(self) -> str | None:
        return None if self.ended else self.steps[self.depth]

    @property
    def path(self) -> str:
        return " ".join(self.steps[:self.depth])


def _entries(game: Engine, legal: Sequence[Action], path: str) -> list[_Entry]:
    out = []
    for action in legal:
        steps = game.rules.move_steps(action.notation)
        for depth in range(len(steps) + 1):
            if " ".join(steps[:depth]) == path:
                out.append(_Entry(action, steps, depth))
                break
    return out


def _advance(entries: list[_Entry]) -> None:
    """Take as read every step all ``entries`` share."""
    while entries and not any(e.ended for e in entries) \
            and len({e.next for e in entries}) == 1:
        for entry in entries:
            entry.depth += 1


def node_at(game: Engine, legal: Sequence[Action], path: str, *,
            whole: int = MAX_MENU) -> Node | None:
    """The step after the words ``path``; ``None`` when no legal move starts so.

    When at most ``whole`` moves remain, the step offers them whole (one tap, each
    with its full label); more are split into the game's steps.
    """
    entries = _entries(game, legal, path)
    _advance(entries)
    if not entries:
        return None
    here = entries[0].path
    if len(entries) == 1 and entries[0].ended:
        return Node(here, (), entries[0].action)
    if len(entries) <= whole:
        return Node(here, tuple(Option(e.action.notation, e.action.label or e.action.notation,
                                       e.action) for e in entries))
    groups: dict[str | None, list[_Entry]] = {}
    for entry in entries:
        groups.setdefault(entry.next, []).append(entry)
    options: list[Option] = []
    for step, group in groups.items():
        if step is None:
            options.extend(Option(e.path, e.action.label or e.action.notation, e.action)
                           for e in group)
            continue
        for entry in group:
            entry.depth += 1
        _advance(group)
        if len(group) == 1 and group[0].ended:
            action = group[0].action
            options.append(Option(group[0].path, action.label or action.notation, action))
        else:
            options.append(Option(group[0].path, group[0].path[len(here):].strip()))
    return Node(here, tuple(options))


def trail(game: Engine, legal: Sequence[Action], path: str, *,
          whole: int = MAX_MENU) -> list[Node]:
    """The steps a player goes through to reach ``path``, first step first; the last
    one offers ``path`` (or is it). Empty when ``path`` is not on the way to a move."""
    node = node_at(game, legal, "", whole=whole)
    out: list[Node] = []
    while node is not None:
        out.append(node)
        if node.path == path or any(o.path == path for o in node.options):
            return out
        following = next((o for o in node.options
                          if o.action is None and path.startswith(o.path + " ")), None)
        if following is None:
            return []
        node = node_at(game, legal, following.path, whole=whole)
    return []


def chosen_action(legal: Sequence[Action], notation: str) -> Action | None:
    return next((a for a in legal if a.notation == notation), None)


def offered(legal: Sequence[Action], *, dominated: frozenset[str] = frozenset(),
            multi: MultiSelect | None = None, every: bool = False) -> list[Action]:
    """The moves the steps offer, each once: every legal one but those the several-at-once
    menu makes and, unless the player asked for ``every`` way, the dominated ones (another
    does as well for less, :meth:`Rules.dominated`)."""
    return [a for a in legal if (every or a.notation not in dominated)
            and (multi is None or not multi.makes(a.notation))]


def more_ways(legal: Sequence[Action], dominated: frozenset[str], path: str) -> str | None:
    """The label of the step that offers every way after ``path`` (“More ways to pay…”),
    when some dominated move starts there; ``None`` when none does."""
    left = [a.notation for a in legal if a.notation in dominated
            and (not path or a.notation.startswith(path + " "))]
    if not left:
        return None
    verbs = {n.split(" ", 1)[0] for n in left}
    return f"More ways to {verbs.pop()}…" if len(verbs) == 1 else "More ways…"


# --------------------------------------------------------------------------- carrying paths


def encode(path: str, legal: Sequence[Action], room: int) -> str | None:
    """``path`` as a custom id may carry it in ``room`` characters (see the module text)."""
    if len(path) <= room and not path.startswith("#"):
        return path
    words = len(path.split()) if path else 0
    for index, action in enumerate(legal):
        if action.notation == path:
            short = f"#{index}"
        elif " ".join(action.notation.split()[:words]) == path:
            short = f"#{index}.{words}"
        else:
            continue
        return short if len(short) <= room else None
    return None


def decode(carried: str, legal: Sequence[Action]) -> str | None:
    """The path a custom id carried; ``None`` when the index no longer names a move."""
    if not carried.startswith("#"):
        return carried
    index, _, words = carried[1:].partition(".")
    if not index.isdigit() or (words and not words.isdigit()):
        return None
    if int(index) >= len(legal):
        return None
    notation = legal[int(index)].notation
    return " ".join(notation.split()[:int(words)]) if words else notation


# --------------------------------------------------------------------------- components


@dataclass(frozen=True)
class Offer:
    """What a step's components are made for."""

    game_id: int
    move: int
    token: str

    def button(self, op: str, path: str, legal: Sequence[Action], label: str, *,
               page: int = 0, style: discord.ButtonStyle = discord.ButtonStyle.primary,
               ) -> Routed | None:
        prefix = components.step_id(self.game_id, self.move, self.token, op, page, "")
        carried = encode(path, legal, MAX_CUSTOM_ID - len(prefix))
        if carried is None:
            return None
        return step_button(self.game_id, self.move, self.token, op, page, carried,
                           shorten(label, MAX_BUTTON_LABEL), style)


def step_view(game: Engine, legal: Sequence[Action], node: Node, offer: Offer, *,
              page: int = 0, back: str | None = None, multi: MultiSelect | None = None,
              decide: bool = False, dominated: frozenset[str] = frozenset(),
              every: bool = False) -> discord.ui.View | None:
    """The components of one step: buttons for a few options, else select menus of
    25 (four to a page), with Back, page buttons and “More ways…” in the last row.

    ``node`` was made from the :func:`offered` moves (with ``every``, every way); the
    components carry paths among ``legal``, the player's legal moves."""
    view = discord.ui.View(timeout=None)
    if not components.token_fits(offer.token):
        return None
    options = node.options
    pages = 1
    first = back is None
    opens = "a" if every else "o"
    if len(options) <= MAX_STEP_BUTTONS:
        for option in options:
            item: discord.ui.Item[Any] | None
            if first and option.action is not None:
                # A whole move in one tap: its button plays it, as any choice button.
                item = _choice_button(option, offer)
            else:
                item = offer.button("p" if option.action else opens, option.path, legal,
                                    option.label)
            if item is not None:
                view.add_item(item)
    else:
        per_page = MAX_MENU * MENUS_PER_PAGE
        pages = -(-len(options) // per_page)
        page = max(0, min(page, pages - 1))
        shown = options[page * per_page:(page + 1) * per_page]
        menus = -(-len(shown) // MAX_MENU)
        for start in range(0, len(shown), MAX_MENU):
            chunk = shown[start:start + MAX_MENU]
            menu: discord.ui.Item[Any] | None
            asks = placeholder(node, page * per_page + start, len(chunk), len(options),
                               menus > 1 or pages > 1)
            # (One such menu at most: its custom id has no number.)
            if first and len(options) <= MAX_MENU and all(o.action for o in chunk):
                menu = _choice_menu(chunk, offer, asks)
            else:
                menu = _menu(chunk, legal, offer, page * MENUS_PER_PAGE + start // MAX_MENU,
                             asks, opens)
            if menu is not None:
                view.add_item(menu)
    rows = len(view.children) if len(options) > MAX_STEP_BUTTONS else 2
    if multi is not None and rows < MENUS_PER_PAGE and pages == 1:
        picks = [discord.SelectOption(label=shorten(label or value, MAX_BUTTON_LABEL),
                                      value=value)
                 for value, label in multi.options[:MAX_MENU]
                 if 0 < len(value) <= MAX_SELECT_TEXT]
        if picks:
            view.add_item(many_select(offer.game_id, offer.move, offer.token, picks,
                                      min_values=multi.min_values,
                                      max_values=multi.max_values,
                                      placeholder=multi.placeholder))
    nav: list[discord.ui.Item[Any] | None] = []
    if back is not None:
        nav.append(offer.button("b", back, legal, "◂ Back", style=discord.ButtonStyle.secondary))
    if page > 0:
        nav.append(offer.button(opens, node.path, legal, "◂ Earlier choices", page=page - 1,
                                style=discord.ButtonStyle.secondary))
    if page < pages - 1:
        nav.append(offer.button(opens, node.path, legal, "More choices ▸", page=page + 1,
                                style=discord.ButtonStyle.secondary))
    more = None if every else more_ways(legal, dominated, node.path)
    if more is not None:
        nav.append(offer.button("a", node.path, legal, more,
                                style=discord.ButtonStyle.secondary))
    if decide:
        nav.append(components.decide_button(offer.game_id))
    for item in nav:
        if item is not None:
            view.add_item(item)
    return components.inert(view) if view.children else None


def _choice_button(option: Option, offer: Offer) -> Routed | None:
    assert option.action is not None
    notation = option.action.notation
    if len(components.choice_id(offer.game_id, offer.move, offer.token, notation)) \
            > MAX_CUSTOM_ID:
        return None
    return choice_button(offer.game_id, offer.move, offer.token, notation,
                         shorten(option.label, MAX_BUTTON_LABEL))


def placeholder(node: Node, start: int, count: int, total: int, numbered: bool) -> str:
    """What a menu of a step asks, as its placeholder (“Choose your move…”), numbering
    its options among the step's when the step has several menus."""
    asks = f"Choose the rest of “{node.path}”…" if node.path else "Choose your move…"
    if numbered:
        asks = f"{asks} ({start + 1}–{start + count} of {total})"
    return shorten(asks, MAX_BUTTON_LABEL)


def _choice_menu(chunk: Sequence[Option], offer: Offer,
                 asks: str = "Choose your move…") -> Routed | None:
    """A first step of whole moves only: a menu whose pick plays the move."""
    picks = [discord.SelectOption(label=shorten(o.label, MAX_BUTTON_LABEL),
                                  value=o.action.notation,
                                  description=(shorten(o.action.notation, MAX_SELECT_TEXT)
                                               if o.action.label else None))
             for o in chunk if o.action is not None
             and len(o.action.notation) <= MAX_SELECT_TEXT]
    if not picks:
        return None
    return choice_select(offer.game_id, offer.move, offer.token, picks, asks)


def _menu(chunk: Sequence[Option], legal: Sequence[Action], offer: Offer,
          number: int, asks: str, opens: str = "o") -> Routed | None:
    picks = []
    for option in chunk:
        mark = "p:" if option.action else f"{opens}:"
        carried = encode(option.path, legal, MAX_SELECT_TEXT - len(mark))
        if carried is None:
            continue
        description = None
        if option.action is not None and option.action.label:
            description = shorten(option.action.notation, MAX_SELECT_TEXT)
        picks.append(discord.SelectOption(label=shorten(option.label, MAX_BUTTON_LABEL),
                                          value=mark + carried, description=description))
    if not picks:
        return None
    return step_select(offer.game_id, offer.move, offer.token, number, picks, asks)


def prompt(node: Node, page: int = 0) -> str:
    """What a step asks, in one line."""
    so_far = f"Your move so far: `{node.path}`. " if node.path else ""
    count = len(node.options)
    more = f" (page {page + 1})" if count > MAX_MENU * MENUS_PER_PAGE else ""
    return f"{so_far}Choose one of {plural(count, 'option')}{more}:"


def root_view(game: Engine, legal: Sequence[Action], offer: Offer, *,
              multi: MultiSelect | None = None, decide: bool = False,
              dominated: frozenset[str] = frozenset()) -> discord.ui.View | None:
    """The first step of a move, for a board or a private reply: each move offered once
    (:func:`offered`), the dominated ones behind “More ways…”."""
    moves = offered(legal, dominated=dominated, multi=multi)
    node = node_at(game, moves, "") if moves else None
    if node is None:
        node = Node("") if legal and multi is not None else None
    if node is None:
        if decide:
            view = discord.ui.View(timeout=None)
            view.add_item(components.decide_button(offer.game_id))
            return components.inert(view)
        return None
    return step_view(game, legal, as_step(node), offer, multi=multi, decide=decide,
                     dominated=dominated)


def as_step(node: Node) -> Node:
    """``node`` as a step to show: one whole move becomes its single option."""
    if node.action is None:
        return node
    return Node(node.path, (Option(node.action.notation, node.action.label or
                                   node.action.notation, node.action),))
