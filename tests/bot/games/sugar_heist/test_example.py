"""The rulebook's heist example, played move by move: Alice raids Bob."""

from __future__ import annotations

from bot.games.sugar_heist import GAME
from tests.support.sugar_heist_helpers import (
    act,
    arrange_track,
    dice,
    dress,
    everybody_passes,
    new_game,
    put,
)

__all__ = ["dice"]
ALICE, BOB, CHARLIE = 0, 1, 2


def test_alice_passes_all_three_rooms_gains_two_loses_one_and_steals_one(dice):
    state = new_game()
    arrange_track(state, [ALICE, BOB, CHARLIE])
    put(state, BOB, 1, "toothpick-pit", up=True)
    put(state, BOB, 2, "scattered-marbles", up=True)
    put(state, BOB, 2, "insidious-lawn-gnomes", up=True)
    flytrap = put(state, BOB, 3, "venus-flytrap", up=False)
    dress(state, ALICE, "scary-mean-policeman")
    dress(state, ALICE, "tomboy-princess")
    # Six dice for Alice, Bob's rerolls of 5 and 6, the marble die, the gnomes' reroll.
    dice.extend([1, 1, 3, 3, 5, 6, 4, 5, 6, 2])

    state = everybody_passes(state)
    heist = state["heist"]
    assert (heist["attacker"], heist["defender"], heist["room"]) == (ALICE, BOB, 0)
    assert heist["pool"] == [1, 1, 3, 3, 5, 6]

    # Room 1, Toothpick Pit: Bob rerolls Alice's 5 and 6, they come up 4 and 5.
    assert GAME.to_act(state) == {BOB} and GAME.top(state).kind == "reroll"
    state = act(state, BOB, "reroll 5 6")
    assert state["heist"]["pool"] == [1, 1, 3, 3, 4, 5]
    assert GAME.to_act(state) == {ALICE}
    state = act(state, ALICE, "pay 3 3")
    assert state["players"][ALICE]["candy"] == 4

    # Room 2: Scattered Marbles first (the outside die shows 6: Alice loses a die of
    # her choice), then Insidious Lawn Gnomes (Bob rerolls her 5 into a 2).
    assert state["heist"]["room"] == 1 and state["heist"]["outside"] == 6
    assert GAME.to_act(state) == {ALICE} and GAME.top(state).kind == "lose"
    state = act(state, ALICE, "lose 1")
    assert GAME.to_act(state) == {BOB}
    state = act(state, BOB, "reroll 5")
    assert state["heist"]["pool"] == [1, 2, 4]
    # Tomboy Princess turns the 2 into a 3, which pays.
    state = act(state, ALICE, "use tomboy princess on 2")
    assert state["heist"]["pool"] == [1, 3, 4]
    outcome = GAME.apply(state, ALICE, "pay 3")
    state = outcome.state
    assert state["players"][ALICE]["candy"] == 5

    # Room 3 (Alice enters with 1 and 4): the face-down card flips up: Venus Flytrap
    # eats the 1; a lone 4 cannot pay "Any die + Any die", so Alice suffers: her last
    # die and 1 candy.
    story = [e.text for e in outcome.events]
    assert "Bob flips Venus Flytrap face up." in story
    assert "Alice loses the die showing 1." in story
    assert state["heist"]["room"] == 2
    room = state["players"][BOB]["rooms"][2]["encounter"]
    assert room == {"id": flytrap, "up": True}
    assert state["heist"]["pool"] == [4]
    assert not [a for a in GAME.legal_actions(state, ALICE) if a.notation.startswith("pay")]
    state = act(state, ALICE, "suffer")

    # All three rooms passed: 1 candy stolen from Bob. Bob's heist on Charlie begins.
    alice, bob = state["players"][ALICE], state["players"][BOB]
    assert alice["candy"] == 3 + 2 - 1 + 1
    assert bob["candy"] == 3 - 1
    record = state["heists"][-1]
    assert record["passed"] and (record["gained"], record["lost"], record["stolen"]) == (2, 1, 1)
    assert all(not c["used"] for c in alice["costumes"]), "costumes flip back up"
    assert (state["heist"]["attacker"], state["heist"]["defender"]) == (BOB, CHARLIE)
