"""Everything the bot can build stays inside Discord's limits, for every registered game."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import discord
import pytest

import bot.games
from bot.app import create_bot
from bot.config import Settings
from bot.discord import commands, components, messages
from bot.games.engine import Action, Engine, MultiSelect, OptionSpec
from bot.store import ActionRecord, GameRecord, SeatRecord
from bot.tables import Board, Lobby, Step
from bot.tables.news import Begins
from tests.support.discord_harness import Clock
from tests.support.paths import ROOT
from tests.support.race_game import CandyDash, CandyRace

NAME = re.compile(r"^[-_\w]{1,32}$")
BIG_ID = 2**63 - 1


@pytest.fixture
def registry(monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    for game in (Engine(CandyRace()), Engine(CandyDash())):
        monkeypatch.setitem(bot.games.GAMES, game.slug, game)
    return bot.games.GAMES


def walk_options(options: list[dict[str, Any]], where: str) -> None:
    assert len(options) <= 25, where
    for option in options:
        here = f"{where} {option['name']}"
        assert NAME.match(option["name"]) and option["name"] == option["name"].lower(), here
        assert 1 <= len(option["description"]) <= 100, here
        choices = option.get("choices") or []
        assert len(choices) <= 25, here
        for choice in choices:
            assert 1 <= len(choice["name"]) <= 100 and len(str(choice["value"])) <= 100, here
        assert not (choices and option.get("autocomplete")), here
        walk_options(option.get("options") or [], here)


def test_every_command_fits_discords_limits(registry: dict[str, Any], tmp_path: Path) -> None:
    client = create_bot(Settings(db_path=tmp_path / "x.db"), renderer=None, clock=Clock())
    payloads = [c.to_dict(client.tree) for c in client.tree.get_commands()]
    assert {p["name"] for p in payloads} == {"away", "game", "games", "notify", "play", "settings",
                                               "privacy", "stats", "season", "tournament"}
    for payload in payloads:
        assert NAME.match(payload["name"])
        assert 1 <= len(payload["description"]) <= 100
        walk_options(payload.get("options") or [], payload["name"])
    game = next(p for p in payloads if p["name"] == "game")
    subs = {o["name"] for o in game["options"]}
    assert subs == {"new", "board", "hand", "cards", "status", "log", "rules", "replay", "undo",
                    "leave", "abort", "history", "back", "vote", "sit"}
    tournament = next(p for p in payloads if p["name"] == "tournament")
    assert {o["name"] for o in tournament["options"]} == {"new", "start", "leave", "standings",
                                                         "cancel"}
    new = next(o for o in game["options"] if o["name"] == "new")
    params = {o["name"]: o for o in new["options"]}
    assert {"game", "seats", "reminder_hours", "ai_takeover", "target", "pace"} <= set(params)
    assert {c["value"] for c in params["game"]["choices"]} >= {"candy-race", "candy-dash"}
    assert params["pace"]["autocomplete"] and params["target"]["autocomplete"]


def test_a_game_with_too_many_options_still_fits_in_25_parameters() -> None:
    class Fussy(CandyRace):
        slug = "fussy"
        title = "Fussy " + "x" * 200
        options = tuple(OptionSpec(f"opt{i}", "d" * 300, "int", 1) for i in range(40))

    games = {"fussy": Engine(Fussy())}
    command = commands.build_new_command(games)
    assert len(command.parameters) == 25
    assert all(len(p.description) <= 100 for p in command.parameters)


def test_the_move_choices_fit_as_buttons_or_a_select_menu() -> None:
    token = "d999999999.99"
    few = [Action("keep corn", "keep the corn " * 20), Action("keep mint")]
    view = components.choices_view(BIG_ID, 999_999_999, token, few)
    assert view is not None
    assert len(view.children) == 2
    for item in view.children:
        data = item.to_component_dict()
        assert len(data["custom_id"]) <= 100 and len(data["label"]) <= 80

    many = [Action(f"swap {'x' * 80} {i}", "label " * 40) for i in range(40)]
    menu = MultiSelect(tuple((f"{'v' * 99}{i}", "l" * 300) for i in range(40)), "pay {}",
                       1, 40, "p" * 300)
    view = components.choices_view(BIG_ID, 999_999_999, token, many, multi=menu, decide=True)
    assert view is not None
    select, several, _decide = view.children
    assert isinstance(select.item, discord.ui.Select)  # type: ignore[attr-defined]
    assert isinstance(several.item, discord.ui.Select)  # type: ignore[attr-defined]
    assert [components.route_of(item.custom_id)[0].handler  # type: ignore
            for item in view.children] == ["move", "many", "decide"]
    for item in (select, several):
        data = item.to_component_dict()
        assert len(data["custom_id"]) <= 100 and len(data["options"]) <= 25
        assert data.get("max_values", 1) <= len(data["options"])
        assert len(data.get("placeholder") or "") <= 150
        for option in data["options"]:
            assert len(option["label"]) <= 100 and len(option["value"]) <= 100
            assert len(option.get("description") or "") <= 100
    for item in view.children:
        custom_id = item.custom_id  # type: ignore[attr-defined]
        assert components.recognised(custom_id), custom_id
    assert components.choices_view(1, 1, "m1", [Action("z" * 101)]) is None


def test_lobby_buttons_keep_their_ids_short_and_parseable() -> None:
    view = components.lobby_view(BIG_ID)
    assert len(view.children) == 5
    for item in view.children:
        custom_id = item.custom_id  # type: ignore[attr-defined]
        assert len(custom_id) <= 100
        assert components.Routed.__discord_ui_compiled_template__.fullmatch(custom_id)
        assert components.route_of(custom_id)[0].handler == "lobby"  # type: ignore[index]


def record(**changes: Any) -> GameRecord:
    seats = tuple(SeatRecord(i, 10**17 + i, "N" * 32, False) for i in range(4))
    base: dict[str, Any] = dict(
        id=BIG_ID, channel_id=1, guild_id=2, game="candy-race", status="active", creator_id=3,
        options={"target": 10, "pace": "steady"}, settings={"reminder_hours": 24.0},
        seed=1, state_json=None, version=1, seats=seats, created_at=0.0, updated_at=0.0,
        turn_started_at=1.0, reminders_sent=0, next_reminder_at=2.0, lobby_message_id=None,
        board_message_id=None, result_json=None)
    base.update(changes)
    return GameRecord(**base)


def test_every_message_fits_in_2000_characters(registry: dict[str, Any]) -> None:
    game = registry["candy-race"]
    steps = tuple(Step(seat=1, name="N" * 32, notation="play 3",
                       events=("A very long chain. " * 60,), by_ai=True)
                  for _ in range(30))
    board = Board(record=record(), game=game, state={"move": 12}, view={}, steps=steps,
                  news=(Begins(title="h" * 300),), to_act=(0,), mentions=(10**17,))
    text = messages.board_text(board)
    assert len(text) <= 2000 and text.endswith("use `/play`.")
    assert text.startswith("**Candy Race** · move 12\nPlayers: 🟦● **" + "N" * 32)
    assert f"<@{10**17}>" in text

    lobby = messages.lobby_text(Lobby(record=record(status="lobby"), game=game))
    assert len(lobby) <= 2000
    actions = [ActionRecord(i, 0, None, "x" * 100, "", 0.0, False) for i in range(50)]
    assert all(len(page) <= 2000 for page in messages.log_pages(record(), game, actions))
    for each in registry.values():
        assert len(messages.rules_text(each)) <= 2000


def test_nothing_in_the_discord_layer_names_a_game() -> None:
    sources = [*(ROOT / "bot" / "discord").glob("*.py"),
               *(ROOT / "bot" / "tables").glob("*.py"),
               ROOT / "bot" / "app.py"]
    assert len(sources) >= 12
    for path in sources:
        text = path.read_text(encoding="utf-8").lower()
        for slug in bot.games.GAMES:
            assert slug not in text and slug.replace("-", "_") not in text, path


def test_one_routed_item_answers_to_every_kind_of_component() -> None:
    (item,) = components.DYNAMIC_ITEMS
    template = item.__discord_ui_compiled_template__
    menu = discord.ui.Select(options=[discord.SelectOption(label="x", value="p:eat 2")])
    menu._values = ["p:eat 2"]  # as discord.py refreshes a clicked menu
    button = discord.ui.Button(label="Forged")
    clicks = {  # a custom id, the component clicked: the handler and what it is told
        ("cb:lobby:7:join", button): ("lobby", (7, "join")),
        ("cb:lr:7", menu): ("lobby", (7, "remove", "p:eat 2")),
        ("cb:ll:7", button): ("lobby", (7, "level", "")),
        ("cb:m:7:3:m3:eat 2", button): ("move", (7, 3, "m3", "eat 2")),
        ("cb:s:7:3:m3", menu): ("move", (7, 3, "m3", "p:eat 2")),
        ("cb:ms:7:3:m3", menu): ("many", (7, 3, "m3", ["p:eat 2"])),
        ("cb:ms:7:3:m3", button): ("many", (7, 3, "m3", [])),
        ("cb:d:7", button): ("decide", (7,)),
        ("cb:k:7", button): ("back", (7,)),
        ("cb:rm:7", button): ("rematch", (7,)),
        ("cb:t:7:join", button): ("tournament", (7, "join")),
        ("cb:b:7:3:m3:a2:eat", button): ("step", (7, 3, "m3", "a", 2, "eat")),
        ("cb:bs:7:3:m3:1", menu): ("step", (7, 3, "m3", "p", 0, "eat 2")),
        ("cb:bs:7:3:m3:1", button): ("step", (7, 3, "m3", "o", 0, "#forged")),
        ("cb:move:7:3:eat 2", button): ("move", (7, 3, 3, "eat 2")),
        ("cb:pick:7:3", menu): ("move", (7, 3, 3, "p:eat 2")),
    }
    assert {custom_id.split(":")[1] for custom_id, _ in clicks} == set(components.ROUTES)
    for (custom_id, clicked), (handler, told) in clicks.items():
        found = components.route_of(custom_id)
        assert template.fullmatch(custom_id) and found is not None, custom_id
        route, match = found
        assert (route.handler, route.click(match, clicked)) == (handler, told), custom_id
    for forged in ("cb:zz:7", "cb:d:7:8", "cb:lobby:7:dance", "cb:m:7:3:m3:", "cb:",
                   "cb:d:" + str(2**63), "xx:d:7", "cb:d:7\n"):
        assert components.route_of(forged) is None and not template.fullmatch(forged), forged
