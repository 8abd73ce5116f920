"""Why a well-formed move is not legal now: one clear private sentence per case."""

from __future__ import annotations

from typing import Protocol

from bot.games import engine
from bot.games.candy_monsters import board, cards, effects, feeding
from bot.games.engine import Rules, State
from bot.games.words import article


class CandyMonsters(Rules, Protocol):
    """What the explanations read of the rules (a protocol: the rules import this module)."""

    def price(self, state: State, seat: int, card_id: str, extra: int = 0) -> int: ...
    def placeable(self, state: State, seat: int, card_id: str) -> list[str]: ...
    def buy_notation(self, card_id: str) -> str: ...


def _choices(game: CandyMonsters, state: State, seat: int) -> str:
    legal = engine.legal_actions(game, state, seat)
    shown = ", ".join(f"“{a.notation}”" for a in legal[:8])
    more = f" and {len(legal) - 8} more" if len(legal) > 8 else ""
    return f"You can: {shown}{more}."


def _card_named(key: str) -> cards.Card | None:
    return next((c for c in cards.catalogue().values()
                 if (c.is_monster or c.kind == "ability") and c.key == key), None)


def explain(game: CandyMonsters, state: State, seat: int, notation: str) -> str:
    """The reason ``notation`` cannot be played by ``seat`` now."""
    top = engine.top(state)
    words = notation.split(" ")
    verb = words[0]
    if top is not None:
        if top.kind == "feed":
            return _explain_feed(game, state, seat, notation)
        if top.kind == "buy":
            if notation == "pay":
                purchase = state["turn"]["purchase"]
                cost = game.price(state, seat, purchase["card"], purchase["discount"])
                return (f"{cards.card(purchase['card']).name} costs you {cost} sugar and you "
                        f"have {board.player(state, seat)['sugar']}: use a discount or "
                        "“cancel”.")
            if verb == "use":
                return _explain_use(game, state, seat, " ".join(words[1:]),
                                    "while buying only abilities of the buying window work")
            return "Finish buying first. " + _choices(game, state, seat)
        if top.kind == "place":
            if verb in ("tuck", "keep"):
                card = cards.card(state["turn"]["purchase"]["card"])
                return (f"You already have {article(card.name)} there: at most one ability of each "
                        "type among your tucked ones, and one among your kept ones. "
                        + _choices(game, state, seat))
            return "First tuck or keep the ability you bought. " + _choices(game, state, seat)
    t = state["turn"]
    if verb in ("feed", "let"):
        return "Monsters are fed only at Black Candy."
    if verb in ("pay", "cancel", "tuck", "keep"):
        return "You are not buying anything now: “buy” a face-up card first."
    if verb == "end":
        return "Take your action first: “collect”, or buy a monster or an ability."
    if verb in ("collect", "buy") and t["step"] != "start":
        return ("You have already taken your action this turn: use abilities, “convert” "
                "or “end turn”.")
    if verb == "buy":
        return _explain_buy(game, state, seat, " ".join(words[1:]))
    if verb == "use":
        return _explain_use(game, state, seat, " ".join(words[1:]), "")
    if verb == "remove":
        if t["step"] != "start":
            return "Black cubes are removed only at the start of your turn, before your action."
        p = board.player(state, seat)
        price = cards.kingdom()["black_removal_price"]
        if len(words) == 1:
            return "Say how many: “remove 1 black”."
        return (f"You have {p['black']} black cubes and {p['sugar']} sugar; each costs {price} "
                "sugar to remove.")
    if verb == "convert":
        if state["kingdom"]["candy"] < 1:
            return "The kingdom has no candy left to convert into."
        return f"Converting takes {cards.kingdom()['convert']} sugar."
    return _choices(game, state, seat)


def _explain_buy(game: CandyMonsters, state: State, seat: int, rest: str) -> str:
    shown = [c for pile in ("monsters", "abilities") for c in state["market"][pile] if c]
    matches = [c for c in shown if game.buy_notation(c).startswith(f"buy {rest}")]
    if not matches:
        names = ", ".join(f"{cards.card(c).name}"
                          + (f" {cards.card(c).colour}" if cards.card(c).kind == "ability"
                             else "") for c in shown)
        return f"That card is not face up in the kingdom. Face up: {names}."
    card_id = matches[0]
    card = cards.card(card_id)
    if card.kind == "ability" and not game.placeable(state, seat, card_id):
        return (f"You already keep {article(card.name)} and have one tucked (or no monster to "
                "tuck it under): at most one of each type among your kept and your tucked "
                "abilities.")
    cost = game.price(state, seat, card_id)
    return (f"{card.name} costs you {cost} sugar and you have "
            f"{board.player(state, seat)['sugar']} (4 sugar = 1 candy, not the other way).")


def _explain_use(game: CandyMonsters, state: State, seat: int, key: str, note: str) -> str:
    owned = [c for c in board.active_cards(state, seat) if cards.card(c).key == key]
    kept = [c for c in board.player(state, seat)["kept"] if cards.card(c).key == key]
    card = _card_named(key)
    name = card.name if card else key.upper()
    if not owned:
        if kept:
            return f"{name} is kept, not tucked: a kept ability's effect cannot be used."
        return f"You have no {name} among your monsters and tucked abilities."
    card_id = owned[0]
    ability = cards.card(card_id).ability
    if ability is None:
        return f"{name} has no ability to use (its bonus counts at the end of the game)."
    p = board.player(state, seat)
    t = state["turn"]
    when = effects.WINDOW_TEXT[ability.window].lower()
    if card_id in p["used"]:
        return f"{name} has already been used this round (once per round)."
    if ability.window == "once" and card_id in p["tokens"]:
        return f"{name} works once per game and its one-time-use token is already on it."
    if t is not None and card_id in t["fresh"] and card_id not in t["ready"]:
        return f"{name} was bought this turn: it can be used from your next turn on."
    if ability.cost > p["sugar"]:
        return f"Using {name} costs {ability.cost} sugar; you have {p['sugar']}."
    if ability.window == "black_candy":
        return f"{name} works during Black Candy, while you feed."
    if ability.window == "start" and t is not None and t["step"] != "start":
        return f"{name} works at the start of your turn, before your action."
    if ability.window in ("collect", "buy_monster", "buy_ability"):
        return f"{name} works {when}" + (f"; {note}." if note else ".")
    return f"Using {name} now would do nothing."


def _explain_feed(game: CandyMonsters, state: State, seat: int, notation: str) -> str:
    top = engine.top(state)
    assert top is not None
    if str(seat) not in top.data["hunger"]:
        return "You have no monster to feed."
    hunger = top.data["hunger"][str(seat)]
    plan = feeding.plan(state, seat, hunger, list(top.steps.get(seat, ())))
    words = notation.split(" ")
    steps = top.steps.get(seat, ())
    if state["rules"] >= 2:
        if notation == "feed all":
            return ("Feed one monster at a time: every player's answer takes the same steps, "
                    "so nobody can tell how you fed. " + _choices(game, state, seat))
        if not steps and feeding.asks_abilities(state, seat) and words[0] != "use":
            return ("First choose which Black Candy abilities to use (“use none” for none). "
                    + _choices(game, state, seat))
        if steps and words[0] == "use":
            return "You chose your Black Candy abilities at the first step of your answer."
    partial = len(words) > 3 and words[-2].isdigit()
    if words[0] in ("feed", "let") and len(words) > 2:
        key = " ".join(words[1:-2] if partial else words[1:-1])
        mine = [str(m) for m, _ in hunger if cards.card(str(m)).key == key]
        if not mine:
            return "That is not one of your monsters. " + _choices(game, state, seat)
        if mine[0] in plan.meals:
            return f"You have already decided for {cards.card(mine[0]).name}."
        if partial:
            return ("A partial feed gives less sugar than the monster eats and no more than "
                    "you have; black cubes make up the rest.")
        if words[-1] == "candy":
            return "Candy feeds only what your sugar cannot: you have enough sugar or no candy."
        if words[-1] == "black":
            return "That monster eats nothing now, or you have no sugar to keep: use “sugar”."
    if words[0] == "use":
        return _explain_use(game, state, seat, " ".join(words[1:]), "")
    return "Black Candy: feed your monsters first. " + _choices(game, state, seat)
