"""Sugarworks: steer the conveyors so colliding candy ships into the right crates."""

from __future__ import annotations

import re
from typing import Any, cast

from bot.games import engine
from bot.games.engine import (
    Action,
    BaseRules,
    Decision,
    Hidden,
    OptionSpec,
    Result,
    State,
    Turn,
    View,
)
from bot.games.pieces import deck_draw, deck_shuffled, next_seat, rank_by, seats_from
from bot.games.rng import Rng
from bot.games.sugarworks import content as ct
from bot.games.sugarworks import floor as fl
from bot.games.sugarworks import narration
from bot.games.sugarworks.ai import action_values, choose
from bot.games.sugarworks.movement import Floor, run
from bot.games.sugarworks.view import build_view
from bot.games.words import article

HAND_LIMIT = 5
TILES_IN_HAND = 3
MARKET_SIZE = 4
ORDERS_DEALT = 3
#: Rounds per player count when the lobby does not choose (see the rules document).
DEFAULT_ROUNDS = 8

_CELL = r"([a-z][0-9]{1,2})"
_TAKE = re.compile(r"^(take|discard)(?: order)? ?([0-9])$")
_DRAW = re.compile(r"^draw(?: (?:an )?order)?$")
_DROP = re.compile(r"^drop(?: order)? (o[0-9]{1,2})$")
_ADJUST = re.compile(rf"^(?:adjust|move) ([a-z]+)(?: output)?(?: (?:to|at))? {_CELL}$")
_CONVEYOR = re.compile(rf"^(?:conveyor|play|tile) ([a-z][a-z -]*?)(?: (?:at|on|to))? {_CELL}$")
_MAKE = re.compile(rf"^make ([a-z]+)(?: (?:at|on) {_CELL})?(?: (?:with|from) (o[0-9]{{1,2}}))?$")


class Sugarworks(BaseRules):
    """The Sugarworks rules: order actions, factory actions and the candy movement."""

    slug = "sugarworks"
    title = "Sugarworks"
    #: 2: an output tile may move to any open output space; a colourful blanket order
    #: pays the maker of each candy of its type when it is made.
    #: 3: a candy may also be made by discarding an (incomplete) order of the market.
    rules_version = 3
    #: Games stored under rules 1 or 2 go on under them (see docs/rules/sugarworks.md).
    older_rules = (1, 2)
    min_seats = 2
    max_seats = 4
    has_hidden_information = True
    #: Factory actions show the hand; order actions use the face-up market only.
    private_choices = True
    has_joint_decisions = False
    has_chance = True
    has_content_files = True
    # Easy then beats random players and mostly loses to greedy ones (docs/benchmarks.md).
    ai_easy_slips = 0.75
    options = (
        OptionSpec("side", "Which side of the board: a (first games) or b.", "choice", "a",
                   choices=("a", "b"), said="board side {}",
                   meanings=(("a", "board side a (for first games)"),)),
        OptionSpec("rounds", "How many rounds the order deck lasts.", "int", DEFAULT_ROUNDS,
                   minimum=4, maximum=11, said="an order deck of {} rounds"),
    )
    step_joiners = frozenset({"at", "to", "with", "order"})
    notation_help = (
        "Order action: “take order 2”, “draw order”, “discard order 3” (then “drop o17” if "
        "you hold six). Factory action: “adjust red to c5”, “conveyor up at c3”, "
        "“make blue at a2 with o17”."
    )
    # Numbers come from the same data the rules run on, so the text cannot drift from them.
    rules_summary = (
        "Each turn take one order action (take a face-up order, draw one, or discard a "
        "face-up one; keep at most five) and one factory action (move an output tile to any "
        "open output space, play a conveyor tile from your hand onto a space, or discard an "
        "order from your hand or the market to make a candy it shows on its empty output; "
        "making a candy whose blanket "
        "order is colourful scores that order's stars at once). When everyone has played, "
        "every candy activates twice by its tile's icon, type by type (red, yellow, green, "
        "blue, purple), and collisions Bonk! Candy that lands exactly in a crate is shipped: "
        f"its maker scores {ct.ship_stars()}★, and orders fill as soon as their crate (or, "
        "for candy eater orders, the lost gutter) holds their candies. The game ends after "
        "the round in which the order deck runs out; most ★ wins."
    )

    # ----------------------------------------------------------------- set-up

    def _setup(self, state: State, turn: Turn) -> None:
        players = len(state["seats"])
        rounds = state["options"]["rounds"]
        side = ct.sides()[state["options"]["side"]]
        orders = deck_shuffled(list(ct.orders()), turn.rng)
        hands = [{"orders": [deck_draw(orders) for _ in range(ORDERS_DEALT)], "tiles": []}
                 for _ in range(players)]
        market = [deck_draw(orders) for _ in range(MARKET_SIZE)]
        # The deck is the factory clock: one card leaves it on every turn, so a deck of
        # rounds x players cards runs out on the last turn of the last round.
        keep = rounds * players
        boxed, deck = orders[:-keep], orders[-keep:]
        stack = deck_shuffled(ct.tile_stack(), turn.rng)
        for hand in hands:
            hand["tiles"] = [deck_draw(stack) for _ in range(TILES_IN_HAND)]
        blankets = deck_shuffled(list(ct.blankets()), turn.rng)[:3]
        supply = {t: ct.supply_per_type() for t in ct.candy_order()}
        state.update({
            "side": side.key,
            "rounds": rounds,
            "round": 1,
            "first": 0,
            "active": 0,
            "step": "order",
            "placed": {},
            "outputs": {t: ct.cell_name(c) for t, c in side.start.items()},
            "candies": [],
            "next_candy": 1,
            "crates": {name: [] for name in side.crates.values()},
            "gutter": [],
            "supply": supply,
            "deck": deck,
            "boxed": boxed,
            "market": market,
            "order_discards": [],
            "stack": stack,
            "tile_discards": [],
            "hands": hands,
            "completed": [[] for _ in range(players)],
            "points": [{"orders": 0, "shipping": 0, "blanket": 0} for _ in range(players)],
            "shipped": [0 for _ in range(players)],
            "blankets": [{"id": b, "colourful": False} for b in blankets],
            "die": None,
            "movement": None,
            "history": [],
            "over": False,
        })
        for kind in ct.candy_order():
            self._new_candy(state, kind, state["outputs"][kind], None)
        turn.say("The Sugarworks opens: one candy on each output tile.", None, "setup")
        self._roll_die(state, turn, 0)

    # ----------------------------------------------------------------- who acts, what is legal

    def _turn_actors(self, state: State) -> frozenset[int]:
        return frozenset() if state["over"] else frozenset({state["active"]})

    def _turn_actions(self, state: State, seat: int) -> list[Action]:
        if state["over"] or seat != state["active"]:
            return []
        if state["step"] == "order":
            return self._order_actions(state)
        return self._factory_actions(state, seat)

    def _order_actions(self, state: State) -> list[Action]:
        out = []
        for slot, card in enumerate(state["market"], 1):
            if card is not None:
                text = ct.orders()[card].text()
                out.append(Action(f"take order {slot}", f"take {card}: {text}"))
        if state["deck"]:
            out.append(Action("draw order", "draw the top order card of the deck"))
        for slot, card in enumerate(state["market"], 1):
            if card is not None:
                out.append(Action(f"discard order {slot}", f"discard {card} from the market"))
        if not out:
            out.append(Action("skip order", "no order left to take, draw or discard"))
        return out

    def _factory_actions(self, state: State, seat: int) -> list[Action]:
        out = []
        for kind in ct.candy_order():
            where = state["outputs"][kind]
            for space in fl.open_output_spaces(state, kind):
                out.append(Action(f"adjust {kind} to {space}",
                                  f"move the {ct.candy_name(kind)} output from {where} to "
                                  f"{space}"))
        kinds = sorted({ct.kind_of_tile(t) for t in state["hands"][seat]["tiles"]},
                       key=list(ct.tile_kinds()).index)
        spaces = self._tile_spaces(state)
        for kind in kinds:
            name = ct.tile_kinds()[kind].name
            for space in spaces:
                out.append(Action(f"conveyor {kind} at {space}",
                                  f"play {article(name)} at {space}"))
        # Rules 3: "Order cards in the order market are incomplete", and Make discards
        # "an incomplete order card": a market order may be discarded to make a candy too.
        market = [c for c in state["market"] if c is not None] if state["rules"] >= 3 else []
        for card in [*state["hands"][seat]["orders"], *market]:
            order = ct.orders()[card]
            whose = "the market's " if card in market else ""
            for kind in dict.fromkeys(order.candies):
                if self._can_make(state, kind):
                    where = state["outputs"][kind]
                    out.append(Action(f"make {kind} at {where} with {card}",
                                      f"discard {whose}{card} ({order.text()}) to make "
                                      f"{article(ct.candy_name(kind))} at {where}"))
        if not out:
            out.append(Action("pass", "no factory action is possible"))
        return out

    def _tile_spaces(self, state: State) -> list[str]:
        side = fl.side_of(state)
        outputs = set(state["outputs"].values())
        cells = sorted(side.printed, key=lambda c: (c[1], c[0]))
        return [ct.cell_name(c) for c in cells if ct.cell_name(c) not in outputs]

    def _can_make(self, state: State, kind: str) -> bool:
        where = state["outputs"][kind]
        return state["supply"][kind] > 0 and where not in fl.occupied(state)

    def _decision_actions(self, state: State, decision: Decision, seat: int) -> list[Action]:
        assert decision.kind == "drop", decision.kind
        return [Action(f"drop {card}", f"discard {card}: {ct.orders()[card].text()}",
                       public="discarded an order card face down")
                for card in state["hands"][seat]["orders"]]

    def _resolve(self, state: State, decision: Decision, answers: dict[int, Action],
                 turn: Turn) -> None:
        seat, action = next(iter(answers.items()))
        card = action.notation.split(" ")[1]
        state["hands"][seat]["orders"].remove(card)
        state["order_discards"].append(card)
        turn.say(f"{engine.seat_name(state, seat)} discarded an order card face down.", seat,
                 "drop")
        turn.say(f"You discarded {card}: {ct.orders()[card].text()}.", seat, "drop", to=[seat])
        _record(state, seat, "drop")
        state["step"] = "factory"

    def choices_are_public(self, state: State) -> bool:
        """Order actions only use the face-up market: their buttons may be public."""
        top = engine.top(state)
        if top is not None:
            return super().choices_are_public(state)
        return not state["over"] and state["step"] == "order"

    def quick_choices(self, state: State, seat: int) -> list[Action]:
        if engine.top(state) is not None or state["step"] == "order":
            actions = engine.legal_actions(self, state, seat)
            return actions if len(actions) <= 25 else []
        return []

    def rank_actions(self, state: State, seat: int, actions: list[Action]) -> list[Action]:
        values = action_values(engine.view(self, state, seat), actions)
        return sorted(actions, key=lambda a: -values[a.notation])

    # ----------------------------------------------------------------- notation

    def _canonical(self, text: str) -> str | None:
        if m := _TAKE.match(text):
            return f"{m.group(1)} order {m.group(2)}"
        if _DRAW.match(text):
            return "draw order"
        if text in ("skip order", "skip", "pass"):
            return "skip order" if text != "pass" else "pass"
        if m := _DROP.match(text):
            return f"drop {_order_id(m.group(1))}"
        if m := _ADJUST.match(text):
            kind = ct.candy_word(m.group(1))
            return f"adjust {kind} to {m.group(2)}" if kind else None
        if m := _MAKE.match(text):
            kind = ct.candy_word(m.group(1))
            if kind is None:
                return None
            out = f"make {kind}"
            if m.group(2):
                out += f" at {m.group(2)}"
            if m.group(3):
                out += f" with {_order_id(m.group(3))}" if m.group(2) else ""
            return out
        if m := _CONVEYOR.match(text):
            kind = tile_word(m.group(1))
            return f"conveyor {kind} at {m.group(2)}" if kind else None
        return None

    def _expand(self, state: State, seat: int, text: str) -> str:
        """``make blue with o17`` may leave out the output's space: it is the candy's."""
        m = _MAKE.match(text)
        if m and m.group(3) and not m.group(2) and "outputs" in state:
            kind = ct.candy_word(m.group(1))
            if kind is not None:
                return f"make {kind} at {state['outputs'][kind]} with {_order_id(m.group(3))}"
        return text

    def _explain(self, state: State, seat: int, notation: str) -> str:
        words = notation.split(" ")
        verb = words[0]
        if engine.top(state) is not None:
            return "First discard down to five orders: “drop o17” names the card to let go."
        if verb == "drop":
            return "You only discard an order when you hold six after your order action."
        order_verbs = ("take", "draw", "discard", "skip")
        if state["step"] == "order" and verb not in order_verbs:
            return ("First your order action: “take order 2”, “draw order” or "
                    "“discard order 3”.")
        if state["step"] == "factory" and verb in order_verbs:
            return ("You have taken your order action; now a factory action: “adjust”, "
                    "“conveyor” or “make”.")
        if verb in ("take", "discard") and len(words) == 3:
            return f"The market has no order in space {words[2]}: spaces 1 to {MARKET_SIZE}."
        if verb == "draw":
            return "The order deck is empty."
        if verb == "skip" or verb == "pass":
            return "You may not pass while you can still act."
        if verb == "adjust":
            return self._explain_adjust(state, words)
        if verb == "conveyor":
            return self._explain_conveyor(state, seat, words)
        if verb == "make":
            return self._explain_make(state, seat, words)
        return f"“{notation}” is not a legal move right now."

    def _explain_adjust(self, state: State, words: list[str]) -> str:
        kind, space = words[1], words[3]
        where = state["outputs"][kind]
        spaces = fl.open_output_spaces(state, kind)
        target = ct.parse_cell(space)
        side = fl.side_of(state)
        if target is None or target not in side.output_spaces:
            return f"{space} is not an output space. Output spaces: " + ", ".join(
                ct.cell_name(c) for c in side.output_spaces) + "."
        if state["rules"] < 2 and target[1] != fl.cell(where)[1]:
            return (f"The {ct.candy_name(kind)} output is at {where}: an output tile moves "
                    "only within its own row.")
        if not spaces:
            within = " in its row" if state["rules"] < 2 else " to move to"
            return f"The {ct.candy_name(kind)} output at {where} has no open space{within}."
        return f"{space} is not open (an output tile or a candy is there)."

    def _explain_conveyor(self, state: State, seat: int, words: list[str]) -> str:
        kind, space = words[1], words[3]
        held = [ct.kind_of_tile(t) for t in state["hands"][seat]["tiles"]]
        if kind not in held:
            names = ", ".join(sorted({ct.tile_kinds()[k].name + f" (“{k}”)" for k in held}))
            return f"You hold no {ct.tile_kinds()[kind].name}; your tiles: {names or 'none'}."
        target = ct.parse_cell(space)
        if target is None or not fl.side_of(state).on_board(target):
            return f"{space} is not a space of the factory floor."
        return f"{space} holds an output tile: conveyor tiles cannot cover output tiles."

    def _explain_make(self, state: State, seat: int, words: list[str]) -> str:
        kind = words[1]
        where = state["outputs"][kind]
        if len(words) >= 4 and words[3] != where:
            return f"The {ct.candy_name(kind)} output tile is at {where}, not {words[3]}."
        if state["supply"][kind] == 0:
            return f"No {ct.plural(kind)} are left in the supply."
        if where in fl.occupied(state):
            return f"The {ct.candy_name(kind)} output at {where} is not empty."
        if len(words) >= 6:
            card = words[5]
            if state["rules"] >= 3 and card not in state["hands"][seat]["orders"] \
                    and card not in state["market"]:
                return f"{card} is neither in your hand nor in the order market."
            if state["rules"] < 3 and card not in state["hands"][seat]["orders"]:
                return f"{card} is not an order card in your hand."
            return f"{card} does not show {article(ct.candy_name(kind))}."
        return f"None of your orders shows {article(ct.candy_name(kind))}."

    # ----------------------------------------------------------------- playing

    def _play(self, state: State, seat: int, action: Action, turn: Turn) -> None:
        words = action.notation.split(" ")
        verb = words[0]
        if state["step"] == "order":
            self._order_action(state, turn, seat, words)
            return
        if verb == "adjust":
            _record(state, seat, verb, [state["outputs"][words[1]], words[3]], kind=words[1])
            self._adjust(state, turn, seat, words[1], words[3])
        elif verb == "conveyor":
            _record(state, seat, verb, [words[3]], kind=words[1])
            self._conveyor(state, turn, seat, words[1], words[3])
        elif verb == "make":
            slot = state["market"].index(words[5]) + 1 if words[5] in state["market"] else None
            _record(state, seat, verb, [words[3]], slot, words[1], words[5])
            self._make(state, turn, seat, words[1], words[5])
        else:
            assert verb == "pass", action.notation
            _record(state, seat, verb)
            turn.say(f"{engine.seat_name(state, seat)} has no factory action.", seat, "pass")
        self._fill_orders(state, turn, seat)
        self._end_turn(state, turn, seat)

    def _order_action(self, state: State, turn: Turn, seat: int, words: list[str]) -> None:
        name = engine.seat_name(state, seat)
        hand = state["hands"][seat]["orders"]
        verb = words[0]
        had = len(state["deck"])
        # The card taken stays out of the record: it is in a hand now, and a hand is secret.
        _record(state, seat, verb, slot=int(words[2]) if verb in ("take", "discard") else None)
        if verb == "take":
            slot = int(words[2]) - 1
            card = state["market"][slot]
            hand.append(card)
            turn.say(f"{name} took order {words[2]} from the market: {card}, "
                     f"{ct.orders()[card].text()}.", seat, "take")
            self._refill(state, turn, slot)
        elif verb == "discard":
            slot = int(words[2]) - 1
            card = state["market"][slot]
            state["order_discards"].append(card)
            turn.say(f"{name} discarded order {words[2]} from the market: {card}, "
                     f"{ct.orders()[card].text()}.", seat, "discard")
            self._refill(state, turn, slot)
        elif verb == "draw":
            card = deck_draw(state["deck"])
            assert card is not None  # legal only while the deck holds a card
            hand.append(card)
            turn.say(f"{name} drew an order card.", seat, "draw", reveals=True)
            turn.say(f"You drew {card}: {ct.orders()[card].text()}.", seat, "draw", to=[seat])
        else:
            turn.say(f"{name} has no order action left to take.", seat, "skip")
        if had and not state["deck"]:
            turn.say("The order deck has run out: this is the last round.", None, "deck")
        self._fill_orders(state, turn, seat)
        if len(hand) > HAND_LIMIT:
            engine.ask(state, "drop", [seat], public=False)
        else:
            state["step"] = "factory"

    def _refill(self, state: State, turn: Turn, slot: int) -> None:
        card = deck_draw(state["deck"])
        state["market"][slot] = card
        if card is not None:
            turn.say(f"Order {slot + 1} of the market is now {card}: "
                     f"{ct.orders()[card].text()}.", None, "market", reveals=True)

    def _adjust(self, state: State, turn: Turn, seat: int, kind: str, space: str) -> None:
        old = state["outputs"][kind]
        state["outputs"][kind] = space
        carried = fl.occupied(state).get(old)
        if carried is not None:
            carried["at"] = space
        placed = state["placed"].pop(space, None)
        if placed is not None:
            state["tile_discards"].append(placed["tile"])
        with_candy = f", its {ct.candy_name(carried['type'])} with it" if carried else ""
        covered = (f" (covering the {ct.tile_kinds()[placed['kind']].name} there)"
                   if placed else "")
        turn.say(f"{engine.seat_name(state, seat)} moved the {ct.candy_name(kind)} output from "
                 f"{old} to {space}{with_candy}{covered}.", seat, "adjust")

    def _conveyor(self, state: State, turn: Turn, seat: int, kind: str, space: str) -> None:
        hand = state["hands"][seat]["tiles"]
        tile = next(t for t in hand if ct.kind_of_tile(t) == kind)
        hand.remove(tile)
        old = state["placed"].get(space)
        if old is not None:
            state["tile_discards"].append(old["tile"])
        state["placed"][space] = {"tile": tile, "kind": kind}
        name = engine.seat_name(state, seat)
        replaced = (f", replacing the {ct.tile_kinds()[old['kind']].name}" if old else "")
        turn.say(f"{name} played {article(ct.tile_kinds()[kind].name)} at {space}{replaced}.", seat,
                 "conveyor")
        here = fl.cell(space)
        floor = Floor(fl.side_of(state), fl.tiles_of(state), fl.candies_on_board(state))
        if floor.eat_on_placement(here):
            candy = fl.occupied(state)[space]
            turn.say(f"The {ct.candy_name(candy['type'])} on {space} is lost right away to the "
                     f"{ct.tile_kinds()[kind].name}.", seat, "lost")
            self._arrive(state, candy["id"], ct.LOST)
            self._fill_orders(state, turn, seat)
        self._draw_tile(state, turn, seat)

    def _draw_tile(self, state: State, turn: Turn, seat: int) -> None:
        if not state["stack"] and state["tile_discards"]:
            state["stack"] = deck_shuffled(state["tile_discards"], turn.rng)
            state["tile_discards"] = []
            turn.say("The conveyor tile stack ran out: the discarded tiles are shuffled into "
                     "a new stack.", None, "reshuffle")
        tile = deck_draw(state["stack"])
        if tile is None:
            turn.say("No conveyor tile is left to draw.", seat, "draw")
            return
        state["hands"][seat]["tiles"].append(tile)
        turn.say(f"{engine.seat_name(state, seat)} drew a conveyor tile.", seat, "draw",
                 reveals=True)
        turn.say(f"You drew {article(ct.tile_kinds()[ct.kind_of_tile(tile)].name)}.", seat, "draw",
                 to=[seat])

    def _make(self, state: State, turn: Turn, seat: int, kind: str, card: str) -> None:
        from_market = card not in state["hands"][seat]["orders"]
        if from_market:
            slot = state["market"].index(card)
            state["market"][slot] = None
        else:
            state["hands"][seat]["orders"].remove(card)
        state["order_discards"].append(card)
        where = state["outputs"][kind]
        self._new_candy(state, kind, where, seat)
        whose = "the market's order " if from_market else ""
        turn.say(f"{engine.seat_name(state, seat)} discarded {whose}{card} "
                 f"({ct.orders()[card].text()}) to make {article(ct.candy_name(kind))} on the "
                 f"output at {where}.", seat, "make", reveals=True)
        if from_market:
            # The replacement comes from the cards cut from the deck at set-up, so that
            # the deck stays the factory clock (one card a turn) and the game its length.
            refill = deck_draw(state["boxed"])
            state["market"][slot] = refill
            if refill is not None:
                turn.say(f"Order {slot + 1} of the market is now {refill}: "
                         f"{ct.orders()[refill].text()}.", None, "market", reveals=True)
        if state["rules"] >= 2:
            # Casey "places a purple rectangle candy ... and is now scoring on the blanket
            # order!": a colourful blanket order pays when its candy is made.
            bonus = sum(b.stars for b in self._colourful(state) if b.candy == kind)
            if bonus:
                state["points"][seat]["blanket"] += bonus
                turn.say(f"{engine.seat_name(state, seat)} scores {bonus}★ from the colourful "
                         f"{ct.candy_name(kind)} blanket order.", seat, "blanket")

    @staticmethod
    def _colourful(state: State) -> list[ct.Blanket]:
        return [ct.blankets()[b["id"]] for b in state["blankets"] if b["colourful"]]

    def _new_candy(self, state: State, kind: str, where: str, maker: int | None) -> None:
        state["supply"][kind] -= 1
        state["candies"].append({"id": f"c{state['next_candy']:02d}", "type": kind,
                                 "at": where, "maker": maker})
        state["next_candy"] += 1

    def _end_turn(self, state: State, turn: Turn, seat: int) -> None:
        following = next_seat(seat, len(state["seats"]))
        if following != state["first"]:
            state["active"] = following
            state["step"] = "order"
            return
        self._candy_movement(state, turn)
        if not state["deck"]:
            self._finish(state, turn)
            return
        state["round"] += 1
        following = next_seat(state["first"], len(state["seats"]))
        state["first"] = following
        state["active"] = following
        state["step"] = "order"
        turn.say(f"Round {state['round']} of {state['rounds']}: "
                 f"{engine.seat_name(state, following)} has the candy die and starts.",
                 None, "round")
        self._roll_die(state, turn, following)

    # ----------------------------------------------------------------- candy movement

    def _candy_movement(self, state: State, turn: Turn) -> None:
        story = run(fl.side_of(state), fl.tiles_of(state), fl.candies_on_board(state))
        by_id = {c["id"]: dict(c) for c in state["candies"]}
        makers = {c: by_id[c]["maker"] for c in by_id}
        names = [s["name"] for s in state["seats"]]
        lines = narration.lines(story, makers, names)
        turn.say(f"Candy movement, round {state['round']}:", None, "movement")
        for line in lines:
            turn.say(line, None, "movement")
        for event in story.events():
            maker = makers[event["candy"]] if event["what"] == "lost" else None
            if maker is not None and event["by"] == "bonk":
                turn.say(f"{names[maker]}'s {ct.candy_name(story.types[event['candy']])} was "
                         "Bonked off the floor into the gutter.", None, "bonked", hits=[maker])
        state["candies"] = [dict(by_id[c], at=ct.cell_name(story.final[c]))
                            for c in by_id if c in story.final]
        shipped = lost = 0
        before = [p["orders"] + p["shipping"] + p["blanket"] for p in state["points"]]
        for candy, where in story.arrivals:
            self._arrive(state, candy, where, by_id[candy], turn)
            shipped += where != ct.LOST
            lost += where == ct.LOST
            self._fill_orders(state, turn, state["first"])
        bonks = sum(1 for e in story.events() if e["what"] == "bonk")
        state["history"].append({"round": state["round"], "shipped": shipped, "lost": lost,
                                 "bonks": bonks, "on_board": len(state["candies"])})
        state["movement"] = {
            "round": state["round"],
            # The move number the engine gives the state this movement ends.
            "at_move": state["move"] + 1,
            "start": [{"id": c, "type": story.types[c], "maker": makers[c],
                       "cell": list(story.start[c])} for c in story.start],
            "steps": [dict(step.to_json(), text=text)
                      for step, text in zip(story.steps, narration.step_texts(story, makers,
                                                                               names),
                                            strict=True)],
            "lines": lines,
            "shipped": shipped, "lost": lost, "bonks": bonks,
            "gained": [p["orders"] + p["shipping"] + p["blanket"] - b
                       for p, b in zip(state["points"], before, strict=True)],
        }

    def _arrive(self, state: State, candy_id: str, where: str,
                candy: dict[str, Any] | None = None, turn: Turn | None = None) -> None:
        """A candy left the floor into a crate or the gutter; shipping pays its maker."""
        if candy is None:
            candy = next(c for c in state["candies"] if c["id"] == candy_id)
        state["candies"] = [c for c in state["candies"] if c["id"] != candy_id]
        record = {"id": candy_id, "type": candy["type"], "maker": candy["maker"]}
        if where == ct.LOST:
            state["gutter"].append(record)
            return
        state["crates"][where].append(record)
        maker = candy["maker"]
        if maker is None:
            return
        points = state["points"][maker]
        points["shipping"] += ct.ship_stars()
        state["shipped"][maker] += 1
        # Rules 1: a colourful blanket order paid on shipping into its crate.
        bonus = sum(b.stars for b in self._colourful(state)
                    if state["rules"] < 2 and b.candy == candy["type"] and b.crate == where)
        points["blanket"] += bonus
        if turn is not None:
            extra = f" and {bonus}★ from the blanket order" if bonus else ""
            turn.say(f"{engine.seat_name(state, maker)} scores {ct.ship_stars()}★ for shipping "
                     f"their {ct.candy_name(candy['type'])}{extra}.", maker, "ship")

    # ----------------------------------------------------------------- orders

    def fillable(self, state: State, card: str) -> bool:
        """Does the order's crate (or the gutter) hold every candy the order shows?"""
        order = ct.orders()[card]
        pool = state["gutter"] if order.special else state["crates"].get(order.to, [])
        have: dict[str, int] = {}
        for candy in pool:
            have[candy["type"]] = have.get(candy["type"], 0) + 1
        need: dict[str, int] = {}
        for kind in order.candies:
            need[kind] = need.get(kind, 0) + 1
        return all(have.get(k, 0) >= n for k, n in need.items())

    def _fill_orders(self, state: State, turn: Turn, start: int) -> None:
        """Fill every order that can be filled, seats in turn order from ``start``.

        Decision: an order is filled as soon as it can be; a seat fills its order with the
        most stars first (then the lowest card number); the candies used, oldest first,
        go back to the supply.
        """
        while True:
            found = None
            for seat in seats_from(start, len(state["seats"])):
                ready = [c for c in state["hands"][seat]["orders"] if self.fillable(state, c)]
                if ready:
                    found = (seat, min(ready, key=lambda c: (-ct.orders()[c].stars, c)))
                    break
            if found is None:
                return
            seat, card = found
            order = ct.orders()[card]
            pool = state["gutter"] if order.special else state["crates"][order.to]
            for kind in order.candies:
                used = next(c for c in pool if c["type"] == kind)
                pool.remove(used)
                state["supply"][kind] += 1
            state["hands"][seat]["orders"].remove(card)
            state["completed"][seat].append(card)
            state["points"][seat]["orders"] += order.stars
            turn.say(f"{engine.seat_name(state, seat)} filled order {card} ({order.text()}) "
                     "and lays it face up.", seat, "fill", reveals=True)

    # ----------------------------------------------------------------- die and end

    def _roll_die(self, state: State, turn: Turn, seat: int) -> None:
        face = turn.rng.choice(ct.die_faces())
        state["die"] = face
        name = engine.seat_name(state, seat)
        if face not in ct.candy_order():
            turn.say(f"{name} rolled the candy die: a blank wrapper, no blanket order flips.",
                     seat, "die", reveals=True)
            return
        for blanket in state["blankets"]:
            if ct.blankets()[blanket["id"]].candy == face:
                blanket["colourful"] = not blanket["colourful"]
                side = "colourful" if blanket["colourful"] else "grey"
                turn.say(f"{name} rolled the candy die: {ct.candy_name(face)}. That blanket "
                         f"order flips to its {side} side.", seat, "die", reveals=True)
                return
        turn.say(f"{name} rolled the candy die: {ct.candy_name(face)}, which has no blanket "
                 "order in play.", seat, "die", reveals=True)

    def _finish(self, state: State, turn: Turn) -> None:
        state["over"] = True
        state["active"] = -1
        turn.say("The order deck is empty and the round is over: the shift ends.", None, "end")
        result = self._result(state)
        assert result is not None
        turn.say(result.summary, None, "end")

    def total(self, state: State, seat: int) -> int:
        points = state["points"][seat]
        return cast("int", points["orders"] + points["shipping"] + points["blanket"])

    def _result(self, state: State) -> Result | None:
        if not state["over"]:
            return None
        players = range(len(state["seats"]))
        scores = {s: self.total(state, s) for s in players}
        # Ties: more orders filled, then more of your own candy shipped; then shared.
        ranking = rank_by({s: (scores[s], len(state["completed"][s]), state["shipped"][s])
                           for s in players})
        best = " and ".join(engine.seat_name(state, s) for s in ranking[0])
        verb = "share the win" if len(ranking[0]) > 1 else "wins"
        parts = "; ".join(f"{engine.seat_name(state, s)} {scores[s]}★ "
                          f"({_orders(len(state['completed'][s]))})" for s in players)
        return Result(ranking, scores, f"{best} {verb}. {parts}.")

    # ----------------------------------------------------------------- views

    def _show(self, state: State, seat: int | None) -> View:
        return build_view(self, state, seat)

    def _hidden(self, state: State) -> list[Hidden]:
        """Undrawn and boxed orders and the tile stack are nobody's; a hand is its owner's."""
        return [Hidden(("deck",), None, "order"), Hidden(("boxed",), None, "order"),
                Hidden(("stack",), None, "tile"),
                *(Hidden(("hands", s, part), s, pool) for s in range(len(state["seats"]))
                  for part, pool in (("orders", "order"), ("tiles", "tile")))]

    def summary(self, state: State) -> str:
        if state["over"]:
            result = self._result(state)
            return result.summary if result else "The game is over."
        name = engine.seat_name(state, state["active"])
        doing = {"order": "takes an order action", "factory": "takes a factory action"}
        step = "discards down to five orders" if engine.top(state) else doing[state["step"]]
        # Where each seat's stars come from: the picture shows only the totals.
        split = ", ".join(f"{engine.seat_name(state, s)} {p['orders']}+{p['shipping']}+"
                          f"{p['blanket']}" for s, p in enumerate(state["points"]))
        return (f"Round {state['round']} of {state['rounds']}: {name} {step}. "
                f"Order deck: {len(state['deck'])}. Stars from orders, shipping and blanket "
                f"orders: {split}.")

    def scores(self, state: State) -> dict[int, int]:
        return {s: self.total(state, s) for s in range(len(state["seats"]))}

    def episode(self, state: State) -> str | None:
        if state["over"]:
            return None
        return f"turn-{state['round']}-{state['active']}"

    def _ai(self, view: View, legal: list[Action], rng: Rng) -> Action:
        return choose(view, legal, rng)

    def _stand_in_reason(self, before: View, after: View, seat: int,
                         move: str) -> str | None:
        """An order it finished, else the stars its candies earned by shipping or from a
        colourful blanket order: completed orders and points are public, hands are not."""
        was, now = before["seats"][seat], after["seats"][seat]
        done = {o["id"] for o in was["completed"]}
        finished = [o for o in now["completed"] if o["id"] not in done]
        if finished:
            order = finished[0]
            return f"It chose this move to finish order {order['id']} ({order['text']})."
        for part, why in (("shipping", "shipping its candies"),
                          ("blanket", "a colourful blanket order")):
            gained = now["points"][part] - was["points"][part]
            if gained > 0:
                return f"It chose this move to earn {gained}★ from {why}."
        return None


def _record(state: State, seat: int, verb: str, cells: list[str] | None = None,
            slot: int | None = None, kind: str | None = None, card: str | None = None) -> None:
    """Keep ``seat``'s move as everybody saw it, for the picture to mark: the spaces it
    touched, the market slot (1-4) it used, the candy or tile kind, and the order card it
    spent to make a candy (face up on the discards; never a card that went to a hand).

    ``state["last"]`` appears with the first move: a game starts without it, as games
    stored before moves were kept do, so that those still have every key a new game has.
    """
    state["last"] = {"seat": seat, "verb": verb, "cells": cells or [], "slot": slot,
                     "kind": kind, "card": card}


def _orders(count: int) -> str:
    return f"{count} order{'' if count == 1 else 's'} filled"


def _order_id(text: str) -> str:
    return f"o{int(text[1:]):02d}"


def tile_word(text: str) -> str | None:
    """A tile kind from how a player may write it: ``jump right``, ``green alien``, ``x``."""
    words = text.replace("-", " ").split()
    kinds = ct.tile_kinds()
    for kind in kinds:
        parts = kind.split("-")
        if words == parts or words == parts[::-1]:
            return kind
    aliases = {"up spring": "spring", "spring up": "spring", "trash": "x", "chute": "x",
               "trash chute": "x", "right jump": "jump-right", "left jump": "jump-left",
               "right belt": "right", "left belt": "left", "up belt": "up", "down belt": "down"}
    joined = " ".join(words)
    if joined in aliases:
        return aliases[joined]
    for colour_first in (True, False):
        for role in ("alien", "muncher"):
            if len(words) == 2:
                colour, word = (words[0], words[1]) if colour_first else (words[1], words[0])
                candy = ct.candy_word(colour)
                if word in (role, f"{role}s", "eater") and candy:
                    return f"{'munch' if role == 'muncher' else 'alien'}-{candy}"
    return None
