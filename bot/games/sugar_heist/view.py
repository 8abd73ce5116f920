"""What one seat (or a spectator) may see of a Sugar Heist game."""

from __future__ import annotations

from typing import Any, Protocol, cast

from bot.games import engine
from bot.games.engine import CardText, Decision, Rules, State, View
from bot.games.sugar_heist import cards


class SugarHeist(Rules, Protocol):
    """What the view reads of the rules (a protocol: the rules import this module)."""

    def encounter(self, state: State) -> dict[str, Any]: ...


def _slot(held: dict[str, Any] | None, slot: str, mine: bool,
          shown: dict[str, Any], rules: int) -> dict[str, Any] | None:
    """A board slot: face-up cards by key; face-down ones only as card backs to others."""
    if held is None:
        return None
    d = cards.design(held["id"], rules)
    if held["up"]:
        shown.setdefault(d["key"], cards.describe(d, rules))
        return {"face": "up", "key": d["key"]}
    if not mine:
        return {"face": "down", "kind": slot, "cost": d["cost"]}
    shown.setdefault(d["key"], cards.describe(d, rules))
    return {"face": "down", "key": d["key"], "id": held["id"]}


def build_view(game: SugarHeist, state: State, seat: int | None) -> View:
    """The table as ``seat`` sees it. JSON-compatible.

    Schema::

        game, viewer, move, to_act         as every game
        rules                              the rules version the game is played under
        round, rounds, phase               phase: "setup" | "target" | "prep" | "heist"
        over                               bool
        track      [seat]                  the target track, first to last
        targets    [[attacker, defender]]  in heist order (arrows on the picture)
        seats      [{"seat", "name", "ai", "board": {"key", "name",
                     "default": described default encounter} | None,
                     "candy", "money", "tax", "hand": int (cards in hand),
                     "costumes": [{"key", "used"}],
                     "rooms": [{"room": 1..3, "encounter": slot | None, "mod": slot | None}],
                     "passed": bool (in this prep phase), "position": place on the track}]
                   a slot is {"face": "up", "key"} or, face down, {"face": "down", "kind",
                   "cost"} (its owner sees {"face": "down", "key", "id"} instead)
        cards      {key: described card}   every card the view names by key
        market     [costume key]           the costume market
        decks      {"costume", "1", "2", "3": cards left}
        supply     {"candy", "money", "sugar_tax"}
        prep       None | {"turn": seat, "passed": [seats in passing order]}
        heist      None | {"attacker", "defender", "room": 1..3, "pool": [values],
                   "start": [values rolled], "outcomes": ["cleared" | "suffered" |
                   "dodged" | None per room], "gained", "lost", "stolen",
                   "outside": last die rolled from outside or None, "stage",
                   "encounter": described, "mod": described | None, "log": [lines]}
        decision   None | {"kind", "seats", "waiting", "source", "step" (card data), "text"}
        hand       None | [{"id", "key"}]   the viewer's own hand of hideout cards
        boards     [{"key", "name", "default": described}]  the hideout boards nobody has
                   taken yet, while players choose them (`board treehouse`), else []
        last       None | the last finished heist: {"round", "attacker", "defender",
                   "passed", "rooms", "cleared", "gained", "lost", "stolen"}
        moved      None | the last move, for the picture's mark: {"seat", "did", ...}:
                   "board" (+ "board": key), "pass" (+ "bonus"), "buy" (+ "card": key),
                   "build" (+ "room", "slot", "cost", "discarded", "moved": room | None;
                   never the card), or a heist answer (+ "notation", "attacker",
                   "defender", "index", "room", "costume": key | None); None once over
        result     None | {"ranking", "scores", "summary"}
    """
    players = state["players"]
    rules = state["rules"]
    n = len(players)
    track = state["track"]
    seats = []
    shown: dict[str, Any] = {}
    for s, p in enumerate(players):
        board = cards.board(p["board"]) if p["board"] else None
        seats.append({
            "seat": s, "name": engine.seat_name(state, s), "ai": state["seats"][s]["ai"],
            "board": None if board is None else {
                "key": board["key"], "name": board["name"],
                "default": cards.describe(board["default"])},
            "candy": p["candy"], "money": p["money"], "tax": p["tax"], "hand": len(p["hand"]),
            "costumes": [{"key": cards.instances()[c["id"]], "used": c["used"]}
                         for c in p["costumes"]],
            "rooms": [{"room": r + 1,
                       "encounter": _slot(room["encounter"], "encounter", s == seat, shown,
                                                  rules),
                       "mod": _slot(room["mod"], "mod", s == seat, shown, rules)}
                      for r, room in enumerate(p["rooms"])],
            "passed": bool(state["prep"]) and s in state["prep"]["passed"],
            "position": track.index(s) + 1 if s in track else None,
        })
    heist = None
    h = state["heist"]
    if h is not None:
        room = players[h["defender"]]["rooms"][h["room"]]
        heist = {k: h[k] for k in ("attacker", "defender", "pool", "start", "outcomes",
                                   "gained", "lost", "stolen", "outside", "stage", "log")}
        heist["room"] = h["room"] + 1
        heist["encounter"] = cards.describe(game.encounter(state), rules)
        heist["encounter"]["default"] = room["encounter"] is None
        heist["mod"] = cards.describe(cards.design(room["mod"]["id"], rules), rules) \
            if room["mod"] and room["mod"]["up"] else None
    top = engine.top(state)
    decision = None
    if top is not None:
        decision = {"kind": top.kind, "seats": list(top.seats), "waiting": list(top.waiting),
                    "source": top.data.get("src"), "step": top.data.get("step"),
                    "text": cards.steps_text([top.data["step"]]) if "step" in top.data else ""}
    result = game._result(state)
    hand = None
    if seat is not None:
        hand = [{"id": c, "key": cards.instances()[c]} for c in players[seat]["hand"]]
    costume_keys = {c["key"] for s in seats for c in s["costumes"]}
    costume_keys |= {cards.instances()[c] for c in state["market"]}
    for key in sorted(costume_keys):
        shown[key] = cards.describe(cards.costumes()[key])
    for c in hand or []:
        shown.setdefault(c["key"], cards.describe(cards.hideout_cards(rules)[c["key"]], rules))
    return {
        "game": game.slug, "viewer": seat, "move": state["move"], "rules": rules,
        "to_act": sorted(engine.to_act(game, state)),
        "round": state["flow"]["round"], "rounds": state["rounds"],
        "phase": state["flow"]["phase"], "over": state["over"],
        "track": list(track),
        "targets": [[track[i], track[(i + 1) % n]] for i in range(len(track))] if track else [],
        "seats": seats,
        "market": [cards.instances()[c] for c in state["market"]],
        "cards": shown,
        "decks": {k: len(v) for k, v in state["decks"].items()},
        "supply": {"candy": state["supply"]["candy"], "money": state["supply"]["money"],
                   "sugar_tax": state["supply"]["sugar_tax"]},
        "prep": None if state["prep"] is None else {"turn": state["prep"]["turn"],
                                                    "passed": list(state["prep"]["passed"])},
        "heist": heist,
        "decision": decision,
        "hand": hand,
        "last": state["heists"][-1] if state["heists"] else None,
        "moved": _moved(state, top),
        "boards": _free_boards(state) if decision and decision["kind"] == "board" else [],
        "result": None if result is None else {
            "ranking": [list(g) for g in result.ranking],
            "scores": {str(k): v for k, v in result.scores.items()},
            "summary": result.summary},
    }


def _free_boards(state: State) -> list[dict[str, Any]]:
    """The hideout boards still to choose from, in the order they are offered."""
    taken = {p["board"] for p in state["players"]}
    return [{"key": b["key"], "name": b["name"], "default": cards.describe(b["default"])}
            for b in cards.boards() if b["key"] not in taken]


def _moved(state: State, top: Decision | None) -> dict[str, Any] | None:
    """The last move as the heist under way or the prep phase keeps it; while hideouts are
    chosen (in seat order), the board the seat before the one choosing took."""
    holder = state["heist"] if state["heist"] is not None else state["prep"]
    if holder is not None:
        return cast("dict[str, Any] | None", holder.get("moved"))
    if top is not None and top.kind == "board" and top.seats[0] > 0:
        seat = top.seats[0] - 1
        return {"seat": seat, "did": "board", "board": state["players"][seat]["board"]}
    return None


def card_texts(view: View) -> list[CardText]:
    """Every card ``view`` shows, each once with every place it lies, in the picture's
    order: the hideouts in raid order (a room's mod and encounter, or its board's default
    room), their costumes, the costume market, the viewer's hand, the boards to choose."""
    found: dict[str, tuple[dict[str, Any], list[str]]] = {}

    def add(card: dict[str, Any], place: str) -> None:
        found.setdefault(card.get("key") or card["name"], (card, []))[1].append(place)

    cards_of = view["cards"]
    for seat in view["track"] or range(len(view["seats"])):
        s = view["seats"][seat]
        for room in s["rooms"]:
            where = f"{s['name']}, room {room['room']}"
            for slot in ("mod", "encounter"):
                held = room[slot]
                if held is not None and "key" in held:
                    mine = " (yours, face down)" if held["face"] == "down" else ""
                    add(cards_of[held["key"]], where + mine)
                elif held is None and slot == "encounter" and s["board"]:
                    add(s["board"]["default"], f"{where} (default)")
        for costume in s["costumes"]:
            add(cards_of[costume["key"]], s["name"] + (" (used)" if costume["used"] else ""))
    for key in view["market"]:
        add(cards_of[key], "costume market")
    for held in view["hand"] or []:
        add(cards_of[held["key"]], "your hand")
    for board in view.get("boards") or []:
        add(board["default"], f"the {board['name']}'s default room "
                              f"(“board {cards.lower_name(board)}”)")
    return [CardText(card["name"], _kind(card), _counted(places), _text(card))
            for card, places in found.values()]


def _counted(places: list[str]) -> tuple[str, ...]:
    """Each place once, with how many of the card lie there when more than one."""
    counts = {place: places.count(place) for place in places}
    return tuple(place if n == 1 else f"{place} ×{n}" for place, n in counts.items())


def _kind(card: dict[str, Any]) -> str:
    """ "encounter, $3", "mod, $1", "costume, $2", "default room"."""
    if not card.get("cost"):
        return "default room"
    return f"{card['kind']}, ${card['cost']}"


def _text(card: dict[str, Any]) -> str:
    """What the card says: a costume's ability; an effect, a challenge and bad stuff."""
    if card["kind"] == "costume":
        return str(card["ability"])
    parts = [f"Effect: {card['effect']}"] if card.get("effect") else []
    if card.get("challenge"):
        parts += [f"Challenge: {card['challenge']}.", f"Bad stuff: {card['bad']}"]
    return " ".join(parts)
