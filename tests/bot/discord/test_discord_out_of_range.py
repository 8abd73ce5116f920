"""Values a person can send but the bot cannot use (a date in the year 9999, an id past
what a signed 64-bit number holds, anything at or past an option's bounds) are refused
privately, never crashed on: no error in the log, nothing changed."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest
from discord import AppCommandOptionType as Kind
from discord import app_commands

from bot.games.engine import Engine
from tests.support.discord_harness import Session, UserOption
from tests.support.race_game import CandyDash

ALICE, BOB = 352000000000000001, 352000000000000002


@pytest.fixture
async def table(tmp_path: Path) -> AsyncIterator[Session]:
    session = await Session.open(tmp_path, {"candy-dash": Engine(CandyDash())})
    await session.start("candy-dash", humans=(ALICE, BOB))
    yield session
    await session.close()


def errors(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]


async def test_a_vacation_from_the_year_9999_is_refused(
        table: Session, caplog: pytest.LogCaptureFixture) -> None:
    refused = await table.command(ALICE, "away", options={"vacation_days": 3,
                                                          "vacation_from": "9999-12-31"})
    assert refused.ephemeral and "too far ahead" in refused.content
    assert not errors(caplog)
    assert not await table.bot.tables.store.people.vacations([ALICE], ending_after=0)


async def test_an_id_past_64_bits_is_refused(table: Session,
                                             caplog: pytest.LogCaptureFixture) -> None:
    for user in (2**63, 2**64 + 5):
        refused = await table.command(ALICE, "game", "vote",
                                      {"player": UserOption(user), "give": "ai"})
        assert refused.ephemeral and "is not a Discord id" in refused.content
    assert not errors(caplog)


def extremes(parameter: app_commands.Parameter) -> Iterator[Any]:
    """Values at and past ``parameter``'s bounds that Discord's own checks may or may not
    stop (a forged request passes none of them)."""
    low, high = parameter.min_value, parameter.max_value
    if parameter.type is Kind.integer:
        yield from (0, -1, 1, 2**53, -(2**53), 2**63, 10**30)
        yield from (v for v in (low, high) if v is not None)
    elif parameter.type is Kind.number:
        yield from (0.0, -1.0, 1e308, -1e308, 1e-300)
        yield from (float(v) for v in (low, high) if v is not None)
    elif parameter.type is Kind.string:
        yield from ("", " ", "9999-12-31", "0000-00-00", "x" * 101, "../../etc/passwd",
                    "ü" * 64, "\x00", "<@123> @everyone [x](https://ev.il)")
    elif parameter.type is Kind.boolean:
        yield from (True, False)
    elif parameter.type is Kind.user:
        yield from (UserOption(2**63), UserOption(BOB))


async def test_every_option_at_its_bounds_is_answered_without_an_error(
        table: Session, caplog: pytest.LogCaptureFixture) -> None:
    asked = refused = 0
    for command in table.bot.tree.walk_commands():
        if not isinstance(command, app_commands.Command):
            continue
        group = command.parent.name if command.parent else None
        name = group or command.name
        sub = command.name if group else None
        for parameter in command.parameters:
            for value in extremes(parameter):
                if parameter.name == "player" and not isinstance(value, UserOption):
                    continue
                options = {parameter.name: value}
                for other in command.parameters:
                    if other.required and other.name != parameter.name:
                        options[other.name] = (other.choices[0].value if other.choices else
                                               UserOption(BOB) if other.type is Kind.user
                                               else "candy-dash")
                before = await table.bot.tables.store.games.open_game(table.channel_id)
                answer = await table.command(ALICE, name, sub, options)
                asked += 1
                assert answer.failed is None, (name, sub, options)
                if out_of_bounds(parameter, value):
                    # Refused, privately, and the game is as it was.
                    assert answer.ephemeral, (name, sub, options, answer.content[:80])
                    assert await table.bot.tables.store.games.open_game(table.channel_id) == before
                    refused += 1
    assert asked > 100 and refused > 10
    assert not errors(caplog), errors(caplog)[:3]


def out_of_bounds(parameter: app_commands.Parameter, value: Any) -> bool:
    """Whether ``value`` lies past the bounds ``parameter`` declares (Discord refuses it
    in its own client; a forged request still brings it)."""
    if parameter.type not in (Kind.integer, Kind.number) or isinstance(value, bool):
        return False
    low, high = parameter.min_value, parameter.max_value
    return (low is not None and value < low) or (high is not None and value > high)
