"""Kingdom's Candy Monsters rules 3: abilities pay, no card is dead, stored games keep their cards.

The balance checks play small fixed sets of seeded all-AI games (a few seconds); the
figures in docs/rules/kingdoms-candy-monsters.md come from the same functions on
larger sets (``python -m tools.balance.candy_monsters cards|duel``).
"""

from __future__ import annotations

import pytest

from bot.games.candy_monsters import CandyMonsters, board, cards, effects
from bot.games.candy_monsters.ai import action_values
from bot.games.engine import Engine, SeatInfo, dumps, loads
from tests.bot.games.candy_monsters.test_rules import (
    arrange,
    check_whole,
    market,
    new,
    notations,
    play,
    turn_of,
)
from tools.balance.candy_monsters import card_figures, duel, play_mixed

pytestmark = pytest.mark.slow  # many whole AI games

GAME = Engine(CandyMonsters())
#: Rules 3 made every ability type 1 sugar cheaper (SUGAR RUSH: 2 to 1) and five of them
#: stronger; every type has a new id (``pickpocket-3``), the rules-2 ids stay for old games.
CHANGED = ("pickpocket", "im-inevitable", "sugar-rush", "sweet-tooth", "haggle", "full-belly",
           "sprinkles", "candy-crush", "toothbrush", "loot-stash")
STRONGER = ("sugar-rush", "sweet-tooth", "full-belly", "candy-crush", "toothbrush")


def test_the_full_ai_outscores_the_same_ai_that_never_buys_an_ability():
    # On these 24 three-player games the full seats led by 4.0 candies under rules 2 (its
    # cards and AI) and lead by 8.3 under rules 3; they win more than their share.
    figures = duel(24, 3, seed=300)
    assert figures["lead"] >= 6.0
    assert figures["full_win_ratio"] >= 1.3


def test_the_no_ability_ai_never_buys_an_ability_and_the_full_ai_does():
    final = play_mixed(GAME, [True, False], 11)
    full, plain = final["players"]
    assert full["kept"] or board.tucked_ids(final, 0)
    assert not plain["kept"] and not board.tucked_ids(final, 1)


def test_sugar_rush_is_bought_and_every_card_in_a_fair_share_of_games():
    # Rules 2: SUGAR RUSH was bought in none of these 16 three-player games (4% of 200);
    # rules 3: in 15 of them, and every card in at least 3.
    figures = card_figures(16, 3, seed=700)
    assert figures["SUGAR RUSH"]["games"] >= 0.5
    assert figures["SUGAR RUSH"]["used"] > 0
    dead = {name: row["games"] for name, row in figures.items() if row["games"] < 2 / 16}
    assert not dead


def test_a_new_game_deals_the_rules_3_abilities_and_a_rules_2_game_its_own():
    current = GAME.new([SeatInfo("A"), SeatInfo("B")], 1)
    older = GAME.new([SeatInfo("A"), SeatInfo("B")], 1, rules=2)
    assert current["rules"] == 3 and older["rules"] == 2
    now = {cards.card(c).type for c in [*current["decks"]["abilities"],
                                        *current["market"]["abilities"]]}
    then = {cards.card(c).type for c in [*older["decks"]["abilities"],
                                         *older["market"]["abilities"]]}
    assert {f"{t}-3" for t in CHANGED} <= now and not set(CHANGED) & now
    assert set(CHANGED) <= then and not {f"{t}-3" for t in CHANGED} & then
    assert len(now) == len(then) == 10
    # Same seed, same shuffles: the rules-2 game is dealt exactly as before rules 3.
    assert [c.replace("-3-", "-") for c in current["decks"]["abilities"]] == \
        older["decks"]["abilities"]
    check_whole(older)
    loaded = loads(dumps(older), GAME)
    assert loaded["rules"] == 2
    GAME.check_replayable(loaded)


def test_the_changed_abilities_read_as_rules_3_prints_them_and_rules_2_as_it_did():
    for c in CHANGED:
        old, now = cards.card(f"{c}-red"), cards.card(f"{c}-3-red")
        assert now.cost == old.cost - 1 and now.value == old.value and now.type_name == old.name
        assert (old.until, now.since) == (2, 3)
        assert (c in STRONGER) == (old.ability != now.ability)
    text = {c: effects.card_text(cards.card(f"{c}-red")) for c in STRONGER}
    new_text = {c: effects.card_text(cards.card(f"{c}-3-red")) for c in STRONGER}
    assert text["sugar-rush"].endswith("you may use the ability you are buying this turn.")
    assert new_text["sugar-rush"].endswith(
        "you may use the ability you are buying this turn, then gain 1 candy.")
    assert "take 2 more sugar" in text["sweet-tooth"]
    assert "take 3 more sugar" in new_text["sweet-tooth"]
    assert "eat 3 less" in new_text["full-belly"]
    assert "pay 1 sugar: gain 1 candy" in new_text["candy-crush"]
    assert "then gain 2 sugar" in new_text["toothbrush"]


def test_sugar_rush_gives_a_candy_and_lets_the_ability_bought_be_used_at_once():
    state = new()
    arrange(state, 0, ["uno"], tucked={"uno": ["sugar-rush-3-red"]}, sugar=10, candy=0)
    arrange(state, 1, ["doro"], sugar=6)
    market(state, abilities=["pickpocket-3-green"])
    turn_of(state, 0)
    state, _ = play(state, 0, "buy pickpocket green")
    assert "use sugar rush" in notations(state, 0)
    sugar = board.player(state, 0)["sugar"]
    state, _ = play(state, 0, "use sugar rush", "pay", "tuck under uno")
    me = board.player(state, 0)
    assert me["candy"] == 1
    assert me["sugar"] == sugar - 1 - cards.card("pickpocket-3-green").cost
    assert "use pickpocket" in notations(state, 0)
    check_whole(state)


def test_the_ai_rushes_an_ability_it_can_use_this_turn_and_prices_the_rush():
    state = new()
    arrange(state, 0, ["uno"], tucked={"uno": ["sugar-rush-3-red"]}, sugar=10)
    arrange(state, 1, ["doro"], sugar=8)
    market(state, abilities=["pickpocket-3-green", "sprinkles-3-red"])
    turn_of(state, 0)
    rushed, _ = play(state, 0, "buy pickpocket green")
    values = action_values(GAME.view(rushed, 0), GAME.legal_actions(rushed, 0))
    assert values["use sugar rush"] > values["pay"]
    # A start-of-turn ability cannot be used after the action: the rush is worth only
    # its candy, less the sugar, for SPRINKLES.
    later, _ = play(state, 0, "buy sprinkles red")
    worth = action_values(GAME.view(later, 0), GAME.legal_actions(later, 0))
    assert worth["use sugar rush"] - worth["pay"] < values["use sugar rush"] - values["pay"]
