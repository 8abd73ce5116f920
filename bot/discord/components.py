"""Persistent buttons and menus.

Each component is a :class:`discord.ui.DynamicItem` whose custom id carries all
it needs (the game id, and for a move the move number and notation), so clicks
keep working after a restart. Custom ids are at most 100 characters: a choice
whose id would be longer is offered in the select menu instead, whose option
values hold the notation.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import discord

from bot.discord import flows
from bot.games.engine import Action

MAX_CUSTOM_ID = 100
MAX_BUTTON_LABEL = 80
MAX_SELECT_TEXT = 100
#: Up to this many quick choices become buttons; more become a select menu.
MAX_BUTTONS = 10

LOBBY_OPS: dict[str, tuple[str, discord.ButtonStyle]] = {
    "join": ("Join", discord.ButtonStyle.success),
    "leave": ("Leave", discord.ButtonStyle.secondary),
    "ai": ("Add AI seat", discord.ButtonStyle.secondary),
    "start": ("Start", discord.ButtonStyle.primary),
    "cancel": ("Cancel", discord.ButtonStyle.danger),
}


class LobbyButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                  template=r"cb:lobby:(?P<game>[0-9]{1,20}):(?P<op>join|leave|ai|start|cancel)"):
    """One of the lobby's buttons."""

    def __init__(self, game_id: int, op: str) -> None:
        label, style = LOBBY_OPS[op]
        super().__init__(discord.ui.Button(label=label, style=style,
                                           custom_id=f"cb:lobby:{game_id}:{op}"))
        self.game_id = game_id
        self.op = op

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction,
                             item: discord.ui.Button[Any], match: Any) -> LobbyButton:
        return cls(int(match["game"]), match["op"])

    async def callback(self, interaction: discord.Interaction) -> None:
        await flows.lobby_click(interaction, self.game_id, self.op)


class ChoiceButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                   template=r"cb:move:(?P<game>[0-9]{1,20}):(?P<move>[0-9]{1,9}):(?P<notation>.+)"):
    """A button that plays one action, valid only at the move it was offered for."""

    def __init__(self, game_id: int, move: int, notation: str, label: str = "") -> None:
        super().__init__(discord.ui.Button(
            label=_clip(label or notation, MAX_BUTTON_LABEL), style=discord.ButtonStyle.primary,
            custom_id=choice_id(game_id, move, notation)))
        self.game_id = game_id
        self.move = move
        self.notation = notation

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction,
                             item: discord.ui.Button[Any], match: Any) -> ChoiceButton:
        return cls(int(match["game"]), int(match["move"]), match["notation"], item.label or "")

    async def callback(self, interaction: discord.Interaction) -> None:
        await flows.choice_click(interaction, self.game_id, self.move, self.notation)


class ChoiceSelect(discord.ui.DynamicItem[discord.ui.Select[Any]],
                   template=r"cb:pick:(?P<game>[0-9]{1,20}):(?P<move>[0-9]{1,9})"):
    """A select menu of actions; each option's value is the action's notation."""

    def __init__(self, game_id: int, move: int,
                 options: Sequence[discord.SelectOption] = ()) -> None:
        super().__init__(discord.ui.Select(
            custom_id=f"cb:pick:{game_id}:{move}", placeholder="Choose your move…",
            min_values=1, max_values=1,
            options=list(options) or [discord.SelectOption(label="…", value="…")]))
        self.game_id = game_id
        self.move = move

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction,
                             item: discord.ui.Select[Any], match: Any) -> ChoiceSelect:
        return cls(int(match["game"]), int(match["move"]), item.options)

    async def callback(self, interaction: discord.Interaction) -> None:
        notation = self.item.values[0] if self.item.values else ""
        await flows.choice_click(interaction, self.game_id, self.move, notation)


DYNAMIC_ITEMS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (
    LobbyButton, ChoiceButton, ChoiceSelect)


def choice_id(game_id: int, move: int, notation: str) -> str:
    return f"cb:move:{game_id}:{move}:{notation}"


def lobby_view(game_id: int) -> discord.ui.View:
    """Join, Leave, Add AI seat, Start and Cancel."""
    view = discord.ui.View(timeout=None)
    for op in LOBBY_OPS:
        view.add_item(LobbyButton(game_id, op))
    return _inert(view)


def choices_view(game_id: int, move: int, choices: Sequence[Action]) -> discord.ui.View | None:
    """Buttons for a few choices, a select menu for more; ``None`` when there are none."""
    usable = [a for a in choices[:25] if a.notation and len(a.notation) <= MAX_SELECT_TEXT]
    if not usable:
        return None
    view = discord.ui.View(timeout=None)
    short = all(len(choice_id(game_id, move, a.notation)) <= MAX_CUSTOM_ID for a in usable)
    if len(usable) <= MAX_BUTTONS and short:
        for action in usable:
            view.add_item(ChoiceButton(game_id, move, action.notation, action.label))
    else:
        options = [discord.SelectOption(label=_clip(a.label or a.notation, MAX_SELECT_TEXT),
                                        value=a.notation,
                                        description=(_clip(a.notation, MAX_SELECT_TEXT)
                                                     if a.label else None))
                   for a in usable]
        view.add_item(ChoiceSelect(game_id, move, options))
    return _inert(view)


def _inert(view: discord.ui.View) -> discord.ui.View:
    # The dynamic items answer clicks by their custom ids; a stopped view is not
    # kept in memory for every message sent.
    view.stop()
    return view


def _clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"
