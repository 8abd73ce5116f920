"""Kingdom's Candy Monsters rules: set-up, the turn, every timing window, events, Black Candy
and scoring, with the rulebook's own examples.

Situations are built on a fresh game: cards are moved from wherever they lie to
where the test needs them, and tokens come from (or go back to) the kingdom, so
the totals stay whole.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

import pytest

from bot.games import engine
from bot.games.candy_monsters import CandyMonsters, board, cards, feeding, scoring
from bot.games.engine import (
    AmbiguousActionError,
    Engine,
    IllegalActionError,
    NotationError,
    NotYourTurnError,
    SeatInfo,
    State,
    Turn,
)
from bot.games.pieces import seats_from
from bot.games.rng import Rng

GAME = Engine(CandyMonsters())


# --------------------------------------------------------------------------- helpers


def new(players: int = 3, seed: int = 0) -> State:
    return GAME.new([SeatInfo(f"P{i}") for i in range(players)], seed)


def take_out(state: State, card_id: str) -> None:
    """Lift a card from wherever it lies (deck, market, discard, box, a player's table)."""
    for pile in state["decks"].values():
        if card_id in pile:
            pile.remove(card_id)
    for pile in state["market"].values():
        if card_id in pile:
            pile[pile.index(card_id)] = None
    for pile in state["discard"].values():
        if card_id in pile:
            pile.remove(card_id)
    if card_id in state["box"]:
        state["box"].remove(card_id)
    for p in state["players"]:
        p["kept"] = [k for k in p["kept"] if k != card_id]
        p["monsters"] = [m for m in p["monsters"] if m["card"] != card_id]
        for m in p["monsters"]:
            m["tucked"] = [t for t in m["tucked"] if t != card_id]


def put_back(state: State, card_id: str) -> None:
    """Return a lifted card to its deck (or the box), so every card stays somewhere."""
    c = cards.card(card_id)
    if c.kind == "starting":
        state["box"].append(card_id)
    elif c.kind == "monster":
        state["decks"]["monsters"].insert(0, card_id)
    elif c.kind == "ability":
        state["decks"]["abilities"].insert(0, card_id)


def arrange(state: State, seat: int, monsters: Iterable[str] = (),
            tucked: dict[str, list[str]] | None = None, kept: Iterable[str] = (),
            sugar: int | None = None, candy: int | None = None, black: int | None = None) -> None:
    """Give ``seat`` exactly these monsters (with tucked abilities) and kept abilities."""
    p = board.player(state, seat)
    old = [m["card"] for m in p["monsters"]] + board.tucked_ids(state, seat) + p["kept"]
    tucked = tucked or {}
    wanted = [*monsters, *[a for v in tucked.values() for a in v], *kept]
    for card_id in wanted:
        take_out(state, card_id)
    p["monsters"] = [{"card": m, "tucked": list(tucked.get(m, []))} for m in monsters]
    p["kept"] = list(kept)
    for card_id in old:
        if card_id not in wanted:
            put_back(state, card_id)
    for key, value in (("sugar", sugar), ("candy", candy), ("black", black)):
        if value is not None:
            state["kingdom"][key] += p[key] - value
            p[key] = value


def market(state: State, monsters: Iterable[str] = (), abilities: Iterable[str] = ()) -> None:
    """Show these cards face up (the rest of the slots keep what they had)."""
    for pile, wanted in (("monsters", list(monsters)), ("abilities", list(abilities))):
        for slot, card_id in enumerate(wanted):
            old = state["market"][pile][slot]
            take_out(state, card_id)
            state["market"][pile][slot] = card_id
            if old and old != card_id:
                put_back(state, old)


def turn_of(state: State, seat: int) -> list[str]:
    """Start ``seat``'s turn now (start-of-turn bonuses paid); returns the narration."""
    state["order"] = seats_from(seat, len(state["seats"]))
    state["index"] = 0
    state["first"] = seat
    turn = Turn(Rng(1))
    GAME.rules._begin_turn(state, turn, seat)
    return [e.text for e in turn.events]


def play(state: State, seat: int, *moves: str) -> tuple[State, list[str]]:
    texts: list[str] = []
    for move in moves:
        outcome = GAME.apply(state, seat, move)
        state = outcome.state
        texts += outcome.narration(seat)
    return state, texts


def feed_all(state: State, seat: int, *first: str) -> tuple[State, list[str]]:
    """Answer ``seat``'s feeding: the ``first`` steps, then no ability and sugar for the rest."""
    state, said = play(state, seat, *first)
    while (top := GAME.top(state)) is not None and top.kind == "feed" and seat in top.waiting:
        legal = notations(state, seat)
        step = "use none" if "use none" in legal else next(
            n for n in legal if n.startswith("feed ") and n.endswith(" sugar")
            and not n.split(" ")[-2].isdigit())
        state, more = play(state, seat, step)
        said += more
    return state, said


def notations(state: State, seat: int) -> list[str]:
    return [a.notation for a in GAME.legal_actions(state, seat)]


def everywhere(state: State) -> Counter[str]:
    """Every card id in the game, counted wherever it lies."""
    found: Counter[str] = Counter()
    for pile in state["decks"].values():
        found.update(pile)
    for pile in state["market"].values():
        found.update(c for c in pile if c)
    for pile in state["discard"].values():
        found.update(pile)
    found.update(state["box"])
    found.update(state["drawn"])
    for p in state["players"]:
        found.update(p["kept"])
        for m in p["monsters"]:
            found[m["card"]] += 1
            found.update(m["tucked"])
    if state["turn"] and state["turn"]["purchase"]:
        placed = found[state["turn"]["purchase"]["card"]]
        if not placed:
            found[state["turn"]["purchase"]["card"]] += 1
    return found


def check_whole(state: State) -> None:
    """Tokens are conserved and every card is in exactly one place."""
    for key, total in cards.supply().items():
        held = sum(p[key] for p in state["players"]) if key != "tokens" else sum(
            len(p["tokens"]) for p in state["players"])
        assert state["kingdom"][key] + held == total, key
        assert state["kingdom"][key] >= 0
    expected = Counter(cards.dealt(state["rules"]))
    assert everywhere(state) == expected


# --------------------------------------------------------------------------- set-up


def test_the_kingdom_holds_130_sugar_25_black_cubes_95_candy_and_3_tokens():
    assert cards.supply() == {"sugar": 130, "black": 25, "candy": 95, "tokens": 3}


def test_every_player_starts_with_5_sugar_and_one_random_starting_monster():
    state = new(4)
    starters = []
    for p in state["players"]:
        assert p["sugar"] == 5
        assert len(p["monsters"]) == 1
        starters.append(p["monsters"][0]["card"])
        assert cards.card(starters[-1]).kind == "starting"
    assert len(set(starters)) == 4
    assert sorted(state["box"]) == sorted(set(cards.ids_of("starting")) - set(starters))
    assert state["kingdom"]["sugar"] == 130 - 20
    check_whole(state)


def test_the_event_deck_is_four_piles_of_two_events_each_with_a_black_candy():
    for seed in range(5):
        deck = list(reversed(new(2, seed)["decks"]["events"]))  # top first
        assert len(deck) == 12
        for pile in range(4):
            three = deck[3 * pile: 3 * pile + 3]
            assert sum(cards.is_black_candy(c) for c in three) == 1


def test_one_ability_of_each_type_lies_at_the_bottom_of_the_ability_deck():
    for seed in range(5):
        deck = new(2, seed)["decks"]["abilities"]
        assert len(deck) == 27
        bottom = [cards.card(c).type for c in deck[:10]]
        assert sorted(bottom) == sorted(cards.ability_types())


def test_three_monsters_and_three_abilities_lie_face_up():
    state = new()
    assert all(cards.card(c).kind == "monster" for c in state["market"]["monsters"])
    assert all(cards.card(c).kind == "ability" for c in state["market"]["abilities"])
    assert len(state["decks"]["monsters"]) == 16


def test_the_content_has_6_starting_monsters_19_monsters_30_abilities_and_12_events():
    assert len(cards.ids_of("starting")) == 6
    assert len(cards.ids_of("monster")) == 19
    assert len(cards.ids_of("ability")) == 30
    assert len(cards.ids_of("event")) == 8
    assert len(cards.ids_of("black_candy")) == 4


def test_the_rulebook_names_fit_their_examples():
    assert cards.card("magmot").hunger == 2
    assert cards.card("oni-baba").hunger == 2
    assert cards.card("uno").kind == "starting"
    assert cards.card("oni-yami").end
    assert cards.card("pickpocket-3-red").kind == "ability"
    assert cards.card("im-inevitable-3-red").kind == "ability"
    for event in ("the-one-gummy", "exlollipor", "home-sweet-home"):
        assert cards.card(event).condition


# --------------------------------------------------------------------------- start of turn


def test_monster_set_bonus_example_two_of_a_colour_and_a_full_set_with_uno():
    """Rulebook: 2 sugar from UNO, 1 sugar for 2 monsters of a colour, 1 candy for a set."""
    state = new()
    arrange(state, 0, ["uno", "magmot", "oni-baba", "taffy-troll"], sugar=0, candy=0)
    said = turn_of(state, 0)
    assert board.player(state, 0)["sugar"] == 1
    assert board.player(state, 0)["candy"] == 1
    assert "Monster set bonus: 1 sugar and 1 candy" in said[0]
    state, _ = play(state, 0, "use uno")
    assert board.player(state, 0)["sugar"] == 3
    check_whole(state)


@pytest.mark.parametrize(("reds", "sugar"), [(1, 0), (2, 1), (3, 2), (4, 3), (5, 3)])
def test_monsters_of_one_colour_give_1_2_or_3_sugar(reds: int, sugar: int):
    state = new()
    red = ["magmot", "caramel-kraken", "jawbreaker", "bubblegum-baku", "choco-chimera"]
    arrange(state, 0, red[:reds], sugar=0, candy=0)
    turn_of(state, 0)
    assert board.player(state, 0)["sugar"] == sugar
    assert board.player(state, 0)["candy"] == 0


def test_each_separate_full_set_of_colours_gives_a_candy():
    state = new()
    arrange(state, 0, ["magmot", "jawbreaker", "gumzilla", "taffy-troll", "oni-baba",
                       "oni-yami"], sugar=0, candy=0)
    turn_of(state, 0)
    assert board.player(state, 0)["candy"] == 2
    assert board.player(state, 0)["sugar"] == 3  # three pairs


def test_black_cubes_are_removed_at_2_sugar_each_only_before_the_action():
    state = new()
    arrange(state, 0, ["kompeito"], sugar=5, black=3)
    turn_of(state, 0)
    legal = notations(state, 0)
    assert "remove 2 black" in legal and "remove 3 black" not in legal
    state, _ = play(state, 0, "remove 2 black")
    assert board.player(state, 0)["black"] == 1 and board.player(state, 0)["sugar"] == 1
    state, _ = play(state, 0, "collect")
    assert not any(n.startswith("remove") for n in notations(state, 0))
    with pytest.raises(IllegalActionError, match="start of your turn"):
        GAME.apply(state, 0, "remove 1 black")
    check_whole(state)


# --------------------------------------------------------------------------- actions


def test_collect_takes_5_sugar_from_the_kingdom():
    state = new()
    arrange(state, 0, ["kompeito"], sugar=0)
    turn_of(state, 0)
    state, _ = play(state, 0, "collect")
    assert board.player(state, 0)["sugar"] == 5


def test_collect_takes_the_rest_from_the_player_with_the_most_sugar_when_the_kingdom_runs_short():
    state = new()
    arrange(state, 0, ["kompeito"], sugar=0)
    arrange(state, 1, ["uno"], sugar=4)
    arrange(state, 2, ["doro"], sugar=0)
    arrange(state, 2, ["doro"], sugar=state["kingdom"]["sugar"] - 2)
    assert state["kingdom"]["sugar"] == 2
    # Seat 2 now holds the most sugar, so the 3 missing cubes come from seat 2.
    turn_of(state, 0)
    before = board.player(state, 2)["sugar"]
    state, said = play(state, 0, "collect")
    assert board.player(state, 0)["sugar"] == 5
    assert board.player(state, 2)["sugar"] == before - 3
    assert board.player(state, 1)["sugar"] == 4
    assert any("3 more came from P2" in s for s in said)
    check_whole(state)


def test_a_turn_has_one_action_and_ends_with_end_turn():
    state = new()
    arrange(state, 0, ["kompeito"], sugar=10)
    turn_of(state, 0)
    state, _ = play(state, 0, "collect")
    legal = notations(state, 0)
    assert "collect" not in legal and not any(n.startswith("buy") for n in legal)
    assert "end turn" in legal
    with pytest.raises(IllegalActionError, match="already taken your action"):
        GAME.apply(state, 0, "collect")
    state, _ = play(state, 0, "end turn")
    assert state["turn"]["seat"] == 1


def test_the_turn_ends_by_itself_when_nothing_is_left_to_do():
    state = new()
    market(state, monsters=["sour-sprite"])
    arrange(state, 0, ["kompeito"], sugar=3)
    turn_of(state, 0)
    state, said = play(state, 0, "buy sour sprite")
    assert any("nothing left to do" in s for s in said)
    assert state["turn"]["seat"] == 1


def test_end_turn_needs_an_action_first():
    state = new()
    turn_of(state, 0)
    with pytest.raises(IllegalActionError, match="action first"):
        GAME.apply(state, 0, "end turn")


def test_buying_a_monster_pays_the_kingdom_and_refills_the_slot():
    state = new()
    arrange(state, 0, ["uno"], sugar=6)
    market(state, monsters=["magmot"])
    turn_of(state, 0)
    deck_top = state["decks"]["monsters"][-1]
    state, _ = play(state, 0, "buy magmot")
    assert board.monster_ids(state, 0) == ["uno", "magmot"]
    assert board.player(state, 0)["sugar"] == 1
    assert state["market"]["monsters"][0] == deck_top
    check_whole(state)


def test_untucked_ability_example_oni_baba_costs_2_less_and_gives_a_candy():
    """Rulebook: two purple candies on kept abilities and a full set of them."""
    state = new()
    arrange(state, 0, ["uno"],
            kept=["pickpocket-3-purple", "sugar-rush-3-red", "toothbrush-3-green"],
            sugar=4, candy=0)
    assert board.kept_candies(state, 0) == {"red": 1, "green": 1, "purple": 2}
    market(state, monsters=["oni-baba"])
    turn_of(state, 0)
    assert GAME.rules.price(state, 0, "oni-baba") == cards.card("oni-baba").cost - 2
    state, said = play(state, 0, "buy oni baba")
    assert board.player(state, 0)["sugar"] == 0
    assert board.player(state, 0)["candy"] == 1
    assert any("gains 1 candy for the kept ability sets" in s for s in said)
    check_whole(state)


def test_a_cost_never_goes_below_zero():
    state = new()
    arrange(state, 0, ["crumble"], kept=["loot-stash-3-red", "candy-crush-3-red"], sugar=0)
    market(state, monsters=["jawbreaker"])
    turn_of(state, 0)
    assert GAME.rules.price(state, 0, "jawbreaker") == 0
    state, _ = play(state, 0, "buy jawbreaker", "use crumble", "pay")
    assert board.player(state, 0)["sugar"] == 0
    assert "jawbreaker" in board.monster_ids(state, 0)
    check_whole(state)


def test_a_bought_ability_is_tucked_under_a_monster_or_kept():
    state = new()
    arrange(state, 0, ["uno", "jawbreaker"], sugar=10)
    market(state, abilities=["pickpocket-3-red"])
    turn_of(state, 0)
    state, _ = play(state, 0, "use uno", "buy pickpocket red")
    decision = GAME.top(state)
    assert decision is not None and decision.kind == "place"
    # Converting sugar is offered at any time; the decision's own answers are these.
    assert sorted(n for n in notations(state, 0) if n != "convert") == [
        "keep", "tuck under jawbreaker", "tuck under uno"]
    state, _ = play(state, 0, "tuck under jawbreaker")
    assert board.monster_entry(state, 0, "jawbreaker")["tucked"] == ["pickpocket-3-red"]
    check_whole(state)


def test_only_one_ability_of_each_type_among_tucked_and_one_among_kept():
    state = new()
    arrange(state, 0, ["uno", "jawbreaker"], tucked={"uno": ["pickpocket-3-red"]}, sugar=20)
    market(state, abilities=["pickpocket-3-green", "pickpocket-3-purple"])
    turn_of(state, 0)
    state, _ = play(state, 0, "buy pickpocket green")
    # Tucking a second PICKPOCKET is not allowed; keeping one is, so it is kept at once.
    assert board.player(state, 0)["kept"] == ["pickpocket-3-green"]
    state = new()
    arrange(state, 0, ["uno"], tucked={"uno": ["pickpocket-3-red"]}, kept=["pickpocket-3-green"],
            sugar=20)
    market(state, abilities=["pickpocket-3-purple"])
    turn_of(state, 0)
    assert "buy pickpocket purple" not in notations(state, 0)
    with pytest.raises(IllegalActionError, match="at most one of each type"):
        GAME.apply(state, 0, "buy pickpocket purple")


def test_a_kept_ability_cannot_be_used():
    state = new()
    arrange(state, 0, ["kompeito"], kept=["pickpocket-3-red"], sugar=3)
    arrange(state, 1, ["uno"], sugar=6)
    turn_of(state, 0)
    assert "use pickpocket" not in notations(state, 0)
    with pytest.raises(IllegalActionError, match="kept, not tucked"):
        GAME.apply(state, 0, "use pickpocket")


def test_four_sugar_convert_into_one_candy_at_any_time_in_the_turn():
    state = new()
    arrange(state, 0, ["kompeito"], sugar=9, candy=0)
    turn_of(state, 0)
    state, _ = play(state, 0, "convert", "collect", "convert")
    assert board.player(state, 0)["sugar"] == 6 and board.player(state, 0)["candy"] == 2
    check_whole(state)


# --------------------------------------------------------------------------- timing windows


def test_a_start_of_turn_ability_works_only_before_the_action():
    state = new()
    arrange(state, 0, ["uno"], sugar=0)
    turn_of(state, 0)
    assert "use uno" in notations(state, 0)
    state, _ = play(state, 0, "collect")
    assert "use uno" not in notations(state, 0)
    with pytest.raises(IllegalActionError, match="start of your turn"):
        GAME.apply(state, 0, "use uno")


def test_an_any_time_ability_works_before_and_after_the_action_once_per_round():
    state = new()
    arrange(state, 0, ["kompeito"], tucked={"kompeito": ["pickpocket-3-red"]}, sugar=1)
    arrange(state, 1, ["uno"], sugar=6)
    turn_of(state, 0)
    assert "use pickpocket" in notations(state, 0)
    state, said = play(state, 0, "collect", "use pickpocket")
    assert board.player(state, 0)["sugar"] == 7 and board.player(state, 1)["sugar"] == 4
    assert "took 2 sugar from P1" in said[-1]
    with pytest.raises(IllegalActionError, match="already been used this round"):
        GAME.apply(state, 0, "use pickpocket")
    check_whole(state)


def test_abilities_are_ready_again_next_round():
    state = new(2)
    arrange(state, 0, ["kompeito"], tucked={"kompeito": ["pickpocket-3-red"]}, sugar=1)
    arrange(state, 1, ["doro"], sugar=6)
    turn_of(state, 0)
    state, _ = play(state, 0, "use pickpocket", "collect")
    assert "use pickpocket" not in notations(state, 0)
    state["first"] = 0
    GAME.rules._begin_phase(state, "turns", Turn(Rng(0)))
    assert "use pickpocket" in notations(state, 0)


def test_a_collect_ability_works_only_in_a_turn_you_collected():
    state = new()
    arrange(state, 0, ["nibbles"], sugar=0)
    turn_of(state, 0)
    assert "use nibbles" not in notations(state, 0)
    state, _ = play(state, 0, "collect", "use nibbles")
    assert board.player(state, 0)["sugar"] == 8
    state = new()
    arrange(state, 0, ["nibbles"], sugar=5)
    market(state, monsters=["sour-sprite"])
    turn_of(state, 0)
    state, _ = play(state, 0, "buy sour sprite")
    assert "use nibbles" not in notations(state, 0)


def test_a_buy_monster_ability_is_offered_while_buying_a_monster():
    state = new()
    arrange(state, 0, ["uno"], tucked={"uno": ["haggle-3-red"]}, sugar=3)
    market(state, monsters=["oni-baba"])
    turn_of(state, 0)
    state, _ = play(state, 0, "buy oni baba")
    assert GAME.top(state).kind == "buy"
    assert notations(state, 0) == ["use haggle", "cancel"]
    state, _ = play(state, 0, "use haggle")
    assert notations(state, 0) == ["pay", "cancel"]
    state, _ = play(state, 0, "pay")
    assert board.player(state, 0)["sugar"] == 0
    check_whole(state)


def test_cancelling_a_purchase_keeps_the_action_but_not_the_used_ability():
    state = new()
    arrange(state, 0, ["uno"], tucked={"uno": ["haggle-3-red"]}, sugar=4)
    market(state, monsters=["oni-baba"])
    turn_of(state, 0)
    state, _ = play(state, 0, "buy oni baba", "use haggle", "cancel")
    assert GAME.top(state) is None
    assert "collect" in notations(state, 0)
    assert "haggle-3-red" in board.player(state, 0)["used"]


def test_im_inevitable_example_magmot_and_sugar_rush_let_it_be_used_at_once():
    """Rulebook: buy I'M INEVITABLE, Magmot makes it 1 cheaper, the ability tucked under
    Magmot (1 sugar) lets it be used at once, and using it costs 3 sugar."""
    state = new()
    arrange(state, 0, ["crumble", "magmot"], tucked={"magmot": ["sugar-rush-3-red"]}, sugar=12)
    arrange(state, 1, ["doro"], sugar=9)
    arrange(state, 2, ["blip"], sugar=4)
    market(state, abilities=["im-inevitable-3-red"])
    cost = cards.card("im-inevitable-3-red").cost
    turn_of(state, 0)
    state, _ = play(state, 0, "buy im inevitable red", "use magmot")
    assert GAME.rules.price(state, 0, "im-inevitable-3-red",
                      state["turn"]["purchase"]["discount"]) == cost - 1
    state, _ = play(state, 0, "use sugar rush", "pay", "tuck under magmot")
    assert board.player(state, 0)["sugar"] == 12 - 1 - (cost - 1)
    assert "use im inevitable" in notations(state, 0)
    before = board.player(state, 0)["sugar"]
    state, _ = play(state, 0, "use im inevitable")
    assert board.player(state, 0)["sugar"] == before - 3
    assert board.player(state, 1)["sugar"] == 5 and board.player(state, 2)["sugar"] == 2
    assert board.player(state, 0)["tokens"] == ["im-inevitable-3-red"]
    assert state["kingdom"]["tokens"] == 2
    check_whole(state)


def test_without_sugar_rush_a_bought_ability_waits_for_the_next_turn():
    state = new()
    arrange(state, 0, ["uno"], sugar=12)
    arrange(state, 1, ["doro"], sugar=9)
    market(state, abilities=["im-inevitable-3-red"])
    turn_of(state, 0)
    state, _ = play(state, 0, "buy im inevitable red", "tuck under uno")
    with pytest.raises(IllegalActionError, match="bought this turn"):
        GAME.apply(state, 0, "use im inevitable")


def test_a_once_per_game_ability_keeps_its_token():
    state = new()
    arrange(state, 0, ["uno"], tucked={"uno": ["im-inevitable-3-red"]}, sugar=12)
    arrange(state, 1, ["doro"], sugar=9)
    turn_of(state, 0)
    state, _ = play(state, 0, "use im inevitable")
    state["players"][0]["used"] = []  # a new round
    with pytest.raises(IllegalActionError, match="once per game"):
        GAME.apply(state, 0, "use im inevitable")


def test_a_black_candy_ability_eases_the_feeding():
    state = new(2)
    arrange(state, 0, ["uno", "magmot"], tucked={"magmot": ["full-belly-3-red"]}, sugar=1)
    arrange(state, 1, ["doro"], sugar=0)
    state = black_candy(state)
    assert "use full belly" in notations(state, 0)
    state, _ = feed_all(state, 0, "use full belly")
    state, _ = feed_all(state, 1)
    # Uno 1 + Magmot 2 = 3, less 3 (rules 3's FULL BELLY): nothing to eat.
    assert meals(state, 0) == {"uno": ("sugar", 0, 0, 0), "magmot": ("sugar", 0, 0, 0)}
    assert board.player(state, 0)["black"] == 0


def test_the_first_player_card_gives_every_other_player_2_sugar_and_passes_clockwise():
    state = new(3)
    first = state["first"]
    state, said = end_round_with(state, "sugar-storm")
    sugar = [board.player(state, s)["sugar"] for s in range(3)]
    assert sugar == [5 + 5 + 2 + (0 if s == first else 2) for s in range(3)]
    assert state["first"] == (first + 1) % 3
    assert any(f"passes it to P{(first + 1) % 3}" in s for s in said)


def test_a_round_is_every_players_turn_then_one_event_then_the_next_round():
    state = new(3)
    assert GAME.phases == ("turns", "event")
    assert (engine.round_of(state), engine.phase_of(state)) == (1, "turns")
    first = state["first"]
    assert state["turn"]["seat"] == first
    state, said = end_round_with(state, "sugar-storm")
    assert state["drawn"] == ["sugar-storm"]
    assert (engine.round_of(state), engine.phase_of(state)) == (2, "turns")
    assert state["turn"]["seat"] == (first + 1) % 3
    after = said[said.index(next(s for s in said if s.startswith("Event: "))):]
    # The event for every seat from the first player on, the first player card, the new round.
    assert [s.split(" ")[0] for s in after] == ["Event:", *(f"P{s}" for s in seats_from(first, 3)),
                                                f"P{first}", "Round", f"P{(first + 1) % 3}'s"]
    assert after[-2] == f"Round 2 begins with P{(first + 1) % 3}."
    assert GAME.view(state, None)["round"] == 2 and GAME.view(state, None)["phase"] == "turn"


def test_black_candy_holds_the_event_phase_until_everybody_has_fed():
    state = new(2)
    state = black_candy(state)
    assert (engine.round_of(state), engine.phase_of(state)) == (1, "event")
    assert GAME.view(state, None)["phase"] == "feeding"
    assert GAME.rules.episode(state) == "black-candy-1"
    state, _ = feed_all(state, 0)
    state, said = feed_all(state, 1)
    assert (engine.round_of(state), engine.phase_of(state)) == (2, "turns")
    assert any(s.startswith("Round 2 begins") for s in said)


def take_out_event(state: State, event: str) -> None:
    """Put ``event`` on top of the event deck (drawn next)."""
    deck = state["decks"]["events"]
    deck.remove(event)
    deck.append(event)


# --------------------------------------------------------------------------- events


def end_round_with(state: State, event: str) -> tuple[State, list[str]]:
    """Make ``event`` the next card; every player collects and ends the turn."""
    take_out_event(state, event)
    said: list[str] = []
    while not state["drawn"]:
        seat = state["turn"]["seat"]
        state, more = play(state, seat, "collect")
        if state["turn"] and state["turn"]["seat"] == seat:
            state, more2 = play(state, seat, "end turn")
            more += more2
        said += more
    return state, said


def meals(state: State, seat: int) -> dict[str, tuple[str, int, int, int]]:
    """What each of ``seat``'s monsters got at the last Black Candy: how, sugar, candy, black."""
    report = state["last_feeding"][str(seat)]
    return {m: (how, sugar, candy, black) for m, how, sugar, candy, black in report["meals"]}


def black_candy(state: State) -> State:
    """Draw a Black Candy at the end of this round (every other seat collects)."""
    bc = next(c for c in reversed(state["decks"]["events"]) if cards.is_black_candy(c))
    take_out_event(state, bc)
    state["order"] = [0]
    state["index"] = 0
    # The last seat holds the first player card, whose 2 sugar come after the event.
    state["first"] = len(state["seats"]) - 1
    turn = Turn(Rng(2))
    state["turn"] = None
    assert engine.phase_of(state) == "turns"
    engine.next_phase(GAME.rules, state, turn)
    return state


def test_an_event_rewards_every_player_who_meets_its_condition_even_all_of_them():
    state = new(3)
    for seat in range(3):
        arrange(state, seat, [["uno", "doro", "blip"][seat]], sugar=0, black=0)
    first = state["first"]
    state, _ = end_round_with(state, "home-sweet-home")
    sugar = [board.player(state, s)["sugar"] for s in range(3)]
    assert sugar == [5 + 3 + (0 if s == first else 2) for s in range(3)]


def test_the_one_gummy_goes_to_every_player_tied_for_fewest_candy_tokens():
    state = new(3)
    arrange(state, 0, ["uno"], candy=0)
    arrange(state, 1, ["doro"], candy=0)
    arrange(state, 2, ["blip"], candy=3)
    state, _ = end_round_with(state, "the-one-gummy")
    assert [board.player(state, s)["candy"] for s in range(3)] == [2, 2, 3]


def test_market_day_shows_new_monsters_and_abilities():
    state = new(2)
    shown = list(state["market"]["monsters"])
    state, _ = end_round_with(state, "market-day")
    assert set(shown) <= set(state["discard"]["monsters"])
    check_whole(state)


# --------------------------------------------------------------------------- Black Candy


def test_feeding_example_magmot_oni_baba_and_uno_eat_2_each():
    """Rulebook: MAGMOT eats 2, ONI BABA eats 2, UNO eats 2 for its 2 other monsters."""
    state = new(2)
    arrange(state, 0, ["uno", "magmot", "oni-baba"], sugar=6)
    assert feeding.hunger_of(state, 0) == [["uno", 2], ["magmot", 2], ["oni-baba", 2]]
    state = black_candy(state)
    state, _ = feed_all(state, 0)
    state, _ = feed_all(state, 1)
    assert meals(state, 0) == {m: ("sugar", 2, 0, 0) for m in ("uno", "magmot", "oni-baba")}
    assert board.player(state, 0)["black"] == 0
    check_whole(state)


def test_a_monster_not_fed_with_sugar_takes_black_cubes_or_candy_or_leaves():
    state = new(2)
    arrange(state, 0, ["uno", "magmot", "oni-baba", "jawbreaker"], sugar=3, candy=2)
    arrange(state, 1, ["doro"], sugar=0)
    state = black_candy(state)
    state, _ = play(state, 0, "feed uno sugar")          # 3: all the sugar
    state, _ = play(state, 0, "feed magmot candy")       # 2 candies
    state, _ = play(state, 0, "feed oni baba black")     # 2 black cubes
    assert GAME.top(state).waiting == (0, 1)
    state, _ = play(state, 0, "let jawbreaker go")
    state, _ = feed_all(state, 1)
    p = board.player(state, 0)
    assert (p["candy"], p["black"]) == (0, 2)
    assert meals(state, 0) == {"uno": ("sugar", 3, 0, 0), "magmot": ("candy", 0, 2, 0),
                               "oni-baba": ("black", 0, 0, 2), "jawbreaker": ("go", 0, 0, 0)}
    assert board.monster_ids(state, 0) == ["uno", "magmot", "oni-baba"]
    assert "jawbreaker" in state["discard"]["monsters"]
    check_whole(state)


def test_letting_a_monster_go_discards_its_tucked_abilities():
    state = new(2)
    arrange(state, 0, ["uno", "magmot"], tucked={"magmot": ["pickpocket-3-red"]}, sugar=5)
    state = black_candy(state)
    state, _ = feed_all(state, 0, "let magmot go")
    state, _ = feed_all(state, 1)
    assert "pickpocket-3-red" in state["discard"]["abilities"]
    assert board.tucked_ids(state, 0) == []
    check_whole(state)


def test_black_candy_waits_for_everyone_in_any_order_and_keeps_answers_secret():
    base = new(3)
    arrange(base, 0, ["uno", "magmot"], sugar=1)
    arrange(base, 1, ["doro", "oni-baba"], sugar=5)
    arrange(base, 2, ["blip"], sugar=0)
    base = black_candy(base)
    answers = {0: ["feed magmot black", "feed uno sugar"],
               1: ["feed doro sugar", "feed oni baba sugar"], 2: ["feed blip sugar"]}
    finals = []
    for order in ([0, 1, 2], [2, 1, 0], [1, 0, 2]):
        state = base
        for seat in order:
            state, _ = play(state, seat, *answers[seat])
            if seat != order[-1]:
                assert GAME.top(state) is not None
                for other in (None, 1, 2):
                    assert "feed magmot black" not in str(GAME.view(state, other))
        finals.append(state)
    for state in finals:
        assert board.player(state, 0)["black"] == 2
        assert meals(state, 0) == {"magmot": ("black", 0, 0, 2), "uno": ("sugar", 1, 0, 0)}
        check_whole(state)
    assert [f["players"] for f in finals] == [finals[0]["players"]] * 3


def test_a_seat_that_has_decided_is_told_who_is_still_feeding():
    state = new(3)
    state = black_candy(state)
    state, _ = feed_all(state, 0)
    with pytest.raises(NotYourTurnError, match="already decided"):
        GAME.apply(state, 0, "feed all")
    assert "still feeding: P1 and P2" in GAME.rules.summary(state)


def test_when_black_cubes_run_out_each_missing_cube_costs_a_candy():
    state = new(2)
    arrange(state, 0, ["uno", "magmot"], sugar=0, candy=5)
    arrange(state, 1, ["doro"], black=24)
    state = black_candy(state)
    state, _ = feed_all(state, 0)
    state, _ = feed_all(state, 1)
    p = board.player(state, 0)
    assert p["black"] == 1 and p["candy"] == 3
    check_whole(state)


def test_the_game_ends_when_the_fourth_black_candy_is_resolved():
    state = new(2)
    state["black_candies"] = 3
    state = black_candy(state)
    state, _ = feed_all(state, 0)
    state, said = feed_all(state, 1)
    assert state["final"] is not None and GAME.view(state, None)["phase"] == "over"
    assert GAME.result(state) is not None and GAME.to_act(state) == frozenset()
    assert any("game is over" in s for s in said)


# --------------------------------------------------------------------------- scoring


def test_candies_count_example_items_add_up_to_17():
    """Rulebook items 3 + 6 + 1 + 6 + 1 - 2 + 2: their sum, 17, is the score (not the 16
    printed under them)."""
    state = new(2)
    arrange(state, 0, ["blip", "sour-sprite", "oni-yami"], tucked={"sour-sprite": ["haggle-3-red"]},
            kept=["loot-stash-3-red", "candy-crush-3-green"], sugar=5, candy=6, black=2)
    items = scoring.breakdown(state, 0)
    assert items == {"monsters": 3, "kept": 6, "tucked": 1, "candy": 6, "sugar": 1,
                     "black": -2, "bonus": 2, "total": 17}


def test_ties_go_to_most_candy_tokens_then_most_monsters():
    state = new(3)
    arrange(state, 0, ["blip", "jawbreaker"], sugar=0, candy=4)   # 2 + 4
    arrange(state, 1, ["doro"], sugar=0, candy=6)                  # 6
    arrange(state, 2, ["uno", "sour-sprite"], sugar=0, candy=4)    # 2 + 4
    GAME.rules._finish(state, Turn(Rng(0)))
    result = GAME.result(state)
    assert result is not None
    assert result.ranking == ((1,), (0, 2))
    arrange(state, 2, ["uno", "sour-sprite", "kompeito"], sugar=0, candy=4)
    result = GAME.result(state)
    assert result is not None and result.ranking == ((1,), (2,), (0,))


# --------------------------------------------------------------------------- notation


def test_typed_moves_are_read_in_the_games_own_words():
    assert GAME.rules._canonical("i'm inevitable") is None
    assert GAME.rules._canonical("use i'm inevitable") == "use im inevitable"
    assert GAME.rules._canonical("buy oni-baba") == "buy oni baba"
    assert GAME.rules._canonical("feed magmot candies") == "feed magmot candy"
    assert GAME.rules._canonical("release magmot") == "let magmot go"
    assert GAME.rules._canonical("tuck magmot") == "tuck under magmot"
    assert GAME.rules._canonical("remove 2") == "remove 2 black"
    assert GAME.rules._canonical("end") == "end turn"
    assert GAME.rules._canonical("buy licorice") == "buy licorice"
    assert GAME.rules._canonical("buy nothing") is None


def test_a_unique_abbreviation_buys_and_an_unknown_name_is_explained():
    state = new()
    arrange(state, 0, ["uno"], sugar=20)
    market(state, monsters=["oni-baba", "oni-yami"], abilities=["pickpocket-3-red"])
    turn_of(state, 0)
    assert GAME.parse(state, 0, "buy pickpocket").notation == "buy pickpocket red"
    with pytest.raises(AmbiguousActionError):
        GAME.parse(state, 0, "buy oni")
    with pytest.raises(NotationError):
        GAME.parse(state, 0, "a pony")
    # “buy” is a move: what it cannot buy is said, with what it can.
    with pytest.raises(IllegalActionError, match=r"not face up in the kingdom\. Face up: ONI"):
        GAME.parse(state, 0, "buy a pony")
    with pytest.raises(IllegalActionError, match="not face up"):
        GAME.parse(state, 0, "buy gumzilla")
    with pytest.raises(NotYourTurnError):
        GAME.parse(state, 1, "collect")


def test_a_purchase_you_cannot_afford_is_explained():
    state = new()
    arrange(state, 0, ["uno"], sugar=2)
    market(state, monsters=["gumzilla"])
    turn_of(state, 0)
    with pytest.raises(IllegalActionError, match="GUMZILLA costs you 8 sugar and you have 2"):
        GAME.apply(state, 0, "buy gumzilla")


def test_every_card_on_the_table_is_said_in_words_and_no_secret_answer_with_it():
    """`/game cards` says in words what the picture draws as icons: every card for sale and
    at each table, with where it lies; made from the viewer's view, so a secret answer to a
    Black Candy changes nothing another seat reads."""
    state = new(3, 4)
    while GAME.top(state) is None or GAME.top(state).kind != "feed":
        seat = min(GAME.to_act(state))
        state = GAME.apply(state, seat, GAME.ai_action(state, seat)).state
    view = GAME.view(state, None)
    said = {t.name: t for t in GAME.rules.card_texts(view)}
    for card in [*view["market"]["monsters"], *view["market"]["abilities"]]:
        assert "for sale" in said[card["name"]].places and said[card["name"]].text == card["text"]
    for p in view["players"]:
        for m in p["monsters"]:
            monster = view["cards"][m["id"]]
            assert any(place.startswith(f"{p['name']}'s monster")
                       for place in said[monster["name"]].places)
            assert said[monster["name"]].kind.endswith(
                f"worth {monster['value']}, eats {monster['hunger']}"
                if monster["hunger"] is not None else "eats 1 per other monster")
    seat = min(GAME.to_act(state))
    hunger = GAME.view(state, seat)["feeding"]["mine"]["hunger"]
    key = cards.card(hunger[0][0]).key
    answers = [GAME.apply(state, seat, how).state
               for how in (f"feed {key} sugar", f"let {key} go")]
    other = next(s for s in range(3) if s != seat)
    for viewer in (None, other):
        assert (GAME.rules.card_texts(GAME.view(answers[0], viewer))
                == GAME.rules.card_texts(GAME.view(answers[1], viewer)))
