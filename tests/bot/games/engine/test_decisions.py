"""The engine's decisions: a stack that nests, joint secret answers, tokens per decision."""

from __future__ import annotations

import copy
import itertools
import json

import pytest

from bot.games import GAMES, engine
from bot.games.engine import (
    Engine,
    Event,
    NotYourTurnError,
    Outcome,
    RulesVersionError,
    SeatInfo,
    StaleActionError,
    State,
    dumps,
    loads,
)
from tests.support.decision_game import GAME

SEATS = [SeatInfo("Ana"), SeatInfo("Bo"), SeatInfo("Cy")]


def new(players: int = 3, seed: int = 1) -> State:
    return GAME.new(SEATS[:players], seed)


def answer(state: State, seat: int, *notations: str) -> State:
    for notation in notations:
        state = GAME.apply(state, seat, notation).state
    return state


def bid_round(state: State, bids: dict[int, tuple[str, int]]) -> State:
    for seat, (flavour, bid) in bids.items():
        state = answer(state, seat, f"flavour {flavour}", f"bid {bid}")
    return state


# --------------------------------------------------------------------------- joint decisions


def test_every_seat_of_a_joint_decision_may_answer_at_once():
    state = new()
    assert GAME.to_act(state) == {0, 1, 2}
    top = GAME.top(state)
    assert top is not None and top.joint and not top.public


def test_a_joint_answer_of_two_steps_keeps_the_seat_deciding_until_both_are_given():
    state = answer(new(), 0, "flavour cocoa")
    assert GAME.to_act(state) == {0, 1, 2}
    assert [a.notation for a in GAME.legal_actions(state, 0)] == ["bid 1", "bid 2", "bid 3"]
    state = answer(state, 0, "bid 2")
    assert GAME.to_act(state) == {1, 2}


def test_a_seat_that_has_answered_is_told_it_already_decided():
    state = bid_round(new(), {0: ("cocoa", 2)})
    with pytest.raises(NotYourTurnError, match="already decided"):
        GAME.apply(state, 0, "flavour vanilla")


def test_another_seats_secret_answer_changes_nothing_anyone_else_sees():
    # Change only the hidden information (what Ana chose) and compare every other view.
    outcomes: list[tuple[State, Outcome, Outcome]] = []
    for flavour, bid in (("cocoa", 1), ("vanilla", 3)):
        state = new()
        first = GAME.apply(state, 0, f"flavour {flavour}")
        second = GAME.apply(first.state, 0, f"bid {bid}")
        outcomes.append((second.state, first, second))
    (a, a1, a2), (b, b1, b2) = outcomes
    for viewer in (None, 1, 2):
        assert GAME.view(a, viewer) == GAME.view(b, viewer)
    assert GAME.view(a, 0) != GAME.view(b, 0)
    assert GAME.view(a, 0)["decision"]["mine"] == ["flavour cocoa", "bid 1"]
    for x, y in ((a1, b1), (a2, b2)):
        assert x.public == y.public and x.narration() == y.narration()
    assert a2.public == "placed a bid" and "cocoa" not in json.dumps(a2.narration())


def test_a_joint_decision_resolves_the_same_whatever_order_the_answers_arrive_in():
    steps = [(0, "flavour cocoa"), (0, "bid 3"), (1, "flavour vanilla"), (1, "bid 1"),
             (2, "flavour cocoa"), (2, "bid 2")]
    finals = set()
    for order in itertools.permutations(steps):
        # Keep each seat's own steps in order (flavour before bid); interleave seats freely.
        if any(order.index((s, "flavour " + f)) > order.index((s, f"bid {b}"))
               for s, f, b in ((0, "cocoa", 3), (1, "vanilla", 1), (2, "cocoa", 2))):
            continue
        state = new()
        for seat, notation in order:
            state = GAME.apply(state, seat, notation).state
        finals.add(dumps(state))
    assert len(finals) == 1
    final = json.loads(finals.pop())
    assert final["points"] == [3, 0, 0] and final["flavours"] == ["cocoa", "vanilla", "cocoa"]


def test_the_reveal_of_a_joint_decision_cannot_be_undone_but_a_secret_step_can():
    state = new(2)
    step = GAME.apply(state, 0, "flavour cocoa")
    assert step.undoable
    state = answer(step.state, 0, "bid 1")
    state = answer(state, 1, "flavour vanilla")
    last = GAME.apply(state, 1, "bid 2")
    assert not last.undoable
    assert "The bids: Ana cocoa 1, Bo vanilla 2." in last.narration()


# --------------------------------------------------------------------------- nesting


def test_a_decision_asked_on_top_of_another_is_answered_first_then_the_outer_resumes():
    state = bid_round(new(), {0: ("cocoa", 3), 1: ("cocoa", 1), 2: ("vanilla", 2)})
    assert [d.kind for d in engine.open_decisions(state)] == ["steal", "warn"]
    assert GAME.to_act(state) == {1}  # the victim warns (or not) before Ana decides
    state = answer(state, 1, "warn")
    assert [d.kind for d in engine.open_decisions(state)] == ["steal"]
    assert GAME.to_act(state) == {0}
    assert GAME.top(state).data["warned"] is True
    state = answer(state, 0, "steal")
    assert GAME.top(state).kind == "block" and GAME.to_act(state) == {1}
    state = answer(state, 1, "block")
    assert GAME.top(state).kind == "push" and GAME.to_act(state) == {0}


def test_an_unwarned_victim_is_robbed_without_being_asked():
    state = bid_round(new(), {0: ("cocoa", 1), 1: ("cocoa", 3), 2: ("vanilla", 2)})
    # Bo won 3; Cy (next after Bo) is the victim and has nothing yet: robbing fails politely.
    state = answer(state, 2, "quiet")
    out = GAME.apply(state, 1, "steal")
    assert "Cy has no point to steal." in out.narration()
    assert GAME.top(out.state).kind == "bid" and out.state["flow"]["round"] == 2


def test_a_resumed_decision_gets_a_fresh_token_so_old_buttons_expire():
    state = bid_round(new(), {0: ("cocoa", 3), 1: ("cocoa", 1), 2: ("vanilla", 2)})
    outer = engine.open_decisions(state)[0]
    state = answer(state, 1, "quiet")
    resumed = GAME.top(state)
    assert resumed.kind == "steal" and resumed.id != outer.id
    with pytest.raises(StaleActionError):
        GAME.apply(state, 0, "steal", f"d{outer.id}")
    GAME.apply(state, 0, "steal", GAME.token(state, 0))


def test_a_seats_token_stays_valid_while_other_seats_answer_the_same_decision():
    state = new()
    token = GAME.token(state, 2)
    state = bid_round(state, {0: ("cocoa", 1), 1: ("vanilla", 2)})
    assert GAME.token(state, 2) == token
    state = GAME.apply(state, 2, "flavour cocoa", token).state
    # The seat's own step moves its token on: the same button cannot be used twice.
    with pytest.raises(StaleActionError):
        GAME.apply(state, 2, "bid 3", token)
    GAME.apply(state, 2, "bid 3", GAME.token(state, 2))


def test_a_move_number_from_the_past_is_stale_in_the_turn_flow():
    blast = GAMES["sugar-blast"]
    state = blast.new([SeatInfo("A"), SeatInfo("B")], 3)
    with pytest.raises(StaleActionError):
        blast.apply(state, 0, blast.legal_actions(state, 0)[0], "m7")
    blast.apply(state, 0, blast.legal_actions(state, 0)[0], blast.token(state, 0))


# --------------------------------------------------------------------------- phases and rounds


def test_rounds_are_made_of_the_declared_phases_and_the_game_ends_after_three():
    state = new(2)
    rounds = []
    while GAME.result(state) is None:
        rounds.append((engine.round_of(state), engine.phase_of(state)))
        seat = min(GAME.to_act(state))
        state = GAME.apply(state, seat, GAME.ai_action(state, seat)).state
    assert rounds[0] == (1, "bid") and max(r for r, _ in rounds) == 3
    assert {p for _, p in rounds} <= {"bid", "bake"}
    assert GAME.result(state).ranking


# --------------------------------------------------------------------------- narration


def test_a_private_event_is_read_only_by_the_seats_it_is_addressed_to():
    outcome = Outcome({}, [Event("Public."), Event("Only Bo.", to=(1,))], None, True)  # type: ignore[arg-type]
    assert outcome.narration() == ["Public."]
    assert outcome.narration(1) == ["Public.", "Only Bo."]
    assert outcome.narration(0) == ["Public."]


# --------------------------------------------------------------------------- rules versions


def test_a_state_from_a_newer_rules_version_is_refused_clearly():
    blast = GAMES["sugar-blast"]
    state = blast.new([SeatInfo("A"), SeatInfo("B")], 3)
    state["rules"] = blast.rules_version + 1
    with pytest.raises(RulesVersionError, match="newer candybot"):
        loads(dumps(state), blast)


def test_an_old_sugar_blast_game_choosing_a_blast_carries_over_onto_the_stack():
    blast = GAMES["sugar-blast"]
    state = blast.new([SeatInfo("A"), SeatInfo("B")], 3)
    old = copy.deepcopy(state)
    for key in ("rules", "decisions", "decision_counter"):
        del old[key]
    old["phase"] = "blast"
    old["pending"] = None
    carried = loads(dumps(old), blast)
    assert carried["rules"] == blast.rules_version and blast.top(carried).kind == "blast"


def test_a_game_made_under_other_rules_cannot_be_replayed():
    blast = GAMES["sugar-blast"]
    state = blast.new([SeatInfo("A"), SeatInfo("B")], 3)
    blast.check_replayable(state)
    state["rules"] = 1
    with pytest.raises(RulesVersionError, match="cannot be replayed"):
        blast.check_replayable(state)


# --------------------------------------------------------------------------- the checks themselves


def test_the_hidden_choice_check_compares_secret_bids_and_catches_a_leak():
    from tests.bot.games.test_invariants import compare_hidden_twins
    from tests.support.decision_game import BakeOff

    assert compare_hidden_twins(GAME, range(2), players=3) > 0

    # A view with every seat's draft added past the engine (no game can write its view).
    leaky = Engine(BakeOff())
    real = leaky.view

    def view(state, seat):
        out = real(state, seat)
        top = engine.top(state)
        out["drafts"] = {str(s): list(v) for s, v in top.steps.items()} if top else {}
        return out

    leaky.view = view  # type: ignore[method-assign]
    with pytest.raises(AssertionError, match="look different"):
        compare_hidden_twins(leaky, range(1), players=3)


def test_the_answer_order_check_compares_joint_bids_and_catches_an_order_dependence():
    from tests.bot.games.test_invariants import compare_answer_orders
    from tests.support.decision_game import BakeOff

    assert compare_answer_orders(GAME, range(1), players=3) > 0

    class FirstComeBakeOff(BakeOff):
        def _resolve(self, state, decision, answers, turn):
            super()._resolve(state, decision, answers, turn)
            if decision.kind == "bid":  # a bug: rewards whoever answered first
                state["points"][int(next(iter(state["last_order"])))] += 1

        def _answer_complete(self, state, decision, seat, steps):
            state.setdefault("last_order", [])
            if len(steps) == 2:
                state["last_order"].append(seat)
            return len(steps) == 2

    with pytest.raises(AssertionError, match="answer order"):
        compare_answer_orders(Engine(FirstComeBakeOff()), range(1), players=3)


def test_a_secret_step_without_a_public_form_reads_is_deciding_then_has_decided():
    from bot.games.engine import Action
    from tests.support.decision_game import BakeOff

    class PlainBakeOff(BakeOff):
        def _decision_actions(self, state, decision, seat):
            return [Action(a.notation, a.label) for a in
                    super()._decision_actions(state, decision, seat)]

    game = Engine(PlainBakeOff())
    state = game.new(SEATS[:2], 1)
    first = game.apply(state, 0, "flavour cocoa")
    second = game.apply(first.state, 0, "bid 2")
    assert (first.public, second.public) == ("is deciding", "has decided")
    assert "cocoa" not in " ".join(first.narration() + second.narration())


def test_an_old_sugartopia_game_choosing_bears_carries_over_onto_the_stack():
    topia = GAMES["sugartopia"]
    from bot.games.rng import Rng
    from tests.support.playthrough import steps

    state = topia.new(SEATS, 2)
    choosing = next((step.outcome.state for step in steps(topia, state, frozenset(), Rng(5))
                     if topia.rules.choosing_bears(step.outcome.state)), None)
    assert choosing is not None, "some seeded game reaches a choice of bears"
    legal = [a.notation for a in topia.legal_actions(choosing, choosing["turn"])]
    old = copy.deepcopy(choosing)  # as rules 1 saved it: the choice kept in "phase"
    for key in ("rules", "decisions", "decision_counter"):
        del old[key]
    old["phase"] = "feed"
    del old["feeding"]["choosing"]
    carried = loads(dumps(old), topia)
    assert carried["rules"] == topia.rules_version and topia.rules.choosing_bears(carried)
    assert [a.notation for a in topia.legal_actions(carried, carried["turn"])] == legal
