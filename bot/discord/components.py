"""Persistent buttons and menus.

Each component is a :class:`discord.ui.DynamicItem` whose custom id carries all
it needs, so clicks keep working after a restart:

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
was made for (see ``Tables.wire_token``); ``<move>`` the move number it was made
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

#: Every component's custom-id pattern, so ids can be recognised without discord.py internals.
_TEMPLATES: list[re.Pattern[str]] = []


def _known(template: str) -> str:
    """Note a DynamicItem's template as it is declared (see :func:`recognised`)."""
    _TEMPLATES.append(re.compile(template))
    return template
UNKNOWN_BUTTON = ("This button belongs to an older version of the game, so it does nothing now. "
                  "Use `/game board` for the current board and its buttons.")

LOBBY_OPS: dict[str, tuple[str, discord.ButtonStyle]] = {
    "join": ("Join", discord.ButtonStyle.success),
    "leave": ("Leave", discord.ButtonStyle.secondary),
    "ai": ("Add AI seat", discord.ButtonStyle.secondary),
    "start": ("Start", discord.ButtonStyle.primary),
    "cancel": ("Cancel", discord.ButtonStyle.danger),
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


def _token(raw: str | None, move: int) -> str | int:
    # Buttons made before tokens carried the move number alone.
    return move if raw is None else raw


def _select(item: discord.ui.Item[Any]) -> discord.ui.Select[Any]:
    """The menu a click came from, as discord.py rebuilt it (a forged id on another kind
    of component reads as an empty menu)."""
    return item if isinstance(item, discord.ui.Select) else discord.ui.Select()


def _options(item: discord.ui.Item[Any]) -> list[discord.SelectOption]:
    return _select(item).options


def _label(item: discord.ui.Item[Any]) -> str:
    return (item.label or "") if isinstance(item, discord.ui.Button) else ""


class LobbyButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                  template=_known(rf"cb:lobby:{GAME_ID}:(?P<op>join|leave|ai|start|cancel)")):
    """One of the lobby's buttons."""

    def __init__(self, game_id: int, op: str) -> None:
        label, style = LOBBY_OPS[op]
        super().__init__(discord.ui.Button(label=label, style=style,
                                           custom_id=f"cb:lobby:{game_id}:{op}"))
        self.game_id = game_id
        self.op = op

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction,
                             item: discord.ui.Item[Any], match: re.Match[str]) -> LobbyButton:
        return cls(int(match["game"]), match["op"])

    async def callback(self, interaction: discord.Interaction) -> None:
        await _dispatch("lobby", interaction, self.game_id, self.op)


class LobbyRemove(discord.ui.DynamicItem[discord.ui.Select[Any]],
                  template=_known(rf"cb:lr:{GAME_ID}")):
    """The lobby's menu for its host to remove a seat: ``u<user>`` a player, ``s<seat>`` an
    AI seat (anyone may open it; the tables refuse everyone but the host)."""

    def __init__(self, game_id: int, options: Sequence[discord.SelectOption] = ()) -> None:
        super().__init__(_one_choice(f"cb:lr:{game_id}", "Host: remove a seat…", options))
        self.game_id = game_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction,
                             item: discord.ui.Item[Any], match: re.Match[str]) -> LobbyRemove:
        return cls(int(match["game"]), _options(item))

    async def callback(self, interaction: discord.Interaction) -> None:
        value = self.item.values[0] if self.item.values else ""
        await _dispatch("lobby", interaction, self.game_id, "remove", value)


class LobbyLevel(discord.ui.DynamicItem[discord.ui.Select[Any]],
                 template=_known(rf"cb:ll:{GAME_ID}")):
    """The lobby's menu for its host to set how an AI seat plays: ``s<seat>:<level>``."""

    def __init__(self, game_id: int, options: Sequence[discord.SelectOption] = ()) -> None:
        super().__init__(_one_choice(f"cb:ll:{game_id}", "Host: how an AI seat plays…",
                                     options))
        self.game_id = game_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction,
                             item: discord.ui.Item[Any], match: re.Match[str]) -> LobbyLevel:
        return cls(int(match["game"]), _options(item))

    async def callback(self, interaction: discord.Interaction) -> None:
        value = self.item.values[0] if self.item.values else ""
        await _dispatch("lobby", interaction, self.game_id, "level", value)


class ChoiceButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                   template=_known(rf"cb:m:{GAME_ID}:(?P<move>[0-9]{{1,9}}):"
                             rf"(?P<token>{TOKEN}):(?P<notation>.+)")):
    """A button that plays one action while the decision it was made for is open."""

    def __init__(self, game_id: int, move: int, token: str, notation: str,
                 label: str = "") -> None:
        super().__init__(discord.ui.Button(
            label=_clip(label or notation, MAX_BUTTON_LABEL), style=discord.ButtonStyle.primary,
            custom_id=choice_id(game_id, move, token, notation)))
        self.game_id = game_id
        self.move = move
        self.token = token
        self.notation = notation

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction,
                             item: discord.ui.Item[Any], match: re.Match[str]) -> ChoiceButton:
        return cls(int(match["game"]), int(match["move"]), match["token"], match["notation"],
                   _label(item))

    async def callback(self, interaction: discord.Interaction) -> None:
        await _dispatch("move", interaction, self.game_id, self.move, self.token, self.notation)


def _one_choice(custom_id: str, placeholder: str,
                options: Sequence[discord.SelectOption]) -> discord.ui.Select[Any]:
    """A menu of one pick (a menu rebuilt from a click carries its options; a fresh one
    without any gets a stand-in, as Discord refuses an empty menu)."""
    return discord.ui.Select(custom_id=custom_id, placeholder=placeholder, min_values=1,
                             max_values=1, options=list(options)
                             or [discord.SelectOption(label="…", value="…")])


class ChoiceSelect(discord.ui.DynamicItem[discord.ui.Select[Any]],
                   template=_known(rf"cb:s:{GAME_ID}:(?P<move>[0-9]{{1,9}}):"
                             rf"(?P<token>{TOKEN})")):
    """A select menu of actions; each option's value is the action's notation."""

    def __init__(self, game_id: int, move: int, token: str,
                 options: Sequence[discord.SelectOption] = (),
                 placeholder: str = "Choose your move…") -> None:
        super().__init__(_one_choice(f"cb:s:{game_id}:{move}:{token}", placeholder, options))
        self.game_id = game_id
        self.move = move
        self.token = token

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction,
                             item: discord.ui.Item[Any], match: re.Match[str]) -> ChoiceSelect:
        return cls(int(match["game"]), int(match["move"]), match["token"], _options(item))

    async def callback(self, interaction: discord.Interaction) -> None:
        notation = self.item.values[0] if self.item.values else ""
        await _dispatch("move", interaction, self.game_id, self.move, self.token, notation)


class ManySelect(discord.ui.DynamicItem[discord.ui.Select[Any]],
                 template=_known(rf"cb:ms:{GAME_ID}:(?P<move>[0-9]{{1,9}}):"
                           rf"(?P<token>{TOKEN})")):
    """A menu to choose several items at once; together they make one action."""

    def __init__(self, game_id: int, move: int, token: str,
                 options: Sequence[discord.SelectOption] = (), *, min_values: int = 1,
                 max_values: int = 1, placeholder: str = "Choose…") -> None:
        options = list(options) or [discord.SelectOption(label="…", value="…")]
        super().__init__(discord.ui.Select(
            custom_id=f"cb:ms:{game_id}:{move}:{token}", placeholder=_clip(placeholder, 150),
            min_values=max(0, min(min_values, len(options))),
            max_values=max(1, min(max_values, len(options))), options=options))
        self.game_id = game_id
        self.move = move
        self.token = token

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction,
                             item: discord.ui.Item[Any], match: re.Match[str]) -> ManySelect:
        return cls(int(match["game"]), int(match["move"]), match["token"], _options(item),
                   min_values=_select(item).min_values, max_values=_select(item).max_values)

    async def callback(self, interaction: discord.Interaction) -> None:
        await _dispatch("many", interaction, self.game_id, self.move, self.token,
                        list(self.item.values))


class DecideButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                   template=_known(rf"cb:d:{GAME_ID}")):
    """Opens the clicker's own choices privately (for secret or several-player decisions)."""

    def __init__(self, game_id: int) -> None:
        super().__init__(discord.ui.Button(label="Decide", style=discord.ButtonStyle.success,
                                           custom_id=f"cb:d:{game_id}"))
        self.game_id = game_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction,
                             item: discord.ui.Item[Any], match: re.Match[str]) -> DecideButton:
        return cls(int(match["game"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await _dispatch("decide", interaction, self.game_id)


class BackButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                 template=_known(rf"cb:k:{GAME_ID}")):
    """"I'm back": the AI standing in for the clicker hands their seat back."""

    def __init__(self, game_id: int) -> None:
        super().__init__(discord.ui.Button(label="I'm back", style=discord.ButtonStyle.secondary,
                                           custom_id=f"cb:k:{game_id}"))
        self.game_id = game_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction,
                             item: discord.ui.Item[Any], match: re.Match[str]) -> BackButton:
        return cls(int(match["game"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await _dispatch("back", interaction, self.game_id)


class RematchButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                    template=_known(rf"cb:rm:{GAME_ID}")):
    """Rematch: a new lobby for the same game and options, the same players seated."""

    def __init__(self, game_id: int) -> None:
        super().__init__(discord.ui.Button(label="Rematch", style=discord.ButtonStyle.primary,
                                           custom_id=f"cb:rm:{game_id}"))
        self.game_id = game_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction,
                             item: discord.ui.Item[Any], match: re.Match[str]) -> RematchButton:
        return cls(int(match["game"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await _dispatch("rematch", interaction, self.game_id)


#: A tournament's sign-up buttons.
TOURNAMENT_OPS: dict[str, tuple[str, discord.ButtonStyle]] = {
    "join": ("Join", discord.ButtonStyle.success),
    "leave": ("Leave", discord.ButtonStyle.secondary),
    "start": ("Start", discord.ButtonStyle.primary),
}


class TournamentButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                       template=_known(rf"cb:t:{GAME_ID}:(?P<op>join|leave|start)")):
    """A tournament's Join, Leave or Start (its number where a game's would be)."""

    def __init__(self, tournament_id: int, op: str) -> None:
        label, style = TOURNAMENT_OPS[op]
        super().__init__(discord.ui.Button(label=label, style=style,
                                           custom_id=f"cb:t:{tournament_id}:{op}"))
        self.tournament_id = tournament_id
        self.op = op

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str]) -> TournamentButton:
        return cls(int(match["game"]), match["op"])

    async def callback(self, interaction: discord.Interaction) -> None:
        await _dispatch("tournament", interaction, self.tournament_id, self.op)


def tournament_view(tournament_id: int) -> discord.ui.View:
    """A tournament's sign-up buttons."""
    view = discord.ui.View(timeout=None)
    for op in TOURNAMENT_OPS:
        view.add_item(TournamentButton(tournament_id, op))
    return inert(view)


def rematch_view(game_id: int) -> discord.ui.View:
    """The Rematch button alone (on a game-over board and on the game's card)."""
    view = discord.ui.View(timeout=None)
    view.add_item(RematchButton(game_id))
    return inert(view)


class StepButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                 template=_known(rf"cb:b:{GAME_ID}:(?P<move>[0-9]{{1,9}}):"
                           rf"(?P<token>{TOKEN}):(?P<op>[obpca])(?P<page>[0-9]{{1,3}}):"
                           r"(?P<path>.*)")):
    """A step of the move builder: open the next step, go back, pick or confirm a move."""

    def __init__(self, game_id: int, move: int, token: str, op: str, page: int, path: str,
                 label: str = "", style: discord.ButtonStyle = discord.ButtonStyle.primary,
                 ) -> None:
        super().__init__(discord.ui.Button(
            label=label or path or "…", style=style,
            custom_id=step_id(game_id, move, token, op, page, path)))
        self.game_id = game_id
        self.move = move
        self.token = token
        self.op = op
        self.page = page
        self.path = path

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction,
                             item: discord.ui.Item[Any], match: re.Match[str]) -> StepButton:
        return cls(int(match["game"]), int(match["move"]), match["token"], match["op"],
                   int(match["page"]), match["path"], _label(item))

    async def callback(self, interaction: discord.Interaction) -> None:
        await _dispatch("step", interaction, self.game_id, self.move, self.token, self.op,
                        self.page, self.path)


class StepSelect(discord.ui.DynamicItem[discord.ui.Select[Any]],
                 template=_known(rf"cb:bs:{GAME_ID}:(?P<move>[0-9]{{1,9}}):"
                           rf"(?P<token>{TOKEN}):(?P<n>[0-9]{{1,3}})")):
    """A builder step as a menu: each value is ``o:<path>`` (open), ``a:<path>`` (open with
    every way) or ``p:<path>`` (pick)."""

    def __init__(self, game_id: int, move: int, token: str, number: int,
                 options: Sequence[discord.SelectOption] = (), placeholder: str = "Choose…",
                 ) -> None:
        super().__init__(_one_choice(f"cb:bs:{game_id}:{move}:{token}:{number}", placeholder,
                                     options))
        self.game_id = game_id
        self.move = move
        self.token = token

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction,
                             item: discord.ui.Item[Any], match: re.Match[str]) -> StepSelect:
        return cls(int(match["game"]), int(match["move"]), match["token"], int(match["n"]),
                   _options(item))

    async def callback(self, interaction: discord.Interaction) -> None:
        value = self.item.values[0] if self.item.values else ""
        op, _, path = value.partition(":")
        if op not in ("o", "p", "a"):
            op, path = "o", "#forged"
        await _dispatch("step", interaction, self.game_id, self.move, self.token, op, 0, path)


class OldChoiceButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                      template=_known(rf"cb:move:{GAME_ID}:(?P<move>[0-9]{{1,9}}):(?P<notation>.+)")):
    """A move button posted before decision tokens: valid only at the move it was made for."""

    def __init__(self, game_id: int, move: int, notation: str, label: str = "") -> None:
        super().__init__(discord.ui.Button(
            label=_clip(label or notation, MAX_BUTTON_LABEL), style=discord.ButtonStyle.primary,
            custom_id=f"cb:move:{game_id}:{move}:{notation}"))
        self.game_id = game_id
        self.move = move
        self.notation = notation

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction,
                             item: discord.ui.Item[Any], match: re.Match[str]) -> OldChoiceButton:
        return cls(int(match["game"]), int(match["move"]), match["notation"], _label(item))

    async def callback(self, interaction: discord.Interaction) -> None:
        await _dispatch("move", interaction, self.game_id, self.move, self.move, self.notation)


class OldChoiceSelect(discord.ui.DynamicItem[discord.ui.Select[Any]],
                      template=_known(rf"cb:pick:{GAME_ID}:(?P<move>[0-9]{{1,9}})")):
    """A move menu posted before decision tokens."""

    def __init__(self, game_id: int, move: int,
                 options: Sequence[discord.SelectOption] = ()) -> None:
        super().__init__(discord.ui.Select(
            custom_id=f"cb:pick:{game_id}:{move}", min_values=1, max_values=1,
            options=list(options) or [discord.SelectOption(label="…", value="…")]))
        self.game_id = game_id
        self.move = move

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction,
                             item: discord.ui.Item[Any], match: re.Match[str]) -> OldChoiceSelect:
        return cls(int(match["game"]), int(match["move"]), _options(item))

    async def callback(self, interaction: discord.Interaction) -> None:
        notation = self.item.values[0] if self.item.values else ""
        await _dispatch("move", interaction, self.game_id, self.move, self.move, notation)


DYNAMIC_ITEMS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (
    LobbyButton, LobbyRemove, LobbyLevel, ChoiceButton, ChoiceSelect, ManySelect, DecideButton,
    BackButton, RematchButton, StepButton, StepSelect, OldChoiceButton, OldChoiceSelect,
    TournamentButton)


def recognised(custom_id: str) -> bool:
    """Does some component of this bot answer to ``custom_id``?"""
    return any(template.fullmatch(custom_id) for template in _TEMPLATES)


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
        view.add_item(LobbyButton(game_id, op))
    options = [discord.SelectOption(label=_clip(label, MAX_BUTTON_LABEL), value=value)
               for value, label in removable[:25]]
    if options:
        view.add_item(LobbyRemove(game_id, options))
    picks = [discord.SelectOption(label=_clip(label, MAX_BUTTON_LABEL), value=value)
             for value, label in levels[:25]]
    if picks:
        view.add_item(LobbyLevel(game_id, picks))
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
            view.add_item(ChoiceButton(game_id, move, token, action.notation, action.label))
    elif usable:
        options = [discord.SelectOption(label=_clip(a.label or a.notation, MAX_SELECT_TEXT),
                                        value=a.notation,
                                        description=(_clip(a.notation, MAX_SELECT_TEXT)
                                                     if a.label else None))
                   for a in usable]
        view.add_item(ChoiceSelect(game_id, move, token, options))
    if multi is not None:
        options = [discord.SelectOption(label=_clip(label or value, MAX_SELECT_TEXT),
                                        value=value)
                   for value, label in multi.options[:25] if 0 < len(value) <= MAX_SELECT_TEXT]
        if options:
            view.add_item(ManySelect(game_id, move, token, options,
                                     min_values=multi.min_values, max_values=multi.max_values,
                                     placeholder=multi.placeholder))
    if decide:
        view.add_item(DecideButton(game_id))
    return inert(view) if view.children else None


def inert(view: discord.ui.View) -> discord.ui.View:
    # The dynamic items answer clicks by their custom ids; a stopped view is not
    # kept in memory for every message sent.
    view.stop()
    return view


def _clip(text: str, limit: int) -> str:
    # Shortened at a word boundary, never cut inside a word.
    return shorten(text, limit)
