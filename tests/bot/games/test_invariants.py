"""The engine contract, checked for every registered game over many seeded games.

Modelled on OpenSpiel's API tests: every check runs over every game in the
catalogue, so a new game is held to all of them by registering it.
"""

from __future__ import annotations

import copy
import io
import itertools
import json
from dataclasses import dataclass

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.games import GAMES
from bot.games.engine import Action, Engine, GameError, Outcome, State, dumps, loads
from bot.games.rng import Rng
from tests.support import tiny_game
from tests.support.playthrough import Step, play, seats_for

#: Every registered game, and Candy Hunch, a tiny test-only game written from docs/engine.md
#: alone, which shows that a new game is held to every check.
GAME_LIST = [*sorted(GAMES.values(), key=lambda g: g.slug), tiny_game.GAME]
#: Whole games per game: the first four cover every table size from two to five players,
#: with and without a seat playing at random; the rest run with the slow tests.
SEEDS = [seed if seed < 4 else pytest.param(seed, marks=pytest.mark.slow) for seed in range(12)]
#: Long games resample every few states only, to keep the suite's time.
RESAMPLE_EVERY = {"sugar-heist": 5, "kingdoms-candy-monsters": 5, "sugarworks": 2, "sugartopia": 2}


class Views:
    """Every viewer's view of a state as JSON text, computed once per state.

    Views are the dear part of the contract checks (each redeals what its viewer cannot
    know), and a state is looked at twice: as one step's state after and as the next
    step's state before. The last state's views are kept, with the state itself so that
    its identity cannot be reused.
    """

    def __init__(self, game: Engine) -> None:
        self.game = game
        self._state: State | None = None
        self._texts: dict[int | None, str] = {}

    def __call__(self, state: State) -> dict[int | None, str]:
        if state is not self._state:
            texts = {}
            for viewer in [None, *range(len(state["seats"]))]:
                view = self.game.view(state, viewer)
                assert view["game"] == self.game.slug, (
                    "a view names its game (renderers are found by it)")
                texts[viewer] = json.dumps(view)
            self._state, self._texts = state, texts
        return self._texts


def check_step(game: Engine, step: Step, views: Views | None = None) -> None:
    """The contract at one step; ``views`` carries views over from the previous step."""
    views = Views(game) if views is None else views
    state = step.before
    actors = game.to_act(state)
    players = len(state["seats"])
    assert actors, "somebody can act while the game is not over"
    for seat in range(players):
        legal = game.legal_actions(state, seat)
        if seat in actors:
            assert legal, f"seat {seat} may act but has no legal action"
            notations = [a.notation for a in legal]
            assert len(set(notations)) == len(notations), "notations are unique"
            for action in legal:
                assert game.parse(state, seat, action.notation) == action
            check_choices(game, state, seat, legal)
        else:
            assert not legal, f"seat {seat} may not act but has legal actions"
    before = views(state)
    check_views(game, state, before)
    check_reveals_are_not_undoable(game, step, before, views)


def check_choices(game: Engine, state: State, seat: int, legal: list[Action]) -> None:
    """Quick choices are legal actions; autocomplete order only reorders them; dominated
    moves are legal ones, never all of them."""
    notations = {a.notation for a in legal}
    for choice in game.rules.quick_choices(state, seat):
        assert choice.notation in notations, f"quick choice {choice.notation!r} is not legal"
    ranked = game.rules.rank_actions(state, seat, list(legal))
    assert sorted(a.notation for a in ranked) == sorted(notations)
    # A dominated move is one of the legal ones, still played when typed; something is
    # always left to offer first.
    dominated = game.rules.dominated(state, seat, legal)
    assert dominated <= notations, f"dominated {sorted(dominated - notations)} are not legal"
    assert len(dominated) < len(notations), "every legal move is dominated"
    for notation in dominated:
        assert game.parse(state, seat, notation, exact=True).notation == notation
    menu = game.rules.multi_select(state, seat)
    if menu is not None:
        values = [v for v, _ in menu.options]
        assert len(set(values)) == len(values), "menu values are unique"
        assert 1 <= menu.min_values <= menu.max_values <= len(values)
        picks = [values[:menu.min_values], values[-menu.max_values:]]
        for pick in picks:  # any pick is a legal move or a clear refusal, never a crash
            try:
                picked = game.parse(state, seat, menu.notation(pick), exact=True)
                assert picked.notation in notations
            except GameError as err:
                assert str(err)


def check_views(game: Engine, state: State, views: dict[int | None, str] | None = None) -> None:
    """No view but its owner's shows a seat's secrets (``views``: the state's, if known)."""
    players = len(state["seats"])
    views = Views(game)(state) if views is None else views
    for owner in range(players):
        for secret in game.rules.secrets(state, owner):
            for viewer, text in views.items():
                if viewer != owner:
                    assert secret not in text, f"seat {viewer} can see seat {owner}'s {secret}"


def check_reveals_are_not_undoable(game: Engine, step: Step, seen_before: dict[int | None, str],
                                   views: Views) -> None:
    """A move that lets others see a secret they could not see before cannot be taken back.

    ``seen_before``: the views of the state before; ``views`` gives those after (and keeps
    them for the next step)."""
    if not step.outcome.undoable:
        return
    before = step.before
    players = len(before["seats"])
    public_text = " ".join(step.outcome.narration()) + " " + step.outcome.public
    seen_after = {viewer: text + public_text
                  for viewer, text in views(step.outcome.state).items()}
    for owner in range(players):
        hidden_before = set(game.rules.secrets(before, owner))
        for viewer in seen_after:
            if viewer == owner:
                continue
            for secret in hidden_before:
                assert not (secret in seen_after[viewer] and secret not in seen_before[viewer]), (
                    f"an undoable move showed seat {owner}'s {secret} to {viewer}")


@pytest.mark.parametrize("game", GAME_LIST, ids=lambda g: g.slug)
@pytest.mark.parametrize("seed", SEEDS)
def test_contract_holds_through_whole_games(game: Engine, seed: int):
    players = game.min_seats + seed % (game.max_seats - game.min_seats + 1)
    random_seats = frozenset({0}) if seed % 2 else frozenset()
    views = Views(game)
    final, log = play(game, seed, players, random_seats, lambda step: check_step(game, step, views))
    result = game.result(final)
    assert result is not None and not game.to_act(final)
    assert sorted(s for group in result.ranking for s in group) == list(range(players))
    check_views(game, final, views(final))
    # JSON round trip and replay from seed + log are exact.
    assert loads(dumps(final), game) == final
    assert game.replay(seats_for(game, players), seed, None, log) == final


@pytest.mark.parametrize("game", GAME_LIST, ids=lambda g: g.slug)
def test_every_state_round_trips_through_json(game: Engine):
    def round_trip(step: Step) -> None:
        assert loads(dumps(step.outcome.state), game) == step.outcome.state

    play(game, 99, game.max_seats, frozenset(), round_trip)


@pytest.mark.parametrize("game", GAME_LIST, ids=lambda g: g.slug)
def test_the_ai_only_ever_chooses_legal_actions_from_its_own_view(game: Engine, monkeypatch):
    seen: list[int | None] = []
    original = game.view

    def spy(state, seat):
        seen.append(seat)
        return original(state, seat)

    monkeypatch.setattr(game, "view", spy)
    state = game.new(seats_for(game, game.min_seats), 5)
    seat = min(game.to_act(state))
    action = game.ai_action(state, seat)
    assert seen == [seat]
    assert action in game.legal_actions(state, seat)


# --------------------------------------------------------------------------- hidden information


def _hidden_twins(game: Engine, state: State, seat: int,
                  ) -> list[tuple[Action, Action, Outcome, Outcome]]:
    """Pairs of hidden legal actions that read the same to the other seats.

    Hidden: the action has a public form, or it answers a joint decision. The
    same reading: the engine's public form of the outcome is equal (so a step
    that completes a joint answer is compared only with steps that complete it).
    Moves that draw chance or reveal something are left out: others may learn.
    """
    top = game.top(state)
    joint = top is not None and top.joint
    groups: dict[str, list[tuple[Action, Outcome]]] = {}
    for action in game.legal_actions(state, seat)[:12]:
        if not (action.public or joint):
            continue
        outcome = game.apply(state, seat, action)
        if outcome.undoable:
            groups.setdefault(outcome.public, []).append((action, outcome))
    return [(g[0][0], g[-1][0], g[0][1], g[-1][1]) for g in groups.values() if len(g) > 1]


def compare_hidden_twins(game: Engine, seeds: range, players: int | None = None,
                         hidden: list[int] | None = None) -> int:
    """Play AI games; wherever two legal actions look alike to the other seats, apply both
    and check that nothing the others see differs. Returns how many pairs were compared;
    ``hidden`` (if given) gets how many states offered a hidden action."""
    checked = 0
    for seed in seeds:
        count = players or game.min_seats + seed % (game.max_seats - game.min_seats + 1)

        def compare(step: Step) -> None:
            nonlocal checked
            state, seat = step.before, step.seat
            if hidden is not None:
                top = game.top(state)
                hidden.append(int((top is not None and top.joint) or any(
                    a.public for a in game.legal_actions(state, seat))))
            for first, second, a, b in _hidden_twins(game, state, seat)[:2]:
                assert a.narration() == b.narration()
                for viewer in [None, *range(len(state["seats"]))]:
                    if viewer != seat:
                        assert game.view(a.state, viewer) == game.view(b.state, viewer), (
                            f"{first.notation!r} and {second.notation!r} look different to "
                            f"seat {viewer}")
                checked += 1

        play(game, 300 + seed, count, frozenset(), compare)
    return checked


@pytest.mark.parametrize("game", GAME_LIST, ids=lambda g: g.slug)
def test_changing_only_a_hidden_choice_changes_nothing_other_seats_see(game: Engine):
    offered: list[int] = []
    compared = compare_hidden_twins(game, range(4), hidden=offered)
    if not any(offered):
        assert not game.has_joint_decisions
        pytest.skip(f"{game.title} never offers a hidden action (one with a public form)")
    assert compared >= 5, f"only {compared} hidden twins compared"


@pytest.mark.parametrize("game", GAME_LIST, ids=lambda g: g.slug)
def test_joint_decisions_resolve_the_same_in_any_answer_order(game: Engine):
    if not game.has_joint_decisions:
        pytest.skip(f"{game.title} declares no joint decisions")
    assert compare_answer_orders(game, range(3)) >= 3, "too few answer orders compared"


def compare_answer_orders(game: Engine, seeds: range, players: int | None = None) -> int:
    """Answer open joint decisions in several orders; the results must be equal."""
    compared = 0

    def answers_of(state: State, seat: int) -> list[str]:
        """The AI's whole answer for ``seat`` (several steps for a multi-step joint answer)."""
        steps = []
        while seat in game.to_act(state) and game.top(state) is not None:
            top_id = game.top(state).id
            action = game.ai_action(state, seat)
            steps.append(action.notation)
            state = game.apply(state, seat, action).state
            top = game.top(state)
            if top is None or top.id != top_id or seat not in top.waiting:
                break
        return steps

    def check(step: Step) -> None:
        nonlocal compared
        state = step.before
        top = game.top(state)
        if compared >= 3 or top is None or not top.joint or len(top.waiting) < 2:
            return
        plans = {seat: answers_of(state, seat) for seat in top.waiting}
        finals = set()
        for order in itertools.islice(itertools.permutations(plans), 6):
            current = copy.deepcopy(state)
            for seat in order:
                for notation in plans[seat]:
                    current = game.apply(current, seat, notation).state
            finals.add(dumps(current))
        assert len(finals) == 1, "the answer order changed the result"
        compared += 1

    for seed in seeds:
        play(game, 700 + seed, players or game.max_seats, frozenset(), check)
    return compared


# --------------------------------------------------------------------------- who may know what


@dataclass
class Tally:
    """What :func:`check_resampled` compared, so that a test can insist it compared enough."""

    viewers: int = 0  # (state, viewer) pairs whose views were compared
    hidden: int = 0  # of those, pairs where something was hidden from the viewer
    changed: int = 0  # of those, pairs where the resampled state differed (generator aside)
    moves: int = 0  # next moves of a viewer compared in both states
    public_offers: int = 0  # actors' public quick choices compared against a spectator's resample
    joint: int = 0  # states with an open joint decision
    chance: int = 0  # moves that drew from the generator
    owned: int = 0  # states where a seat knew something the others did not
    answers: int = 0  # pairs where other seats had answered a joint decision unseen
    redrawn: int = 0  # of those, pairs where the resampler drew other answers


def _without_generator(state: State) -> str:
    return dumps({k: v for k, v in state.items() if k != "rng"})


def _hidden_from(game: Engine, state: State, viewer: int | None) -> bool:
    """Is anything besides the generator unknown to ``viewer`` and not all alike?"""
    groups: dict[tuple[str, str], set[str]] = {}
    for place in game.rules._hidden(state):
        if not place.known_to(viewer):
            for holder, key in place.slots(state):
                back = json.dumps(game.rules._back_of(place.pool, holder[key]))
                groups.setdefault((place.pool, back), set()).add(json.dumps(holder[key]))
    top = game.top(state)
    answers = top is not None and top.joint and any(s != viewer for s in top.steps)
    return answers or any(len(items) > 1 for items in groups.values())


def _someone_knows_something(game: Engine, state: State) -> bool:
    top = game.top(state)
    if top is not None and top.joint and top.steps:
        return True
    return any(place.owner is not None and place.slots(state)
               for place in game.rules._hidden(state))


def check_resampled(game: Engine, state: State, rng: Rng, tally: Tally, moves: int = 3) -> None:
    """No viewer can tell ``state`` from one resampled for it: everything it does not know
    (others' hidden cards, undrawn order, the generator, others' unrevealed answers) is
    drawn again, and its view, its choices and what its next moves narrate stay the same."""
    players = len(state["seats"])
    for viewer in [None, *range(players)]:
        other = game.resample(state, viewer, rng)
        tally.viewers += 1
        if _hidden_from(game, state, viewer):
            tally.hidden += 1
            tally.changed += _without_generator(other) != _without_generator(state)
        top = game.top(state)
        if top is not None and top.joint and any(s != viewer for s in top.steps):
            tally.answers += 1
            tally.redrawn += other["decisions"][-1] != state["decisions"][-1]
        assert game.view(other, viewer) == game.view(state, viewer), (
            f"the view of seat {viewer} shows something it cannot know")
        if viewer is None:
            if game.rules.choices_are_public(state):
                for seat in sorted(game.to_act(state)):
                    offered = game.rules.quick_choices(state, seat)
                    assert game.rules.quick_choices(other, seat) == offered, (
                        f"seat {seat}'s choices, offered in the channel, show a secret")
                    tally.public_offers += 1
            continue
        legal = game.legal_actions(state, viewer)
        assert game.legal_actions(other, viewer) == legal, (
            f"seat {viewer}'s legal actions depend on what it cannot know")
        assert game.rules.quick_choices(other, viewer) == game.rules.quick_choices(state, viewer)
        for action in legal[:moves]:
            real, twin = game.apply(state, viewer, action), game.apply(other, viewer, action)
            if real.undoable and twin.undoable:  # no chance drawn, nothing revealed
                assert real.public == twin.public
                assert real.narration() == twin.narration(), (
                    f"the narration of {action.notation!r} tells what seat {viewer} cannot know")
                assert real.narration(viewer) == twin.narration(viewer)
                assert game.view(real.state, viewer) == game.view(twin.state, viewer), (
                    f"after {action.notation!r} seat {viewer} sees what it cannot know")
                tally.moves += 1


def check_who_knows_what(game: Engine, seeds: range, every: int = 1,
                         limit: int | None = None) -> Tally:
    """Resample states of whole games (every ``every``-th, at most ``limit``) for every
    viewer, and count what the game showed of its features along the way."""
    tally = Tally()
    rng = Rng.from_seed(2023)
    checked = 0

    def step(step: Step) -> None:
        nonlocal checked
        state = step.before
        top = game.top(state)
        tally.joint += top is not None and top.joint
        tally.chance += step.outcome.state["rng"] != state["rng"]
        tally.owned += _someone_knows_something(game, state)
        if state["move"] % every == 0 and (limit is None or checked < limit):
            check_resampled(game, state, rng, tally)
            checked += 1

    for seed in seeds:
        players = game.min_seats + seed % (game.max_seats - game.min_seats + 1)
        play(game, 500 + seed, players, frozenset(), step)
    return tally


@pytest.mark.parametrize("game", GAME_LIST, ids=lambda g: g.slug)
def test_no_viewer_can_tell_the_real_state_from_a_resampled_one(game: Engine):
    tally = check_who_knows_what(game, range(3), every=RESAMPLE_EVERY.get(game.slug, 1))
    assert tally.viewers >= 60, f"only {tally.viewers} views compared"
    assert (tally.joint > 0) == game.has_joint_decisions, (
        f"has_joint_decisions is {game.has_joint_decisions}, but {tally.joint} states "
        "had an open joint decision")
    assert (tally.chance > 0) == game.has_chance, (
        f"has_chance is {game.has_chance}, but {tally.chance} moves drew from the generator")
    assert (tally.owned > 0) == game.has_hidden_information, (
        f"has_hidden_information is {game.has_hidden_information}, but in {tally.owned} "
        "states a seat knew something the others did not")
    if game.has_hidden_information:
        assert tally.hidden >= 30, f"something was hidden in only {tally.hidden} views"
        assert tally.changed * 2 > tally.hidden, (
            f"the resampler changed only {tally.changed} of {tally.hidden} states with secrets")
    if game.has_joint_decisions:
        assert tally.answers >= 10, f"only {tally.answers} views of unrevealed answers"
        # A fair redraw from two or three legal answers often draws the same one again.
        assert tally.redrawn * 4 >= tally.answers, (
            f"the resampler redrew only {tally.redrawn} of {tally.answers} hidden answers")
    assert tally.moves >= 5, f"only {tally.moves} next moves compared"


# --------------------------------------------------------------------------- hostile input


@pytest.mark.parametrize("game", GAME_LIST, ids=lambda g: g.slug)
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=st.one_of(st.text(max_size=30), st.sampled_from(["", " ", "0", "a0", "z99",
                                                               "use", "pay 7 7", "🍬", "\x00"])),
       seat=st.integers(-2, 7))
def test_any_text_from_any_seat_is_a_game_error_or_a_legal_move(game: Engine, text: str,
                                                                  seat: int):
    state = game.new(seats_for(game, game.min_seats), 11)
    try:
        outcome = game.apply(state, seat, text)
    except GameError as err:
        assert str(err), "every refusal says why"
        return
    assert 0 <= seat < game.min_seats and outcome.action in (game.legal_actions(state, seat)
                                                            + game.standing(state, seat))


# --------------------------------------------------------------------------- pictures


@pytest.mark.parametrize("game", sorted(GAMES.values(), key=lambda g: g.slug),
                         ids=lambda g: g.slug)
def test_every_seats_view_and_the_spectators_render_to_a_png(game: Engine):
    from PIL import Image

    from renderers import render

    players = game.max_seats
    middle: list[State] = []

    def keep(step: Step) -> None:
        if len(middle) < 1 and step.outcome.state["move"] >= 12:
            middle.append(step.outcome.state)

    final, _ = play(game, 5, players, frozenset(), keep)
    for state in [*middle, final]:
        for viewer in [None, *range(players)]:
            png = render(game.view(state, viewer))
            image = Image.open(io.BytesIO(png))
            assert image.format == "PNG" and image.width >= 600
