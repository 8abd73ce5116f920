"""Refuse a slash command whose options Discord itself would not have sent.

Discord checks each option's type, range, length and choices before a command reaches the
bot, but discord.py does not check them again; a forged or stale request could carry any
JSON. :func:`check_options` holds every command to its own declared parameters.
"""

from __future__ import annotations

import math
from typing import Any

import discord
from discord import AppCommandOptionType as Kind
from discord import app_commands

#: Discord's integer options lie within plus or minus this.
DISCORD_INTEGER = 2**53
#: The largest Discord id (snowflake) the bot can keep: a signed 64-bit number.
MAX_ID = 2**63 - 1


def _given(data: dict[str, Any]) -> dict[str, Any]:
    """The option values of the innermost (sub)command in ``data``."""
    options = data.get("options") or []
    while options and options[0].get("type") in (1, 2):
        options = options[0].get("options") or []
    return {o.get("name"): o.get("value") for o in options}


def _problem(parameter: app_commands.Parameter, value: Any) -> str | None:
    """Why ``value`` is no value for ``parameter``, or ``None`` when it is one."""
    name, kind = parameter.name, parameter.type
    if kind is Kind.integer:
        if not isinstance(value, int) or isinstance(value, bool):
            return f"`{name}` must be a whole number."
        if abs(value) > DISCORD_INTEGER:
            return f"`{name}` is too large."
    elif kind is Kind.number:
        if (not isinstance(value, int | float) or isinstance(value, bool)
                or not math.isfinite(value)):
            return f"`{name}` must be a number."
    elif kind is Kind.string:
        # A number where text is declared reads as its digits (game options do so).
        if not isinstance(value, str | int | float) or isinstance(value, bool):
            return f"`{name}` must be text."
        value = str(value)
    elif kind is Kind.boolean:
        if not isinstance(value, bool):
            return f"`{name}` must be true or false."
    elif kind in (Kind.user, Kind.channel, Kind.role, Kind.mentionable, Kind.attachment):
        # A Discord id: a snowflake, which the store keeps as a signed 64-bit number.
        if isinstance(value, bool) or not str(value).isdigit() or int(value) > MAX_ID:
            return f"`{name}` is not a Discord id."
        return None
    else:
        return None
    low, high = parameter.min_value, parameter.max_value
    size = len(value) if isinstance(value, str) else value
    if (low is not None and size < low) or (high is not None and size > high):
        what = "characters long" if isinstance(value, str) else ""
        bounds = (f"from {low:g} to {high:g}" if low is not None and high is not None
                  else f"at least {low:g}" if low is not None else f"at most {high:g}")
        return f"`{name}` must be {bounds} {what}".rstrip() + "."
    if parameter.choices and not parameter.autocomplete and value not in {
            c.value for c in parameter.choices}:
        listed = ", ".join(f"`{c.value}`" for c in parameter.choices)
        return f"`{name}` must be one of {listed}."
    return None


def check_options(interaction: discord.Interaction) -> None:
    """Raise :class:`~discord.app_commands.CheckFailure` naming the first option of the
    command in ``interaction`` that Discord would have refused (autocomplete is left be:
    it carries what is being typed)."""
    if interaction.type is not discord.InteractionType.application_command:
        return
    command = interaction.command
    if not isinstance(command, app_commands.Command):
        return
    given = _given(interaction.data or {})  # type: ignore[arg-type]
    for parameter in command.parameters:
        if parameter.name not in given:
            continue
        problem = _problem(parameter, given[parameter.name])
        if problem is not None:
            raise app_commands.CheckFailure(f"{problem} Nothing changed.")
