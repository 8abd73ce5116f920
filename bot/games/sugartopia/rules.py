"""Sugartopia: lay hex land cards round the castle, feed gummy bears and walk home for cookies."""

from __future__ import annotations

import re
from collections.abc import Sequence

from bot.games import engine
from bot.games.engine import Action, BaseRules, Decision, Hidden, Result, State, Turn, View
from bot.games.pieces import deck_draw, deck_shuffled, rank_by, seats_from
from bot.games.rng import Rng
from bot.games.sugartopia import tiles
from bot.games.sugartopia.ai import action_values, choose
from bot.games.sugartopia.board import Area, Table, area_name, new_entry, score_area
from bot.games.sugartopia.tiles import CASTLE, GINGERMAN, ROTATIONS, SIDE_NAMES, Card, Pos
from bot.games.sugartopia.view import build_view
from bot.games.words import article, listing, plural

_SPOT = r"([a-z][0-9]{1,3})"
_PLACE = re.compile(
    rf"^(?:place |play )?(?:(l ?[0-9]{{1,2}}) )?(?:at )?{_SPOT}"
    r"(?: (?:rot |rotation |turn |turned |r)?([0-9]{1,3})(?:°| ?deg(?:rees)?)?)?$"
)
_GINGERMAN = re.compile(rf"^(?:gingerman|ginger|gm)(?: at)?(?: {_SPOT})?$")
_FEED = re.compile(r"^feed(?: (?:a |the )?([a-z]+?)(?: bear)?)?$")



class Sugartopia(BaseRules):
    """The Sugartopia rules (hex land cards, gummy bears, Gingermen and the cookie route)."""

    slug = "sugartopia"
    # 2: the bear choice is a decision on the engine's stack.
    rules_version = 2
    title = "Sugartopia"
    min_seats = 2
    max_seats = 4
    has_hidden_information = True
    #: The bears printed on the cards are the players' colours.
    seat_colours = tuple(tiles.player_colours())
    step_joiners = frozenset({"at", "rot"})
    private_choices = True
    has_joint_decisions = False
    #: Cards come from a deck shuffled at set-up; play itself never draws from the generator.
    has_chance = False
    has_content_files = True
    # Points come late, so only a nearly random easy AI loses to the greedy baseline
    # (docs/benchmarks.md).
    ai_easy_slips = 0.95
    notation_help = (
        "Moves: “place l07 at b3 rot 60” (your land card on an open spot, turned 0, 60, 120, "
        "180, 240 or 300 degrees; “b3 60” is enough), “gingerman at c4” (your Gingerman "
        "instead, once per game), “feed red” (which hungry bear eats when sugar runs short)."
    )
    rules_summary = (
        "Each turn reveal your land card and lay it next to the table so every touching side "
        "matches (road to road, grassland to grassland), or once per game lay your Gingerman "
        "(all road, fits anywhere). New sheep get cubes: sugar on cotton-candy sheep, honey on "
        "rainbow sheep. Hungry gummy bears in the grassland areas the card joins eat the sugar; "
        "if there is not enough, you choose which bears eat. An area closed off by roads is "
        "scored at once: players take the cubes on their own bears, the most bears share the "
        "rest. When nobody can play, every area is scored and each Gingerman walks the road "
        "to the castle for 2 points per cookie. 1 point per sugar, 2 per honey."
    )

    # ----------------------------------------------------------------- set-up

    def _setup(self, state: State, turn: Turn) -> None:
        cards = tiles.catalogue()
        deck = deck_shuffled(tiles.land_ids(), turn.rng)
        hands = [deck_draw(deck) for _ in state["seats"]]
        state.update({
            "table": [new_entry(cards[CASTLE], (0, 0), 0)],
            "deck": deck,
            "hands": hands,
            "gingermen": [True for _ in state["seats"]],
            "supply": tiles.supply(),
            "held": [{"sugar": 0, "honey": 0} for _ in state["seats"]],
            "passed": [False for _ in state["seats"]],
            "turn": 0,
            "phase": "place",
            "feeding": None,
            "set_aside": [],
            "last": None,
            "final": None,
        })
        self._next_turn(state, turn, 0)

    # ----------------------------------------------------------------- who acts, what is legal

    def _turn_actors(self, state: State) -> frozenset[int]:
        return frozenset() if state["phase"] == "over" else frozenset({state["turn"]})

    def _decision_actions(self, state: State, decision: Decision, seat: int) -> list[Action]:
        assert decision.kind == "feed", decision.kind
        colours = self._seat_colours(state)
        owners = {c: s for s, c in enumerate(colours)}
        out = []
        for colour in self.feedable(state, self._table(state)):
            who = (f"{engine.seat_name(state, owners[colour])}'s bear" if colour in owners
                   else "nobody's bear")
            out.append(Action(f"feed {colour}", f"feed {article(colour)} bear ({who})"))
        return out

    def _resolve(self, state: State, decision: Decision, answers: dict[int, Action],
                 turn: Turn) -> None:
        seat, action = next(iter(answers.items()))
        self._feed_choice(state, turn, seat, action.notation.split(" ")[1])

    def _upgrade(self, state: State) -> State:
        """Rules 1 kept the bear choice in ``phase``; it is a decision now."""
        if state.get("rules") != 1:
            return super()._upgrade(state)
        if state["phase"] == "feed":
            state["phase"] = "place"
            state["feeding"]["choosing"] = True
            engine.ask(state, "feed", [state["turn"]])
        state["rules"] = self.rules_version
        return state

    def choosing_bears(self, state: State) -> bool:
        """Is the turn player choosing which hungry bears eat?"""
        top = engine.top(state)
        return top is not None and top.kind == "feed"

    def _turn_actions(self, state: State, seat: int) -> list[Action]:
        if state["phase"] == "over" or seat != state["turn"]:
            return []
        table = self._table(state)
        actions = []
        hand = state["hands"][seat]
        if hand is not None:
            card = tiles.catalogue()[hand]
            for pos, rot in table.placements(card):
                label = tiles.label_of(pos)
                actions.append(Action(f"place {hand} at {label} rot {rot}",
                                      f"{card.name} at {label} turned {rot}°"))
        if state["gingermen"][seat]:
            for pos in table.open_spots():
                label = tiles.label_of(pos)
                actions.append(Action(f"gingerman at {label}", f"your Gingerman at {label}"))
        return actions

    def dominated(self, state: State, seat: int, actions: Sequence[Action]) -> frozenset[str]:
        """A land card turned so that it lies exactly as a smaller turn lays it (a card
        symmetric under a half or a third turn): the same placement offered twice."""
        first: dict[tuple[object, ...], str] = {}
        same: set[str] = set()
        for action in actions:
            m = _PLACE.match(action.notation)
            if m is None or m.group(1) is None or m.group(3) is None:
                continue
            card = tiles.catalogue()[m.group(1)]
            key = (m.group(1), m.group(2), card.as_placed(int(m.group(3))))
            if key in first:
                same.add(action.notation)
            else:
                first[key] = action.notation
        return frozenset(same)

    def rank_actions(self, state: State, seat: int, actions: list[Action]) -> list[Action]:
        values = action_values(engine.view(self, state, seat), actions)
        return sorted(actions, key=lambda a: -values[a.notation])

    # ----------------------------------------------------------------- notation

    def _canonical(self, text: str) -> str | None:
        if text in ("place", "play"):
            return "place"
        if m := _GINGERMAN.match(text):
            return f"gingerman at {m.group(1)}" if m.group(1) else "gingerman"
        if m := _FEED.match(text):
            if not m.group(1):
                return "feed"
            colour = m.group(1)
            known = tiles.player_colours() + tiles.neutral_colours()
            return f"feed {colour}" if colour in known else None
        if m := _PLACE.match(text):
            card, spot, rot = m.groups()
            parts = ["place"]
            if card:
                number = int(card[1:].strip())
                parts.append(f"l{number:02d}")
                parts.append("at")
            parts.append(spot)
            if rot is not None:
                parts.append(f"rot {int(rot)}")
            return " ".join(parts)
        return None

    def _expand(self, state: State, seat: int, text: str) -> str:
        """A placement may leave out the card: ``place at c4`` places the hand card."""
        m = _PLACE.match(text)
        if m and not m.group(1) and 0 <= seat < len(state["seats"]):
            hand = state["hands"][seat]
            if hand is not None and text not in ("place", "play"):
                rot = f" rot {int(m.group(3))}" if m.group(3) is not None else ""
                return f"place {hand} at {m.group(2)}{rot}"
        return text

    def _explain(self, state: State, seat: int, notation: str) -> str:
        words = notation.split(" ")
        verb = words[0]
        table = self._table(state)
        if len(words) == 1:
            return self._hint(state, seat, table)
        if self.choosing_bears(state):
            choices = " or ".join(f"“feed {c}”" for c in self.feedable(state, table))
            if verb != "feed":
                return f"First choose which hungry bear eats next: {choices}."
            return f"There is no hungry {words[1]} bear in this area: choose {choices}."
        if verb == "feed":
            return "No bears are waiting for sugar now: place a card or your Gingerman."
        if verb == "gingerman":
            if not state["gingermen"][seat]:
                return "You have already placed your Gingerman: it goes out once per game."
            return self._spot_problem(table, words[2]) or "Your Gingerman cannot go there."
        hand = state["hands"][seat]
        if hand is None:
            return "You have no land card in hand: place your Gingerman instead."
        card = tiles.catalogue()[hand]
        if len(words) > 2 and words[2] == "at" and words[1] != hand:
            return f"Your land card is {card.name}, not {words[1].upper()}."
        spot = words[3] if len(words) > 3 and words[2] == "at" else words[1]
        problem = self._spot_problem(table, spot)
        if problem:
            return problem
        if "rot" in words:
            rot = int(words[-1])
            if rot not in ROTATIONS:
                return "Cards turn in steps of 60°: rot 0, 60, 120, 180, 240 or 300."
            pos = tiles.pos_of(spot)
            assert pos is not None
            return self._misfit(table, card, pos, rot)
        return f"{card.name} does not fit at {spot} whichever way it is turned."

    def _hint(self, state: State, seat: int, table: Table) -> str:
        if self.choosing_bears(state):
            choices = " or ".join(f"“feed {c}”" for c in self.feedable(state, table))
            return f"Choose which hungry bear eats next: {choices}."
        hand = state["hands"][seat]
        ways = []
        if hand is not None:
            ways.append(f"place your {tiles.catalogue()[hand].name}, e.g. “b3 60”")
        if state["gingermen"][seat]:
            ways.append("place your Gingerman, e.g. “gingerman at b3”")
        return "Now " + " or ".join(ways) + "."

    @staticmethod
    def _spot_problem(table: Table, spot: str) -> str | None:
        pos = tiles.pos_of(spot)
        if pos is None or pos not in table.open_spots():
            return f"{spot} is not an open spot next to a card: pick a labelled empty spot."
        return None

    @staticmethod
    def _misfit(table: Table, card: Card, pos: Pos, rot: int) -> str:
        for side in range(tiles.SIDES):
            other = table.at.get(tiles.neighbour(pos, side))
            if other is None or table.is_gingerman(other):
                continue
            mine = card.edge(side, rot)
            theirs = table.edge(other, tiles.opposite(side))
            if mine != theirs:
                where = "the castle" if other == 0 else table.label(other)
                return (f"{card.name} turned {rot}° does not fit at {tiles.label_of(pos)}: its "
                        f"{SIDE_NAMES[side]} side is {tiles.EDGE_WORDS[mine]} but {where} "
                        f"shows {tiles.EDGE_WORDS[theirs]} there.")
        return f"{card.name} cannot go at {tiles.label_of(pos)} turned {rot}°."

    # ----------------------------------------------------------------- playing

    def _play(self, state: State, seat: int, action: Action, turn: Turn) -> None:
        words = action.notation.split(" ")
        if words[0] == "place":
            self._place(state, turn, seat, words[1], words[3], int(words[5]))
        elif words[0] == "gingerman":
            self._place_gingerman(state, turn, seat, words[2])
        else:
            raise AssertionError(action.notation)

    def _place(self, state: State, turn: Turn, seat: int, card_id: str, spot: str,
               rot: int) -> None:
        card = tiles.catalogue()[card_id]
        pos = tiles.pos_of(spot)
        assert pos is not None
        table = self._table(state)
        before = {a.key for a in table.areas()}
        numbers = table.area_numbers()
        index = table.place(new_entry(card, pos, rot))
        state["hands"][seat] = None
        state["last"] = {"seat": seat, "card": card_id, "index": index, "label": spot}
        name = engine.seat_name(state, seat)
        turn.say(f"{name} revealed {card.name} and placed it at {spot} turned {rot}°.", seat,
                 "place", reveals=True)
        for area in table.areas_of(index):
            joined = sorted(numbers[r] for r in area.regions if r in before)
            if len(joined) > 1:
                names = ", ".join(area_name(n) for n in joined[:-1])
                turn.say(f"{card.name} joins {names} and {area_name(joined[-1])} into one "
                         f"area: {area_name(joined[0])}.", seat, "join")
        self._put_cubes(state, turn, seat, table, index)
        queue = [list(a.key) for a in table.areas_of(index)]
        state["feeding"] = {"area": None, "cubes": 0, "queue": queue}
        self._continue_feeding(state, turn, seat)

    def _put_cubes(self, state: State, turn: Turn, seat: int, table: Table, index: int) -> None:
        """A sugar cube on every cotton-candy sheep, a honey cube on every rainbow sheep."""
        supply = state["supply"]
        sugar = honey = short = 0
        for f, field in enumerate(table.card(index).fields):
            cubes = table.entries[index]["fields"][f]
            give = min(field.sheep, supply["sugar"])
            cubes["sugar"] += give
            supply["sugar"] -= give
            sugar += give
            sweet = min(field.rainbow, supply["honey"])
            cubes["honey"] += sweet
            supply["honey"] -= sweet
            honey += sweet
            short += field.sheep - give + field.rainbow - sweet
        if sugar or honey:
            turn.say(f"Its sheep got {_cubes(sugar, honey)}.", seat, "cubes")
        if short:
            turn.say(f"The supply ran out: {short} sheep got no cube.", seat, "cubes")

    def _place_gingerman(self, state: State, turn: Turn, seat: int, spot: str) -> None:
        pos = tiles.pos_of(spot)
        assert pos is not None
        table = self._table(state)
        index = table.place(new_entry(tiles.catalogue()[GINGERMAN], pos, 0, owner=seat))
        state["gingermen"][seat] = False
        state["last"] = {"seat": seat, "card": GINGERMAN, "index": index, "label": spot}
        turn.say(f"{engine.seat_name(state, seat)} placed their Gingerman at {spot}.", seat,
                 "gingerman")
        self._score_completed(state, turn, table, seat)
        self._end_turn(state, turn, seat)

    def _feed_choice(self, state: State, turn: Turn, seat: int, colour: str) -> None:
        table = self._table(state)
        area = self._area(table, state["feeding"]["area"])
        bear = next(b for b in table.hungry(area) if b[3] == colour)
        table.feed(area, bear)
        state["feeding"]["cubes"] -= 1
        turn.say(f"{engine.seat_name(state, seat)} fed {article(colour)} bear in "
                 f"{_where(table, area)} (at {table.label(bear[0])}).", seat, "feed")
        self._continue_feeding(state, turn, seat)

    def _continue_feeding(self, state: State, turn: Turn, seat: int) -> None:
        """Feed hungry bears area by area; stop when the turn player must choose."""
        table = self._table(state)
        feeding = state["feeding"]
        while True:
            if feeding["area"] is not None:
                area = self._area(table, feeding["area"])
                hungry = table.hungry(area)
                cubes = feeding["cubes"]
                if cubes and hungry:
                    if cubes < len(hungry) and len({c for *_, c in hungry}) > 1:
                        if not feeding.get("choosing"):
                            feeding["choosing"] = True
                            turn.say(f"{cubes} sugar for {len(hungry)} hungry bears in "
                                     f"{_where(table, area)}: {engine.seat_name(state, seat)} "
                                     "chooses which bears eat.", seat, "choice")
                        engine.ask(state, "feed", [seat])
                        return
                    eaten = hungry[:cubes]
                    for bear in eaten:
                        table.feed(area, bear)
                    colours = ", ".join(c for *_, c in eaten)
                    turn.say(f"In {_where(table, area)}, {len(eaten)} hungry "
                             f"{'bear' if len(eaten) == 1 else 'bears'} ate sugar: {colours}.",
                             seat, "feed")
                feeding["area"] = None
                feeding["cubes"] = 0
                feeding["choosing"] = False
            if not feeding["queue"]:
                break
            area = self._area(table, feeding["queue"].pop(0))
            hungry = table.hungry(area)
            sugar = table.sheep_sugar(area)
            if hungry and sugar:
                feeding["area"] = list(area.key)
                feeding["cubes"] = min(sugar, len(hungry))
        state["feeding"] = None
        self._score_completed(state, turn, table, seat)
        self._end_turn(state, turn, seat)

    def _score_completed(self, state: State, turn: Turn, table: Table, seat: int) -> None:
        """Score Calculation 1 for every area just closed off by ``seat``; every other
        player who takes a share of it gets the line as an off-turn alert (their meadow
        closed)."""
        for area in table.areas():
            if area.open or table.done(area):
                continue
            had = bool(table.bears(area)) or table.sheep_sugar(area) or table.honey(area)
            before = [dict(held) for held in state["held"]]
            text = self._score_area(state, table, area)
            sharers = [s for s, held in enumerate(state["held"]) if held != before[s] and s != seat]
            if had:
                turn.say(f"{_where(table, area)} is complete. {text}", None, "score",
                         hits=sharers)

    def _score_area(self, state: State, table: Table, area: Area) -> str:
        scored = score_area(table, area, self._seat_colours(state))
        parts = []
        for seat in range(len(state["seats"])):
            sugar = scored.sugar_total(seat)
            honey = scored.honey.get(seat, 0)
            state["held"][seat]["sugar"] += sugar
            state["held"][seat]["honey"] += honey
            if sugar or honey:
                parts.append(f"{engine.seat_name(state, seat)} takes {_cubes(sugar, honey)}")
        state["supply"]["sugar"] += scored.returned_sugar
        state["supply"]["honey"] += scored.returned_honey
        if scored.returned_sugar or scored.returned_honey:
            parts.append(f"{_cubes(scored.returned_sugar, scored.returned_honey)} "
                         "back to the supply")
        return ("; ".join(parts) + ".") if parts else "Nothing to share."

    def _end_turn(self, state: State, turn: Turn, seat: int) -> None:
        # The hand holds one card: after a Gingerman turn the card is still there.
        if state["hands"][seat] is None and state["deck"]:
            state["hands"][seat] = deck_draw(state["deck"])
            # The drawer now knows a hidden card, so the move cannot be taken back.
            turn.say(f"{engine.seat_name(state, seat)} drew a card.", seat, "draw", reveals=True)
        self._next_turn(state, turn, (seat + 1) % len(state["seats"]))

    def _next_turn(self, state: State, turn: Turn, start: int) -> None:
        table = self._table(state)
        for seat in seats_from(start, len(state["seats"])):
            self._set_aside_unplayable(state, turn, table, seat)
            if state["hands"][seat] is not None or state["gingermen"][seat]:
                state["turn"] = seat
                state["phase"] = "place"
                return
            if not state["passed"][seat]:
                state["passed"][seat] = True
                turn.say(f"{engine.seat_name(state, seat)} has no card and no Gingerman left, "
                         "and passes from now on.", seat, "pass")
        self._final_scoring(state, turn, table)

    def _set_aside_unplayable(self, state: State, turn: Turn, table: Table, seat: int) -> None:
        """A hand card that fits nowhere is shown, set aside, and replaced from the deck."""
        while (hand := state["hands"][seat]) is not None:
            card = tiles.catalogue()[hand]
            if table.placements(card):
                return
            state["set_aside"].append(hand)
            state["hands"][seat] = deck_draw(state["deck"])
            name = engine.seat_name(state, seat)
            turn.say(f"{name}'s {card.name} fits nowhere on the table: it is set aside.", seat,
                     "set-aside", reveals=True)
            if state["hands"][seat] is not None:
                turn.say(f"{name} drew a card.", seat, "draw", reveals=True)

    def _final_scoring(self, state: State, turn: Turn, table: Table) -> None:
        state["phase"] = "over"
        turn.say("Nobody can play any more: the game ends.", None, "end")
        for area in table.areas():
            if table.done(area):
                continue
            had = table.fed_bears(area) or table.sheep_sugar(area) or table.honey(area)
            text = self._score_area(state, table, area)
            if had:
                turn.say(f"{_where(table, area)}: {text}", None, "score")
        final = []
        for seat in range(len(state["seats"])):
            route = table.best_route(seat)
            cookies = route.cookies if route else 0
            held = state["held"][seat]
            final.append({
                "sugar": held["sugar"], "honey": held["honey"], "cookies": cookies,
                "reached": route is not None,
                "route": [table.label(i) for i in route.cards] if route else [],
                "total": held["sugar"] + 2 * held["honey"] + 2 * cookies,
            })
            if table.gingerman_of(seat) is not None:
                name = engine.seat_name(state, seat)
                if route is None:
                    turn.say(f"{name}'s Gingerman cannot reach the castle: no cookie bonus.",
                             seat, "cookies")
                else:
                    turn.say(f"{name}'s Gingerman walks home with {cookies} "
                             f"{'cookie' if cookies == 1 else 'cookies'}: {2 * cookies} points.",
                             seat, "cookies")
        state["final"] = final

    # ----------------------------------------------------------------- helpers

    @staticmethod
    def _table(state: State) -> Table:
        return Table(state["table"], tiles.catalogue())

    def _seat_colours(self, state: State) -> list[str]:
        return list(self.seat_colours[: len(state["seats"])])

    @staticmethod
    def _area(table: Table, key: list[int]) -> Area:
        region = (key[0], key[1])
        return next(a for a in table.areas() if region in a.regions)

    def feedable(self, state: State, table: Table) -> list[str]:
        """Colours of the hungry bears in the area being fed, in colour order."""
        feeding = state["feeding"]
        if not feeding or feeding["area"] is None:
            return []
        hungry = {c for *_, c in table.hungry(self._area(table, feeding["area"]))}
        order = tiles.player_colours() + tiles.neutral_colours()
        return [c for c in order if c in hungry]

    # ----------------------------------------------------------------- views and results

    def zoom_spots(self, state: State) -> list[str]:
        """Every placed card's spot (the castle is ``castle``), then every open spot."""
        table = self._table(state)
        placed = [table.label(i) for i in range(len(table.entries))]
        return placed + [tiles.label_of(p) for p in table.open_spots()]

    def _show(self, state: State, seat: int | None) -> View:
        return build_view(self, state, seat)

    def _hidden(self, state: State) -> list[Hidden]:
        return [Hidden(("deck",), None, "land"),
                *(Hidden(("hands", s), s, "land", single=True) for s in range(len(state["seats"])))]

    def secrets(self, state: State, seat: int) -> list[str]:
        hand = state["hands"][seat]
        return [hand, hand.upper()] if hand else []

    def _result(self, state: State) -> Result | None:
        if state["phase"] != "over":
            return None
        scores = {s: f["total"] for s, f in enumerate(state["final"])}
        ranking = rank_by({s: (v,) for s, v in scores.items()})
        best = ", ".join(engine.seat_name(state, s) for s in ranking[0])
        verb = "share the victory" if len(ranking[0]) > 1 else "wins"
        lines = "; ".join(
            f"{engine.seat_name(state, s)} {f['total']} ({f['sugar']} sugar, {f['honey']} honey, "
            f"{plural(f['cookies'], 'cookie')})" for s, f in enumerate(state["final"]))
        return Result(ranking, scores, f"{best} {verb}. {lines}.")

    def summary(self, state: State) -> str:
        if state["phase"] == "over":
            result = self._result(state)
            return result.summary if result else "The game is over."
        name = engine.seat_name(state, state["turn"])
        doing = "chooses which bears eat" if self.choosing_bears(state) else "to play"
        meadows = _meadows_in_play(self._table(state))
        return (f"{name} {doing}. Deck: {len(state['deck'])} cards. Supply: "
                f"{state['supply']['sugar']} sugar, {state['supply']['honey']} honey."
                + "".join(f" {meadow}." for meadow in meadows))

    def scores(self, state: State) -> dict[int, int]:
        if state["final"]:
            return {s: f["total"] for s, f in enumerate(state["final"])}
        return {s: h["sugar"] + 2 * h["honey"] for s, h in enumerate(state["held"])}

    def _ai(self, view: View, legal: list[Action], rng: Rng) -> Action:
        return choose(view, legal, rng)

    def _stand_in_reason(self, before: View, after: View, seat: int,
                         move: str) -> str | None:
        """The area it completed (and the cubes it took there), its Gingerman's route
        home, or the areas its card joined: the table is public, only hands are not."""
        was, now = before["seats"][seat], after["seats"][seat]
        closed = {a["number"] for a in before["areas"] if a["done"]}
        # An area still open when the game ends is scored then, not completed.
        completed = sorted((a["number"], a["name"]) for a in after["areas"]
                           if a["done"] and not a["open"] and a["number"] not in closed)
        if completed:
            took = _cubes(now["sugar"] - was["sugar"], now["honey"] - was["honey"])
            taking = f", taking {took}" if took != "nothing" else ""
            return (f"It chose this move to complete {listing([n for _, n in completed])}"
                    f"{taking}.")
        old = next((r for r in before["routes"] if r["seat"] == seat), None)
        new = next((r for r in after["routes"] if r["seat"] == seat), None)
        if new is not None and new["reached"] and (
                old is None or not old["reached"] or new["cookies"] > old["cookies"]):
            return (f"It chose this move for a Gingerman route home worth "
                    f"{plural(new['cookies'], 'cookie')}.")
        if move.startswith("place "):
            area_of = {tuple(r): (a["number"], a["name"])
                       for a in before["areas"] for r in a["regions"]}
            for area in after["areas"]:
                joined = sorted({area_of[tuple(r)] for r in area["regions"]
                                 if tuple(r) in area_of})
                if len(joined) > 1:
                    names = listing([n for _, n in joined])
                    return f"It chose this move to join {names} into one area."
        return None


def _where(table: Table, area: Area) -> str:
    """The area's name, unique and kept for the whole game ("Meadow 3")."""
    return area_name(table.area_numbers([area])[area.key])


def _meadows_in_play(table: Table) -> list[str]:
    """Every meadow not yet scored that holds bears or cubes, with its bears by colour and
    its cubes: "Meadow 5: 2 red, 1 yellow and 1 green bears, 5 sugar" (what the picture's
    meadow chips show, all of them, for the alt text and `/game status`)."""
    areas = table.areas()
    numbers = table.area_numbers(areas)
    out = []
    for area in sorted(areas, key=lambda a: numbers[a.key]):
        if table.done(area):
            continue
        counts: dict[str, int] = {}
        for *_, colour in table.bears(area):
            counts[colour] = counts.get(colour, 0) + 1
        sugar = table.sheep_sugar(area) + len(table.fed_bears(area))
        honey = table.honey(area)
        if not (counts or sugar or honey):
            continue
        bears = (listing([f"{n} {colour}" for colour, n in counts.items()])
                 + (" bear" if sum(counts.values()) == 1 else " bears")) if counts \
            else "no bears"
        cubes = f", {_cubes(sugar, honey)}" if sugar or honey else ""
        out.append(f"{area_name(numbers[area.key])}: {bears}{cubes}")
    return out


def _cubes(sugar: int, honey: int) -> str:
    parts = []
    if sugar:
        parts.append(f"{sugar} sugar")
    if honey:
        parts.append(f"{honey} honey")
    return " and ".join(parts) if parts else "nothing"
