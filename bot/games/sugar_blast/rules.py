"""Sugar Blast: swap candies to make Blasts and race to complete the objective."""

from __future__ import annotations

import re
from typing import Any

from bot.games import engine
from bot.games.engine import (
    Action,
    BaseRules,
    Decision,
    Lookahead,
    OptionSpec,
    Result,
    State,
    Turn,
    View,
)
from bot.games.grid import Cell, adjacent, cell_name, parse_cell
from bot.games.pieces import bag_add, bag_draw, bag_size, next_seat, rank_by
from bot.games.rng import Rng
from bot.games.sugar_blast import board as bd
from bot.games.sugar_blast import objectives as obj
from bot.games.sugar_blast import powers as pw
from bot.games.sugar_blast.ai import action_value, choose
from bot.games.sugar_blast.search import choose_strong
from bot.games.words import article

_CELL = r"([a-z][0-9]{1,2})"
_SWAP = re.compile(rf"^(?:swap )?{_CELL}(?: | ?- ?| with | and ){_CELL}$")
_SPAN = re.compile(rf"^{_CELL}(?:-| )({_CELL[1:-1]})$")
_SIDE_NAMES = ("south", "west", "north", "east")
_TWO_BLAST = ("four", "big", "mega")  # Blasts of 4 or more, and Mega-Blasts


class SugarBlast(BaseRules):
    """The Sugar Blast rules: the basic game, and power cards when the ``power`` option asks."""

    slug = "sugar-blast"
    title = "Sugar Blast"
    # 2: which Blast first and which candy to keep are decisions on the engine's
    # stack; a round without a Blast ends the game only once the bag is empty.
    rules_version = 2
    min_seats = 2
    max_seats = 4
    has_hidden_information = False
    private_choices = False
    has_joint_decisions = False
    has_chance = True
    has_content_files = True
    # Easy then beats random players and loses to greedy ones most of the time
    # (docs/benchmarks.md).
    ai_easy_slips = 0.75
    options = (
        OptionSpec("objective", "Which objective card to play (random draws one).", "choice",
                   "random", choices=("random", *(o["id"] for o in obj.objectives())),
                   said="objective card {}", meanings=(("random", "a random objective card"),)),
        OptionSpec("power", "Power cards: none (the basic game), random 1, random 2, or one or "
                   "two cards by name joined by +, e.g. bomb + wild.", "choice", pw.NONE,
                   choices=pw.option_choices(), said="power cards {}",
                   meanings=((pw.NONE, "no power cards (the basic game)"),
                             ("random 1", "one random power card"),
                             ("random 2", "two random power cards"))),
    )
    rules_summary = (
        "On your turn swap two neighbouring candies (no diagonals) so that 3 or more of one "
        "kind line up: a Blast. Keep 1 of them, the rest go back in the bag; a line of 4 also "
        "removes the rest of its row and lets you keep 1 other candy; 5 or 6 in a line removes "
        "every candy of that kind and you keep 2; a T, L or + of 5 (Mega-Blast) removes its 3x3 "
        "square and you keep 1 plus 1 other. The board then tilts toward you and refills from "
        "the bag; new lines chain. First to complete the objective card wins."
    )
    notation_help = (
        "Moves: “swap c3 d3” (two neighbouring candies), “blast c3-e3” or "
        "“mega c3-e3 d2-d4” (which Blast first), “keep corn” (which candy to keep), "
        "“replace c3” (when no swap makes a Blast). Power tokens: “twist c3 d4”, “tongs c3”, "
        "“steal corn north”, “draw” (no power now), “rush” or “done” (end of turn)."
    )

    def option_suggestions(self, name: str, current: str) -> list[str] | None:
        """Autocomplete values for an option as typed so far; pairs of power cards too.

        ``None`` for options whose listed choices are enough.
        """
        return pw.suggestions(current) if name == "power" else None

    def _option_value(self, spec: OptionSpec, value: Any) -> Any:
        """``power`` takes pairs in any order and names, and is left out when it is
        ``none``, so a basic game's options, and with them its states, are exactly what
        they were before power cards."""
        if spec.name != "power":
            return super()._option_value(spec, value)
        power = pw.parse_option(value)
        return None if power == pw.NONE else power

    # ----------------------------------------------------------------- set-up

    def _setup(self, state: State, turn: Turn) -> None:
        kinds = obj.candy_kinds()
        bag = {k: obj.chips_per_kind() for k in kinds}
        choice = state["options"]["objective"]
        if choice == "random":
            choice = turn.rng.choice([o["id"] for o in obj.objectives()])
        state.update({
            "objective": choice,
            "board": bd.deal(bag, turn.rng),
            "bag": bag,
            "kept": [{} for _ in state["seats"]],
            "turn": 0,
            "phase": "swap",
            "drawn": None,
            "returning": {},
            "last": None,
            "blasted_this_turn": False,
            "dry_turns": 0,
            "winner": None,
            "ended": False,
        })
        if state["options"].get("power", pw.NONE) != pw.NONE:
            pw.setup(state, state["options"]["power"], turn.rng)
        self._begin_turn(state, turn)

    # ----------------------------------------------------------------- who acts, what is legal

    def _turn_actors(self, state: State) -> frozenset[int]:
        return frozenset() if state["ended"] else frozenset({state["turn"]})

    def _turn_actions(self, state: State, seat: int) -> list[Action]:
        if state["ended"] or seat != state["turn"]:
            return []
        board = state["board"]
        phase = state["phase"]
        if phase == "swap":
            swaps = [Action(f"swap {cell_name(a)} {cell_name(b)}",
                            f"swap {cell_name(a)} ({self._candy(board, a)}) with "
                            f"{cell_name(b)} ({self._candy(board, b)})")
                     for a, b in bd.blasting_swaps(board, self._rules(state))]
            if "power" not in state:
                return swaps
            uses = pw.use_actions(state, seat)
            if not swaps and uses:
                uses.append(Action("draw", "use no power token: draw a candy and replace one"))
            return swaps + uses
        if phase == "replace":
            drawn = state["drawn"]
            return [Action(f"replace {cell_name(c)}",
                           f"put the {obj.candy_name(drawn)} on {cell_name(c)} "
                           f"instead of its {self._candy(board, c)}")
                    for c in self._replaceable(state, drawn)]
        raise AssertionError(phase)

    def _decision_actions(self, state: State, decision: Decision, seat: int) -> list[Action]:
        if decision.kind == "blast":
            return [Action(b.notation, self._describe(b))
                    for b in bd.find_blasts(state["board"], self._rules(state))]
        if decision.kind == "keep":
            return [Action(f"keep {k}", f"keep {article(obj.candy_name(k))}")
                    for k in decision.data["others"]]
        if decision.kind == "rush":
            card = pw.card(decision.data["card"])
            return [Action(card["id"], f"discard {pw.token_name(card)} and play another turn"),
                    Action("done", "end the turn and keep the token")]
        raise AssertionError(decision.kind)

    def _resolve(self, state: State, decision: Decision, answers: dict[int, Action],
                 turn: Turn) -> None:
        seat, action = next(iter(answers.items()))
        if decision.kind == "blast":
            chosen = next(b for b in bd.find_blasts(state["board"], self._rules(state))
                          if b.notation == action.notation)
            self._blast(state, turn, seat, chosen)
            return
        if decision.kind == "rush":
            if action.notation == "done":
                self._pass_turn(state, turn)
                return
            pw.discard(state, seat, decision.data["card"])
            state["power"]["extra"] = True
            turn.say(f"{engine.seat_name(state, seat)} discarded "
                     f"{self._token_phrase(decision.data['card'])} and plays another turn!",
                     seat, "power")
            self._begin_turn(state, turn)
            return
        kind = action.notation.split(" ")[1]
        self._keep(state, seat, kind)
        turn.say(f"{engine.seat_name(state, seat)} kept {article(obj.candy_name(kind))} as well.",
                 seat, "keep")
        if not self._check_win(state, turn, seat):
            self._settle(state, turn, seat)

    def quick_choices(self, state: State, seat: int) -> list[Action]:
        if engine.top(state) is not None or state["phase"] == "replace":
            actions = engine.legal_actions(self, state, seat)
            return actions if len(actions) <= 25 else []
        return []

    def _upgrade(self, state: State) -> State:
        """Rules 1 kept the Blast and keep choices in ``phase``/``pending``; move them."""
        if state.get("rules") != 1:
            return super()._upgrade(state)
        pending = state.pop("pending", None)
        seat = state["turn"]
        if state["phase"] == "blast":
            state["phase"] = "swap"
            engine.ask(state, "blast", [seat])
        elif state["phase"] == "keep" and pending:
            state["phase"] = "swap"
            engine.ask(state, "keep", [seat], {"others": pending["others"]})
        state["rules"] = self.rules_version
        return state

    def rank_actions(self, state: State, seat: int, actions: list[Action]) -> list[Action]:
        view = engine.view(self, state, seat)
        return sorted(actions, key=lambda a: -action_value(view, a.notation))

    # ----------------------------------------------------------------- notation

    def _canonical(self, text: str) -> str | None:
        words = text.split(" ")
        verb = words[0]
        if verb in ("swap", "replace", "blast", "mega", "keep") and len(words) == 1:
            return verb
        if verb in ("draw", "done") and len(words) == 1:
            return verb
        use = pw.use_of(verb)
        if use is not None:
            return self._canonical_use(verb, use, words[1:])
        if (m := _SWAP.match(text)) and verb != "replace":
            return self._on_cells("swap", [m.group(1), m.group(2)])
        if verb in ("swap", "replace") and len(words) == 2:
            return self._on_cells(verb, words[1:])
        if verb == "blast":
            span = self._span(" ".join(words[1:]))
            return f"blast {span}" if span else None
        if verb == "mega" and len(words) in (2, 3):
            spans = [self._span(w) for w in words[1:]]
            if any(s is None for s in spans):
                return None
            return "mega " + " ".join(s for s in spans if s)
        if verb == "keep" and len(words) >= 2:
            kind = self._kind(" ".join(words[1:]))
            return f"keep {kind}" if kind else None
        return None

    def _canonical_use(self, verb: str, use: str, words: list[str]) -> str | None:
        if not words:
            return verb
        if (use == "diagonal_swap" and len(words) <= 2) or (use == "take_chip"
                                                            and len(words) == 1):
            return self._on_cells(verb, words)
        if use == "take_kept":
            side = words[-1] if words[-1] in _SIDE_NAMES else None
            rest = words[:-1] if side else words
            if rest and rest[-1] == "from":
                rest = rest[:-1]
            kind = self._kind(" ".join(rest)) if rest else None
            if rest and kind is None:
                return None
            return " ".join(w for w in (verb, kind, side) if w)
        return None

    @staticmethod
    def _cells(*names: str) -> tuple[Cell | None, ...]:
        return tuple(parse_cell(n, bd.SIZE, bd.SIZE) for n in names)

    def _on_cells(self, verb: str, names: list[str]) -> str | None:
        """``verb`` on one cell, or on two in board order (a swap reads the same both ways)."""
        cells = [c for c in self._cells(*names) if c is not None]
        if len(cells) < len(names):
            return None
        return " ".join([verb, *(cell_name(c) for c in sorted(cells))])

    def _span(self, text: str) -> str | None:
        m = _SPAN.match(text)
        if not m:
            return None
        a, b = self._cells(m.group(1), m.group(2))
        if a is None or b is None:
            return None
        first, second = sorted((a, b))
        return f"{cell_name(first)}-{cell_name(second)}"

    @staticmethod
    def _kind(text: str) -> str | None:
        for kind in obj.candy_kinds():
            names = {kind, obj.candy_name(kind, 1), obj.candy_name(kind, 2)}
            if text in names or text.rstrip("s") == kind:
                return kind
        return None

    def _stage(self, state: State) -> str:
        """What the player to act is doing: swap, replace, blast or keep."""
        top = engine.top(state)
        return top.kind if top is not None else str(state["phase"])

    def _keep_choices(self, state: State) -> str:
        top = engine.top(state)
        assert top is not None and top.kind == "keep"
        return " or ".join(f"“keep {k}”" for k in top.data["others"])

    def _explain(self, state: State, seat: int, notation: str) -> str:
        phase = self._stage(state)
        words = notation.split(" ")
        verb = words[0]
        use = pw.use_of(verb)
        if verb in ("swap", "replace") or use in ("diagonal_swap", "take_chip"):
            # A space the board does not have (“swap z9 a1”): the move is known, its space not.
            wrong = [w for w in words[1:3] if parse_cell(w, bd.SIZE, bd.SIZE) is None]
            if wrong or len(words) == 1:
                last = cell_name((bd.SIZE - 1, bd.SIZE - 1))
                return (f"There is no space “{wrong[0]}” on the board: spaces go from a1 to "
                        f"{last}." if wrong else f"Say which spaces, from a1 to {last}.")
        if use is not None:
            return self._explain_use(state, seat, verb, use, words[1:])
        wanted = {"swap": "swap", "replace": "replace", "blast": "blast", "keep": "keep",
                  "draw": "swap", "done": "rush"}
        if verb == "mega":
            verb = "blast"
        if wanted.get(verb) != phase:
            return self._phase_hint(state)
        board = state["board"]
        if verb == "draw":
            return "You may draw only when no swap makes a Blast; " + self._phase_hint(state)
        if verb == "swap":
            cells = self._cells(*words[1:3])
            a = cells[0]
            assert a is not None
            locked = self._locked_reason(state, a)
            if locked:
                return locked
            if len(cells) == 1:
                return f"No swap of {cell_name(a)} makes a Blast."
            b = cells[1]
            assert b is not None
            locked = self._locked_reason(state, b)
            if locked:
                return locked
            if not adjacent(a, b):
                return (f"{cell_name(a)} and {cell_name(b)} are not next to each other: swap two "
                        "candies that share a side (no diagonals).")
            if bd.at(board, a) == bd.at(board, b):
                return (f"{cell_name(a)} and {cell_name(b)} are both "
                        f"{self._candy(board, a, 2)}: swap two different candies.")
            return f"Swapping {cell_name(a)} and {cell_name(b)} makes no Blast."
        if verb == "replace":
            cell = parse_cell(words[1], bd.SIZE, bd.SIZE)
            assert cell is not None
            locked = self._locked_reason(state, cell)
            if locked:
                return locked
            return (f"The candy on {cell_name(cell)} is {article(self._candy(board, cell))}, "
                    f"the same kind as the drawn one: replace a candy of another kind.")
        if verb == "keep":
            kind = words[1]
            return (f"You cannot keep {article(obj.candy_name(kind))} from this Blast: choose "
                    f"{self._keep_choices(state)}.")
        return f"“{notation}” is not a Blast on the board now. {self._phase_hint(state)}"

    def _explain_use(self, state: State, seat: int, verb: str, use: str,
                     words: list[str]) -> str:
        card = pw.card(verb)
        if verb not in pw.in_play(state):
            return f"{card['name']} is not a power card of this game."
        if use == "extra_turn":
            if self._stage(state) != "rush":
                return (f"{card['name']} is used when your turn ends, when the bot asks. "
                        + self._phase_hint(state))
            return self._phase_hint(state)
        if not state["power"]["hands"][seat].get(verb):
            return (f"You hold no {pw.token_name(card)}: {pw.card_text(card)['condition']}")
        if self._stage(state) != "swap":
            return f"A {pw.token_name(card)} is used before your move. " + self._phase_hint(state)
        if use == "diagonal_swap" and len(words) == 2:
            a, b = self._cells(*words)
            assert a is not None and b is not None
            if abs(a[0] - b[0]) != 1 or abs(a[1] - b[1]) != 1:
                return (f"{cell_name(a)} and {cell_name(b)} are not diagonal neighbours: a twist "
                        "swaps two candies that touch at a corner.")
            locked = self._locked_reason(state, a) or self._locked_reason(state, b)
            return locked or f"Twisting {cell_name(a)} and {cell_name(b)} makes no Blast."
        if use == "take_chip" and words:
            cell = parse_cell(words[0], bd.SIZE, bd.SIZE)
            assert cell is not None
            if bd.at(state["board"], cell) is None:
                return f"{cell_name(cell)} is empty: take a candy from a full space."
            return self._locked_reason(state, cell) or f"You cannot take {cell_name(cell)}."
        if use == "take_kept":
            sides = bd.SEATING[len(state["seats"])]
            if words and words[-1] in _SIDE_NAMES and words[-1] not in sides:
                return f"Nobody sits {words[-1]} in this game: the seats are {', '.join(sides)}."
            if words and words[-1] == sides[seat]:
                return "That is your own side: take a kept candy from another player."
            return ("That player has kept no such candy. Choose one of: "
                    + ", ".join(f"“{a.notation}”" for a in pw.use_actions(state, seat)
                                if a.notation.startswith(verb)) + ".")
        return self._phase_hint(state)

    def _locked_reason(self, state: State, cell: Cell) -> str | None:
        rules = self._rules(state)
        if rules is None or cell not in rules.locked:
            return None
        card = pw.card(state["power"]["chips"][cell_name(cell)])
        return (f"The candy on {cell_name(cell)} has {pw.token_name(card)} on it: it cannot be "
                "swapped, replaced or taken.")

    def _phase_hint(self, state: State) -> str:
        phase = self._stage(state)
        if phase == "swap":
            if "power" in state and not bd.blasting_swaps(state["board"], self._rules(state)):
                return ("No swap makes a Blast: use a power token, or “draw” a candy and "
                        "replace one.")
            return "Now swap two neighbouring candies to make a Blast, e.g. “swap c3 d3”."
        if phase == "replace":
            return (f"No swap makes a Blast: put the drawn {obj.candy_name(state['drawn'])} "
                    "in place of a candy of another kind, e.g. “replace c3”.")
        if phase == "blast":
            options = ", ".join(f"“{b.notation}”"
                                for b in bd.find_blasts(state["board"], self._rules(state)))
            return f"Several Blasts are on the board: choose which goes first ({options})."
        if phase == "rush":
            card = pw.card(self._top_data(state)["card"])
            return (f"Your turn is over: “{card['id']}” discards {self._token_phrase(card['id'])} "
                    "to play another turn, “done” ends it.")
        return f"Choose the second candy to keep: {self._keep_choices(state)}."

    # ----------------------------------------------------------------- playing

    def _play(self, state: State, seat: int, action: Action, turn: Turn) -> None:
        words = action.notation.split(" ")
        board = state["board"]
        name = engine.seat_name(state, seat)
        if words[0] == "swap":
            a, b = self._cells(words[1], words[2])
            assert a is not None and b is not None
            bd.swap(board, a, b)
            if "power" in state:
                pw.swap_tokens(state["power"], a, b)
            state["last"] = {"seat": seat, "swap": [list(a), list(b)], "replaced": None,
                             "blasted": []}
            turn.say(f"{name} swapped {words[1]} and {words[2]}.", seat, "swap")
            self._blast_or_choose(state, turn, seat)
        elif words[0] == "replace":
            cell = parse_cell(words[1], bd.SIZE, bd.SIZE)
            assert cell is not None
            removed = bd.at(board, cell)
            assert removed is not None
            bd.put(board, cell, state["drawn"])
            if "power" in state:
                pw.take(state["power"], cell)
            bag_add(state["bag"], removed)
            turn.say(f"{name} put the {obj.candy_name(state['drawn'])} on {words[1]}; its "
                     f"{obj.candy_name(removed)} went into the bag.", seat, "replace")
            state["drawn"] = None
            state["last"] = {"seat": seat, "swap": None, "replaced": list(cell), "blasted": []}
            if bd.has_blast(board, self._rules(state)):
                self._blast_or_choose(state, turn, seat)
            else:
                turn.say("Still no Blast: the turn ends.", seat)
                self._end_turn(state, turn)
        elif words[0] == "draw":
            self._draw(state, turn)
        elif pw.use_of(words[0]) is not None:
            self._use(state, seat, words, turn)
        else:
            raise AssertionError(action.notation)

    def _use(self, state: State, seat: int, words: list[str], turn: Turn) -> None:
        """Discard a power token to do what its card says (the ``use`` verbs)."""
        card_id, use = words[0], pw.use_of(words[0])
        name = engine.seat_name(state, seat)
        board = state["board"]
        pw.discard(state, seat, card_id)
        phrase = self._token_phrase(card_id)
        if use == "diagonal_swap":
            a, b = self._cells(words[1], words[2])
            assert a is not None and b is not None
            bd.swap(board, a, b)
            pw.swap_tokens(state["power"], a, b)
            state["last"] = {"seat": seat, "swap": [list(a), list(b)], "replaced": None,
                             "blasted": []}
            turn.say(f"{name} discarded {phrase} and swapped {words[1]} and {words[2]} "
                     "diagonally.", seat, "swap")
            self._blast_or_choose(state, turn, seat)
        elif use == "take_chip":
            cell = parse_cell(words[1], bd.SIZE, bd.SIZE)
            assert cell is not None
            kind = bd.at(board, cell)
            assert kind is not None
            pw.take(state["power"], cell)
            bd.put(board, cell, None)
            state["kept"][seat][kind] = state["kept"][seat].get(kind, 0) + 1
            state["last"] = {"seat": seat, "swap": None, "replaced": None, "blasted": [],
                             "taken": list(cell)}
            turn.say(f"{name} discarded {phrase}, took the {obj.candy_name(kind)} on {words[1]} "
                     "and kept it.", seat, "power")
            if not self._check_win(state, turn, seat):
                state["returning"] = {}
                self._settle(state, turn, seat)
        elif use == "take_kept":
            kind, side = words[1], words[2]
            victim = bd.SEATING[len(state["seats"])].index(side)
            state["kept"][victim][kind] -= 1
            if not state["kept"][victim][kind]:
                del state["kept"][victim][kind]
            state["kept"][seat][kind] = state["kept"][seat].get(kind, 0) + 1
            turn.say(f"{name} discarded {phrase} and took a kept {obj.candy_name(kind)} from "
                     f"{engine.seat_name(state, victim)}.", seat, "power")
            if not self._check_win(state, turn, seat):
                self._offer_turn(state, turn)
        else:
            raise AssertionError(use)

    def _begin_turn(self, state: State, turn: Turn) -> None:
        """Start the turn; run the no-blast procedure's draw if no swap makes a Blast."""
        state["phase"] = "swap"
        state["blasted_this_turn"] = False
        if "power" in state:
            state["power"]["progress"] = self._progress(state, state["turn"])
        self._offer_turn(state, turn)

    def _offer_turn(self, state: State, turn: Turn) -> None:
        """Wait for a swap; without one, wait for a power token or ``draw``, else draw now."""
        seat = state["turn"]
        state["phase"] = "swap"
        if bd.blasting_swaps(state["board"], self._rules(state)):
            return
        if pw.use_actions(state, seat):
            turn.say(f"No swap makes a Blast: {engine.seat_name(state, seat)} may use a power "
                     "token or draw.", seat, "choice")
            return
        self._draw(state, turn)

    def _draw(self, state: State, turn: Turn) -> None:
        """The no-Blast procedure: draw a candy that must replace one of another kind."""
        seat = state["turn"]
        name = engine.seat_name(state, seat)
        drawn = bag_draw(state["bag"], turn.rng)
        if drawn is None:
            turn.say(f"No swap makes a Blast and the bag is empty: {name}'s turn passes.", seat)
            self._end_turn(state, turn)
            return
        if not self._replaceable(state, drawn):
            bag_add(state["bag"], drawn)
            turn.say(f"No swap makes a Blast and no candy can be replaced: {name}'s turn passes.",
                     seat)
            self._end_turn(state, turn)
            return
        state["phase"] = "replace"
        state["drawn"] = drawn
        turn.say(f"No swap makes a Blast, so {name} drew {article(obj.candy_name(drawn))} from "
                 "the bag and must put it in place of a candy of another kind.", seat, "draw")

    def _end_turn(self, state: State, turn: Turn) -> None:
        # Spaces left empty when the bag ran dry are filled as soon as chips are
        # back in the bag (only a replacement puts one back without a refill).
        seat = state["turn"]
        filled = bd.refill(state["board"], self._side(state, seat), state["bag"], turn.rng)
        if filled:
            turn.say(f"{len(filled)} empty spaces were refilled from the bag.", seat, "tilt")
            if bd.has_blast(state["board"], self._rules(state)):
                turn.say("Chain! The refill made a new Blast.", seat, "chain")
                self._gain(state, turn, "chain", seat)
                self._blast_or_choose(state, turn, seat)
                return
        if "power" in state:
            if self._progress(state, seat) <= state["power"]["progress"]:
                self._gain(state, turn, "empty_turn", seat)
            card = pw.holds(state, seat, "extra_turn")
            if card:
                engine.ask(state, "rush", [seat], {"card": card})
                turn.say(f"{engine.seat_name(state, seat)} may discard "
                         f"{self._token_phrase(card)} to play another turn.", seat, "choice")
                return
        self._pass_turn(state, turn)

    def _pass_turn(self, state: State, turn: Turn) -> None:
        # The rulebook ends the game only when an objective is completed; a round
        # without a Blast ends it only once the bag is empty, when nobody can
        # change the board any more (docs/rules/sugar-blast.md).
        stuck = not state["blasted_this_turn"] and bag_size(state["bag"]) == 0
        power = state.get("power")
        if power and power["extra"]:
            # A Sugar Rush turn is a second turn of the same seat: it can reset
            # the count of turns without a Blast but not add to it.
            state["dry_turns"] = state["dry_turns"] if stuck else 0
            power["extra"] = False
        else:
            state["dry_turns"] = state["dry_turns"] + 1 if stuck else 0
        state["phase"] = "swap"
        if state["dry_turns"] >= len(state["seats"]):
            state["ended"] = True
            turn.say("The bag is empty and a whole round passed without a Blast: the game ends.",
                     None, "end")
            return
        state["turn"] = next_seat(state["turn"], len(state["seats"]))
        self._begin_turn(state, turn)

    def _blast_or_choose(self, state: State, turn: Turn, seat: int) -> None:
        blasts = bd.find_blasts(state["board"], self._rules(state))
        if not blasts:
            self._end_turn(state, turn)
        elif len(blasts) == 1:
            self._blast(state, turn, seat, blasts[0])
        else:
            engine.ask(state, "blast", [seat])
            turn.say(f"{len(blasts)} Blasts are on the board: "
                     f"{engine.seat_name(state, seat)} chooses which goes first.", seat, "choice")

    def _blast(self, state: State, turn: Turn, seat: int, blast: bd.Blast) -> None:
        """Empty the Blast's cells, keep what it earns, then the second keep or the settle.

        With power cards in play their hooks widen the Blast and add keeps
        between the same steps.
        """
        board = state["board"]
        name = engine.seat_name(state, seat)
        state["blasted_this_turn"] = True
        removed = pw.removal(state, blast.removed) if "power" in state else None
        cells = blast.removed if removed is None else removed.cells
        state["last"]["blasted"].extend(list(c) for c in cells)
        kinds = {c: k for c in cells if (k := bd.at(board, c)) is not None}
        returning: dict[str, int] = {}
        for cell in cells:
            candy = kinds[cell]
            assert candy is not None
            bag_add(returning, candy)
            bd.put(board, cell, None)
        state["returning"] = returning
        kept = 0
        for _ in range(blast.keep_matched):
            if returning.get(blast.candy):
                self._keep(state, seat, blast.candy)
                kept += 1
        turn.say(f"{name} {self._describe(blast, past=True)} and kept {kept} "
                 f"{obj.candy_name(blast.candy, kept)}.", seat, "blast")
        if removed is not None:
            self._power_keeps(state, turn, seat, blast, removed, kinds)
        if self._check_win(state, turn, seat):
            return
        if removed is not None and blast.kind in _TWO_BLAST:
            self._gain(state, turn, "big_blast", seat)
        others = sorted({k for c in blast.extra if (k := kinds[c]) and returning.get(k)}
                        - {blast.candy}, key=obj.candy_kinds().index)
        self._second_keep(state, turn, seat, blast, others)

    def _second_keep(self, state: State, turn: Turn, seat: int, blast: bd.Blast,
                     others: list[str]) -> None:
        """A Blast of 4 or a Mega-Blast keeps one more candy of another kind."""
        name = engine.seat_name(state, seat)
        if blast.keeps_other and len(others) == 1:
            self._keep(state, seat, others[0])
            turn.say(f"{name} kept {article(obj.candy_name(others[0]))} as well.", seat, "keep")
            if self._check_win(state, turn, seat):
                return
        elif blast.keeps_other and len(others) > 1:
            engine.ask(state, "keep", [seat], {"others": others})
            return
        self._settle(state, turn, seat)

    def _power_keeps(self, state: State, turn: Turn, seat: int, blast: bd.Blast,
                     removed: pw.Removal, kinds: dict[Cell, str]) -> None:
        """What the power tokens added to a Blast: cleared squares, broken cages, bonus keeps."""
        name = engine.seat_name(state, seat)
        if removed.cleared:
            turn.say(f"Boom! A bomb cleared {len(removed.cleared)} more candies.", seat, "power")
        if removed.freed:
            turn.say("The Blast broke the cage on "
                     + ", ".join(cell_name(c) for c in removed.freed) + ".", seat, "power")
        for kind, why in pw.bonus_keeps(state, blast, removed, kinds):
            if state["returning"].get(kind):
                self._keep(state, seat, kind)
                turn.say(f"{name} kept {article(obj.candy_name(kind))} for {why}.", seat, "keep")

    def _gain(self, state: State, turn: Turn, event: str, seat: int) -> None:
        if "power" not in state:
            return
        for taker, card_id in pw.gain(state, event, seat):
            turn.say(f"{engine.seat_name(state, taker)} took {self._token_phrase(card_id)} "
                     f"({pw.card(card_id)['name']}).", taker, "power")

    def _keep(self, state: State, seat: int, kind: str) -> None:
        kept = state["kept"][seat]
        kept[kind] = kept.get(kind, 0) + 1
        state["returning"][kind] -= 1

    def _settle(self, state: State, turn: Turn, seat: int) -> None:
        """After the keeps: rest to the bag, tilt toward the player, refill, look for chains."""
        self._return_chips(state)
        side = self._side(state, seat)
        rules = self._rules(state)
        if rules is None:
            bd.tilt(state["board"], side)
        else:
            pw.move_tokens(state["power"], bd.tilt_moves(state["board"], side, rules.anchors))
        filled = bd.refill(state["board"], side, state["bag"], turn.rng)
        empty = sum(row.count(None) for row in state["board"])
        text = f"The board tilted {side}; {len(filled)} candies came from the bag."
        if empty:
            text += f" The bag ran dry: {empty} spaces stay empty."
        turn.say(text, seat, "tilt")
        if "power" in state:
            for card_id, placed in pw.return_piles(state, turn.rng):
                card = pw.card(card_id)
                turn.say(f"The pile of {pw.token_name(card, 2)} is full: {placed} went back on "
                         "the board.", seat, "power")
            rules = self._rules(state)
        if bd.has_blast(state["board"], rules):
            turn.say("Chain! The refill made a new Blast.", seat, "chain")
            self._gain(state, turn, "chain", seat)
        self._blast_or_choose(state, turn, seat)

    def _return_chips(self, state: State) -> None:
        for kind, count in state["returning"].items():
            if count:
                bag_add(state["bag"], kind, count)
        state["returning"] = {}

    def _check_win(self, state: State, turn: Turn, seat: int) -> bool:
        card = obj.objective(state["objective"])
        if not obj.complete(card, state["kept"][seat]):
            return False
        self._return_chips(state)
        state["ended"] = True
        state["winner"] = seat
        turn.say(f"{engine.seat_name(state, seat)} completed {card['name']} and wins!", seat, "win")
        return True

    # ----------------------------------------------------------------- views and results

    def _show(self, state: State, seat: int | None) -> View:
        card = obj.objective(state["objective"])
        sides = bd.SEATING[len(state["seats"])]
        may_act = engine.to_act(self, state)
        choices: dict[str, Any] = {"blasts": [], "keep": []}
        top = engine.top(state)
        if top is not None and top.kind == "blast" and may_act:
            choices["blasts"] = [{"notation": b.notation, "kind": b.kind,
                                  "cells": [list(c) for c in b.matched]}
                                 for b in bd.find_blasts(state["board"], self._rules(state))]
        if top is not None and top.kind == "keep" and may_act:
            choices["keep"] = list(top.data["others"])
        result = self._result(state)
        view = {
            "game": self.slug,
            "viewer": seat,
            "move": state["move"],
            "size": bd.SIZE,
            "board": [list(row) for row in state["board"]],
            "types": obj.candy_kinds(),
            "names": {k: obj.candy_name(k) for k in obj.candy_kinds()},
            "seats": [
                {"name": s["name"], "ai": s["ai"], "side": sides[i],
                 "kept": {k: n for k, n in state["kept"][i].items() if n},
                 "progress": obj.progress(card, state["kept"][i]), "needed": obj.needed(card)}
                for i, s in enumerate(state["seats"])
            ],
            "objective": {"id": card["id"], "name": card["name"], "text": card["text"],
                          "groups": [dict(g) for g in card["groups"]]},
            "bag": bag_size(state["bag"]),
            "turn": state["turn"],
            "to_act": sorted(may_act),
            "tilt": sides[state["turn"]],
            "phase": "over" if state["ended"] else self._stage(state),
            "drawn": state["drawn"],
            "choices": choices,
            "last": state["last"],
            "result": result.to_json() if result else None,
        }
        power = pw.view(state)
        if power is not None:
            view["power"] = power
            if top is not None and top.kind == "rush" and may_act:
                choices["rush"] = top.data["card"]
            if top is None and may_act and state["phase"] == "swap":
                choices["draw"] = not bd.blasting_swaps(state["board"], self._rules(state))
        return view

    def _result(self, state: State) -> Result | None:
        if not state["ended"]:
            return None
        card = obj.objective(state["objective"])
        scores = {i: obj.progress(card, kept) for i, kept in enumerate(state["kept"])}
        keys = {i: (scores[i], sum(kept.values())) for i, kept in enumerate(state["kept"])}
        winner = state["winner"]
        if winner is not None:
            others = {i: k for i, k in keys.items() if i != winner}
            ranking = ((winner,), *rank_by(others)) if others else ((winner,),)
            summary = f"{engine.seat_name(state, winner)} completed {card['name']}."
        else:
            ranking = rank_by(keys)
            summary = ("Nobody completed the objective; players are ranked by candies toward it, "
                       "then by candies kept.")
        return Result(tuple(ranking), scores, summary)

    def summary(self, state: State) -> str:
        card = obj.objective(state["objective"])
        if state["ended"]:
            result = self._result(state)
            return result.summary if result else "The game is over."
        name = engine.seat_name(state, state["turn"])
        text = (f"{name} to play ({self._stage(state)}). Objective: {card['name']} — "
                f"{card['text']} Bag: {bag_size(state['bag'])} candies.")
        if "power" in state:
            text += " Power: " + " + ".join(pw.card(c)["name"] for c in pw.in_play(state)) + "."
        return text

    def scores(self, state: State) -> dict[int, int]:
        card = obj.objective(state["objective"])
        return {i: obj.progress(card, kept) for i, kept in enumerate(state["kept"])}

    def _ai(self, view: View, legal: list[Action], rng: Rng) -> Action:
        return choose(view, legal, rng)

    def _stand_in_reason(self, before: View, after: View, seat: int,
                         move: str) -> str | None:
        """Completing the objective card, coming closer to it, or else the size of the
        swap's Blast (all on the board and the seats' kept candies, which are public)."""
        name = after["objective"]["name"]
        had, has = before["seats"][seat]["progress"], after["seats"][seat]["progress"]
        needed = after["seats"][seat]["needed"]
        if has > had:
            if has == needed:
                return f"It chose this move to complete the objective, {name}."
            return f"It chose this move to come closer to {name}: {has} of {needed}."
        last = after["last"]
        if move.startswith("swap ") and last and last["seat"] == seat and last["blasted"]:
            return f"It chose this move for a Blast of {len(last['blasted'])} candies."
        return None

    def _ai_strong(self, view: View, legal: list[Action], rng: Rng, look: Lookahead) -> Action:
        """The search (``search.py``): its move and the next reply, over sampled refills."""
        return choose_strong(view, legal, rng, look)

    # ----------------------------------------------------------------- helpers

    @staticmethod
    def _side(state: State, seat: int) -> str:
        return bd.SEATING[len(state["seats"])][seat]

    @staticmethod
    def _rules(state: State) -> bd.BoardRules | None:
        """What the power tokens change on the board; ``None`` in the basic game."""
        power = state.get("power")
        return pw.board_rules(power) if power else None

    def _replaceable(self, state: State, drawn: str) -> list[Cell]:
        """Cells whose candy the drawn one may replace: another kind, not locked by a token."""
        rules = self._rules(state)
        locked = rules.locked if rules else frozenset()
        return [c for c in bd.all_cells()
                if bd.at(state["board"], c) not in (None, drawn) and c not in locked]

    @staticmethod
    def _progress(state: State, seat: int) -> int:
        return obj.progress(obj.objective(state["objective"]), state["kept"][seat])

    @staticmethod
    def _token_phrase(card_id: str) -> str:
        card = pw.card(card_id)
        noun = pw.token_name(card)
        return f"{'an' if noun[0] in 'aeiou' else 'a'} {noun}"

    def _top_data(self, state: State) -> dict[str, Any]:
        top = engine.top(state)
        assert top is not None
        return top.data

    @staticmethod
    def _candy(board: bd.Board, cell: Cell, count: int = 1) -> str:
        candy = bd.at(board, cell)
        return obj.candy_name(candy, count) if candy else "empty space"

    @staticmethod
    def _describe(blast: bd.Blast, past: bool = False) -> str:
        verb = "blasted" if past else "blast"
        n = len(blast.matched)
        where = blast.notation.split(" ", 1)[1]
        candies = obj.candy_name(blast.candy, n)
        if blast.kind == "mega":
            return f"{'made' if past else 'make'} a Mega-Blast of {n} {candies} ({where})"
        if blast.kind == "four":
            return f"{verb} 4 {candies} ({where}) and the rest of the line"
        if blast.kind == "big":
            return f"{verb} {n} {candies} in a line ({where}) and every other one on the board"
        return f"{verb} 3 {candies} ({where})"
