"""The AIs made faster choose as they did: every case of tests/ai_choices/ (recorded from
the AI before it was made faster, by tests/ai_choices/record.py) plays the same moves,
and the AI gives every legal action the very same value at every move."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest

from bot.games import GAMES
from bot.games.engine import Action, SeatInfo, View
from bot.games.rng import Rng
from tests.ai_choices.record import play
from tests.support.paths import ROOT

HERE = (ROOT / "tests") / "ai_choices"
CASES = [(path.stem, n) for path in sorted(HERE.glob("*.json"))
         for n in range(len(json.loads(path.read_text(encoding="utf-8"))["cases"]))]


@pytest.mark.parametrize(("slug", "n"), CASES, ids=lambda v: str(v))
def test_the_ai_chooses_and_values_as_recorded(slug: str, n: int) -> None:
    recorded = json.loads((HERE / f"{slug}.json").read_text(encoding="utf-8"))["cases"][n]
    again = play(GAMES[slug], recorded["seed"], recorded["players"], recorded["rules"])
    assert again["log"] == recorded["log"]
    changed = [i for i, (a, b) in enumerate(zip(again["values"], recorded["values"],
                                                strict=True)) if a != b]
    assert not changed, f"the AI valued the legal actions differently at moves {changed}"


def test_every_game_whose_ai_was_made_faster_has_recorded_choices() -> None:
    assert {path.stem for path in HERE.glob("*.json")} >= {"sugartopia", "sugar-heist",
                                                           "sugarworks"}


def decisions(slug: str, seed: int) -> Iterator[tuple[View, list[Action]]]:
    """Each decision of a game whose moves are the AI's or random, half and half: the
    mover's view and legal actions."""
    game = GAMES[slug]
    state = game.new([SeatInfo(f"P{i}", ai=True) for i in range(2 + seed % 3)], 900 + seed)
    pick = Rng.from_seed(seed)
    while game.to_act(state):
        seat = min(game.to_act(state))
        legal = game.legal_actions(state, seat)
        yield game.view(state, seat), legal
        action = pick.choice(legal) if pick.below(2) else game.ai_action(state, seat)
        state = game.apply(state, seat, action).state


@pytest.mark.parametrize("seed", range(4))
def test_sugartopias_fast_values_are_the_whole_table_ones_on_tables_random_play_makes(
        seed: int) -> None:
    """Sugartopia's AI values a placement from the areas it changes; played on a whole copy
    of the table (the way it was) every value is the same, on tables that random moves
    make as well as the AI's."""
    from bot.games.sugartopia.ai import action_values, reference_values

    checked = 0
    for view, legal in decisions("sugartopia", seed):
        assert action_values(view, legal) == reference_values(view, legal)
        checked += 1
    assert checked > 20


@pytest.mark.parametrize("seed", range(4))
def test_a_sugarworks_conveyor_nothing_looks_at_is_worth_the_floor_as_it_is(seed: int) -> None:
    """The Sugarworks AI values a conveyor laid where no candy goes without playing the
    movement again; playing it (``factory_value``) gives every such value the same, on
    floors that random moves make as well as the AI's."""
    from bot.games.sugarworks.ai import action_values, factory_value, model_of

    checked = 0
    for view, legal in decisions("sugarworks", seed):
        conveyors = [a.notation for a in legal if a.notation.startswith("conveyor")]
        if conveyors:
            values = action_values(view, legal)
            model = model_of(view)
            assert {n: values[n] for n in conveyors} == {
                n: factory_value(model, n) for n in conveyors}
            checked += len(conveyors)
    assert checked > 200
