"""When the AI stands in for an absent player, it says why it moved, in one sentence
everybody may read: drawn from spectators' views only, so it never gives a secret away,
and in each game's own words where that is cheap to say."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from typing import Any, NamedTuple

import pytest

from bot.games import GAMES
from bot.games.engine import Engine, Outcome, SeatInfo, State, View, playing
from bot.games.sugarworks import content as sw_content
from tests.support import tiny_game
from tests.support.playthrough import play, seats_for

GAME_LIST = [*sorted(GAMES.values(), key=lambda g: g.slug), tiny_game.GAME]


class Move(NamedTuple):
    """A move of a seeded game, with the reason the tables would add if its seat were
    stood in for."""

    before: State
    seat: int
    outcome: Outcome
    reason: str | None


def moves(slug: str, seed: int, players: int = 2) -> Iterator[Move]:
    """Every move of a seeded all-AI game."""
    game = GAMES[slug]
    state = game.new([SeatInfo(f"P{i}", ai=True) for i in range(players)], seed)
    for seat, outcome in playing(game, state):
        yield Move(state, seat, outcome, game.reason_for(state, outcome, seat))
        state = outcome.state


def first(slug: str, seed: int, wanted: Callable[[State, int, Outcome], bool],
          players: int = 2) -> Move:
    return next(m for m in moves(slug, seed, players) if wanted(m.before, m.seat, m.outcome))


# --------------------------------------------------------------------------- secrecy


def test_the_hook_is_told_the_spectators_views_and_the_public_move_never_states(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Sugar Heist builds face down: the hook sees what a spectator sees and the move as
    the others read it ("built a $2 encounter face down ..."), not the card."""
    game = GAMES["sugar-heist"]
    told: list[tuple[View, View, int, str]] = []

    def record(before: View, after: View, seat: int, move: str) -> str | None:
        told.append((before, after, seat, move))
        return None

    monkeypatch.setattr(game.rules, "_stand_in_reason", record)
    state = game.new(seats_for(game, 3), 1)
    for seat, outcome in playing(game, state):
        game.reason_for(state, outcome, seat)
        before, after, told_seat, move = told[-1]
        assert before == game.view(state, None) and after == game.view(outcome.state, None)
        assert told_seat == seat and move == (outcome.public or outcome.action.notation)
        if outcome.action.hidden:
            assert outcome.action.notation not in move
            break
        state = outcome.state
    else:
        pytest.fail("no hidden move was played")


@pytest.mark.parametrize("game", GAME_LIST, ids=lambda g: g.slug)
def test_no_reason_ever_names_a_secret_of_any_seat(game: Engine) -> None:
    said = 0

    def check(step: Any) -> None:
        nonlocal said
        reason = game.reason_for(step.before, step.outcome, step.seat)
        if reason is None:
            return
        said += 1
        assert reason.strip() and "\n" not in reason and reason.endswith(".")
        after = step.outcome.state
        public = json.dumps(game.view(after, None)) + " ".join(step.outcome.narration())
        for owner in range(len(after["seats"])):
            still = set(game.rules.secrets(after, owner))
            # A secret the move revealed (a placed card) may be named; one kept may not.
            kept = {s for s in game.rules.secrets(step.before, owner) if s not in public}
            for secret in still | kept:
                assert secret not in reason, f"{game.slug}: {reason!r} names {secret!r}"

    for seed, players in ((1, game.min_seats), (2, min(3, game.max_seats))):
        play(game, seed, players, on_step=check)
    assert said or game is tiny_game.GAME


# --------------------------------------------------------------------------- the default


class CountedHunch(tiny_game.CandyHunch):
    """Candy Hunch with its candies as the scores, and no reason of its own."""

    def scores(self, state: State) -> dict[int, int]:
        return dict(enumerate(state["candies"]))


def test_by_default_the_stand_in_names_the_points_its_move_scored() -> None:
    game = Engine(CountedHunch())
    said = silent = 0
    state = game.new(seats_for(game, 2), 3)
    for seat, outcome in playing(game, state):
        gained = outcome.state["candies"][seat] - state["candies"][seat]
        reason = game.reason_for(state, outcome, seat)
        if gained > 0:
            points = "point" if gained == 1 else "points"
            assert reason == f"It chose this move to score {gained} {points}."
            said += 1
        else:
            assert reason is None
            silent += 1
        state = outcome.state
    assert said and silent


def test_every_view_carries_the_scores_so_far_in_its_table() -> None:
    game = Engine(CountedHunch())
    state = game.new(seats_for(game, 3), 3)
    for _, outcome in playing(game, state):
        for viewer in (None, 0, 1, 2):
            assert game.view(outcome.state, viewer)["table"]["scores"] == \
                outcome.state["candies"]


# --------------------------------------------------------------------------- each game


def test_sugar_blast_completing_the_objective_says_so() -> None:
    m = first(
        "sugar-blast", 0, lambda s, seat, o: GAMES["sugar-blast"].result(o.state) is not None)
    name = GAMES["sugar-blast"].view(m.before, None)["objective"]["name"]
    assert m.reason == f"It chose this move to complete the objective, {name}."


def test_sugar_blast_coming_closer_to_the_objective_counts_its_candies() -> None:
    game = GAMES["sugar-blast"]

    def closer(state: State, seat: int, o: Outcome) -> bool:
        return game.rules.scores(o.state)[seat] > game.rules.scores(state)[seat] \
            and game.result(o.state) is None

    m = first("sugar-blast", 1, closer)
    view = game.view(m.outcome.state, None)
    progress, needed = view["seats"][m.seat]["progress"], view["seats"][m.seat]["needed"]
    assert m.reason == (f"It chose this move to come closer to {view['objective']['name']}: "
                        f"{progress} of {needed}.")


def test_sugarworks_names_the_order_the_move_finished() -> None:
    m = first(
        "sugarworks", 0,
        lambda s, seat, o: len(o.state["completed"][seat]) > len(s["completed"][seat]))
    order = sw_content.orders()[m.outcome.state["completed"][m.seat][-1]]
    assert m.reason == f"It chose this move to finish order {order.id} ({order.text()})."


def test_sugartopia_names_the_meadow_it_completed_and_the_cubes_it_took() -> None:
    m = first(
        "sugartopia", 0, lambda s, seat, o: o.action.notation == "place l05 at b1 rot 0")
    assert m.reason == "It chose this move to complete Meadow 3, taking 5 sugar."


def test_sugartopia_names_the_meadows_a_card_joined() -> None:
    m = first(
        "sugartopia", 0, lambda s, seat, o: o.action.notation == "place l06 at a6 rot 300")
    assert m.reason == "It chose this move to join Meadow 2 and Meadow 6 into one area."


def test_sugartopia_a_gingerman_that_reaches_the_castle_counts_its_cookies() -> None:
    m = first(
        "sugartopia", 0, lambda s, seat, o: o.action.notation.startswith("gingerman"))
    route = next(r for r in GAMES["sugartopia"].view(m.outcome.state, None)["routes"]
                 if r["seat"] == m.seat)
    assert route["reached"]
    cookies = route["cookies"]
    assert m.reason == (f"It chose this move for a Gingerman route home worth {cookies} "
                        f"{'cookie' if cookies == 1 else 'cookies'}.")


def test_sugar_heist_the_first_to_pass_takes_the_two_dollar_bonus() -> None:
    m = first("sugar-heist", 0, lambda s, seat, o: o.action.notation == "pass", players=3)
    assert m.reason == "It passed now to take the $2 bonus."


def test_sugar_heist_a_face_down_build_guards_against_the_attacker_and_names_no_card() -> None:
    game = GAMES["sugar-heist"]
    m = first(
        "sugar-heist", 0, lambda s, seat, o: o.action.notation.startswith("build "), players=3)
    track = m.outcome.state["track"]
    attacker = track[(track.index(m.seat) - 1) % len(track)]
    assert m.reason == (f"It chose this move to guard its hideout against "
                        f"{game.seat_name(m.before, attacker)}'s heist.")
    card = m.outcome.action.notation.split(" room ")[0].removeprefix("build ")
    assert card not in m.reason.lower()


def test_sugar_heist_a_bought_costume_goes_into_the_heist_on_the_defender() -> None:
    game = GAMES["sugar-heist"]
    m = first(
        "sugar-heist", 0, lambda s, seat, o: o.action.notation.startswith("buy "), players=3)
    track = m.outcome.state["track"]
    defender = track[(track.index(m.seat) + 1) % len(track)]
    costume = m.outcome.action.notation.removeprefix("buy ")
    assert m.reason is not None and m.reason.lower() == (
        f"it chose this move to take the {costume} costume into its heist on "
        f"{game.seat_name(m.before, defender).lower()}'s hideout.")


def test_sugar_heist_a_payment_that_clears_a_room_counts_the_candy() -> None:
    game = GAMES["sugar-heist"]

    def cleared(state: State, seat: int, o: Outcome) -> bool:
        return o.action.notation.startswith("pay ") and \
            o.state["players"][seat]["candy"] > state["players"][seat]["candy"]

    m = first("sugar-heist", 0, cleared, players=3)
    gained = m.outcome.state["players"][m.seat]["candy"] - m.before["players"][m.seat]["candy"]
    defender = (m.outcome.state["heist"] or m.outcome.state["heists"][-1])["defender"]
    assert m.reason == (f"It chose this move to clear a room of "
                        f"{game.seat_name(m.before, defender)}'s hideout and gain {gained} candy.")


def test_candy_monsters_names_the_monster_it_bought() -> None:
    game = GAMES["kingdoms-candy-monsters"]

    def bought(state: State, seat: int, o: Outcome) -> bool:
        return len(o.state["players"][seat]["monsters"]) > len(state["players"][seat]["monsters"])

    m = first("kingdoms-candy-monsters", 0, bought, players=3)
    bought_id = m.outcome.state["players"][m.seat]["monsters"][-1]["card"]
    card = game.view(m.outcome.state, None)["cards"][bought_id]
    assert m.reason is not None
    assert m.reason.startswith(f"It chose this move to buy the {card['name']}")


def test_candy_monsters_says_nothing_of_a_feeding_answer_until_all_are_revealed() -> None:
    game = GAMES["kingdoms-candy-monsters"]
    secret = resolved = 0
    for state, _seat, outcome, reason in moves("kingdoms-candy-monsters", 0, 3):
        top = game.top(state)
        if top is None or top.kind != "feed":
            continue
        if game.top(outcome.state) is not None and game.top(outcome.state).kind == "feed":
            assert reason is None, "an answer still secret is not explained"
            secret += 1
        elif reason is not None:
            assert reason == ("It chose this feeding so that every monster ate and it took "
                              "no black cube.")
            resolved += 1
    assert secret and resolved
