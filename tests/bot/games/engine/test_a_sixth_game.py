"""A sixth game is its own files and one registry line: every path that follows the
registry takes it in, with nothing else changed (docs/engine.md, "Adding a game").

Candy Hunch (tests/support/tiny_game.py) and its picture (tests/support/tiny_renderer.py)
stand in for a
new game's package and renderer; its one line is added to ``PACKAGES`` in this process, and
the registry is built from it as it is at import.
"""

from __future__ import annotations

import io
import sys
import types
from collections.abc import Iterator
from pathlib import Path

import pytest
from PIL import Image, ImageDraw

import bot.games
from bot.discord import commands
from renderers.common import font
from tests.bot.games import test_golden
from tests.bot.games.engine import test_contract as test_engine_contract
from tests.golden import record as golden_record
from tests.renderers import test_picture_names
from tests.support import tiny_game, tiny_renderer
from tests.tools import test_ai_strength

strength = test_ai_strength.strength
SLUG = "candy-hunch"


@pytest.fixture
def sixth(monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    package = types.ModuleType("bot.games.candy_hunch")
    package.GAME = tiny_game.GAME  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "bot.games.candy_hunch", package)
    monkeypatch.setitem(sys.modules, "renderers.candy_hunch", tiny_renderer)
    # The one line: "candy_hunch", in PACKAGES.
    monkeypatch.setattr(bot.games, "PACKAGES", (*bot.games.PACKAGES, "candy_hunch"))
    for slug, entry in bot.games._catalogue().items():
        monkeypatch.setitem(bot.games.CATALOGUE, slug, entry)
        monkeypatch.setitem(bot.games.GAMES, slug, entry.game)
    yield SLUG


def test_the_registry_finds_the_game_its_renderer_and_its_pages_from_its_line(sixth: str):
    assert list(bot.games.GAMES)[-1] == sixth and len(bot.games.GAMES) == 6
    assert bot.games.get_game(sixth) is tiny_game.GAME
    entry = bot.games.CATALOGUE[sixth]
    assert (entry.renderer_module, entry.docs_page) == ("renderers.candy_hunch",
                                                        "docs/rules/candy-hunch.md")
    test_engine_contract.test_every_registered_game_keeps_the_contract()


def test_game_new_offers_it_and_describes_every_parameter(sixth: str):
    command = commands.build_new_command(bot.games.GAMES)
    game = next(p for p in command.parameters if p.name == "game")
    assert [c.value for c in game.choices][-1] == sixth
    assert all(p.description and p.description != "…" for p in command.parameters)


def test_its_pictures_draw_every_name_its_moves_use(sixth: str,
                                                    monkeypatch: pytest.MonkeyPatch):
    # No line of its own in the picture names test: its moves' steps are its names.
    assert sixth not in test_picture_names.NAMES
    assert test_picture_names.names_in(sixth)("stake 2") == ["2"]
    test_picture_names.test_every_game_drawn_its_own_way_is_registered()
    test_picture_names.test_the_seat_to_act_sees_every_name_its_moves_use(sixth, monkeypatch)


def test_a_picture_that_leaves_its_stakes_out_fails_the_picture_names_test(
        sixth: str, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setattr(tiny_renderer, "render", _title_only)
    with pytest.raises(AssertionError, match="stake 1: 1"):
        test_picture_names.test_the_seat_to_act_sees_every_name_its_moves_use(sixth,
                                                                              monkeypatch)


def _title_only(view: dict[str, object]) -> bytes:
    image = Image.new("RGB", (tiny_renderer.WIDTH, 60), "white")
    ImageDraw.Draw(image).text((20, 20), "Candy Hunch", fill="black", font=font(20))
    out = io.BytesIO()
    image.save(out, "PNG")
    return out.getvalue()


def test_its_ai_is_measured_before_any_version_of_it_is_frozen(sixth: str):
    game = bot.games.GAMES[sixth]
    assert strength.frozen_versions(game) == ()
    assert all(slug != sixth for slug, _ in test_ai_strength.frozen())
    test_ai_strength.test_every_frozen_ai_is_of_a_registered_game_and_its_play_is_recorded()
    assert strength.default_players(game) == 2
    assert strength.match(game, 2, "strong", "random", 2, 5).games == 2
    with pytest.raises(ValueError, match="no AI of Candy Hunch has been frozen yet"):
        strength.match(game, 2, "normal", "previous", 1)
    test_ai_strength.test_every_level_plays_legal_moves_to_the_end_of_a_game(sixth, "strong")


def test_its_goldens_are_recorded_in_its_own_folder_and_replayed(
        sixth: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path):
    monkeypatch.setattr(golden_record, "HERE", tmp_path)
    monkeypatch.setattr(test_golden, "GOLDEN", tmp_path)
    with pytest.raises(AssertionError, match=f"record its goldens .*{sixth}"):
        test_golden.test_every_registered_game_has_golden_playthroughs_of_its_current_rules(
            sixth)
    path = golden_record.record(sixth, 3, 2, {})
    assert path.parent == tmp_path / sixth
    test_golden.test_every_registered_game_has_golden_playthroughs_of_its_current_rules(sixth)
    test_golden.test_a_golden_playthrough_replays_to_the_same_final_state(path)

