"""The rules document lists the cards exactly as the data makes them."""

from __future__ import annotations

from bot.games.candy_monsters import GAME
from tests.support.paths import ROOT
from tools.rules_pages import candy_monsters_cards as cards_markdown

PAGE = ROOT / "docs" / "rules" / "kingdoms-candy-monsters.md"


def test_the_rules_document_holds_the_current_card_list():
    text = PAGE.read_text(encoding="utf-8")
    assert GAME.title in text
    assert cards_markdown() in text


def test_the_card_list_names_every_card():
    listed = cards_markdown()
    for name in ("UNO", "MAGMOT", "ONI BABA", "ONI YAMI", "PICKPOCKET", "I'M INEVITABLE",
                 "THE ONE GUMMY", "EXLOLLIPOR", "HOME SWEET HOME", "BLACK CANDY (x4)"):
        assert name in listed
