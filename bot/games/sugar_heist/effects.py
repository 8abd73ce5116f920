"""The one interpreter of card steps: every effect, bad stuff and costume is data.

A step is ``{"do": verb, ...}``. The verbs:

=============  ===============================================================
reroll         ``count`` dice rerolled, chosen ``by`` the defender or attacker
               (up to ``count``: the chooser may reroll fewer)
reroll_all     every die that fits the die words (``at_least``, ``odd``, ...)
lose           ``count`` dice lost, chosen ``by`` attacker/defender, or the
               ``highest``/``lowest``
lose_all       every die that fits the die words
add            ``amount`` (+/-) to ``count`` dice chosen ``by`` ...
add_all        ``amount`` to every die (that fits the die words, if any)
set            ``count`` dice chosen ``by`` ... turned to ``value``
gain_die       ``count`` dice rolled from outside into the pool (at most 8 dice)
outside_roll   a die rolled from outside: ``then`` steps on ``at_least`` /
               ``at_most``, else the ``else`` steps
lose_candy     the attacker loses ``amount`` candy to the supply
give_candy     the attacker gives ``amount`` candy to the defender
pay_money      the attacker pays ``amount`` to the bank
give_money     the attacker gives ``amount`` to the defender
end_heist      the heist ends
choice         the attacker chooses one of ``options`` (lists of steps)
exhaust        the attacker flips ``count`` face-up costumes face down
dodge          (costumes) the room is passed without paying or suffering
=============  ===============================================================

Dice never go above 6 or below 1. While bad stuff is suffered, a step that cannot
be done in full marks the bad stuff as not completely suffered (the heist then
ends after it, see :mod:`bot.games.sugar_heist.rules`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any, Protocol, cast

from bot.games import engine
from bot.games.engine import State, Turn
from bot.games.sugar_heist import cards
from bot.games.sugar_heist.dice import choices, clamp, matches, showing, spoken


class SugarHeist(Protocol):
    """What the steps ask of the rules (a protocol: the rules import this module)."""

    def narrate(self, state: State, turn: Turn, text: str, reveals: bool = False) -> None: ...


Step = dict[str, Any]
CHOOSERS = ("attacker", "defender")


class Context:
    """What a step works on: the game, its state, the turn and the heist under way."""

    def __init__(self, game: SugarHeist, state: State, turn: Turn) -> None:
        self.game = game
        self.state = state
        self.turn = turn
        self.heist: dict[str, Any] = state["heist"]

    @property
    def pool(self) -> list[int]:
        return cast("list[int]", self.heist["pool"])

    @property
    def attacker(self) -> int:
        return int(self.heist["attacker"])

    @property
    def defender(self) -> int:
        return int(self.heist["defender"])

    def player(self, seat: int) -> dict[str, Any]:
        return cast("dict[str, Any]", self.state["players"][seat])

    def name(self, seat: int) -> str:
        return engine.seat_name(self.state, seat)

    def say(self, text: str, reveals: bool = False) -> None:
        self.game.narrate(self.state, self.turn, text, reveals=reveals)

    def short(self) -> None:
        """A bad-stuff step could not be done in full."""
        if self.heist["stage"] == "bad":
            self.heist["complete"] = False

    def roll(self) -> int:
        return self.turn.rng.roll(6)

    def chooser(self, by: str) -> int:
        return self.defender if by == "defender" else self.attacker

    def ask(self, kind: str, by: str, step: Step, src: str) -> bool:
        engine.ask(self.state, kind, [self.chooser(by)], {"step": step, "src": src})
        return True


def filter_of(step: Step) -> dict[str, Any]:
    return {k: step[k] for k in cards.FILTER_KEYS if k in step}


def _take(pool: list[int], values: list[int] | tuple[int, ...]) -> None:
    for v in values:
        pool.remove(v)


def _sort(ctx: Context) -> None:
    ctx.pool.sort()


# --------------------------------------------------------------------------- dice verbs


def reroll_dice(ctx: Context, values: list[int] | tuple[int, ...], who: str,
                why: str = "") -> None:
    """Reroll these dice of the pool and narrate the new values (``why``: " for <card>")."""
    if not values:
        ctx.say(f"{who} rerolls no dice{why}.")
        return
    _take(ctx.pool, values)
    new = [ctx.roll() for _ in values]
    ctx.pool.extend(new)
    _sort(ctx)
    ctx.say(f"{who} rerolls {spoken(list(values))}{why}: now {spoken(new)}.", reveals=True)


def lose_dice(ctx: Context, values: list[int] | tuple[int, ...],
              chooser: int | None = None) -> None:
    """Take these dice out of the pool; the narration names who chose them."""
    _take(ctx.pool, values)
    attacker = ctx.name(ctx.attacker)
    if chooser is not None and chooser != ctx.attacker:
        ctx.say(f"{ctx.name(chooser)} takes {showing(list(values))} out of {attacker}'s "
                f"pool.")
    else:
        ctx.say(f"{attacker} loses {showing(list(values))}.")


def _unchanged(value: int, step: Step) -> str:
    """Why a die the effect did not change kept its number."""
    if step["do"] != "add":
        return f"the {value} already shows {value}"
    return f"the {value} cannot go {'higher' if step['amount'] > 0 else 'lower'}"


def change_dice(ctx: Context, values: list[int] | tuple[int, ...], step: Step,
                chooser: int | None = None) -> None:
    """``add`` or ``set`` applied to these dice (clamped to 1..6)."""
    _take(ctx.pool, values)
    if step["do"] == "add":
        new = [clamp(v + step["amount"]) for v in values]
    else:
        new = [clamp(step["value"]) for _ in values]
    ctx.pool.extend(new)
    _sort(ctx)
    changes = [f"{a} to {b}" if a != b else _unchanged(a, step)
               for a, b in zip(values, new, strict=True)]
    who = ctx.attacker if chooser is None else chooser
    whose = "their" if who == ctx.attacker else f"{ctx.name(ctx.attacker)}'s"
    ctx.say(f"{ctx.name(who)} changes {whose} dice: {', '.join(changes)}.")


def gain_dice(ctx: Context, count: int) -> int:
    room = cards.start()["max_dice"] - len(ctx.pool)
    n = max(0, min(count, room))
    new = [ctx.roll() for _ in range(n)]
    ctx.pool.extend(new)
    _sort(ctx)
    if n:
        ctx.say(f"{ctx.name(ctx.attacker)} rolls {spoken(new)} into the pool.", reveals=True)
    else:
        ctx.say("The pool already holds every die in the box: no extra die.")
    return cast("int", n)


def _auto_pick(ctx: Context, step: Step, count: int) -> list[int] | None:
    """Dice picked without asking: highest/lowest, or when there is only one way."""
    pool = sorted(ctx.pool)
    by = step.get("by", "attacker")
    if by == "highest":
        return pool[len(pool) - count:]
    if by == "lowest":
        return pool[:count]
    options = choices(tuple(pool), count, up_to=False)
    return list(options[0]) if len(options) == 1 else None


def _reroll(ctx: Context, step: Step, src: str) -> bool:
    if not ctx.pool:
        return False
    return ctx.ask("reroll", step.get("by", "defender"), step, src)


def _reroll_all(ctx: Context, step: Step, src: str) -> bool:
    counts = Counter(ctx.pool)
    hit = [v for v in ctx.pool if matches(v, filter_of(step), counts)]
    if hit:
        reroll_dice(ctx, hit, src)
    else:
        ctx.say(f"{src}: no {cards.die_phrase(filter_of(step))} to reroll.")
    return False


def _lose(ctx: Context, step: Step, src: str) -> bool:
    count = step.get("count", 1)
    if len(ctx.pool) < count:
        ctx.short()
    count = min(count, len(ctx.pool))
    if count == 0:
        ctx.say(f"{ctx.name(ctx.attacker)} has no die left to lose.")
        return False
    picked = _auto_pick(ctx, step, count)
    if picked is None:
        return ctx.ask("lose", step.get("by", "attacker"), step, src)
    lose_dice(ctx, picked)
    return False


def _lose_all(ctx: Context, step: Step, src: str) -> bool:
    counts = Counter(ctx.pool)
    hit = [v for v in ctx.pool if matches(v, filter_of(step), counts)]
    if hit:
        lose_dice(ctx, hit)
    else:
        ctx.say(f"{src}: no {cards.die_phrase(filter_of(step))} to lose.")
    return False


def _change(ctx: Context, step: Step, src: str) -> bool:
    count = min(step.get("count", 1), len(ctx.pool))
    if count == 0:
        return False
    picked = _auto_pick(ctx, step, count)
    if picked is None:
        return ctx.ask(step["do"], step.get("by", "attacker"), step, src)
    change_dice(ctx, picked, step)
    return False


def _add_all(ctx: Context, step: Step, src: str) -> bool:
    counts = Counter(ctx.pool)
    hit = [v for v in ctx.pool if matches(v, filter_of(step), counts)]
    if hit:
        change_dice(ctx, hit, {"do": "add", "amount": step["amount"]})
    return False


def _gain_die(ctx: Context, step: Step, src: str) -> bool:
    gain_dice(ctx, step.get("count", 1))
    return False


def _outside_roll(ctx: Context, step: Step, src: str) -> bool:
    value = ctx.roll()
    ctx.heist["outside"] = value
    hit = value >= step["at_least"] if "at_least" in step else value <= step["at_most"]
    follow = step["then"] if hit else step.get("else", [])
    outcome = "" if follow else " Nothing happens."
    ctx.say(f"{src}: a die from outside the pool shows {value}.{outcome}", reveals=True)
    push(ctx, follow, src)
    return False


# --------------------------------------------------------------------------- other verbs


def _take_attackers_candy(ctx: Context, amount: int) -> int:
    """Take up to ``amount`` candy from the attacker (short if they have less); how many."""
    player = ctx.player(ctx.attacker)
    n = min(amount, player["candy"])
    if n < amount:
        ctx.short()
    player["candy"] -= n
    ctx.heist["lost"] += n
    return cast("int", n)


def _lose_candy(ctx: Context, step: Step, src: str) -> bool:
    n = _take_attackers_candy(ctx, step["amount"])
    ctx.state["supply"]["candy"] += n
    if n:
        ctx.say(f"{ctx.name(ctx.attacker)} loses {n} candy.")
    else:
        ctx.say(f"{ctx.name(ctx.attacker)} has no candy to lose.")
    return False


def _give_candy(ctx: Context, step: Step, src: str) -> bool:
    n = _take_attackers_candy(ctx, step["amount"])
    ctx.player(ctx.defender)["candy"] += n
    ctx.say(f"{ctx.name(ctx.attacker)} gives {n} candy to {ctx.name(ctx.defender)}.")
    return False


def _money(ctx: Context, step: Step, src: str) -> bool:
    player = ctx.player(ctx.attacker)
    n = min(step["amount"], player["money"])
    if n < step["amount"]:
        ctx.short()
    player["money"] -= n
    if step["do"] == "give_money":
        ctx.player(ctx.defender)["money"] += n
        ctx.say(f"{ctx.name(ctx.attacker)} gives ${n} to {ctx.name(ctx.defender)}.")
    else:
        ctx.state["supply"]["money"] += n
        ctx.say(f"{ctx.name(ctx.attacker)} pays ${n} to the bank.")
    return False


def _end_heist(ctx: Context, step: Step, src: str) -> bool:
    ctx.heist["ended"] = True
    ctx.heist["queue"] = []
    ctx.say(f"{src} ends the heist.")
    return False


def _choice(ctx: Context, step: Step, src: str) -> bool:
    return ctx.ask("choice", "attacker", step, src)


def face_up_costumes(ctx: Context) -> list[dict[str, Any]]:
    return [c for c in ctx.player(ctx.attacker)["costumes"] if not c["used"]]


def _exhaust(ctx: Context, step: Step, src: str) -> bool:
    up = face_up_costumes(ctx)
    if len(up) < step.get("count", 1):
        ctx.short()
    if not up:
        ctx.say(f"{ctx.name(ctx.attacker)} has no face-up costume to flip.")
        return False
    keys = {cards.instances()[c["id"]] for c in up}
    if len(keys) == 1:
        flip_costume(ctx, up[0]["id"], src)
        if step.get("count", 1) > 1:
            push(ctx, [{**step, "count": step["count"] - 1}], src)
        return False
    return ctx.ask("exhaust", "attacker", step, src)


def flip_costume(ctx: Context, costume_id: str, src: str) -> None:
    for c in ctx.player(ctx.attacker)["costumes"]:
        if c["id"] == costume_id:
            c["used"] = True
    ctx.say(f"{src}: {ctx.name(ctx.attacker)} flips {cards.design(costume_id)['name']} "
            "face down.")


def _dodge(ctx: Context, step: Step, src: str) -> bool:
    ctx.heist["dodged"] = True
    ctx.say(f"{src}: {ctx.name(ctx.attacker)} slips past the room.")
    return False


VERBS: dict[str, Callable[[Context, Step, str], bool]] = {
    "reroll": _reroll, "reroll_all": _reroll_all, "lose": _lose, "lose_all": _lose_all,
    "add": _change, "set": _change, "add_all": _add_all, "gain_die": _gain_die,
    "outside_roll": _outside_roll, "lose_candy": _lose_candy, "give_candy": _give_candy,
    "pay_money": _money, "give_money": _money, "end_heist": _end_heist, "choice": _choice,
    "exhaust": _exhaust, "dodge": _dodge,
}


def push(ctx: Context, steps: list[Step], src: str) -> None:
    """Put ``steps`` in front of the queue (they run next, in order)."""
    ctx.heist["queue"][:0] = [{"src": src, "step": s} for s in steps]


def run_next(ctx: Context) -> bool:
    """Run the first queued step; True when it asked a decision."""
    item = ctx.heist["queue"].pop(0)
    return VERBS[item["step"]["do"]](ctx, item["step"], item["src"])


# --------------------------------------------------------------------------- answers


def answer(ctx: Context, kind: str, step: Step, src: str, words: list[str]) -> None:
    """Apply a decision's answer (its notation split in words) for ``step``."""
    values = [int(w) for w in words[1:] if w.isdigit()]
    if kind == "reroll":
        who = ctx.name(ctx.chooser(step.get("by", "defender")))
        reroll_dice(ctx, values, who, f" for {src}")
    elif kind == "lose":
        lose_dice(ctx, values, ctx.chooser(step.get("by", "attacker")))
    elif kind in ("add", "set"):
        change_dice(ctx, values, step, ctx.chooser(step.get("by", "attacker")))
    elif kind == "choice":
        option = step["options"][int(words[1]) - 1]
        ctx.say(f"{ctx.name(ctx.attacker)} chooses to {cards.steps_phrase(option)}.")
        push(ctx, option, src)
    elif kind == "exhaust":
        key = cards.names()[" ".join(words[1:])]
        costume = next(c for c in face_up_costumes(ctx) if cards.instances()[c["id"]] == key)
        flip_costume(ctx, costume["id"], src)
        if step.get("count", 1) > 1:
            push(ctx, [{**step, "count": step["count"] - 1}], src)
    else:
        raise AssertionError(kind)


def options(ctx: Context, kind: str, step: Step) -> list[tuple[str, str]]:
    """The answers to a step's decision: (notation, label)."""
    pool = tuple(ctx.pool)
    if kind == "reroll":
        out = [("reroll none", "reroll no dice")]
        for pick in choices(pool, min(step.get("count", 1), len(pool)), up_to=True):
            out.append((f"reroll {' '.join(map(str, pick))}", f"reroll {spoken(pick)}"))
        return out
    if kind == "lose":
        count = min(step.get("count", 1), len(pool))
        return [(f"lose {' '.join(map(str, p))}", f"lose {spoken(p)}")
                for p in choices(pool, count, up_to=False)]
    if kind in ("add", "set"):
        count = min(step.get("count", 1), len(pool))
        verb = dice_verb(step)
        out = []
        for p in choices(pool, count, up_to=False):
            changed = [clamp(v + step["amount"]) if kind == "add" else clamp(step["value"])
                       for v in p]
            label = ", ".join(f"{a} to {b}" for a, b in zip(p, changed, strict=True))
            out.append((f"{verb} {' '.join(map(str, p))}", f"turn {label}"))
        return out
    if kind == "choice":
        return [(f"choose {i}", cards.steps_phrase(o)) for i, o in enumerate(step["options"], 1)]
    if kind == "exhaust":
        seen: dict[str, str] = {}
        for c in face_up_costumes(ctx):
            d = cards.design(c["id"])
            seen.setdefault(f"flip {cards.lower_name(d)}", f"flip {d['name']} face down")
        return list(seen.items())
    raise AssertionError(kind)


def dice_verb(step: Step) -> str:
    """The notation word for changing dice: raise, lower or set."""
    if step["do"] == "set":
        return "set"
    return "raise" if step["amount"] > 0 else "lower"
