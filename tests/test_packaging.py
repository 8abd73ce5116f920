"""Packaging finds every package itself, and the catalogue finds every part of a game."""

from __future__ import annotations

import importlib
import subprocess
import sys
from pathlib import Path

import pytest

from bot.games import CATALOGUE, PACKAGES, Entry
from bot.games.content import data_path

ROOT = Path(__file__).resolve().parents[1]
ENTRIES = sorted(CATALOGUE.values(), key=lambda e: e.slug)


def test_setup_finds_every_python_package_in_the_tree():
    out = subprocess.run([sys.executable, "-c",
                          "import setuptools, runpy, sys\n"
                          "captured = {}\n"
                          "setuptools.setup = lambda **kw: captured.update(kw)\n"
                          "runpy.run_path('setup.py')\n"
                          "print('\\n'.join(captured['packages']))"],
                         capture_output=True, text=True, check=True, cwd=ROOT)
    listed = set(out.stdout.split())
    found = {"candybot_data"}
    for top in ("bot", "renderers"):
        for init in (ROOT / top).rglob("__init__.py"):
            found.add(".".join(init.parent.relative_to(ROOT).parts))
    assert found == listed


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
def test_every_registered_game_has_a_data_folder(entry: Entry):
    assert data_path(entry.data_folder).is_dir()
