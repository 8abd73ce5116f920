"""What one seat (or a spectator) may see of a Sugartopia game."""

from __future__ import annotations

from typing import Any, Protocol

from bot.games import engine
from bot.games.engine import Rules, State, View
from bot.games.sugartopia import tiles
from bot.games.sugartopia.board import Table, area_name


class Sugartopia(Rules, Protocol):
    """What the view needs of the rules (kept as a protocol: rules import this module)."""

    def choosing_bears(self, state: State) -> bool: ...
    def feedable(self, state: State, table: Table) -> list[str]: ...


def build_view(game: Sugartopia, state: State, seat: int | None) -> View:
    """The table as ``seat`` sees it (``None``: a spectator). JSON-compatible.

    Geometry: flat-topped hexes on axial coordinates (q, r), castle at (0, 0).
    Board sides are numbered clockwise from north: 0 N, 1 NE, 2 SE, 3 S, 4 SW,
    5 NW; the neighbour across side s is (q, r) + ``layout.directions[s]``. A hex
    of size S (centre to corner) has its centre at x = 1.5 S q,
    y = sqrt(3) S (r + q / 2) (y grows downwards, north is up).

    Schema::

        game      "sugartopia"
        viewer    int | None          the seat this view is for
        move      int                 actions applied so far
        phase     "place" | "feed" | "over"
        turn      int                 the turn player's seat
        to_act    [int]               seats that may act now (empty when over)
        layout    {"hex": "flat-top", "sides": [6 side names], "directions": [[dq, dr] x 6],
                   "rotations": [0, 60, ..., 300]}
        colours   {"players": [seat colours in seat order], "neutral": [colours]}
        seats     [{"seat", "name", "ai", "colour", "has_card": bool, "gingerman": bool
                    (still unplaced), "passed": bool, "sugar", "honey", "score"}]
        supply    {"sugar": int, "honey": int}     cubes left in the stock
        deck      int                              cards left in the deck
        cards     [placed card, in placement order; index 0 is the castle]:
                  {"index", "card" ("castle" | "gingerman" | "l01".."l21"), "name" ("L07"),
                   "kind" ("castle" | "gingerman" | "land"), "q", "r", "label" ("b3"),
                   "rot" (degrees clockwise), "owner" (seat of a Gingerman, else None),
                   "edges": ["road" | "grassland" for board sides 0..5],
                   "roads": [{"arms": [{"side": board side, "cookies": int}]}]
                            (each road meets at a hub in the card's centre; an arm is a
                             stretch of road from the hub to a side),
                   "fields": [{"sides": [board sides], "sheep": int (cotton-candy sheep),
                               "rainbow": int (rainbow sheep), "sugar": int (cubes on its
                               sheep), "honey": int (cubes on its rainbow sheep),
                               "bears": [{"colour", "fed": bool}], "fed": [bool per bear],
                               "done": bool (its area was scored), "area": int (areas index)}]}
        areas     [{"id", "number" (unique for the whole game: the order the area's first
                    field was laid in), "name" ("Meadow 3"),
                    "regions": [[card index, field index]], "open": bool (a grassland
                    side still faces an empty spot), "done": bool, "sugar": int (on sheep),
                    "honey": int, "fed": int (bears holding a cube),
                    "bears": {colour: count}}]
                  ("id" is the index in this list and changes as areas join; "number" and
                   "name" never change)
        spots     [{"label", "q", "r"}]   open spots, in label order
        hand      None, or for the viewer's own card only:
                  {"card", "name", "kind", "edges" (as printed, sides 0..5), "roads",
                   "fields" (printed sides; "bears" is a list of colours),
                   "placements": [{"label", "q", "r", "rot", "notation"}]}
        feeding   None, or while the turn player chooses bears:
                  {"area": int, "cubes": int (still to hand out), "colours": [colours that
                   may be fed], "hungry": [[card index, field index, bear index]]}
        routes    [{"seat", "reached": bool, "cookies": int, "points": int,
                    "cards": [card indices walked, Gingerman first, castle last]}]
                  the current best cookie route of every placed Gingerman
        last      None | {"seat", "card", "index", "label"}   the latest placement
        set_aside [card ids]   cards shown and set aside because they fitted nowhere
        final     None | [{"sugar", "honey", "cookies", "reached", "route" ([labels]),
                           "total"}] per seat, once the game is over
        result    None | Result.to_json()
    """
    table = Table(state["table"], tiles.catalogue())
    areas = table.areas()
    numbers = table.area_numbers(areas)
    area_of = {region: n for n, area in enumerate(areas) for region in area.regions}
    colours = tiles.player_colours()[: len(state["seats"])]
    scores = game.scores(state)
    result = game._result(state)
    return {
        "game": game.slug,
        "viewer": seat,
        "move": state["move"],
        "phase": "feed" if game.choosing_bears(state) else state["phase"],
        "turn": state["turn"],
        "to_act": sorted(engine.to_act(game, state)),
        "layout": {"hex": "flat-top", "sides": list(tiles.SIDE_NAMES),
                   "directions": [list(d) for d in tiles.DIRECTIONS],
                   "rotations": list(tiles.ROTATIONS)},
        "colours": {"players": colours, "neutral": tiles.neutral_colours()},
        "seats": [
            {"seat": i, "name": s["name"], "ai": s["ai"], "colour": colours[i],
             "has_card": state["hands"][i] is not None, "gingerman": state["gingermen"][i],
             "passed": state["passed"][i], "sugar": state["held"][i]["sugar"],
             "honey": state["held"][i]["honey"], "score": scores[i]}
            for i, s in enumerate(state["seats"])
        ],
        "supply": dict(state["supply"]),
        "deck": len(state["deck"]),
        "cards": [_placed(table, i, area_of) for i in range(len(state["table"]))],
        "areas": [_area(table, n, area, numbers[area.key]) for n, area in enumerate(areas)],
        "spots": [{"label": tiles.label_of(p), "q": p[0], "r": p[1]} for p in table.open_spots()],
        "hand": _hand(table, state, seat),
        "feeding": _feeding(game, state, table, area_of),
        "routes": _routes(table, state),
        "last": dict(state["last"]) if state["last"] else None,
        "set_aside": list(state["set_aside"]),
        "final": [dict(f) for f in state["final"]] if state["final"] else None,
        "result": result.to_json() if result else None,
    }


def _placed(table: Table, index: int, area_of: dict[tuple[int, int], int]) -> dict[str, Any]:
    entry = table.entries[index]
    card = table.card(index)
    rot = entry["rot"]
    fields = []
    for f, field in enumerate(card.fields):
        cubes = entry["fields"][f]
        fields.append({
            "sides": sorted(tiles.turned(s, rot) for s in field.sides),
            "sheep": field.sheep, "rainbow": field.rainbow,
            "sugar": cubes["sugar"], "honey": cubes["honey"],
            "bears": [{"colour": c, "fed": fed} for c, fed in zip(field.bears, cubes["fed"],
                                                                   strict=True)],
            "fed": list(cubes["fed"]), "done": cubes["done"], "area": area_of[(index, f)],
        })
    return {
        "index": index, "card": card.id, "name": card.name, "kind": card.kind,
        "q": entry["q"], "r": entry["r"], "label": table.label(index), "rot": rot,
        "owner": entry["owner"],
        "edges": ["road" if card.edge(s, rot) == tiles.ROAD else "grassland"
                  for s in range(tiles.SIDES)],
        "roads": [{"arms": [{"side": tiles.turned(a.side, rot), "cookies": a.cookies}
                            for a in road.arms]} for road in card.roads],
        "fields": fields,
    }


def _area(table: Table, n: int, area: Any, number: int) -> dict[str, Any]:
    bears: dict[str, int] = {}
    for *_, colour in table.bears(area):
        bears[colour] = bears.get(colour, 0) + 1
    return {
        "id": n, "number": number, "name": area_name(number),
        "regions": [list(r) for r in area.regions], "open": area.open,
        "done": table.done(area), "sugar": table.sheep_sugar(area), "honey": table.honey(area),
        "fed": len(table.fed_bears(area)), "bears": bears,
    }


def _hand(table: Table, state: State, seat: int | None) -> dict[str, Any] | None:
    if seat is None or not 0 <= seat < len(state["seats"]) or state["hands"][seat] is None:
        return None
    hand = state["hands"][seat]
    card = tiles.catalogue()[hand]
    out = tiles.describe_card(card)
    out["placements"] = [
        {"label": tiles.label_of(p), "q": p[0], "r": p[1], "rot": rot,
         "notation": f"place {hand} at {tiles.label_of(p)} rot {rot}"}
        for p, rot in table.placements(card)
    ]
    return out


def _feeding(game: Sugartopia, state: State, table: Table,
             area_of: dict[tuple[int, int], int]) -> dict[str, Any] | None:
    feeding = state["feeding"]
    if not game.choosing_bears(state) or not feeding or feeding["area"] is None:
        return None
    key = (feeding["area"][0], feeding["area"][1])
    area = next(a for a in table.areas() if key in a.regions)
    return {
        "area": area_of[key], "cubes": feeding["cubes"],
        "colours": game.feedable(state, table),
        "hungry": [[i, f, b] for i, f, b, _ in table.hungry(area)],
    }


def _routes(table: Table, state: State) -> list[dict[str, Any]]:
    out = []
    for seat in range(len(state["seats"])):
        if table.gingerman_of(seat) is None:
            continue
        route = table.best_route(seat)
        out.append({
            "seat": seat, "reached": route is not None,
            "cookies": route.cookies if route else 0,
            "points": 2 * route.cookies if route else 0,
            "cards": list(route.cards) if route else [],
        })
    return out
