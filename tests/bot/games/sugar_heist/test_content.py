"""Sugar Heist content: the box's card counts, named cards, and the generated card list."""

from __future__ import annotations

from bot.games.sugar_heist import cards, effects
from tests.support.paths import ROOT

DOC = ROOT / "docs" / "rules" / "sugar-heist.md"


def _steps(steps: list[dict]) -> list[dict]:
    out = []
    for step in steps:
        out.append(step)
        out += _steps(step.get("then", [])) + _steps(step.get("else", []))
        for option in step.get("options", []):
            out += _steps(option)
    return out


def test_the_box_holds_the_rulebooks_card_counts():
    ids = cards.instances()
    assert len(cards.costume_ids()) == 48
    assert [len(cards.hideout_ids(c)) for c in (1, 2, 3)] == [54, 42, 20]
    assert len(ids) == 48 + 54 + 42 + 20
    assert len(cards.boards()) == 6
    assert [cards.track(n)["players"] for n in range(3, 7)] == [3, 4, 5, 6]


def test_every_step_is_a_known_verb_and_every_card_has_its_text():
    designs = [*cards.costumes().values(), *cards.hideout_cards().values()]
    designs += [b["default"] for b in cards.boards()]
    for card in designs:
        steps = card.get("ability", []) + card.get("effect", []) + card.get("bad", [])
        for step in _steps(steps):
            assert step["do"] in effects.VERBS, (card["name"], step)
        text = cards.describe(card)
        needed = {"costume": ("ability",), "mod": ("effect",),
                  "encounter": ("challenge", "bad")}[text["kind"]]
        assert text["name"] and all(text[k].strip() for k in needed), text
        assert bool(text.get("effect")) == bool(card.get("effect")), text
    for card in cards.hideout_cards().values():
        assert ("challenge" in card) == (card["kind"] == "encounter")


def test_every_verb_of_the_interpreter_is_used_by_some_card():
    used = set()
    for card in [*cards.costumes().values(), *cards.hideout_cards().values()]:
        used |= {s["do"] for s in _steps(card.get("ability", []) + card.get("effect", [])
                                         + card.get("bad", []))}
    assert used == set(effects.VERBS)


def test_the_cards_the_rulebook_names_exist():
    names = {c["name"] for c in [*cards.costumes().values(), *cards.hideout_cards().values()]}
    assert {"Toothpick Pit", "Scattered Marbles", "Insidious Lawn Gnomes", "Venus Flytrap",
            "Scary Mean Policeman", "Tomboy Princess"} <= names
    assert cards.hideout_cards()["toothpick-pit"]["cost"] == 2


def test_the_rules_document_carries_the_card_list_generated_from_the_data():
    from tools.rules_pages import sugar_heist_cards

    assert sugar_heist_cards() in DOC.read_text(encoding="utf-8")
