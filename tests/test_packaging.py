"""The wheel ships what the bot needs (and only that), and the catalogue finds every part of a
game."""

from __future__ import annotations

import importlib
import re
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from bot.games import CATALOGUE, PACKAGES, Entry
from bot.games.content import data_path

ROOT = Path(__file__).resolve().parents[1]
ENTRIES = sorted(CATALOGUE.values(), key=lambda e: e.slug)


def project_files() -> list[str]:
    """The files a fresh clone of this checkout would hold (tracked or new, never ignored)."""
    listed = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
                            capture_output=True, check=True, cwd=ROOT).stdout.decode()
    return [name for name in listed.split("\0") if name and (ROOT / name).is_file()]


def clean_clone(dest: Path) -> Path:
    for name in project_files():
        (dest / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / name, dest / name)
    return dest


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """A wheel built from a clean clone by pip (in its own build environment), and pip's
    verbose output, which carries everything setuptools printed or warned."""
    source = clean_clone(tmp_path_factory.mktemp("clone"))
    out = tmp_path_factory.mktemp("wheel")
    build = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-v",
                            "--wheel-dir", str(out), str(source)],
                           capture_output=True, text=True, cwd=out)
    assert build.returncode == 0, build.stdout + build.stderr
    (built,) = out.glob("candybot-*.whl")
    return built, build.stdout + build.stderr


def test_the_wheel_holds_the_code_the_tools_the_content_and_the_fonts_and_nothing_else(wheel):
    shipped = {name for name in zipfile.ZipFile(wheel[0]).namelist()
               if ".dist-info/" not in name}
    # The content folder data/ ships as the candybot_data package.
    wanted = {name.replace("data/", "candybot_data/", 1) if name.startswith("data/") else name
              for name in project_files()
              if name.split("/")[0] in ("bot", "renderers", "tools", "data")}
    assert shipped == wanted
    assert "candybot_data/fonts/DejaVuSans.ttf" in shipped
    assert not any(name.startswith(("tests/", "docs/")) for name in shipped)


def test_the_wheel_says_its_licence_as_an_spdx_expression(wheel):
    with zipfile.ZipFile(wheel[0]) as archive:
        (metadata,) = [n for n in archive.namelist() if n.endswith(".dist-info/METADATA")]
        headers = archive.read(metadata).decode()
    assert "License-Expression: MIT" in headers.splitlines()


def test_building_the_wheel_warns_of_nothing(wheel):
    warnings = [line for line in wheel[1].splitlines()
                if re.search(r"deprecat|SetuptoolsWarning|_Warning|is absent from", line, re.I)]
    assert warnings == []


def test_every_registered_game_is_one_package_line():
    assert len(PACKAGES) == len(CATALOGUE) == len(set(PACKAGES))


@pytest.mark.parametrize("entry", ENTRIES, ids=lambda e: e.slug)
def test_every_registered_game_has_a_renderer(entry: Entry):
    module = importlib.import_module(entry.renderer_module)
    assert callable(module.render)


@pytest.mark.parametrize("entry", ENTRIES, ids=lambda e: e.slug)
def test_every_registered_game_has_a_rules_document(entry: Entry):
    page = ROOT / entry.docs_page
    assert page.is_file(), f"{entry.slug} has no {entry.docs_page}"
    assert entry.game.title in page.read_text(encoding="utf-8")


@pytest.mark.parametrize("entry", ENTRIES, ids=lambda e: e.slug)
def test_every_game_with_content_files_has_them_in_its_data_folder(entry: Entry):
    # A game without content files needs no folder (git keeps no empty one).
    if not entry.game.has_content_files:
        pytest.skip(f"{entry.slug} declares no content files")
    folder = data_path(entry.data_folder)
    assert folder.is_dir() and any(folder.glob("*.json")), f"data/{entry.data_folder}/ is empty"
