"""The Sugar Blast AI: a greedy player that looks one Blast ahead.

It sees only its own view (the board is public in Sugar Blast, but the policy
still works from the view so it could never peek at anything hidden).
"""

from __future__ import annotations

import copy
from typing import Any

from bot.games.engine import Action, View
from bot.games.grid import parse_cell
from bot.games.rng import Rng
from bot.games.sugar_blast import board as bd
from bot.games.sugar_blast import objectives as obj


def _gain(card: dict[str, Any], kept: dict[str, int], extra: dict[str, int]) -> int:
    after = dict(kept)
    for kind, n in extra.items():
        after[kind] = after.get(kind, 0) + n
    return obj.progress(card, after) - obj.progress(card, kept)


def _blast_value(card: dict[str, Any], kept: dict[str, int], board: bd.Board,
                 blast: bd.Blast) -> float:
    """Objective progress this Blast would bring, plus a little for its size."""
    base = {blast.candy: blast.keep_matched}
    best_other = 0
    if blast.keeps_other:
        others = {bd.at(board, c) for c in blast.extra} - {blast.candy, None}
        merged = dict(kept)
        merged[blast.candy] = merged.get(blast.candy, 0) + blast.keep_matched
        best_other = max((_gain(card, merged, {k: 1}) for k in others if k), default=0)
    return 10 * (_gain(card, kept, base) + best_other) + len(blast.removed)


def _board_value(card: dict[str, Any], kept: dict[str, int], board: bd.Board) -> float:
    return max((_blast_value(card, kept, board, b) for b in bd.find_blasts(board)), default=0.0)


def action_value(view: View, notation: str) -> float:
    """How good ``notation`` looks to the player whose view this is."""
    seat = view["viewer"]
    card = view["objective"]
    kept = view["seats"][seat]["kept"] if seat is not None else {}
    board = view["board"]
    words = notation.split(" ")
    if words[0] == "keep":
        return float(_gain(card, kept, {words[1]: 1}))
    if words[0] == "swap":
        trial = copy.deepcopy(board)
        a, b = (parse_cell(w, bd.SIZE, bd.SIZE) for w in words[1:3])
        assert a is not None and b is not None
        bd.swap(trial, a, b)
        return _board_value(card, kept, trial)
    if words[0] == "replace":
        trial = copy.deepcopy(board)
        cell = parse_cell(words[1], bd.SIZE, bd.SIZE)
        assert cell is not None
        bd.put(trial, cell, view["drawn"])
        return _board_value(card, kept, trial)
    for blast in bd.find_blasts(board):
        if blast.notation == notation:
            return _blast_value(card, kept, board, blast)
    return 0.0


def choose(view: View, legal: list[Action], rng: Rng) -> Action:
    """The best-valued legal action; ties broken at random."""
    scored = [(action_value(view, a.notation), a) for a in legal]
    best = max(v for v, _ in scored)
    return rng.choice([a for v, a in scored if v == best])
