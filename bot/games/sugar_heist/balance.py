"""Balance figures for Sugar Heist from all-AI games (docs/rules/sugar-heist.md)."""

from __future__ import annotations

from bot.games.engine import SeatInfo
from bot.games.sugar_heist.rules import SugarHeist


def balance(games: int, players: int, seed: int = 0) -> dict[str, float]:
    """Figures over all-AI games: heists that pass all rooms, candy spread, decisions."""
    game = SugarHeist()
    heists = passed = moves = cleared = rooms = 0
    spreads: list[int] = []
    winners: list[int] = []
    for g in range(games):
        state = game.new([SeatInfo(f"P{i}", ai=True) for i in range(players)], seed + g)
        while game.to_act(state):
            seat = min(game.to_act(state))
            state = game.apply(state, seat, game.ai_action(state, seat)).state
        moves += state["move"]
        for h in state["heists"]:
            heists += 1
            passed += h["passed"]
            cleared += h["cleared"]
            rooms += h["rooms"]
        candy = [p["candy"] for p in state["players"]]
        spreads.append(max(candy) - min(candy))
        winners.append(max(candy))
    return {"games": games, "players": players,
            "passed_all_rooms": passed / heists,
            "rooms_reached_per_heist": rooms / heists,
            "rooms_cleared_per_heist": cleared / heists,
            "candy_spread": sum(spreads) / games,
            "winning_candy": sum(winners) / games,
            "decisions_per_game": moves / games}
