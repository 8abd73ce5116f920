"""Sugar Heist: draft costumes and hideout defences, then raid the next hideout on the track."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any, cast

from bot.games import engine
from bot.games.pieces import deck_draw, deck_shuffled, rank_by
from bot.games.rng import Rng
from bot.games.sugar_heist import cards, effects
from bot.games.sugar_heist.ai import choose, ranked
from bot.games.sugar_heist.dice import choices, clamp, payments, spends, spoken
from bot.games.sugar_heist.effects import Context
from bot.games.sugar_heist.view import build_view, card_texts
from bot.games.words import listing, possessive

ROOMS = 3
SLOTS = ("encounter", "mod")
EFFECT_DECISIONS = ("reroll", "lose", "add", "set", "choice", "exhaust")

_VALUES = r"([1-6](?:[ ,]+[1-6])*)"
_DICE = re.compile(rf"^(pay|reroll|lose|raise|lower|set) {_VALUES}$")
_BUILD = re.compile(r"^(?:build|place|put) (.+?)(?: in)?(?: room)? ([1-3])"
                    r"(?: (discard|move(?: to)?(?: room)? ([1-3])))?$")
_USE = re.compile(rf"^use (.+?)(?: on {_VALUES})?$")
_CHOOSE = re.compile(r"^(?:choose|option) ([1-9])$")


def _values(text: str) -> list[int]:
    return sorted(int(v) for v in re.split(r"[ ,]+", text) if v)


def _resolve_name(text: str, known: list[str]) -> str:
    """A card name from typed text: exact, else a unique prefix, else the text itself."""
    if text in known:
        return text
    hits = [k for k in known if k.startswith(text)]
    return hits[0] if len(hits) == 1 else text


class SugarHeist(engine.BaseRules):
    """The Sugar Heist rules: target, prep and heist phases over as many rounds as players."""

    slug = "sugar-heist"
    skips = ("pass",)
    title = "Sugar Heist"
    #: 2: any dice that satisfy a challenge pay it, not only the minimal ones.
    #: 3: the hideout cards rebalanced so that dearer cards stop more heists
    #: (``older`` in ``hideout.json`` keeps the cards of rules 1 and 2).
    rules_version = 3
    #: Games stored under these go on as they were (``state["rules"]``).
    older_rules = (1, 2)
    min_seats = 3
    max_seats = 6
    has_hidden_information = True
    private_choices = True
    has_joint_decisions = False
    has_chance = True
    has_content_files = True
    # Easy then beats random players and stays below its fair share against greedy ones
    # (docs/benchmarks.md).
    ai_easy_slips = 0.9
    phases = ("target", "prep", "heist")
    options = (
        engine.OptionSpec("rounds", "Rounds to play (0: one per player, as the rulebook says).",
                          "int",
                          0, minimum=0, maximum=6, said="{} rounds",
                          meanings=((0, "one round per player, as the rulebook says"),
                                    (1, "1 round"))),
    )
    step_joiners = frozenset({"room", "move"})
    #: Verbs followed by a handful of dice, chosen together in one step.
    DICE_VERBS = frozenset({"pay", "reroll", "lose"})
    notation_help = (
        "Moves: “board treehouse” (choose a hideout), “buy tomboy princess” (a costume), "
        "“build toothpick pit room 1” (a hand card face down; add “discard” or “move 3” if "
        "the slot is taken), “pass”; in a heist “pay 3 3”, “use tomboy princess on 2”, "
        "“suffer”, “reroll 5 6” / “reroll none” (defender), “lose 1”, “lower 5”, “raise 2”, "
        "“set 6”, “choose 1”, “flip ninja”."
    )
    rules_summary = (
        "Each round the bag sets the target track: everybody attacks the next player on it. "
        "In the prep phase each player gets $6 and a secret hand of hideout cards, then in "
        "turn order buys one card at a time (a costume from the market, face up, or a hand "
        "card placed face down in a room of their hideout) or passes for good; early passers "
        "get a little money. In the heist phase each attacker rolls 6 dice and enters the "
        "defender's three rooms in order: the room's cards flip up, their effects resolve "
        "(mod first), then the attacker pays the challenge with dice (costumes help once per "
        "heist) for 1 candy, or suffers the bad stuff. Get through all three rooms to steal 1 "
        "candy, plus 1 per sugar tax token the defender holds. The most candy at the end of a "
        "round takes a sugar tax token; the most candy after the last round wins."
    )

    # ----------------------------------------------------------------- set-up

    def _setup(self, state: engine.State, turn: engine.Turn) -> None:
        n = len(state["seats"])
        start = cards.start()
        supply = cards.supply()
        supply["candy"] -= start["candy"] * n
        rounds = state["options"]["rounds"] or cards.track(n)["rounds"]
        state.update({
            "players": [{"board": None, "candy": start["candy"], "money": 0, "tax": 0,
                         "costumes": [], "hand": [],
                         "rooms": [{"encounter": None, "mod": None} for _ in range(ROOMS)]}
                        for _ in range(n)],
            "supply": supply,
            "decks": {"costume": deck_shuffled(cards.costume_ids(), turn.rng),
                      **{str(c): deck_shuffled(cards.hideout_ids(c), turn.rng)
                         for c in (1, 2, 3)}},
            "market": [],
            "track": [],
            "rounds": rounds,
            "prep": None,
            "heist": None,
            "heists": [],
            "flow": {"round": 1, "phase": "setup"},
            "over": False,
        })
        turn.say(f"Sugar Heist for {n} players, {rounds} rounds. Each player starts with "
                 f"{start['candy']} candy and chooses a hideout.", None, "setup")
        engine.ask(state, "board", [0])

    # ----------------------------------------------------------------- phases

    def _begin_phase(self, state: engine.State, phase: str, turn: engine.Turn) -> None:
        if phase == "target":
            self._target(state, turn)
        elif phase == "prep":
            self._begin_prep(state, turn)
        else:
            self._begin_heists(state, turn)

    def _target(self, state: engine.State, turn: engine.Turn) -> None:
        n = len(state["seats"])
        state["track"] = deck_shuffled(list(range(n)), turn.rng)
        arrows = " → ".join(engine.seat_name(state, s) for s in state["track"])
        turn.say(f"Round {engine.round_of(state)}: the bag sets the target track: {arrows} → "
                 f"{engine.seat_name(state, state['track'][0])}.", None, "target", reveals=True)
        engine.next_phase(self, state, turn)

    def _begin_prep(self, state: engine.State, turn: engine.Turn) -> None:
        decks = state["decks"]
        for _ in range(cards.start()["market"]):
            card = deck_draw(decks["costume"])
            if card is not None:
                state["market"].append(card)
        allowance = cards.start()["allowance"]
        for seat in state["track"]:
            player = state["players"][seat]
            for cost, count in cards.start()["hand"].items():
                for _ in range(count):
                    card = deck_draw(decks[cost])
                    if card is not None:
                        player["hand"].append(card)
            player["hand"].sort()
            player["money"] += self._from_bank(state, allowance)
        state["prep"] = {"turn": state["track"][0], "passed": []}
        market = ", ".join(cards.design(c)["name"] for c in state["market"])
        turn.say(f"Prep phase: each player takes a hand of hideout cards and ${allowance}. "
                 f"Costume market: {market}.", None, "prep", reveals=True)

    @staticmethod
    def _from_bank(state: engine.State, amount: int) -> int:
        """Money from the bank. It never runs dry: below zero it owes the box more tokens."""
        state["supply"]["money"] -= amount
        return amount

    # ----------------------------------------------------------------- who acts, what is legal

    def _turn_actors(self, state: engine.State) -> frozenset[int]:
        if state["over"] or state["prep"] is None or engine.top(state) is not None:
            return frozenset()
        return frozenset({state["prep"]["turn"]})

    def _turn_actions(self, state: engine.State, seat: int) -> list[engine.Action]:
        prep = state["prep"]
        if state["over"] or prep is None or seat != prep["turn"]:
            return []
        player = state["players"][seat]
        money = player["money"]
        out: list[engine.Action] = []
        seen: set[str] = set()
        for card_id in state["market"]:
            d = cards.design(card_id)
            if d["key"] in seen or d["cost"] > money:
                continue
            seen.add(d["key"])
            out.append(engine.Action(f"buy {cards.lower_name(d)}",
                                     f"buy {d['name']} for ${d['cost']}: "
                                     f"{cards.steps_text(d['ability'])}"))
        for card_id in player["hand"]:
            d = cards.design(card_id)
            if d["key"] in seen or d["cost"] > money:
                continue
            seen.add(d["key"])
            out.extend(self._builds(player, d))
        out.append(engine.Action("pass", "pass for the rest of the prep phase"))
        return out

    def _builds(self, player: dict[str, Any], d: dict[str, Any]) -> list[engine.Action]:
        name, slot = cards.lower_name(d), d["kind"]
        out = []
        for room in range(1, ROOMS + 1):
            public = f"built a ${d['cost']} {slot} face down in room {room}"
            held = player["rooms"][room - 1][slot]
            if held is None:
                out.append(engine.Action(f"build {name} room {room}",
                                         f"{d['name']} face down as room {room}'s {slot} "
                                         f"(${d['cost']})", public))
                continue
            old = self._slot_name(held)
            out.append(engine.Action(f"build {name} room {room} discard",
                                     f"{d['name']} in room {room}, discarding {old} (${d['cost']})",
                                     f"{public}, discarding the card there"))
            for other in range(1, ROOMS + 1):
                if other != room and player["rooms"][other - 1][slot] is None:
                    out.append(engine.Action(f"build {name} room {room} move {other}",
                                             f"{d['name']} in room {room}, moving {old} to room "
                                             f"{other} (${d['cost']})",
                                             f"{public}, moving the card there to room {other}"))
        return out

    @staticmethod
    def _slot_name(held: dict[str, Any]) -> str:
        return cast("str", cards.design(held["id"])["name"])

    def _decision_actions(self, state: engine.State, decision: engine.Decision,
                          seat: int) -> list[engine.Action]:
        if decision.kind == "board":
            taken = {p["board"] for p in state["players"]}
            return [engine.Action(f"board {cards.lower_name(b)}",
                                  f"{b['name']} (default encounter {b['default']['name']}: "
                                  f"{cards.challenge_text(b['default']['challenge'])})")
                    for b in cards.boards() if b["key"] not in taken]
        if decision.kind == "challenge":
            return self._challenge_actions(state)
        ctx = Context(self, state, engine.Turn(Rng(0)))
        return [engine.Action(n, label) for n, label in
                effects.options(ctx, decision.kind, decision.data["step"])]

    def _challenge_actions(self, state: engine.State) -> list[engine.Action]:
        h = state["heist"]
        pool = tuple(h["pool"])
        enc = self.encounter(state)
        need = cards.challenge_text(enc["challenge"])
        cheapest = payments(pool, enc["challenge"])
        # Any dice that satisfy the challenge pay it (rules 2 on; rules 1 took only the
        # cheapest ways); the cheapest come first.
        ways = spends(pool, enc["challenge"]) if state["rules"] >= 2 else cheapest
        out = [engine.Action(f"pay {' '.join(map(str, p))}",
                             f"pay {spoken(p)} for {need}"
                             + ("" if p in cheapest else " (more dice than it needs)"))
               for p in ways]
        seen: set[str] = set()
        for c in state["players"][h["attacker"]]["costumes"]:
            d = cards.design(c["id"])
            if c["used"] or d["key"] in seen:
                continue
            seen.add(d["key"])
            out.extend(self._costume_uses(pool, d))
        out.append(engine.Action("suffer", f"suffer: {cards.steps_text(enc['bad'])}"))
        return out

    @staticmethod
    def _costume_uses(pool: tuple[int, ...], d: dict[str, Any]) -> list[engine.Action]:
        name = cards.lower_name(d)
        text = cards.steps_text(d["ability"])
        targeted = [s for s in d["ability"] if s["do"] in ("add", "set", "reroll")]
        if not targeted:
            step = d["ability"][0]
            if step["do"] == "gain_die" and len(pool) >= cards.start()["max_dice"]:
                return []
            if step["do"] == "add_all" and all(clamp(v + step["amount"]) == v for v in pool):
                return []
            return [engine.Action(f"use {name}", f"use {d['name']}: {text}")]
        step = targeted[0]
        out = []
        for pick in choices(pool, step.get("count", 1), up_to=True):
            if step["do"] == "add" and all(clamp(v + step["amount"]) == v for v in pick):
                continue
            if step["do"] == "set" and all(v == step["value"] for v in pick):
                continue
            values = " ".join(map(str, pick))
            out.append(engine.Action(f"use {name} on {values}",
                                     f"use {d['name']} on {spoken(pick)}: "
                                                         f"{text}"))
        return out

    def move_steps(self, notation: str) -> tuple[str, ...]:
        """The dice a move pays, rerolls, loses or uses a costume on are one choice
        (``pay`` then ``3 3``; ``use ninja`` then ``on 2 5``)."""
        verb, _, dice = notation.partition(" ")
        if verb in self.DICE_VERBS and dice:
            return (verb, dice)
        head, on, dice = notation.partition(" on ")
        if on:
            return (*super().move_steps(head), f"on {dice}")
        return super().move_steps(notation)

    def quick_choices(self, state: engine.State, seat: int) -> list[engine.Action]:
        actions = engine.legal_actions(self, state, seat)
        if len(actions) <= 25:
            return actions
        top = engine.top(state)
        if top is not None and top.kind == "challenge":
            # Many ways to pay: the cheapest ones, then costumes and suffer.
            more = self.dominated(state, seat, actions)
            return [a for a in actions if a.notation not in more][:25]
        if top is not None and top.kind == "reroll":
            return [a for a in actions if not a.notation[len("reroll "):][:1].isdigit()]
        return [a for a in actions if not a.notation.startswith("build ")][:25]

    def multi_select(self, state: engine.State, seat: int) -> engine.MultiSelect | None:
        """The defender's reroll as one menu of dice, each die of the pool one option (two
        3s are two options that both read ``3``): a handful of dice among up to six make
        too many ways to list. Every other choice of dice is few enough to offer whole
        once the dearer payments are left out (:meth:`dominated`)."""
        top = engine.top(state)
        if top is None or seat not in top.waiting or state["heist"] is None:
            return None
        pool = state["heist"]["pool"]
        if not pool or top.kind != "reroll":
            return None
        count = min(top.data["step"].get("count", 1), len(pool))
        if count < 2:
            return None
        dice = tuple((f"d{i + 1}", f"die {i + 1}: {v}") for i, v in enumerate(pool))
        words = tuple(str(v) for v in pool)
        return engine.MultiSelect(dice, "reroll {}", 1, count, "Dice to reroll…", words)

    def dominated(self, state: engine.State, seat: int,
                  actions: Sequence[engine.Action]) -> frozenset[str]:
        """Payments with more dice than the challenge needs: some of their dice alone pay
        it, and the dice kept go on to the next rooms (rules 2 on; rules 1 took only the
        cheapest ways)."""
        top = engine.top(state)
        if top is None or top.kind != "challenge" or state["rules"] < 2 \
                or state["heist"] is None:
            return frozenset()
        cheapest = {f"pay {' '.join(map(str, p))}"
                    for p in payments(tuple(state["heist"]["pool"]),
                                      self.encounter(state)["challenge"])}
        return frozenset(a.notation for a in actions
                         if a.notation.startswith("pay ") and a.notation not in cheapest)

    def rank_actions(self, state: engine.State, seat: int,
                     actions: list[engine.Action]) -> list[engine.Action]:
        """In the prep phase ``pass``, then the cheapest cards first (a newcomer reads the
        dear builds last); in a heist the AI's order of the answers."""
        if engine.top(state) is None:
            def cost(action: engine.Action) -> int:
                if action.notation == "pass":
                    return -1
                key = cards.names().get(action.notation.split(" ", 1)[1].split(" room ")[0])
                card = cards.costumes().get(key or "") or \
                    cards.hideout_cards(state["rules"]).get(key or "")
                return int(card["cost"]) if card else len(actions)
            return sorted(actions, key=cost)
        return ranked(engine.view(self, state, seat), actions)

    def episode(self, state: engine.State) -> str | None:
        h = state["heist"]
        if h is None or state["over"]:
            return None
        return f"heist-{engine.round_of(state)}-{h['attacker']}"

    # ----------------------------------------------------------------- notation

    def _canonical(self, text: str) -> str | None:
        if text in ("pass", "suffer", "pay", "buy", "build", "use", "board", "flip", "lose",
                    "reroll", "raise", "lower", "set", "choose"):
            return text
        if text in ("reroll none", "reroll nothing", "no reroll", "reroll no dice"):
            return "reroll none"
        if m := _DICE.match(text):
            return f"{m.group(1)} {' '.join(map(str, _values(m.group(2))))}"
        if m := _CHOOSE.match(text):
            return f"choose {m.group(1)}"
        known = list(cards.names())
        if m := _BUILD.match(text):
            name = _resolve_name(m.group(1), known)
            out = f"build {name} room {m.group(2)}"
            if m.group(3) == "discard":
                out += " discard"
            elif m.group(3):
                out += f" move {m.group(4)}"
            return out
        if m := _USE.match(text):
            name = _resolve_name(m.group(1), known)
            return f"use {name} on {' '.join(map(str, _values(m.group(2))))}" if m.group(2) \
                else f"use {name}"
        for verb in ("buy", "build", "flip", "board"):
            if text.startswith(verb + " "):
                return f"{verb} {_resolve_name(text[len(verb) + 1:], known)}"
        return None

    def _explain(self, state: engine.State, seat: int, notation: str) -> str:
        words = notation.split(" ")
        verb = words[0]
        top = engine.top(state)
        h = state["heist"]
        if top is None:
            if verb in ("buy", "build", "pass"):
                return self._explain_prep(state, seat, notation)
            return "Now it is the prep phase: “buy” a costume, “build” a hand card or “pass”."
        if top.kind == "board":
            if verb != "board":
                return "First choose your hideout board, e.g. “board treehouse”."
            return "That board is taken or does not exist: choose one of the boards offered."
        kinds = {"challenge": ("pay", "use", "suffer"), "reroll": ("reroll",),
                 "lose": ("lose",), "add": ("raise", "lower"), "set": ("set",),
                 "choice": ("choose",), "exhaust": ("flip",)}
        expected = kinds.get(top.kind, ())
        hint = " or ".join(f"“{a.notation}”" for a in engine.legal_actions(self, state, seat)[:4])
        if verb not in expected:
            return f"Now answer the room: for example {hint}."
        if h is None:
            return f"“{notation}” is not a legal move right now."
        pool = h["pool"]
        values = [int(w) for w in words[1:] if w.isdigit()]
        missing = _missing(pool, values)
        yours = f"your dice are {spoken(pool)}" if pool else "you have no dice left"
        if verb == "pay":
            enc = self.encounter(state)
            need = cards.challenge_text(enc["challenge"])
            ways = payments(tuple(pool), enc["challenge"])
            shown = [" ".join(map(str, w)) for w in ways[:5]]
            either = f"{', '.join(shown[:-1])} or {shown[-1]}" if len(shown) > 1 else "".join(shown)
            can = (f"you can pay {either}{' (among others)' if len(ways) > 5 else ''} for "
                   f"{need}" if ways else f"no dice of yours pay {need}: use a costume or "
                                          f"“suffer”")
            if missing:
                return f"You have no {spoken(missing)}: {yours}; {can}."
            if not values:
                return f"Say which dice pay: {can}."
            return f"{spoken(values)} does not pay {need}: {can}."
        if missing:
            return f"There is no {spoken(missing)} to choose: {yours}."
        if verb == "use":
            return ("That costume is not yours, is already used this heist, or cannot do "
                    "anything to those dice.")
        if verb in ("reroll", "lose", "raise", "lower", "set"):
            count = top.data.get("step", {}).get("count", 1)
            if verb == "reroll":
                return f"Choose up to {count} of the attacker's dice to reroll, or “reroll none”."
            return f"Choose exactly {min(count, len(pool))} of the dice: for example {hint}."
        return f"“{notation}” is not a legal answer now: for example {hint}."

    def _explain_prep(self, state: engine.State, seat: int, notation: str) -> str:
        words = notation.split(" ")
        player = state["players"][seat]
        if words[0] == "buy":
            name = " ".join(words[1:])
            key = cards.names().get(name)
            market = {cards.instances()[c] for c in state["market"]}
            if key not in cards.costumes():
                return f"There is no costume called {name!r}."
            if key not in market:
                return f"{cards.costumes()[key]['name']} is not in the costume market."
            return (f"{cards.costumes()[key]['name']} costs ${cards.costumes()[key]['cost']}; "
                    f"you have ${player['money']}.")
        if words[0] == "build":
            m = re.match(r"^build (.+?)(?: room ([1-3]).*)?$", notation)
            name = m.group(1) if m else ""
            key = cards.names().get(name)
            hand = {cards.instances()[c] for c in player["hand"]}
            if key not in hand:
                return "That card is not in your hand."
            d = cards.hideout_cards()[key]
            if d["cost"] > player["money"]:
                return f"{d['name']} costs ${d['cost']}; you have ${player['money']}."
            if m and m.group(2):
                held = player["rooms"][int(m.group(2)) - 1][d["kind"]]
                if held is not None and not notation.endswith(("discard",)) and \
                        "move" not in notation:
                    return (f"Room {m.group(2)}'s {d['kind']} slot is taken: add “discard” or "
                            "“move <room>” to say what happens to the card there.")
                if held is None:
                    return f"Room {m.group(2)}'s {d['kind']} slot is empty: nothing to discard."
                return ("You can only move the card there to a room whose "
                        f"{d['kind']} slot is empty.")
            return f"Say which room: “build {name} room 1”."
        return "You have passed: wait for the heists."

    # ----------------------------------------------------------------- prep play

    def _play(self, state: engine.State, seat: int, action: engine.Action,
              turn: engine.Turn) -> None:
        words = action.notation.split(" ")
        player = state["players"][seat]
        name = engine.seat_name(state, seat)
        if words[0] == "pass":
            prep = state["prep"]
            prep["passed"].append(seat)
            bonuses = cards.track(len(state["seats"]))["pass_bonus"]
            place = len(prep["passed"])
            bonus = self._from_bank(state, bonuses[place - 1]) if place <= len(bonuses) else 0
            player["money"] += bonus
            extra = f" and gains ${bonus}" if bonus else ""
            turn.say(f"{name} passes{extra}.", seat, "pass")
            moved: dict[str, Any] = {"seat": seat, "did": "pass", "bonus": bonus}
        elif words[0] == "buy":
            key = cards.names()[" ".join(words[1:])]
            card_id = next(c for c in state["market"] if cards.instances()[c] == key)
            d = cards.design(card_id)
            state["market"].remove(card_id)
            self._pay(state, seat, d["cost"])
            player["costumes"].append({"id": card_id, "used": False})
            refill = deck_draw(state["decks"]["costume"])
            text = f"{name} buys {d['name']} for ${d['cost']}."
            if refill is not None:
                state["market"].append(refill)
                text += f" {cards.design(refill)['name']} comes into the market."
            turn.say(text, seat, "buy", reveals=refill is not None)
            moved = {"seat": seat, "did": "buy", "card": key}
        else:
            moved = self._build(state, seat, action, turn)
        self._next_prep_turn(state, turn, seat)
        self._note(state, moved)

    def _pay(self, state: engine.State, seat: int, amount: int) -> None:
        state["players"][seat]["money"] -= amount
        state["supply"]["money"] += amount

    def _build(self, state: engine.State, seat: int, action: engine.Action,
               turn: engine.Turn) -> dict[str, Any]:
        """Build a hand card face down; returns the move as :meth:`_note` keeps it (the
        room and slot, never the card)."""
        m = _BUILD.match(action.notation)
        assert m is not None
        player = state["players"][seat]
        key = cards.names()[m.group(1)]
        card_id = next(c for c in player["hand"] if cards.instances()[c] == key)
        d = cards.design(card_id)
        room = int(m.group(2)) - 1
        slot = d["kind"]
        player["hand"].remove(card_id)
        self._pay(state, seat, d["cost"])
        held = player["rooms"][room][slot]
        public = f"{engine.seat_name(state, seat)} {action.public}."
        private = f"You built {d['name']} face down as room {room + 1}'s {slot}."
        if held is not None and m.group(3) == "discard":
            state["decks"][cards.design(held["id"])["cost"].__str__()].insert(0, held["id"])
            if held["up"]:
                public = public[:-1] + f" ({self._slot_name(held)}, face up, goes back under " \
                                       "its deck)."
            private += f" {self._slot_name(held)} went to the bottom of its deck."
        elif held is not None:
            other = int(m.group(4)) - 1
            player["rooms"][other][slot] = held
            if held["up"]:
                public = public[:-1] + f" ({self._slot_name(held)}, face up)."
            private += f" {self._slot_name(held)} moved to room {other + 1}."
        player["rooms"][room][slot] = {"id": card_id, "up": False}
        turn.say(public, seat, "build")
        turn.say(private, seat, "build", to=(seat,))
        return {"seat": seat, "did": "build", "room": room + 1, "slot": slot,
                "cost": d["cost"], "discarded": held is not None and m.group(3) == "discard",
                "moved": int(m.group(4)) if held is not None and m.group(4) else None}

    def _next_prep_turn(self, state: engine.State, turn: engine.Turn, seat: int) -> None:
        prep = state["prep"]
        track = state["track"]
        i = track.index(seat)
        for step in range(1, len(track) + 1):
            nxt = track[(i + step) % len(track)]
            if nxt not in prep["passed"]:
                prep["turn"] = nxt
                return
        self._end_prep(state, turn)

    def _end_prep(self, state: engine.State, turn: engine.Turn) -> None:
        decks = state["decks"]
        decks["costume"].extend(state["market"])
        state["market"] = []
        for player in state["players"]:
            for card_id in player["hand"]:
                decks[str(cards.design(card_id)["cost"])].append(card_id)
            player["hand"] = []
        # In a fixed order: a state read back from the store has its keys sorted, one
        # kept in memory does not, and both must shuffle alike.
        for name in sorted(decks):
            turn.rng.shuffle(decks[name])
        state["prep"] = None
        turn.say("Everybody has passed: unbought costumes and hand cards are shuffled back "
                 "into their decks.", None, "prep")
        engine.next_phase(self, state, turn)

    # ----------------------------------------------------------------- decisions

    def _resolve(self, state: engine.State, decision: engine.Decision,
                 answers: dict[int, engine.Action],
                 turn: engine.Turn) -> None:
        seat, action = next(iter(answers.items()))
        words = action.notation.split(" ")
        if decision.kind == "board":
            key = cards.names()[" ".join(words[1:])]
            state["players"][seat]["board"] = key
            turn.say(f"{engine.seat_name(state, seat)} takes the {cards.board(key)['name']}.",
                     seat, "board")
            if seat + 1 < len(state["seats"]):
                engine.ask(state, "board", [seat + 1])
            else:
                engine.start_phases(self, state, turn)
            self._note(state, {"seat": seat, "did": "board", "board": key})
            return
        ctx = Context(self, state, turn)
        h = state["heist"]
        moved = {"seat": seat, "did": words[0], "notation": action.notation,
                 "attacker": h["attacker"], "defender": h["defender"], "index": h["index"],
                 "room": h["room"] + 1, "costume": self._costume_named(words)}
        if decision.kind == "challenge":
            self._answer_challenge(ctx, words)
        else:
            effects.answer(ctx, decision.kind, decision.data["step"], decision.data["src"],
                           words)
        self._advance(state, turn)
        self._note(state, moved)

    @staticmethod
    def _costume_named(words: list[str]) -> str | None:
        """The costume a move uses or flips (``use ninja``, ``flip tin robot``), by key."""
        if words[0] not in ("use", "flip"):
            return None
        m = _USE.match(" ".join(words))
        name = m.group(1) if m and words[0] == "use" else " ".join(words[1:])
        return cards.names().get(name)

    @staticmethod
    def _note(state: engine.State, moved: dict[str, Any]) -> None:
        """Keep the move just made for the picture's last-move mark, in the heist under
        way or else the prep phase (both gone once the game is over): a built card is kept
        by its room and slot, never by name."""
        holder = state["heist"] if state["heist"] is not None else state["prep"]
        if holder is not None:
            holder["moved"] = moved

    def _answer_challenge(self, ctx: Context, words: list[str]) -> None:
        h = ctx.heist
        name = ctx.name(ctx.attacker)
        enc = self.encounter(ctx.state)
        if words[0] == "pay":
            values = [int(w) for w in words[1:]]
            for v in values:
                h["pool"].remove(v)
            gained = 1 if ctx.state["supply"]["candy"] > 0 else 0
            ctx.state["supply"]["candy"] -= gained
            ctx.player(ctx.attacker)["candy"] += gained
            h["gained"] += gained
            h["outcomes"][h["room"]] = "cleared"
            h["stage"] = "passed"
            ctx.say(f"{name} pays {spoken(values)} for {enc['name']}, clears room "
                    f"{h['room'] + 1} and gains {gained} candy.")
        elif words[0] == "suffer":
            self._suffer(ctx, enc, chose=True)
        else:
            m = _USE.match(" ".join(words))
            assert m is not None
            key = cards.names()[m.group(1)]
            costume = next(c for c in ctx.player(ctx.attacker)["costumes"]
                           if not c["used"] and cards.instances()[c["id"]] == key)
            costume["used"] = True
            d = cards.design(costume["id"])
            targets = _values(m.group(2)) if m.group(2) else []
            ctx.say(f"{name} flips {d['name']} face down: {cards.steps_phrase(d['ability'])}.")
            for step in d["ability"]:
                if step["do"] in ("add", "set"):
                    effects.change_dice(ctx, targets, step)
                elif step["do"] == "reroll":
                    effects.reroll_dice(ctx, targets, d["name"])
                else:
                    effects.VERBS[step["do"]](ctx, step, d["name"])
            if h.get("dodged"):
                h["outcomes"][h["room"]] = "dodged"
                h["stage"] = "passed"

    def _suffer(self, ctx: Context, enc: dict[str, Any], chose: bool) -> None:
        h = ctx.heist
        why = "chooses to suffer" if chose else "cannot pay and suffers"
        ctx.say(f"{ctx.name(ctx.attacker)} {why} {possessive(enc['name'])} bad stuff: "
                f"{cards.steps_phrase(enc['bad'])}.")
        h["outcomes"][h["room"]] = "suffered"
        h["stage"] = "bad"
        h["complete"] = True
        effects.push(ctx, enc["bad"], enc["name"])

    # ----------------------------------------------------------------- the heist

    def encounter(self, state: engine.State) -> dict[str, Any]:
        """The encounter of the room being entered: its card, or the board's default."""
        h = state["heist"]
        defender = state["players"][h["defender"]]
        held = defender["rooms"][h["room"]]["encounter"]
        if held is not None:
            return cards.design(held["id"], state["rules"])
        return cast("dict[str, Any]", cards.board(defender["board"])["default"])

    def _begin_heists(self, state: engine.State, turn: engine.Turn) -> None:
        self._start_heist(state, turn, 0)
        self._advance(state, turn)

    def _start_heist(self, state: engine.State, turn: engine.Turn, index: int) -> None:
        track = state["track"]
        attacker, defender = track[index], track[(index + 1) % len(track)]
        pool = sorted(turn.rng.roll(6) for _ in range(cards.start()["dice"]))
        state["heist"] = {"index": index, "attacker": attacker, "defender": defender,
                          "room": 0, "pool": pool, "start": list(pool), "queue": [],
                          "stage": "enter", "complete": True, "ended": False, "dodged": False,
                          "outcomes": [None] * ROOMS, "gained": 0, "lost": 0, "stolen": 0,
                          "outside": None, "log": []}
        self.narrate(state, turn, f"{engine.seat_name(state, attacker)} raids "
                     f"{engine.seat_name(state, defender)}'s hideout and rolls {spoken(pool)}.",
                     reveals=True, hits=(defender,))

    def narrate(self, state: engine.State, turn: engine.Turn, text: str, reveals: bool = False,
                hits: tuple[int, ...] = ()) -> None:
        """A public line of the heist story (kept for the picture as well)."""
        h = state["heist"]
        turn.say(text, h["attacker"] if h else None, "heist", reveals=reveals, hits=hits)
        if h is not None:
            h["log"] = [*h["log"][-3:], text]

    def _enter(self, state: engine.State, turn: engine.Turn) -> None:
        h = state["heist"]
        defender = state["players"][h["defender"]]
        room = defender["rooms"][h["room"]]
        dname = engine.seat_name(state, h["defender"])
        h.update(stage="effects", complete=True, dodged=False, outside=None)
        flipped = []
        for slot in ("mod", "encounter"):
            held = room[slot]
            if held is not None and not held["up"]:
                held["up"] = True
                flipped.append(self._slot_name(held))
        enc = self.encounter(state)
        mod = cards.design(room["mod"]["id"], state["rules"]) if room["mod"] else None
        where = f"room {h['room'] + 1}: {enc['name']}" + (f" with {mod['name']}" if mod else "")
        self.narrate(state, turn, f"{engine.seat_name(state, h['attacker'])} enters {where}.")
        if flipped:
            self.narrate(state, turn, f"{dname} flips {' and '.join(flipped)} face up.",
                         reveals=True)
        ctx = Context(self, state, turn)
        effects.push(ctx, enc.get("effect", []), enc["name"])
        if mod is not None:
            effects.push(ctx, mod["effect"], mod["name"])

    def _offer_challenge(self, state: engine.State, turn: engine.Turn) -> bool:
        """Ask the attacker to pay, use a costume or suffer; suffer at once if nothing else."""
        h = state["heist"]
        h["stage"] = "challenge"
        if [a for a in self._challenge_actions(state) if a.notation != "suffer"]:
            engine.ask(state, "challenge", [h["attacker"]])
            return True
        self._suffer(Context(self, state, turn), self.encounter(state), chose=False)
        return False

    def _advance(self, state: engine.State, turn: engine.Turn) -> None:
        """Run the heist on until somebody must decide, the phase changes or the game ends."""
        while not state["over"] and state["heist"] is not None:
            h = state["heist"]
            ctx = Context(self, state, turn)
            if h["queue"]:
                if effects.run_next(ctx):
                    return
                continue
            if h["ended"]:
                self._finish_heist(state, turn, passed=False)
                continue
            stage = h["stage"]
            if stage == "enter":
                self._enter(state, turn)
            elif stage in ("effects", "challenge"):
                if self._offer_challenge(state, turn):
                    return
            elif stage == "bad":
                if h["complete"]:
                    h["stage"] = "passed"
                    self.narrate(state, turn, f"{ctx.name(ctx.attacker)} suffered it all and "
                                 "goes on, without candy for the room.")
                else:
                    self.narrate(state, turn, f"{ctx.name(ctx.attacker)} could not suffer all "
                                 "the bad stuff: the heist ends.")
                    self._finish_heist(state, turn, passed=False)
            elif stage == "passed":
                h["room"] += 1
                if h["room"] == ROOMS:
                    self._finish_heist(state, turn, passed=True)
                else:
                    h["stage"] = "enter"

    def _finish_heist(self, state: engine.State, turn: engine.Turn, passed: bool) -> None:
        h = state["heist"]
        attacker, defender = h["attacker"], h["defender"]
        a, d = state["players"][attacker], state["players"][defender]
        aname, dname = engine.seat_name(state, attacker), engine.seat_name(state, defender)
        if passed:
            steal = min(1 + d["tax"], d["candy"])
            d["candy"] -= steal
            a["candy"] += steal
            h["stolen"] = steal
            tax = f" (1 + {d['tax']} for sugar tax)" if d["tax"] else ""
            took = (f"steals {steal} candy{tax} from {dname}" if steal
                    else f"finds no candy to steal in {possessive(dname)} hideout")
            self.narrate(state, turn, f"{aname} got past all three rooms and {took}.",
                         hits=(h["defender"],) if steal else ())
        else:
            self.narrate(state, turn, f"{aname}'s heist on {dname} ends in room "
                         f"{h['room'] + 1}: nothing stolen.")
        for c in a["costumes"]:
            c["used"] = False
        state["heists"].append({"round": engine.round_of(state), "attacker": attacker,
                                "defender": defender, "passed": passed,
                                "rooms": sum(1 for o in h["outcomes"] if o),
                                "cleared": sum(1 for o in h["outcomes"] if o == "cleared"),
                                "gained": h["gained"], "lost": h["lost"], "stolen": h["stolen"]})
        index = h["index"] + 1
        state["heist"] = None
        if index < len(state["track"]):
            self._start_heist(state, turn, index)
            return
        self._end_round(state, turn)

    def _end_round(self, state: engine.State, turn: engine.Turn) -> None:
        players = state["players"]
        most = max(p["candy"] for p in players)
        takers = [s for s, p in enumerate(players) if p["candy"] == most]
        for seat in takers:
            if state["supply"]["sugar_tax"] > 0:
                state["supply"]["sugar_tax"] -= 1
                players[seat]["tax"] += 1
        names = listing([engine.seat_name(state, s) for s in takers])
        turn.say(f"End of round {engine.round_of(state)}: {names} "
                 f"{'has' if len(takers) == 1 else 'have'} the most candy ({most}) and "
                 f"{'takes' if len(takers) == 1 else 'take'} a sugar tax token.", None, "tax")
        if engine.round_of(state) >= state["rounds"]:
            state["over"] = True
            result = self._result(state)
            turn.say(f"The game is over. {result.summary if result else ''}", None, "end")
            return
        engine.next_phase(self, state, turn)

    # ----------------------------------------------------------------- views and results

    def _show(self, state: engine.State, seat: int | None) -> engine.View:
        return build_view(self, state, seat)

    def _hidden(self, state: engine.State) -> list[engine.Hidden]:
        """Undrawn decks are nobody's; a hand and its face-down room cards are its owner's."""
        places = [engine.Hidden(("decks", "costume"), None, "costume"),
                  *(engine.Hidden(("decks", str(c)), None, "hideout") for c in (1, 2, 3))]
        for seat, player in enumerate(state["players"]):
            places.append(engine.Hidden(("players", seat, "hand"), seat, "hideout"))
            for r, room in enumerate(player["rooms"]):
                for slot in SLOTS:
                    if room[slot] is not None and not room[slot]["up"]:
                        places.append(engine.Hidden(("players", seat, "rooms", r, slot, "id"), seat,
                                                    "hideout", single=True))
        return places

    def _back_of(self, pool: str, item: Any) -> Any:
        """A hideout card's back shows its cost; others also see which slot it fills."""
        if pool != "hideout":
            return None
        card = cards.design(item)
        return [card["cost"], card["kind"]]

    def _result(self, state: engine.State) -> engine.Result | None:
        if not state["over"]:
            return None
        players = state["players"]
        keys = {s: (p["candy"], p["tax"], p["money"]) for s, p in enumerate(players)}
        ranking = rank_by(keys)
        best = listing([engine.seat_name(state, s) for s in ranking[0]])
        verb = "share the win" if len(ranking[0]) > 1 else "wins"
        lines = "; ".join(f"{engine.seat_name(state, s)} {p['candy']} candy, {p['tax']} tax, "
                          f"${p['money']}" for s, p in enumerate(players))
        return engine.Result(ranking, {s: p["candy"] for s, p in enumerate(players)},
                             f"{best} {verb}. {lines}.")

    def summary(self, state: engine.State) -> str:
        if state["over"]:
            result = self._result(state)
            return result.summary if result else "The game is over."
        phase = engine.phase_of(state)
        if phase == "setup":
            return "Players are choosing their hideouts."
        where = f"Round {engine.round_of(state)} of {state['rounds']}, {phase} phase."
        h = state["heist"]
        if h is not None:
            return (f"{where} {engine.seat_name(state, h['attacker'])} raids "
                    f"{engine.seat_name(state, h['defender'])}, room {h['room'] + 1}; pool "
                    f"{spoken(h['pool']) if h['pool'] else 'empty'}.{self._room_words(state)}")
        if state["prep"] is not None:
            hands = ", ".join(f"{engine.seat_name(state, s)} {len(state['players'][s]['hand'])}"
                              for s in state["track"])
            return (f"{where} {engine.seat_name(state, state['prep']['turn'])} to buy or pass. "
                    f"Cards in hand: {hands}.")
        return where

    def _room_words(self, state: engine.State) -> str:
        """The room being raided in words, once its cards are face up: what the picture
        draws as icons (" Room 2, Slime Bucket: Challenge: A pair. Bad stuff: …")."""
        h = state["heist"]
        room = state["players"][h["defender"]]["rooms"][h["room"]]
        if any(held is not None and not held["up"] for held in room.values()):
            return ""  # not entered yet: its cards are still face down
        words = []
        if room["mod"] is not None:
            mod = cards.describe(cards.design(room["mod"]["id"], state["rules"]), state["rules"])
            words.append(f"Mod {mod['name']}: {mod['effect']}")
        enc = cards.describe(self.encounter(state), state["rules"])
        effect = f" Effect: {enc['effect']}" if enc["effect"] else ""
        words.append(f"Room {h['room'] + 1}, {enc['name']}:{effect} Challenge: "
                     f"{enc['challenge']}. Bad stuff: {enc['bad']}")
        return " " + " ".join(words)

    def scores(self, state: engine.State) -> dict[int, int]:
        return {s: p["candy"] for s, p in enumerate(state["players"])}

    def card_texts(self, view: engine.View) -> list[engine.CardText]:
        return card_texts(view)

    def _ai(self, view: engine.View, legal: list[engine.Action], rng: Rng) -> engine.Action:
        return choose(view, legal, rng)

    def _stand_in_reason(self, before: engine.View, after: engine.View, seat: int,
                         move: str) -> str | None:
        """The room its heist cleared, the pass bonus, the costume it bought for its next
        heist, or the hideout it built against its attacker. A card built face down is
        never named: ``move`` is what everybody read ("built a $2 encounter ...")."""
        was, now = before["seats"][seat], after["seats"][seat]
        names = [s["name"] for s in after["seats"]]
        heist = after["heist"] or after["last"]
        if move.startswith("pay ") and heist and heist["attacker"] == seat:
            gained = now["candy"] - was["candy"]
            if gained > 0:
                return (f"It chose this move to clear a room of "
                        f"{possessive(names[heist['defender']])} hideout and gain "
                        f"{gained} candy.")
            return None
        if move == "pass":
            bonus = now["money"] - was["money"]
            return f"It passed now to take the ${bonus} bonus." if bonus > 0 else None
        target = next((t for t in after["targets"] if seat in t), None)
        if move.startswith("buy ") and target is not None:
            bought = [c["key"] for c in now["costumes"]]
            for c in was["costumes"]:
                bought.remove(c["key"])
            defender = next(d for a, d in after["targets"] if a == seat)
            if bought and defender != seat:
                costume = after["cards"][bought[0]]["name"]
                return (f"It chose this move to take the {costume} costume into its heist on "
                        f"{possessive(names[defender])} hideout.")
        if move.startswith("built ") and target is not None:
            attacker = next(a for a, d in after["targets"] if d == seat)
            if attacker != seat:
                return (f"It chose this move to guard its hideout against "
                        f"{possessive(names[attacker])} heist.")
        return None


def _missing(pool: list[int], values: list[int]) -> list[int]:
    """Values not covered by ``pool`` (counting repeats)."""
    left = list(pool)
    out = []
    for v in values:
        if v in left:
            left.remove(v)
        else:
            out.append(v)
    return out
