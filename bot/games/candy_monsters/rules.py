"""Kingdom's Candy Monsters: buy monsters and abilities, feed them at Black Candy, count candies.

A round has two declared phases (:attr:`CandyMonsters.phases`): in ``turns``
every player takes a turn from the first player clockwise; in ``event`` an event
is drawn and resolved for everybody, and the first player card acts and passes
on. The engine keeps the round number and the phase (``state["flow"]``); the
game is over once ``state["final"]`` holds the final count. A turn: the monster
set bonuses, then the start-of-turn window (abilities, removing black cubes),
then ONE action (collect, buy a monster, buy an ability), then ``end turn``.
Abilities fire in their windows as ``use <card>``; the windows that sit inside
an action (buying) are a decision of the turn player.
Black Candy is one joint decision: every player feeds in secret, in any order.
"""

from __future__ import annotations

import re
from typing import Any, cast

from bot.games import engine
from bot.games.candy_monsters import board, cards, effects, feeding, scoring
from bot.games.candy_monsters.ai import action_values, choose
from bot.games.candy_monsters.explain import explain
from bot.games.candy_monsters.view import build_view, card_texts
from bot.games.engine import (
    Action,
    BaseRules,
    CardText,
    Decision,
    Hidden,
    Result,
    State,
    Turn,
    View,
)
from bot.games.pieces import deck_shuffled, next_seat, rank_by, seats_from
from bot.games.rng import Rng
from bot.games.words import plural

_REMOVE = re.compile(r"^remove(?: (\d{1,2}))?(?: black(?: cubes?)?)?$")
_END = {"end turn", "end", "end my turn", "done", "finish", "finish turn"}
_COLLECT = {"collect", "collect sugar", "take sugar", "collect 5"}
_CONVERT = {"convert", "convert sugar", "convert 4", "candy"}
_PARTIAL = re.compile(r"^(.+) (\d{1,2})(?: sugar)?$")
_FEED_HOWS = {"sugar": "sugar", "candy": "candy", "candies": "candy", "black": "black",
              "blacks": "black", "black cubes": "black", "black cube": "black"}

BUY_WINDOWS = {"monster": "buy_monster", "ability": "buy_ability"}


class CandyMonsters(BaseRules):
    """The Kingdom's Candy Monsters rules."""

    slug = "kingdoms-candy-monsters"
    skips = ("end turn",)
    title = "Kingdom's Candy Monsters"
    min_seats = 2
    max_seats = 5
    #: The decks' order and every Black Candy answer are secret until revealed.
    has_hidden_information = True
    private_choices = False
    has_joint_decisions = True
    has_chance = True
    has_content_files = True
    # Greedy plays no better than random here (points come at the end), so easy is made
    # just better than random players (docs/benchmarks.md).
    ai_easy_slips = 0.9
    #: 2: converting at any time (a standing action), partial feeding, and feeding
    #: answers of one shape for all (abilities step, then one step per monster).
    #: 3: abilities pay: every ability costs 1 sugar less and five play stronger (SUGAR
    #: RUSH, SWEET TOOTH, FULL BELLY, CANDY CRUSH, TOOTHBRUSH); new card ids, see cards.py.
    rules_version = 3
    #: Games stored under rules 1 and 2 go on under their rules and cards (see docs/rules).
    older_rules = (1, 2)
    #: A round: every player's turn, then the event (a Black Candy asks the joint feeding).
    phases = ("turns", "event")
    step_joiners = frozenset({"under"})
    notation_help = (
        "Moves: “collect”, “buy magmot”, “buy pickpocket red”, “use pickpocket” (an ability "
        "in its window), “remove 2 black” (start of turn, 2 sugar each), “convert” (4 sugar "
        "into 1 candy), “end turn”; when buying: “pay”, “cancel”, “tuck under magmot”, "
        "“keep”; at Black Candy, one step each: “use full belly” (or “use none”), then per "
        "monster “feed magmot sugar” (or “feed magmot 1 sugar”, “candy”, “black”), "
        "“let magmot go”. “convert” works at any time, in others' turns too."
    )
    rules_summary = (
        "Each turn your monsters' set bonuses pay out (2/3/4+ of one candy colour: 1/2/3 sugar; "
        "each full set of red, green and purple: 1 candy); you may use start-of-turn abilities "
        "and pay 2 sugar per black cube to remove it. Then take ONE action: collect 5 sugar, "
        "buy a face-up monster, or buy a face-up ability and tuck it under a monster (its "
        "ability is yours) or keep it (worth its candies, and monsters of its colour get "
        "cheaper). Abilities work once per round in their window. After every round an event "
        "is drawn; at a Black Candy every player feeds each monster its hunger (sugar, then "
        "candy if you like) and takes a black cube for each sugar not fed, or lets it go. At "
        "any time you may turn 4 sugar into 1 candy. After the 4th Black Candy the most "
        "candies wins."
    )

    # ----------------------------------------------------------------- set-up

    def _setup(self, state: State, turn: Turn) -> None:
        players = len(state["seats"])
        rng = turn.rng
        box = deck_shuffled(cards.ids_of("starting", state["rules"]), rng)
        kingdom = dict(cards.supply())
        start = cards.kingdom()["starting_sugar"]
        state["kingdom"] = kingdom
        state["players"] = []
        for _ in range(players):
            kingdom["sugar"] -= start
            state["players"].append({"sugar": start, "candy": 0, "black": 0,
                                     "monsters": [{"card": box.pop(), "tucked": []}],
                                     "kept": [], "used": [], "tokens": []})
        state["box"] = sorted(box)
        rules = state["rules"]
        state["decks"] = {"monsters": deck_shuffled(cards.ids_of("monster", rules), rng),
                          "abilities": self._ability_deck(rng, rules),
                          "events": self._event_deck(rng)}
        size = cards.kingdom()["market_size"]
        state["market"] = {"monsters": [None] * size, "abilities": [None] * size}
        state["discard"] = {"monsters": [], "abilities": []}
        for pile in ("monsters", "abilities"):
            for slot in range(size):
                board.refill(state, pile, slot, turn)
        state.update({"drawn": [], "black_candies": 0, "first": rng.below(players),
                      "order": [], "index": 0, "turn": None,
                      "final": None, "last_feeding": None, "opening": None})
        state["opening"] = state["first"]
        turn.say(f"{engine.seat_name(state, state['first'])} takes the first player card.",
                 state["first"], "first")
        engine.start_phases(self, state, turn)

    @staticmethod
    def _ability_deck(rng: Rng, rules: int) -> list[str]:
        """One ability of each type shuffled at the bottom, the rest shuffled on top."""
        bottom: list[str] = []
        rest: list[str] = []
        for type_id in cards.ability_types(rules):
            copies = [c for c in cards.ids_of("ability", rules)
                      if cards.card(c).type == type_id]
            pick = rng.choice(copies)
            bottom.append(pick)
            rest.extend(c for c in copies if c != pick)
        return deck_shuffled(bottom, rng) + deck_shuffled(rest, rng)

    @staticmethod
    def _event_deck(rng: Rng) -> list[str]:
        """Four face-down piles of two events, a Black Candy shuffled into each, stacked."""
        count, per = cards.piles()
        events = deck_shuffled(cards.ids_of("event"), rng)
        blacks = cards.ids_of("black_candy")
        piles = [deck_shuffled([*events[i * per:(i + 1) * per], blacks[i]], rng)
                 for i in range(count)]
        # The end of the list is the top: the first pile lies on top.
        return [c for pile in reversed(piles) for c in pile]

    # ----------------------------------------------------------------- rounds and turns

    def _begin_phase(self, state: State, phase: str, turn: Turn) -> None:
        """``turns``: abilities are ready again and the first player starts; ``event``: draw."""
        if phase == "turns":
            self._begin_turns(state, turn)
        else:
            self._draw_event(state, turn)

    def _begin_turns(self, state: State, turn: Turn) -> None:
        for p in state["players"]:
            p["used"] = []
        state["order"] = seats_from(state["first"], len(state["seats"]))
        state["index"] = 0
        turn.say(f"Round {engine.round_of(state)} begins with "
                 f"{engine.seat_name(state, state['first'])}.", None, "round")
        self._begin_turn(state, turn, state["order"][0])

    def _begin_turn(self, state: State, turn: Turn, seat: int) -> None:
        state["turn"] = {"seat": seat, "step": "start", "action": None, "fresh": [],
                         "ready": [], "purchase": None}
        counts = board.colour_counts(state, seat)
        table = cards.kingdom()["monster_set_sugar"]
        sugar = sum(table[str(min(n, 4))] for n in counts.values() if n >= 2)
        sets = board.full_sets(counts)
        parts = []
        if sugar:
            parts.append(f"{board.gain_sugar(state, seat, sugar)} sugar")
        if sets:
            got = board.gain_candy(state, seat, sets)
            parts.append(plural(got, "candy", "candies"))
        name = engine.seat_name(state, seat)
        if parts:
            turn.say(f"{name}'s turn. Monster set bonus: {' and '.join(parts)}.", seat, "bonus")
        else:
            turn.say(f"{name}'s turn.", seat, "turn")

    def _end_turn(self, state: State, turn: Turn) -> None:
        state["index"] += 1
        if state["index"] < len(state["order"]):
            self._begin_turn(state, turn, state["order"][state["index"]])
        else:
            state["turn"] = None
            engine.next_phase(self, state, turn)

    def _draw_event(self, state: State, turn: Turn) -> None:
        card_id = state["decks"]["events"].pop()
        state["drawn"].append(card_id)
        card = cards.card(card_id)
        turn.say(f"Event: {card.name}. {effects.event_text(card)}", None, "event", reveals=True)
        if card.kind == "black_candy":
            seats = [s for s in range(len(state["seats"])) if board.player(state, s)["monsters"]]
            hunger = {str(s): feeding.hunger_of(state, s) for s in seats}
            if seats:
                engine.ask(state, "feed", seats, {"card": card_id, "hunger": hunger}, joint=True,
                         public=False)
                return
            self._feed_everyone(state, turn, {}, {})
            return
        if card.effects and card.effects[0]["verb"] == "refresh_market":
            self._refresh_market(state, turn)
        else:
            names = self._names_list(state)
            for seat in seats_from(state["first"], len(state["seats"])):
                if board.holds(state, seat, card.condition):
                    ctx = effects.Context(state, seat, turn, names)
                    said = effects.run(ctx, card.effects)
                    turn.say(f"{names[seat]} {', '.join(said)}.", seat, "event", hits=ctx.hit)
        self._after_event(state, turn)

    def _refresh_market(self, state: State, turn: Turn) -> None:
        for pile in ("monsters", "abilities"):
            for slot, card_id in enumerate(state["market"][pile]):
                if card_id is not None:
                    state["discard"][pile].append(card_id)
                    state["market"][pile][slot] = None
            for slot in range(len(state["market"][pile])):
                board.refill(state, pile, slot, turn)
        turn.say("The kingdom shows new monsters and abilities.", None, "market", reveals=True)

    def _after_event(self, state: State, turn: Turn) -> None:
        """The game ends after the last Black Candy; else the first player card acts, passes on
        and the next round begins."""
        if state["black_candies"] >= len(cards.ids_of("black_candy")):
            self._finish(state, turn)
            return
        first = state["first"]
        names = self._names_list(state)
        holder = cards.catalogue()[cards.kingdom()["first_player"]["id"]]
        assert holder.ability is not None
        said = effects.run(effects.Context(state, first, turn, names), holder.ability.effects)
        step = 1 if cards.kingdom()["first_player"]["passes"] == "clockwise" else -1
        state["first"] = next_seat(first, len(state["seats"]), step)
        turn.say(f"{names[first]} uses the {holder.name} card: {', '.join(said)}, and passes it "
                 f"to {names[state['first']]}.", first, "first")
        engine.next_phase(self, state, turn)

    def _feed_everyone(self, state: State, turn: Turn, hunger: dict[str, Any],
                       steps: dict[int, tuple[str, ...]]) -> None:
        """Carry out every seat's feeding, from the first player on (black cubes may run out)."""
        names = self._names_list(state)
        report: dict[str, Any] = {}
        for seat in seats_from(state["first"], len(state["seats"])):
            if str(seat) not in hunger:
                continue
            plan = feeding.plan(state, seat, hunger[str(seat)], list(steps.get(seat, ())))
            p = board.player(state, seat)
            spent = sum(cards.ability(c).cost for c in plan.used)
            sugar = sum(m.sugar for m in plan.meals.values()) + spent
            candy = sum(m.candy for m in plan.meals.values())
            board.pay_sugar(state, seat, sugar)
            board.pay_candy(state, seat, candy)
            p["used"].extend(plan.used)
            taken, instead = board.take_black(state, seat, plan.black)
            gone = [m.monster for m in plan.meals.values() if m.how == "go"]
            for monster in gone:
                board.let_go(state, seat, monster)
            lines = [feeding.meal_text(m) for m in plan.meals.values()]
            if plan.used:
                lines.insert(0, "used " + ", ".join(cards.card(c).name for c in plan.used))
            if instead:
                lines.append(f"the kingdom had no black cube left for {instead}: paid "
                             f"{plural(instead, 'candy', 'candies')} instead")
            report[str(seat)] = {"meals": [[m.monster, m.how, m.sugar, m.candy, m.black]
                                           for m in plan.meals.values()],
                                 "used": plan.used, "black": taken, "gone": gone}
            turn.say(f"{names[seat]} fed: {'; '.join(lines)}.", seat, "feed", reveals=True)
        state["last_feeding"] = report
        state["black_candies"] += 1
        left = len(cards.ids_of("black_candy")) - state["black_candies"]
        if left:
            turn.say(f"{plural(left, 'Black Candy', 'Black Candies')} to come.", None, "black")
        self._after_event(state, turn)

    def _finish(self, state: State, turn: Turn) -> None:
        state["turn"] = None
        state["final"] = [scoring.breakdown(state, s) for s in range(len(state["seats"]))]
        turn.say("The 4th Black Candy has been resolved: the game is over.", None, "end")
        for seat, items in enumerate(state["final"]):
            turn.say(f"{engine.seat_name(state, seat)}: {scoring.breakdown_text(items)}.", seat,
                     "score")

    # ----------------------------------------------------------------- who acts, what is legal

    def _turn_actors(self, state: State) -> frozenset[int]:
        if engine.phase_of(state) != "turns" or state["turn"] is None:
            return frozenset()
        return frozenset({state["turn"]["seat"]})

    def _turn_actions(self, state: State, seat: int) -> list[Action]:
        if seat not in self._turn_actors(state):
            return []
        t = state["turn"]
        p = board.player(state, seat)
        actions = self._use_actions(state, seat, self._turn_windows(state))
        if t["step"] == "start":
            price = cards.kingdom()["black_removal_price"]
            for n in range(1, min(p["black"], p["sugar"] // price) + 1):
                actions.append(Action(f"remove {n} black",
                                      f"pay {n * price} sugar to return "
                                      f"{plural(n, 'black cube')}"))
        if state["rules"] < 2 and self._can_convert(state, seat):
            actions.append(self._convert_action())
        if t["step"] == "start":
            actions.append(Action("collect", f"take {cards.kingdom()['collect']} sugar"))
            actions.extend(self._buy_actions(state, seat))
        else:
            actions.append(Action("end turn", "end your turn"))
        return actions

    @staticmethod
    def _turn_windows(state: State) -> set[str]:
        t = state["turn"]
        if t["step"] == "start":
            return {"start", "turn", "once"}
        return {"turn", "once"} | ({"collect"} if t["action"] == "collect" else set())

    @staticmethod
    def _convert_action() -> Action:
        return Action("convert", f"turn {cards.kingdom()['convert']} sugar into 1 candy")

    def _standing_actions(self, state: State, seat: int) -> list[Action]:
        """Rules 2: "At any time in the game" a player may convert 4 sugar into 1 candy.

        During a Black Candy a seat may convert only sugar its feeding draft leaves
        over, and not once its answer is locked in (it was given with that sugar).
        """
        if state["rules"] < 2 or not self._can_convert(state, seat):
            return []
        top = engine.top(state)
        if top is not None and top.kind == "feed" and str(seat) in top.data["hunger"]:
            if seat in top.answered:
                return []
            plan = feeding.plan(state, seat, top.data["hunger"][str(seat)],
                                list(top.steps.get(seat, ())))
            if plan.sugar < cards.kingdom()["convert"]:
                return []
        return [self._convert_action()]

    def _play_standing(self, state: State, seat: int, action: Action, turn: Turn) -> None:
        self._convert(state, seat, turn)

    def _convert(self, state: State, seat: int, turn: Turn) -> None:
        rate = cards.kingdom()["convert"]
        board.pay_sugar(state, seat, rate)
        board.gain_candy(state, seat, 1)
        turn.say(f"{engine.seat_name(state, seat)} turned {rate} sugar into 1 candy.", seat,
                 "convert")

    def _can_convert(self, state: State, seat: int) -> bool:
        return bool(board.player(state, seat)["sugar"] >= cards.kingdom()["convert"]
                    and state["kingdom"]["candy"] > 0)

    def usable(self, state: State, seat: int, card_id: str, windows: set[str]) -> bool:
        """May ``seat`` use ``card_id``'s ability now, in one of ``windows``?"""
        ability = cards.card(card_id).ability
        if ability is None or ability.window not in windows:
            return False
        p = board.player(state, seat)
        if card_id in p["used"] or card_id not in board.active_cards(state, seat):
            return False
        t = state["turn"]
        if t is not None and card_id in t["fresh"] and card_id not in t["ready"]:
            return False
        if ability.cost > p["sugar"]:
            return False
        if ability.window == "once" and (card_id in p["tokens"]
                                         or state["kingdom"]["tokens"] < 1):
            return False
        ctx = effects.Context(state, seat, Turn(Rng(0)), [], card_id)
        return effects.useful(ctx, ability.effects)

    def _use_actions(self, state: State, seat: int, windows: set[str]) -> list[Action]:
        out = []
        for card_id in board.active_cards(state, seat):
            if self.usable(state, seat, card_id, windows):
                c = cards.card(card_id)
                assert c.ability is not None
                out.append(Action(f"use {c.key}", f"{c.name}: {effects.ability_text(c.ability)}"))
        return out

    def price(self, state: State, seat: int, card_id: str, extra: int = 0) -> int:
        """What ``card_id`` costs ``seat`` now: kept-colour discount and ``extra`` off."""
        c = cards.card(card_id)
        off = extra
        if c.is_monster and c.colour:
            off += board.kept_candies(state, seat)[c.colour]
        return max(0, c.cost - off)

    def _potential(self, state: State, seat: int, card_id: str) -> int:
        """The most the seat's buy-window abilities could take off ``card_id``."""
        window = BUY_WINDOWS["monster" if cards.card(card_id).is_monster else "ability"]
        total = 0
        for source in board.active_cards(state, seat):
            ability = cards.card(source).ability
            if ability is None or ability.window != window:
                continue
            if self._free_to_use(state, seat, source):
                total += sum(int(e.get("n", 1)) for e in ability.effects
                             if e["verb"] == "discount")
        return total

    def _free_to_use(self, state: State, seat: int, card_id: str) -> bool:
        t = state["turn"]
        return (card_id not in board.player(state, seat)["used"]
                and not (t and card_id in t["fresh"] and card_id not in t["ready"]))

    def placeable(self, state: State, seat: int, card_id: str) -> list[str]:
        """Where a bought ability may go: ``keep`` and the monsters it may be tucked under."""
        c = cards.card(card_id)
        p = board.player(state, seat)
        out = []
        if not any(cards.card(t).type == c.type for t in board.tucked_ids(state, seat)):
            out.extend(board.monster_ids(state, seat))
        if not any(cards.card(k).type == c.type for k in p["kept"]):
            out.append("keep")
        return out

    def _buy_actions(self, state: State, seat: int) -> list[Action]:
        out = []
        sugar = board.player(state, seat)["sugar"]
        for pile in ("monsters", "abilities"):
            for card_id in state["market"][pile]:
                if card_id is None:
                    continue
                c = cards.card(card_id)
                if pile == "abilities" and not self.placeable(state, seat, card_id):
                    continue
                cost = self.price(state, seat, card_id)
                if sugar < cost - self._potential(state, seat, card_id):
                    continue
                what = "monster" if c.is_monster else "ability"
                out.append(Action(self.buy_notation(card_id),
                                  f"{what} {c.name} ({c.colour}, {c.value} candy) for "
                                  f"{cost} sugar"))
        return out

    @staticmethod
    def buy_notation(card_id: str) -> str:
        c = cards.card(card_id)
        return f"buy {c.key} {c.colour}" if c.kind == "ability" else f"buy {c.key}"

    def _decision_actions(self, state: State, decision: Decision, seat: int) -> list[Action]:
        if decision.kind == "buy":
            purchase = state["turn"]["purchase"]
            kind = "monster" if cards.card(purchase["card"]).is_monster else "ability"
            out = self._use_actions(state, seat, {BUY_WINDOWS[kind]})
            cost = self.price(state, seat, purchase["card"], purchase["discount"])
            name = cards.card(purchase["card"]).name
            if board.player(state, seat)["sugar"] >= cost:
                out.append(Action("pay", f"pay {cost} sugar for {name}"))
            out.append(Action("cancel", f"do not buy {name} (abilities used stay used)"))
            return out
        if decision.kind == "place":
            card_id = state["turn"]["purchase"]["card"]
            name = cards.card(card_id).name
            out = []
            for where in self.placeable(state, seat, card_id):
                if where == "keep":
                    out.append(Action("keep", f"keep {name}: worth its candies, not used"))
                else:
                    host = cards.card(where)
                    out.append(Action(f"tuck under {host.key}", f"tuck {name} under {host.name}"))
            return out
        if decision.kind == "feed":
            return self._feed_actions(state, decision, seat)
        raise AssertionError(decision.kind)

    def _feed_actions(self, state: State, decision: Decision, seat: int) -> list[Action]:
        if state["rules"] < 2:
            return self._feed_actions_1(state, decision, seat)
        hunger = decision.data["hunger"][str(seat)]
        steps = list(decision.steps.get(seat, ()))
        plan = feeding.plan(state, seat, hunger, steps)
        if feeding.asks_abilities(state, seat) and not steps:
            texts = {cards.card(c).key: effects.ability_text(cards.ability(c))
                     for c in feeding.relief_cards(state, seat)}
            out = []
            for keys in feeding.ability_choices(state, seat, plan.sugar):
                if not keys:
                    out.append(Action("use none", "use no Black Candy ability"))
                    continue
                out.append(Action("use " + " and ".join(keys),
                                  "; ".join(texts[k] for k in keys)))
            return out
        out = []
        for monster, need in feeding.undecided(hunger, plan):
            out.extend(_monster_offers(plan, monster, need, partial=True))
        return out

    def _feed_actions_1(self, state: State, decision: Decision, seat: int) -> list[Action]:
        """Rules 1's offers: abilities between monsters and ``feed all`` (old games only)."""
        hunger = decision.data["hunger"][str(seat)]
        steps = list(decision.steps.get(seat, ()))
        plan = feeding.plan(state, seat, hunger, steps)
        general = []
        for card_id in feeding.relief_cards(state, seat):
            ability = cards.card(card_id).ability
            if card_id not in plan.used and ability is not None and ability.cost <= plan.sugar:
                c = cards.card(card_id)
                general.append(Action(f"use {c.key}", f"{c.name}: {effects.ability_text(ability)}"))
        left = feeding.undecided(hunger, plan)
        if left:
            general.append(Action("feed all", "feed every monster left with sugar (black cubes "
                                              "for what is short)"))
        # The first monster's choices, then abilities and "feed all", then the other
        # monsters': the list starts and ends alike (both finish the answer or neither).
        # No public form here: the engine says "is deciding" or "has decided".
        out: list[Action] = []
        for n, (monster, need) in enumerate(left):
            if n == 1:
                out.extend(general)
            out.extend(_monster_offers(plan, monster, need, partial=False))
        if len(left) < 2:
            out.extend(general)
        return out

    def _answer_complete(self, state: State, decision: Decision, seat: int,
                         steps: Any) -> bool:
        if decision.kind != "feed":
            return True
        plan = feeding.plan(state, seat, decision.data["hunger"][str(seat)], list(steps))
        if state["rules"] >= 2 and feeding.asks_abilities(state, seat) and not steps:
            return False
        return not feeding.undecided(decision.data["hunger"][str(seat)], plan)

    def quick_choices(self, state: State, seat: int) -> list[Action]:
        legal = engine.legal_actions(self, state, seat)
        top = engine.top(state)
        if top is not None and top.kind == "feed":
            # One monster at a time: its four ways, plus abilities and "feed all".
            hunger = top.data["hunger"][str(seat)]
            plan = feeding.plan(state, seat, hunger, list(top.steps.get(seat, ())))
            left = feeding.undecided(hunger, plan)
            key = cards.card(left[0][0]).key if left else ""
            return [a for a in legal if not a.notation.startswith(("feed ", "let "))
                    or a.notation == "feed all" or f" {key} " in f" {a.notation} "][:25]
        ranked = self.rank_actions(state, seat, legal)
        return ranked[:25]

    def rank_actions(self, state: State, seat: int, actions: list[Action]) -> list[Action]:
        values = action_values(engine.view(self, state, seat), actions)
        return sorted(actions, key=lambda a: -values[a.notation])

    # ----------------------------------------------------------------- playing

    def _play(self, state: State, seat: int, action: Action, turn: Turn) -> None:
        words = action.notation.split(" ")
        name = engine.seat_name(state, seat)
        t = state["turn"]
        if words[0] == "use":
            self._use(state, seat, " ".join(words[1:]), turn)
        elif words[0] == "remove":
            n = int(words[1])
            price = cards.kingdom()["black_removal_price"]
            board.pay_sugar(state, seat, n * price)
            board.remove_black(state, seat, n)
            turn.say(f"{name} paid {n * price} sugar to return {plural(n, 'black cube')}.",
                     seat, "black")
        elif words[0] == "convert":
            self._convert(state, seat, turn)
        elif words[0] == "collect":
            self._collect(state, seat, turn)
            t["step"], t["action"] = "after", "collect"
        elif words[0] == "buy":
            card_id = self._market_card(state, " ".join(words[1:]))
            self._start_purchase(state, seat, card_id, turn)
        elif action.notation == "end turn":
            turn.say(f"{name} ends their turn.", seat, "end-turn")
            self._end_turn(state, turn)
            return
        else:
            raise AssertionError(action.notation)
        self._maybe_end(state, seat, turn)

    def _maybe_end(self, state: State, seat: int, turn: Turn) -> None:
        """End the turn by itself once the action is taken and nothing is left to do."""
        t = state["turn"]
        if (engine.phase_of(state) == "turns" and t is not None and t["seat"] == seat
                and t["step"] == "after" and engine.top(state) is None
                and not self._use_actions(state, seat, self._turn_windows(state))
                and not self._can_convert(state, seat)):
            turn.say(f"{engine.seat_name(state, seat)} has nothing left to do: the turn ends.",
                     seat, "end-turn")
            self._end_turn(state, turn)

    def _use(self, state: State, seat: int, key: str, turn: Turn) -> None:
        card_id = next(c for c in board.active_cards(state, seat) if cards.card(c).key == key)
        c = cards.card(card_id)
        ability = c.ability
        assert ability is not None
        p = board.player(state, seat)
        board.pay_sugar(state, seat, ability.cost)
        p["used"].append(card_id)
        if ability.window == "once":
            p["tokens"].append(card_id)
            state["kingdom"]["tokens"] -= 1
        ctx = effects.Context(state, seat, turn, self._names_list(state), card_id)
        said = effects.run(ctx, ability.effects)
        host = board.host_of(state, seat, card_id)
        where = f" (under {cards.card(host).name})" if host else ""
        paid = f", paid {ability.cost} sugar" if ability.cost else ""
        turn.say(f"{engine.seat_name(state, seat)} used {c.name}{where}{paid}: {', '.join(said)}.",
                 seat, "use", hits=ctx.hit)

    def _collect(self, state: State, seat: int, turn: Turn) -> None:
        want = cards.kingdom()["collect"]
        got = board.gain_sugar(state, seat, want)
        text = f"{engine.seat_name(state, seat)} collected {got} sugar"
        if got < want:
            victim = board.richest_other(state, seat)
            if victim is not None:
                taken = board.take_sugar_from(state, seat, victim, want - got)
                text += (f"; the kingdom ran short, so {taken} more came from "
                         f"{engine.seat_name(state, victim)}")
        turn.say(text + ".", seat, "collect")

    def _market_card(self, state: State, key: str) -> str:
        for pile in ("monsters", "abilities"):
            for card_id in state["market"][pile]:
                if card_id is not None and self.buy_notation(card_id) == f"buy {key}":
                    return cast("str", card_id)
        raise AssertionError(key)

    def _start_purchase(self, state: State, seat: int, card_id: str, turn: Turn) -> None:
        t = state["turn"]
        t["purchase"] = {"card": card_id, "discount": 0, "ready": False}
        kind = "monster" if cards.card(card_id).is_monster else "ability"
        if self._use_actions(state, seat, {BUY_WINDOWS[kind]}):
            c = cards.card(card_id)
            turn.say(f"{engine.seat_name(state, seat)} is buying {c.name}.", seat, "buying")
            engine.ask(state, "buy", [seat], {"card": card_id})
            return
        self._pay(state, seat, turn)

    def _pay(self, state: State, seat: int, turn: Turn) -> None:
        t = state["turn"]
        purchase = t["purchase"]
        card_id = purchase["card"]
        c = cards.card(card_id)
        cost = self.price(state, seat, card_id, purchase["discount"])
        board.pay_sugar(state, seat, cost)
        pile = "monsters" if c.is_monster else "abilities"
        slot = state["market"][pile].index(card_id)
        state["market"][pile][slot] = None
        board.refill(state, pile, slot, turn)
        name = engine.seat_name(state, seat)
        t["step"], t["action"] = "after", "buy"
        if c.is_monster:
            board.player(state, seat)["monsters"].append({"card": card_id, "tucked": []})
            t["fresh"].append(card_id)
            t["purchase"] = None
            sets = board.full_sets(board.kept_candies(state, seat))
            bonus = ""
            if sets:
                got = board.gain_candy(state, seat, sets)
                bonus = f" and gains {plural(got, 'candy', 'candies')} for the kept ability sets"
            turn.say(f"{name} bought {c.name} for {cost} sugar{bonus}.", seat, "buy",
                     reveals=True)
            return
        turn.say(f"{name} bought {c.name} ({c.colour}) for {cost} sugar.", seat, "buy",
                 reveals=True)
        places = self.placeable(state, seat, card_id)
        if len(places) == 1:
            self._place(state, seat, places[0], turn)
        else:
            engine.ask(state, "place", [seat], {"card": card_id})

    def _place(self, state: State, seat: int, where: str, turn: Turn) -> None:
        t = state["turn"]
        purchase = t["purchase"]
        card_id = purchase["card"]
        p = board.player(state, seat)
        name = engine.seat_name(state, seat)
        c = cards.card(card_id)
        if where == "keep":
            p["kept"].append(card_id)
            turn.say(f"{name} keeps {c.name}.", seat, "keep")
        else:
            entry = board.monster_entry(state, seat, where)
            assert entry is not None
            entry["tucked"].append(card_id)
            t["fresh"].append(card_id)
            if purchase["ready"]:
                t["ready"].append(card_id)
            turn.say(f"{name} tucks {c.name} under {cards.card(where).name}"
                     + (", ready to use at once." if purchase["ready"] else "."), seat, "tuck")
        t["purchase"] = None

    def _resolve(self, state: State, decision: Decision, answers: dict[int, Action],
                 turn: Turn) -> None:
        if decision.kind == "feed":
            self._feed_everyone(state, turn, decision.data["hunger"], decision.steps)
            return
        seat, action = next(iter(answers.items()))
        words = action.notation.split(" ")
        if decision.kind == "buy":
            if words[0] == "use":
                self._use(state, seat, " ".join(words[1:]), turn)
                engine.ask(state, "buy", [seat], dict(decision.data))
                return
            if action.notation == "cancel":
                card_id = state["turn"]["purchase"]["card"]
                state["turn"]["purchase"] = None
                turn.say(f"{engine.seat_name(state, seat)} does not buy "
                         f"{cards.card(card_id).name} after all.", seat, "cancel")
                return
            self._pay(state, seat, turn)
        elif decision.kind == "place":
            self._place(state, seat, "keep" if words[0] == "keep" else self._monster_key(
                state, seat, " ".join(words[2:])), turn)
        self._maybe_end(state, seat, turn)

    @staticmethod
    def _monster_key(state: State, seat: int, key: str) -> str:
        return next(m for m in board.monster_ids(state, seat) if cards.card(m).key == key)

    # ----------------------------------------------------------------- notation

    def _canonical(self, text: str) -> str | None:
        text = " ".join(text.replace("'", "").replace("’", "").replace("-", " ").split())
        words = text.split(" ")
        verb, rest = words[0], " ".join(words[1:])
        if text in _END:
            return "end turn"
        if text in _COLLECT:
            return "collect"
        if text in _CONVERT:
            return "convert"
        if text in ("pay", "cancel", "keep", "feed all"):
            return text
        if m := _REMOVE.match(text):
            return f"remove {int(m.group(1))} black" if m.group(1) else "remove"
        if verb == "buy" and rest:
            for colour in cards.colours():
                if rest.endswith(" " + colour) and _known(rest[: -len(colour) - 1]):
                    return f"buy {rest}"
            return f"buy {rest}" if _known(rest) else None
        if verb == "use" and rest:
            if rest in ("none", "nothing", "no ability", "no abilities"):
                return "use none"
            keys = rest.split(" and ")
            return f"use {' and '.join(keys)}" if all(_known(k) for k in keys) else None
        if verb == "tuck" and rest:
            name = rest[6:] if rest.startswith("under ") else rest
            return f"tuck under {name}" if _known(name) else None
        if verb in ("let", "release") and rest:
            name = rest.removesuffix(" go").removeprefix("go ")
            return f"let {name} go" if _known(name) else None
        if verb == "feed" and (m := _PARTIAL.match(rest)) and _known(m.group(1)):
            return f"feed {m.group(1)} {int(m.group(2))} sugar"
        if verb == "feed" and rest:
            for word, how in sorted(_FEED_HOWS.items(), key=lambda kv: -len(kv[0])):
                if rest.endswith(" " + word) and _known(rest[: -len(word) - 1]):
                    return f"feed {rest[: -len(word) - 1]} {how}"
            if rest.endswith(" go") and _known(rest[:-3]):
                return f"let {rest[:-3]} go"
            return f"feed {rest}" if _known(rest) else None
        if text in ("buy", "use", "tuck", "feed", "let"):
            return text
        return None

    def _explain(self, state: State, seat: int, notation: str) -> str:
        return explain(self, state, seat, notation)

    # ----------------------------------------------------------------- views and results

    def _show(self, state: State, seat: int | None) -> View:
        return build_view(self, state, seat)

    def card_texts(self, view: View) -> list[CardText]:
        return card_texts(view)

    def _hidden(self, state: State) -> list[Hidden]:
        """Only the decks' order; the Black Candy answers are the engine's to hide."""
        return [Hidden(("decks", pile), None, pile) for pile in ("monsters", "abilities", "events")]

    def secrets(self, state: State, seat: int) -> list[str]:
        top = engine.top(state)
        if top is None or top.kind != "feed":
            return []
        steps = top.steps.get(seat, ())
        return [self.answer_tag(state, seat, steps)] if steps else []

    def answer_tag(self, state: State, seat: int, steps: Any) -> str:
        """A seat's feeding answer so far as one line, shown only in its own view."""
        return f"{engine.seat_name(state, seat)}'s secret feeding: {'; '.join(steps)}"

    def _result(self, state: State) -> Result | None:
        if state["final"] is None:
            return None
        players = range(len(state["seats"]))
        keys = {s: scoring.tie_key(state, s) for s in players}
        ranking = rank_by(keys)
        scores = {s: keys[s][0] for s in players}
        best = " and ".join(engine.seat_name(state, s) for s in ranking[0])
        verb = "share the win" if len(ranking[0]) > 1 else "wins"
        # Each seat's total is in the final scoring's narration and in the ranking that
        # follows the result: the summary names the winner only, so scores appear once.
        return Result(ranking, scores, f"{best} {verb} with {scores[ranking[0][0]]} candies.")

    def summary(self, state: State) -> str:
        if state["final"] is not None:
            result = self._result(state)
            return result.summary if result else "The game is over."
        left = len(cards.ids_of("black_candy")) - state["black_candies"]
        decks = state["decks"]
        tail = (f"Round {engine.round_of(state)}; "
                f"{plural(left, 'Black Candy', 'Black Candies')} to come; decks: "
                f"{plural(len(decks['monsters']), 'monster')}, "
                f"{plural(len(decks['abilities']), 'ability', 'abilities')}, "
                f"{plural(len(decks['events']), 'event')} to draw.")
        top = engine.top(state)
        if top is not None and top.kind == "feed":
            waiting = " and ".join(engine.seat_name(state, s) for s in top.waiting)
            return f"Black Candy: still feeding: {waiting}. {tail}"
        seat = state["turn"]["seat"]
        step = {"start": "to act", "after": "to finish the turn"}[state["turn"]["step"]]
        if top is not None:
            step = "buying" if top.kind == "buy" else "placing an ability"
        return f"{engine.seat_name(state, seat)} {step}. {tail}"

    def scores(self, state: State) -> dict[int, int]:
        return {s: scoring.breakdown(state, s)["total"] for s in range(len(state["seats"]))}

    def episode(self, state: State) -> str | None:
        top = engine.top(state)
        if top is not None and top.kind == "feed":
            return f"black-candy-{engine.round_of(state)}"
        if engine.phase_of(state) == "turns" and state["turn"] is not None:
            return f"turn-{engine.round_of(state)}-{state['turn']['seat']}"
        return None

    def _ai(self, view: View, legal: list[Action], rng: Rng) -> Action:
        return choose(view, legal, rng)

    def _stand_in_reason(self, before: View, after: View, seat: int,
                         move: str) -> str | None:
        """The monster it bought (and the start-of-turn sugar its sets now give), or, once
        a Black Candy's feeding is revealed, that it fed every monster without a black
        cube. A feeding answer is secret until all have answered: before that the
        spectators' view shows nothing of it, and nothing is said."""
        was, now = before["players"][seat], after["players"][seat]
        had = {m["id"] for m in was["monsters"]}
        bought = [m["id"] for m in now["monsters"] if m["id"] not in had]
        if bought:
            card = after["cards"][bought[0]]
            if now["set_sugar"] > was["set_sugar"]:
                return (f"It chose this move to buy the {card['name']}: its sets of monsters "
                        f"now give {now['set_sugar']} sugar at the start of its turn.")
            return (f"It chose this move to buy the {card['name']}, worth "
                    f"{plural(card['value'], 'candy', 'candies')} at the end.")
        fed = (after["last_feeding"] or {}).get(str(seat))
        revealed = after["black_candies"]["resolved"] > before["black_candies"]["resolved"]
        if revealed and fed is not None and fed["meals"] and not fed["black"] \
                and not fed["gone"]:
            return "It chose this feeding so that every monster ate and it took no black cube."
        return None

    @staticmethod
    def _names_list(state: State) -> list[str]:
        return [s["name"] for s in state["seats"]]


def _known(name: str) -> bool:
    """Is ``name`` a card's key, or the first words of one?"""
    return any(key == name or key.startswith(name + " ") for key in cards.typed_keys())


def _monster_offers(plan: feeding.Plan, monster: str, need: int, *,
                    partial: bool) -> list[Action]:
    """The ways one monster left may be fed, as its seat's answer goes on: all the sugar it
    can, then (with ``partial``, rules 2 on) every smaller amount of sugar, candy for what
    is short, only black cubes, or letting it go."""
    c = cards.card(monster)
    eats = feeding.need_now(plan, need)
    sugar = min(plan.sugar, eats)
    short = eats - sugar
    label = f"{c.name} eats {eats}: {sugar} sugar"
    if short:
        label += f" and {plural(short, 'black cube')}"
    out = [Action(f"feed {c.key} sugar", label)]
    if partial:
        # "one Black Sugar Cube for every Sugar Cube you are unable to (or choose not to)
        # feed": any smaller amount of sugar, black cubes for the rest.
        for given in range(sugar - 1, 0, -1):
            out.append(Action(f"feed {c.key} {given} sugar",
                              f"{c.name} eats {eats}: {given} sugar and "
                              f"{plural(eats - given, 'black cube')}"))
    if short and plan.candy:
        candy = min(plan.candy, short)
        text = f"{c.name} eats {eats}: {sugar} sugar and {plural(candy, 'candy', 'candies')}"
        if short > candy:
            text += f" and {plural(short - candy, 'black cube')}"
        out.append(Action(f"feed {c.key} candy", text))
    if eats:
        out.append(Action(f"feed {c.key} black",
                          f"{c.name} eats {eats}: take {plural(eats, 'black cube')}"))
    out.append(Action(f"let {c.key} go",
                      f"let {c.name} go (discarded with what is tucked under it)"))
    return out
