"""The move builder's steps, straight from the engine: every legal move of every game
can be reached by choices, each step offers only prefixes of legal moves, and the
steps of a move follow the game's own notation (``Game.move_steps``)."""

from __future__ import annotations

import pytest

from bot.discord import builder
from bot.games import GAMES
from bot.games.engine import Action, Engine, SeatInfo
from bot.games.words import ABBREVIATIONS, shorten

SEATS = [SeatInfo("Ana"), SeatInfo("Bo"), SeatInfo("Cy", True)]


def states(game: Engine, seed: int, every: int = 3, limit: int = 400):
    state = game.new(SEATS, seed)
    for number in range(limit):
        if game.result(state) is not None:
            return
        seat = sorted(game.to_act(state))[0]
        if number % every == 0:
            yield state, seat
        state = game.apply(state, seat, game.ai_action(state, seat)).state


def assert_shortened_by_rule(label: str) -> None:
    """The label shown for ``label``: at most 80 characters, whole words only."""
    shown = shorten(label, 80)
    assert len(shown) <= 80
    if shown == label:
        return
    assert shown.endswith("…") or len(label) > 80
    short = label
    for long, brief in ABBREVIATIONS:
        short = short.replace(long, brief)
    whole = set(label.split()) | set(short.split())
    whole |= {w.rstrip(",;:.-–—+(") for w in whole}
    for kept in shown.rstrip("…").split(" "):
        assert kept in whole, (label, shown)


def reach(game: Engine, legal: list[Action], target: str, whole: int) -> int:
    """Follow the steps to ``target``; how many choices it took."""
    node = builder.node_at(game, legal, "", whole=whole)
    taps = 0
    while node is not None:
        if node.action is not None:
            assert node.action.notation == target
            return taps + 1
        for option in node.options:
            assert_shortened_by_rule(option.label)
            assert any(a.notation == option.path or a.notation.startswith(option.path + " ")
                       for a in legal), "an option that leads to no legal move"
        taps += 1
        done = next((o for o in node.options if o.action is not None
                     and o.action.notation == target), None)
        if done is not None:
            return taps
        on_way = [o for o in node.options if o.action is None
                  and (target == o.path or target.startswith(o.path + " "))]
        assert len(on_way) == 1, (target, [o.path for o in node.options])
        node = builder.node_at(game, legal, on_way[0].path, whole=whole)
    raise AssertionError(f"{target} cannot be reached")


@pytest.mark.parametrize("slug", list(GAMES))
def test_every_legal_move_is_reached_by_choices(slug: str):
    game = GAMES[slug]
    for state, seat in states(game, 11):
        legal = game.legal_actions(state, seat)
        for action in legal:
            for whole in (0, 25):  # split into every step, and as the bot offers them
                reach(game, legal, action.notation, whole)


def test_a_step_shared_by_every_move_is_taken_as_read():
    game = GAMES["sugartopia"]
    legal = [Action("place l01 at a1 rot 0"), Action("place l01 at a1 rot 60"),
             Action("place l01 at b2 rot 0")]
    node = builder.node_at(game, legal, "", whole=0)
    assert node is not None and node.path == "place l01"
    assert [o.path for o in node.options] == ["place l01 at a1", "place l01 at b2 rot 0"]
    assert node.options[1].action == legal[2]
    rotations = builder.node_at(game, legal, "place l01 at a1", whole=0)
    assert rotations is not None
    assert [o.label for o in rotations.options] == ["place l01 at a1 rot 0",
                                                    "place l01 at a1 rot 60"]


def test_a_card_name_of_several_words_is_one_choice():
    game = GAMES["sugar-heist"]
    legal = [Action("build alarm bell room 1"), Action("build alarm bell room 1 discard"),
             Action("build banana peel room 2"), Action("pay 1 2 3"), Action("pay 4 4")]
    root = builder.node_at(game, legal, "", whole=0)
    assert root is not None and [o.path for o in root.options] == ["build", "pay"]
    build = builder.node_at(game, legal, "build", whole=0)
    assert build is not None
    assert [o.label for o in build.options] == ["alarm bell room 1", "build banana peel room 2"]
    slot = builder.node_at(game, legal, "build alarm bell room 1", whole=0)
    assert slot is not None and [o.action for o in slot.options] == legal[:2]
    pay = builder.node_at(game, legal, "pay", whole=0)
    assert pay is not None and [o.action for o in pay.options] == legal[3:]


def test_a_path_that_leads_to_no_legal_move_is_refused():
    game = GAMES["sugar-blast"]
    legal = [Action("swap a1 a2"), Action("swap b1 b2")]
    assert builder.node_at(game, legal, "swap c1") is None
    assert builder.node_at(game, legal, "swap a") is None
    assert builder.decode("#7.1", legal) is None
    assert builder.decode("#x", legal) is None


def test_a_long_path_travels_as_an_index_into_the_legal_moves():
    legal = [Action("swap a1 a2"), Action("build " + "very long card name " * 5 + "room 1")]
    long = legal[1].notation
    carried = builder.encode(long, legal, 20)
    assert carried == "#1"
    assert builder.decode(carried, legal) == long
    part = " ".join(long.split()[:4])
    assert builder.decode(builder.encode(part, legal, 10) or "", legal) == part


@pytest.mark.parametrize("text", [
    "PICKPOCKET: take 2 sugar from every other player who has more sugar than you, "
    "then gain a candy",
    "use Scary Mean Policeman on 1, 1 and 3: Set one of your dice to 6 and then reroll others",
])
def test_labels_are_shortened_at_word_boundaries(text: str):
    short = shorten(text, 80)
    assert len(short) <= 80
    assert short.endswith("…")
    kept = short.rstrip("…").split(" ")
    words = text.replace(" and ", " & ").replace("sugar", "sug.").split(" ")
    assert kept[:-1] == words[:len(kept) - 1]
    assert words[len(kept) - 1].startswith(kept[-1])  # only punctuation may go
    assert words[len(kept) - 1].rstrip(",;:") == kept[-1]


def test_a_short_label_is_left_alone():
    assert shorten("swap a2 (truffle) with b2 (lollipop)", 80) == \
        "swap a2 (truffle) with b2 (lollipop)"
