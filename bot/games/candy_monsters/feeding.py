"""Black Candy: every player's secret feeding answer, worked out step by step.

Under rules 2 every answer has the same shape, known to all: first one step
choosing which Black Candy abilities to use (``use full belly``, ``use none``;
only for a seat holding such abilities), then one step per monster (``feed magmot
sugar``, ``feed magmot 1 sugar`` for a partial feed, ``feed magmot candy``, ``feed
magmot black``, ``let magmot go``). Rules 1 also let a seat use abilities between
monsters or answer everything at once with ``feed all``. The same :func:`plan`
reads a draft to offer the next choices and, once all answers are in, to carry
them out, so what a player was offered is exactly what happens.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from bot.games.candy_monsters import board, cards, effects
from bot.games.engine import State

#: The ways to treat one monster, in the order they are offered.
HOWS = ("sugar", "candy", "black", "go")


def hunger_of(state: State, seat: int) -> list[list[str | int]]:
    """Each monster and what it eats now; a starting monster eats 1 per other monster."""
    monsters = board.monster_ids(state, seat)
    out: list[list[str | int]] = []
    for monster in monsters:
        hunger = cards.card(monster).hunger
        out.append([monster, len(monsters) - 1 if hunger is None else hunger])
    return out


def relief_cards(state: State, seat: int) -> list[str]:
    """The seat's Black Candy abilities not yet used this round."""
    used = board.player(state, seat)["used"]
    return [c for c in board.active_cards(state, seat)
            if (a := cards.card(c).ability) is not None and a.window == "black_candy"
            and c not in used]


@dataclass
class Meal:
    """What one monster got."""

    monster: str
    how: str
    sugar: int = 0
    candy: int = 0
    black: int = 0


@dataclass
class Plan:
    """A seat's feeding so far: what is left and what each monster got."""

    sugar: int
    candy: int
    relief: int = 0
    used: list[str] = field(default_factory=list)
    meals: dict[str, Meal] = field(default_factory=dict)

    @property
    def black(self) -> int:
        return sum(m.black for m in self.meals.values())


def plan(state: State, seat: int, hunger: list[list[str | int]], steps: list[str]) -> Plan:
    """Carry out ``steps`` on paper for ``seat``; illegal steps are never offered."""
    me = board.player(state, seat)
    out = Plan(me["sugar"], me["candy"])
    for step in steps:
        words = step.split(" ")
        if step == "feed all":
            for card_id in relief_cards(state, seat):
                ability = cards.card(card_id).ability
                if card_id not in out.used and ability and ability.cost <= out.sugar:
                    _use(out, card_id)
            for monster, need in hunger:
                if monster not in out.meals:
                    _feed(out, str(monster), int(need), "sugar")
        elif words[0] == "use":
            for key in uses_of(step):
                _use(out, _card_of(state, seat, key, out.used))
        elif words[0] == "let":
            monster = _monster_of(hunger, " ".join(words[1:-1]))
            out.meals[monster] = Meal(monster, "go")
        elif words[-2].isdigit():
            monster = _monster_of(hunger, " ".join(words[1:-2]))
            need = next(int(n) for m, n in hunger if m == monster)
            _feed(out, monster, need, "sugar", int(words[-2]))
        else:
            monster = _monster_of(hunger, " ".join(words[1:-1]))
            need = next(int(n) for m, n in hunger if m == monster)
            _feed(out, monster, need, words[-1])
    return out


def uses_of(step: str) -> list[str]:
    """The ability keys of a ``use`` step: ``use none``, ``use full belly and fudge golem``."""
    rest = step.removeprefix("use ")
    return [] if rest == "none" else rest.split(" and ")


def asks_abilities(state: State, seat: int) -> bool:
    """Does ``seat``'s answer begin with the abilities step (rules 2)? Public: its cards."""
    return bool(relief_cards(state, seat))


def ability_choices(state: State, seat: int, sugar: int) -> list[list[str]]:
    """Every choice of Black Candy abilities ``seat`` can pay for with ``sugar``, as keys."""
    found: dict[tuple[str, ...], None] = {(): None}
    relief = relief_cards(state, seat)
    for mask in range(1, 1 << len(relief)):
        chosen = [c for i, c in enumerate(relief) if mask >> i & 1]
        cost = sum(cards.ability(c).cost for c in chosen)
        if cost <= sugar:
            found[tuple(sorted(cards.card(c).key for c in chosen))] = None
    return sorted((list(k) for k in found), key=lambda k: (len(k), k))


def _use(out: Plan, card_id: str) -> None:
    ability = cards.card(card_id).ability
    assert ability is not None
    out.sugar -= ability.cost
    out.relief += effects.relief(ability)
    out.used.append(card_id)


def _feed(out: Plan, monster: str, need: int, how: str, sugar: int | None = None) -> None:
    """Feed ``monster``; ``sugar`` caps the sugar given (a partial feed: black for the rest)."""
    eased = min(out.relief, need)
    out.relief -= eased
    need -= eased
    meal = Meal(monster, how)
    if how in ("sugar", "candy"):
        meal.sugar = min(out.sugar, need, need if sugar is None else sugar)
        need -= meal.sugar
    if how == "candy":
        meal.candy = min(out.candy, need)
        need -= meal.candy
    meal.black = need
    out.sugar -= meal.sugar
    out.candy -= meal.candy
    out.meals[monster] = meal


def _monster_of(hunger: list[list[str | int]], key: str) -> str:
    return next(str(m) for m, _ in hunger if cards.card(str(m)).key == key)


def _card_of(state: State, seat: int, key: str, used: list[str] | None = None) -> str:
    return next(c for c in board.active_cards(state, seat)
                if cards.card(c).key == key and c not in (used or ()))


def undecided(hunger: list[list[str | int]], current: Plan) -> list[tuple[str, int]]:
    return [(str(m), int(n)) for m, n in hunger if m not in current.meals]


def need_now(current: Plan, need: int) -> int:
    """What a monster still eats after the relief left."""
    return max(0, need - current.relief)


def meal_text(meal: Meal) -> str:
    """"MAGMOT 2 sugar", "UNO 1 sugar and 1 black cube", "ONI BABA went away"."""
    name = cards.card(meal.monster).name
    if meal.how == "go":
        return f"let {name} go"
    parts = []
    if meal.sugar:
        parts.append(f"{meal.sugar} sugar")
    if meal.candy:
        parts.append(f"{meal.candy} {'candy' if meal.candy == 1 else 'candies'}")
    if meal.black:
        parts.append(f"{meal.black} black {'cube' if meal.black == 1 else 'cubes'}")
    return f"{name}: " + (" and ".join(parts) if parts else "nothing to eat")
