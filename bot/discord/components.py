"""Persistent buttons and menus.

Every component's custom id carries all it needs, so clicks keep working after a
restart. One :class:`discord.ui.DynamicItem`, :class:`Routed`, answers to them all: the
id's prefix names its :class:`Route` (:data:`ROUTES`), whose pattern reads the id and
whose handler the click goes to:

=================================================  ==========================================
``cb:lobby:<game>:<join|leave|ai|start|cancel>``   a lobby button
``cb:lr:<game>``                                   the host's menu to remove a seat
``cb:m:<game>:<move>:<token>:<notation>``          plays one action
``cb:s:<game>:<move>:<token>``                     a menu of actions (values are notations)
``cb:ms:<game>:<move>:<token>``                    a several-at-once menu (values make one)
``cb:d:<game>``                                    opens the clicker's private choices
``cb:b:<game>:<move>:<token>:<op><page>:<path>``   a step of the move builder (see below)
``cb:bs:<game>:<move>:<token>:<n>``                a builder menu (values ``o:``/``a:``/``p:``)
``cb:move:<game>:<move>:<notation>``, ``cb:pick:``  older buttons, still honoured
``cb:t:<tournament>:<join|leave|start>``           a tournament's sign-up button
=================================================  ==========================================

``<token>`` is the token of the decision the choice was made for, for the seat it
was made for (see ``bot.tables.core.wire_token``); ``<move>`` the move number it was made
at, so an expired click can be told what happened since. Custom ids are at most
100 characters: choices whose ids would be longer go into a menu instead.

A builder step (:mod:`bot.discord.builder`) carries the words of the move chosen
so far; ``<op>`` says what a click does with them: ``o`` opens the next step
(``<page>`` of its options), ``a`` opens it with every way the player may take,
dominated ones too (“More ways to pay…”), ``b`` goes back to it, ``p`` picks the
whole move (the move itself, or a preview of a move that draws), ``c`` confirms a
previewed move.

This module knows nothing of what a click does: :mod:`bot.discord.flows`
registers a handler per kind with :func:`handles`, so the two modules do not
import each other.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import discord

from bot.games.engine import Action, MultiSelect
from bot.games.words import shorten

log = logging.getLogger(__name__)

MAX_CUSTOM_ID = 100
MAX_BUTTON_LABEL = 80
MAX_SELECT_TEXT = 100
#: Up to this many quick choices become buttons; more become a select menu.
MAX_BUTTONS = 10
TOKEN = r"[A-Za-z0-9._-]{1,32}"


def at_most(limit: int) -> str:
    """A regular expression for the decimal numbers from 0 to ``limit``, nothing larger."""
    digits = str(limit)
    shorter = [f"[0-9]{{1,{len(digits) - 1}}}"] if len(digits) > 1 else []
    same_length = [f"{digits[:i]}[0-{int(d) - 1}][0-9]{{{len(digits) - i - 1}}}"
                   for i, d in enumerate(digits) if d != "0"]
    return "(?:" + "|".join([*shorter, *same_length, digits]) + ")"


#: A game id SQLite can hold (below 2**63): a larger, signed or malformed id matches no
#: component, so a forged click is refused as unknown before any query.
GAME_ID = rf"(?P<game>{at_most(2**63 - 1)})"

UNKNOWN_BUTTON = ("This button belongs to an older version of the game, so it does nothing now. "
                  "Use `/game board` for the current board and its buttons.")

LOBBY_OPS: dict[str, tuple[str, discord.ButtonStyle]] = {
    "join": ("Join", discord.ButtonStyle.success),
    "leave": ("Leave", discord.ButtonStyle.secondary),
    "ai": ("Add AI seat", discord.ButtonStyle.secondary),
    "start": ("Start", discord.ButtonStyle.primary),
    "cancel": ("Cancel", discord.ButtonStyle.danger),
}
#: A tournament's sign-up buttons.
TOURNAMENT_OPS: dict[str, tuple[str, discord.ButtonStyle]] = {
    "join": ("Join", discord.ButtonStyle.success),
    "leave": ("Leave", discord.ButtonStyle.secondary),
    "start": ("Start", discord.ButtonStyle.primary),
}

Handler = Callable[..., Awaitable[None]]
#: What each kind of component does, registered by :mod:`bot.discord.flows`:
#: ``lobby(interaction, game_id, op)``,
#: ``move(interaction, game_id, offered_at, token, notation)`` (also for one-choice menus),
#: ``many(interaction, game_id, offered_at, token, values)``,
#: ``decide(interaction, game_id)``,
#: ``step(interaction, game_id, offered_at, token, op, page, carried)``.
HANDLERS: dict[str, Handler] = {}


def handles(kind: str) -> Callable[[Handler], Handler]:
    """Register the handler of one kind of component."""

    def register(handler: Handler) -> Handler:
        HANDLERS[kind] = handler
        return handler

    return register


async def _dispatch(kind: str, interaction: discord.Interaction, *args: Any) -> None:
    # Clicks pass the bot's gate (bot/discord/gate.py): turned away while the bot stops.
    if not await interaction.client.gate.admit(interaction):  # type: ignore[attr-defined]
        return
    handler = HANDLERS.get(kind)
    if handler is None:
        log.error("no handler registered for %s components", kind)
        await interaction.response.send_message(UNKNOWN_BUTTON, ephemeral=True)
        return
    await handler(interaction, *args)


def _values(item: discord.ui.Item[Any]) -> list[str]:
    """What was chosen in the menu a click came from (a forged id on a button chooses
    nothing)."""
    return list(item.values) if isinstance(item, discord.ui.Select) else []


def _first(item: discord.ui.Item[Any]) -> str:
    return next(iter(_values(item)), "")


Click = Callable[[re.Match[str], discord.ui.Item[Any]], tuple[Any, ...]]


@dataclass(frozen=True)
class Route:
    """One kind of component: the prefix and shape of its custom id, the handler its clicks
    go to and what they tell it, read from the id and from the component clicked."""

    prefix: str
    pattern: re.Pattern[str]
    handler: str
    click: Click


def _game(m: re.Match[str]) -> int:
    return int(m["game"])


def _offer(m: re.Match[str]) -> tuple[int, int, str]:
    """The game, the move the choice was offered at and the decision's token."""
    return int(m["game"]), int(m["move"]), m["token"]


def _step_menu(m: re.Match[str], item: discord.ui.Item[Any]) -> tuple[Any, ...]:
    op, _, path = _first(item).partition(":")
    if op not in ("o", "p", "a"):
        op, path = "o", "#forged"
    return (*_offer(m), op, 0, path)


def _old_move(m: re.Match[str], notation: str) -> tuple[Any, ...]:
    # Posted before decision tokens: the move number stands for the token.
    return int(m["game"]), int(m["move"]), int(m["move"]), notation


OFFER = rf"{GAME_ID}:(?P<move>[0-9]{{1,9}}):(?P<token>{TOKEN})"
#: Every kind of component, by the prefix of its custom id (see the table above).
ROUTES: dict[str, Route] = {route.prefix: route for route in (
    Route("lobby", re.compile(rf"cb:lobby:{GAME_ID}:(?P<op>{'|'.join(LOBBY_OPS)})"), "lobby",
          lambda m, item: (_game(m), m["op"])),
    Route("lr", re.compile(rf"cb:lr:{GAME_ID}"), "lobby",
          lambda m, item: (_game(m), "remove", _first(item))),
    Route("ll", re.compile(rf"cb:ll:{GAME_ID}"), "lobby",
          lambda m, item: (_game(m), "level", _first(item))),
    Route("m", re.compile(rf"cb:m:{OFFER}:(?P<notation>.+)"), "move",
          lambda m, item: (*_offer(m), m["notation"])),
    Route("s", re.compile(rf"cb:s:{OFFER}"), "move",
          lambda m, item: (*_offer(m), _first(item))),
    Route("ms", re.compile(rf"cb:ms:{OFFER}"), "many",
          lambda m, item: (*_offer(m), _values(item))),
    Route("d", re.compile(rf"cb:d:{GAME_ID}"), "decide", lambda m, item: (_game(m),)),
    Route("k", re.compile(rf"cb:k:{GAME_ID}"), "back", lambda m, item: (_game(m),)),
    Route("rm", re.compile(rf"cb:rm:{GAME_ID}"), "rematch", lambda m, item: (_game(m),)),
    # A tournament's number stands where a game's would be.
    Route("t", re.compile(rf"cb:t:{GAME_ID}:(?P<op>{'|'.join(TOURNAMENT_OPS)})"), "tournament",
          lambda m, item: (_game(m), m["op"])),
    Route("b", re.compile(rf"cb:b:{OFFER}:(?P<op>[obpca])(?P<page>[0-9]{{1,3}}):(?P<path>.*)"),
          "step", lambda m, item: (*_offer(m), m["op"], int(m["page"]), m["path"])),
    Route("bs", re.compile(rf"cb:bs:{OFFER}:(?P<n>[0-9]{{1,3}})"), "step", _step_menu),
    Route("move", re.compile(rf"cb:move:{GAME_ID}:(?P<move>[0-9]{{1,9}}):(?P<notation>.+)"),
          "move", lambda m, item: _old_move(m, m["notation"])),
    Route("pick", re.compile(rf"cb:pick:{GAME_ID}:(?P<move>[0-9]{{1,9}})"), "move",
          lambda m, item: _old_move(m, _first(item))),
)}

#: Every route's custom id in one pattern (its groups unnamed, as Python allows a name
#: once in a pattern): what discord.py matches a click against.
TEMPLATE = re.compile("|".join(f"(?:{re.sub(r'[(][?]P<[a-z]+>', '(?:', route.pattern.pattern)})"
                               for route in ROUTES.values()))


def route_of(custom_id: str) -> tuple[Route, re.Match[str]] | None:
    """The route that answers to ``custom_id`` and its reading of it."""
    route = ROUTES.get(custom_id.split(":", 2)[1] if custom_id.count(":") >= 2 else "")
    match = route.pattern.fullmatch(custom_id) if route is not None else None
    return (route, match) if route is not None and match is not None else None


class Routed(discord.ui.DynamicItem[discord.ui.Item[Any]], template=TEMPLATE):
    """Every button and menu of the bot: a click goes to its route's handler with what the
    custom id and the component say. discord.py rebuilds the component from the clicked
    message; nothing of it is kept in memory."""

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction,
                             item: discord.ui.Item[Any], match: re.Match[str]) -> Routed:
        return cls(item)

    @property
    def route(self) -> tuple[Route, re.Match[str]]:
        found = route_of(self.custom_id)
        assert found is not None, "the template matches only routed ids"
        return found

    async def callback(self, interaction: discord.Interaction) -> None:
        route, match = self.route
        await _dispatch(route.handler, interaction, *route.click(match, self.item))


def _routed(item: discord.ui.Button[Any] | discord.ui.Select[Any]) -> Routed:
    return Routed(item)


def _lobby_button(game_id: int, op: str) -> Routed:
    label, style = LOBBY_OPS[op]
    return _routed(discord.ui.Button(label=label, style=style,
                                     custom_id=f"cb:lobby:{game_id}:{op}"))


def _one_choice(custom_id: str, placeholder: str,
                options: Sequence[discord.SelectOption]) -> Routed:
    """A menu of one pick (a fresh one without options gets a stand-in, as Discord refuses
    an empty menu)."""
    return _routed(discord.ui.Select(custom_id=custom_id, placeholder=placeholder,
                                     min_values=1, max_values=1, options=list(options)
                                     or [discord.SelectOption(label="…", value="…")]))


def choice_button(game_id: int, move: int, token: str, notation: str,
                  label: str = "") -> Routed:
    """A button that plays one action while the decision it was made for is open."""
    return _routed(discord.ui.Button(
        label=_clip(label or notation, MAX_BUTTON_LABEL), style=discord.ButtonStyle.primary,
        custom_id=choice_id(game_id, move, token, notation)))


def choice_select(game_id: int, move: int, token: str,
                  options: Sequence[discord.SelectOption],
                  placeholder: str = "Choose your move…") -> Routed:
    """A select menu of actions; each option's value is the action's notation."""
    return _one_choice(f"cb:s:{game_id}:{move}:{token}", placeholder, options)


def many_select(game_id: int, move: int, token: str, options: Sequence[discord.SelectOption],
                *, min_values: int = 1, max_values: int = 1,
                placeholder: str = "Choose…") -> Routed:
    """A menu to choose several items at once; together they make one action."""
    options = list(options) or [discord.SelectOption(label="…", value="…")]
    return _routed(discord.ui.Select(
        custom_id=f"cb:ms:{game_id}:{move}:{token}", placeholder=_clip(placeholder, 150),
        min_values=max(0, min(min_values, len(options))),
        max_values=max(1, min(max_values, len(options))), options=options))


def decide_button(game_id: int) -> Routed:
    """Opens the clicker's own choices privately (for secret or several-player decisions)."""
    return _routed(discord.ui.Button(label="Decide", style=discord.ButtonStyle.success,
                                     custom_id=f"cb:d:{game_id}"))


def back_button(game_id: int) -> Routed:
    """"I'm back": the AI standing in for the clicker hands their seat back."""
    return _routed(discord.ui.Button(label="I'm back", style=discord.ButtonStyle.secondary,
                                     custom_id=f"cb:k:{game_id}"))


def tournament_view(tournament_id: int) -> discord.ui.View:
    """A tournament's sign-up buttons: Join, Leave and Start."""
    view = discord.ui.View(timeout=None)
    for op, (label, style) in TOURNAMENT_OPS.items():
        view.add_item(_routed(discord.ui.Button(label=label, style=style,
                                                custom_id=f"cb:t:{tournament_id}:{op}")))
    return inert(view)


def rematch_view(game_id: int) -> discord.ui.View:
    """Rematch alone (on a game-over board and on the game's card): a new lobby for the
    same game and options, the same players seated."""
    view = discord.ui.View(timeout=None)
    view.add_item(_routed(discord.ui.Button(label="Rematch", style=discord.ButtonStyle.primary,
                                            custom_id=f"cb:rm:{game_id}")))
    return inert(view)


def step_button(game_id: int, move: int, token: str, op: str, page: int, path: str,
                label: str = "", style: discord.ButtonStyle = discord.ButtonStyle.primary,
                ) -> Routed:
    """A step of the move builder: open the next step, go back, pick or confirm a move."""
    return _routed(discord.ui.Button(label=label or path or "…", style=style,
                                     custom_id=step_id(game_id, move, token, op, page, path)))


def step_select(game_id: int, move: int, token: str, number: int,
                options: Sequence[discord.SelectOption], placeholder: str = "Choose…",
                ) -> Routed:
    """A builder step as a menu: each value is ``o:<path>`` (open), ``a:<path>`` (open with
    every way) or ``p:<path>`` (pick)."""
    return _one_choice(f"cb:bs:{game_id}:{move}:{token}:{number}", placeholder, options)


#: What the client registers: one item answers to every route.
DYNAMIC_ITEMS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (Routed,)


def recognised(custom_id: str) -> bool:
    """Does some component of this bot answer to ``custom_id``?"""
    return route_of(custom_id) is not None


async def answer_unrecognised(interaction: discord.Interaction) -> bool:
    """Answer a click on a component no handler will take (an old format, a forged id).

    Returns whether it answered. Without this Discord shows "This interaction failed".
    """
    if interaction.type is not discord.InteractionType.component:
        return False
    data: Mapping[str, object] = interaction.data or {}
    custom_id = str(data.get("custom_id", ""))
    if recognised(custom_id) and _on_message(interaction, custom_id):
        return False
    if interaction.response.is_done():
        return False
    await interaction.response.send_message(UNKNOWN_BUTTON, ephemeral=True)
    return True


def _on_message(interaction: discord.Interaction, custom_id: str) -> bool:
    # discord.py only runs a dynamic item found on the clicked message itself.
    message = interaction.message
    if message is None:
        return False
    stack: list[Any] = list(message.components)
    while stack:
        component = stack.pop()
        if getattr(component, "custom_id", None) == custom_id:
            return True
        stack.extend(getattr(component, "children", ()))
    return False


def choice_id(game_id: int, move: int, token: str, notation: str) -> str:
    return f"cb:m:{game_id}:{move}:{token}:{notation}"


def step_id(game_id: int, move: int, token: str, op: str, page: int, path: str) -> str:
    return f"cb:b:{game_id}:{move}:{token}:{op}{page}:{path}"


def token_fits(token: str) -> bool:
    """Can ``token`` travel in a custom id?"""
    return re.fullmatch(TOKEN, token) is not None


def lobby_view(game_id: int, removable: Sequence[tuple[str, str]] = (),
               levels: Sequence[tuple[str, str]] = ()) -> discord.ui.View:
    """Join, Leave, Add AI seat, Start and Cancel; with ``removable`` seats (``(value,
    label)``: every seat but the host's), the host's menu to remove one; with ``levels``
    (``(value, label)`` per AI seat and level it may change to), the host's menu to set
    how an AI seat plays."""
    view = discord.ui.View(timeout=None)
    for op in LOBBY_OPS:
        view.add_item(_lobby_button(game_id, op))
    options = [discord.SelectOption(label=_clip(label, MAX_BUTTON_LABEL), value=value)
               for value, label in removable[:25]]
    if options:
        view.add_item(_one_choice(f"cb:lr:{game_id}", "Host: remove a seat…", options))
    picks = [discord.SelectOption(label=_clip(label, MAX_BUTTON_LABEL), value=value)
             for value, label in levels[:25]]
    if picks:
        view.add_item(_one_choice(f"cb:ll:{game_id}", "Host: how an AI seat plays…",
                                         picks))
    return inert(view)


def choices_view(game_id: int, move: int, token: str, choices: Sequence[Action], *,
                 multi: MultiSelect | None = None, decide: bool = False,
                 ) -> discord.ui.View | None:
    """Buttons for a few choices (a menu for more), a several-at-once menu, and a Decide
    button; ``None`` when there is nothing to offer."""
    view = discord.ui.View(timeout=None)
    usable = [a for a in choices[:25] if a.notation and len(a.notation) <= MAX_SELECT_TEXT]
    if not re.fullmatch(TOKEN, token):
        if usable or multi is not None:
            log.warning("game %s: token %r does not fit a custom id; choices left out",
                        game_id, token)
        usable, multi = [], None
    short = all(len(choice_id(game_id, move, token, a.notation)) <= MAX_CUSTOM_ID
                for a in usable)
    if usable and len(usable) <= MAX_BUTTONS and short:
        for action in usable:
            view.add_item(choice_button(game_id, move, token, action.notation, action.label))
    elif usable:
        options = [discord.SelectOption(label=_clip(a.label or a.notation, MAX_SELECT_TEXT),
                                        value=a.notation,
                                        description=(_clip(a.notation, MAX_SELECT_TEXT)
                                                     if a.label else None))
                   for a in usable]
        view.add_item(choice_select(game_id, move, token, options))
    if multi is not None:
        options = [discord.SelectOption(label=_clip(label or value, MAX_SELECT_TEXT),
                                        value=value)
                   for value, label in multi.options[:25] if 0 < len(value) <= MAX_SELECT_TEXT]
        if options:
            view.add_item(many_select(game_id, move, token, options,
                                      min_values=multi.min_values,
                                      max_values=multi.max_values,
                                      placeholder=multi.placeholder))
    if decide:
        view.add_item(decide_button(game_id))
    return inert(view) if view.children else None


def inert(view: discord.ui.View) -> discord.ui.View:
    # The dynamic items answer clicks by their custom ids; a stopped view is not
    # kept in memory for every message sent.
    view.stop()
    return view


def _clip(text: str, limit: int) -> str:
    # Shortened at a word boundary, never cut inside a word.
    return shorten(text, limit)
