"""Log lines never carry a player's private choice."""

from __future__ import annotations

from types import SimpleNamespace

import discord

from bot.discord.errors import describe


def test_a_log_line_names_a_buttons_kind_but_not_the_choice_it_carries():
    click = SimpleNamespace(data={"custom_id": "cb:do:7:d3:build mimic room 2"},
                            type=discord.InteractionType.component, guild_id=1, channel_id=2)
    line = describe(click)  # type: ignore[arg-type]
    assert line == "cb:do in guild 1 channel 2"
    assert "mimic" not in line


def test_a_log_line_names_a_command_by_its_name_only():
    command = SimpleNamespace(data={"name": "play", "options": [{"value": "build mimic"}]},
                              type=discord.InteractionType.application_command, guild_id=1,
                              channel_id=2)
    assert describe(command) == "play in guild 1 channel 2"  # type: ignore[arg-type]
