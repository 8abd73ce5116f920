"""The Sugar Blast AI: a greedy player that looks one Blast ahead, and at the chain
its tilt makes.

It sees only its own view (the board is public in Sugar Blast, but the policy
still works from the view so it could never peek at anything hidden). With
power cards in play it reads the tokens from the view and runs the cards' own
hooks on copies of the board, so it knows what a wild, a bomb or a star does to
a Blast, and it uses a token only when that gains it something.
"""

from __future__ import annotations

import copy
from typing import Any

from bot.games.engine import Action, View
from bot.games.grid import Cell, parse_cell
from bot.games.rng import Rng
from bot.games.sugar_blast import board as bd
from bot.games.sugar_blast import objectives as obj
from bot.games.sugar_blast import powers as pw

#: A free action (Sweet Tooth) that gains something comes before the move itself.
FREE_FIRST = 1000.0
#: What each candy a Blast removes is worth beside one step toward the objective (10).
SIZE_WEIGHT = 1.0
#: The share of a chain's value counted for a Blast whose tilt makes a new line.
CHAIN_WEIGHT = 0.5
#: What a draw is worth when no swap works: a little, so a useful token beats it.
DRAW_VALUE = 2.0


def _gain(card: dict[str, Any], kept: dict[str, int], extra: dict[str, int]) -> int:
    after = dict(kept)
    for kind, n in extra.items():
        after[kind] = after.get(kind, 0) + n
    return obj.progress(card, after) - obj.progress(card, kept)


def _blast_value(card: dict[str, Any], kept: dict[str, int], board: bd.Board,
                 blast: bd.Blast, power: dict[str, Any] | None = None) -> float:
    """Objective progress this Blast would bring, plus a little for its size."""
    if power is None:
        base = {blast.candy: blast.keep_matched}
        removed: tuple[Cell, ...] = blast.removed
        extra_kinds: list[str] = []
    else:
        removed, extra_kinds = pw.preview(board, power, blast)
        pool: dict[str, int] = {}
        for cell in removed:
            kind = bd.at(board, cell)
            if kind:
                pool[kind] = pool.get(kind, 0) + 1
        base = {blast.candy: min(blast.keep_matched, pool.get(blast.candy, 0))}
        pool[blast.candy] = pool.get(blast.candy, 0) - base[blast.candy]
        for kind in extra_kinds:
            if pool.get(kind):
                pool[kind] -= 1
                base[kind] = base.get(kind, 0) + 1
    best_other = 0
    if blast.keeps_other:
        others = {bd.at(board, c) for c in blast.extra} - {blast.candy, None}
        merged = dict(kept)
        for kind, n in base.items():
            merged[kind] = merged.get(kind, 0) + n
        best_other = max((_gain(card, merged, {k: 1}) for k in others if k), default=0)
    return 10 * (_gain(card, kept, base) + best_other) + SIZE_WEIGHT * len(removed)


def _board_value(card: dict[str, Any], kept: dict[str, int], board: bd.Board,
                 power: dict[str, Any] | None = None, side: str | None = None) -> float:
    """The best Blast on ``board``; with ``side`` (basic game only), plus part of the best
    chain its tilt toward ``side`` makes before any refill (the refill is not known)."""
    rules = pw.board_rules(power) if power else None
    best = 0.0
    for blast in bd.find_blasts(board, rules):
        value = _blast_value(card, kept, board, blast, power)
        if side is not None and power is None:
            value += CHAIN_WEIGHT * _chain_value(card, kept, board, blast, side)
        best = max(best, value)
    return best


def _chain_value(card: dict[str, Any], kept: dict[str, int], board: bd.Board,
                 blast: bd.Blast, side: str) -> float:
    after = copy.deepcopy(board)
    for cell in blast.removed:
        bd.put(after, cell, None)
    bd.tilt(after, side)
    more = dict(kept)
    more[blast.candy] = more.get(blast.candy, 0) + blast.keep_matched
    return _board_value(card, more, after)


def _after_swap(view: View, words: list[str]) -> float:
    a, b = (parse_cell(w, bd.SIZE, bd.SIZE) for w in words[1:3])
    assert a is not None and b is not None
    return _swap_value(view, a, b)


def _swap_value(view: View, a: Cell, b: Cell) -> float:
    card, kept, board, power = _context(view)
    trial = copy.deepcopy(board)
    bd.swap(trial, a, b)
    if power is not None:
        power = copy.deepcopy(power)
        pw.swap_tokens(power, a, b)
    return _board_value(card, kept, trial, power, view.get("tilt"))


def _context(view: View) -> tuple[dict[str, Any], dict[str, int], bd.Board,
                                  dict[str, Any] | None]:
    seat = view["viewer"]
    kept = view["seats"][seat]["kept"] if seat is not None else {}
    return view["objective"], kept, view["board"], view.get("power")


def _use_value(view: View, words: list[str]) -> float:
    """What discarding a token this way is worth; negative when it gains nothing."""
    card, kept, board, power = _context(view)
    use = pw.use_of(words[0])
    if use == "diagonal_swap":
        # A twist is spent only when it beats every plain swap.
        return _after_swap(view, words) - 0.5
    if use == "take_chip":
        cell = parse_cell(words[1], bd.SIZE, bd.SIZE)
        assert cell is not None
        kind = bd.at(board, cell)
        gain = _gain(card, kept, {kind: 1}) if kind else 0
        return 10.0 * gain - 1 if gain else -50.0
    if use == "take_kept":
        victim = next(s for s in view["seats"] if s["side"] == words[2])
        gain = _gain(card, kept, {words[1]: 1})
        loss = -_gain(card, victim["kept"], {words[1]: -1})
        return FREE_FIRST + 10 * gain + 5 * loss if gain or loss else -50.0
    if use == "extra_turn":
        rules = pw.board_rules(power) if power else None
        best = max((_swap_value(view, a, b) for a, b in bd.blasting_swaps(board, rules)),
                   default=0.0)
        return 1.0 if best >= 10 else -1.0
    return 0.0


def action_value(view: View, notation: str) -> float:
    """How good ``notation`` looks to the player whose view this is."""
    card, kept, board, power = _context(view)
    words = notation.split(" ")
    if words[0] == "keep":
        return float(_gain(card, kept, {words[1]: 1}))
    if words[0] == "swap":
        return _after_swap(view, words)
    if words[0] == "replace":
        trial = copy.deepcopy(board)
        cell = parse_cell(words[1], bd.SIZE, bd.SIZE)
        assert cell is not None
        bd.put(trial, cell, view["drawn"])
        if power is not None:
            power = copy.deepcopy(power)
            pw.take(power, cell)
        return _board_value(card, kept, trial, power)
    if words[0] == "draw":
        return DRAW_VALUE
    if words[0] == "done":
        return 0.0
    if pw.use_of(words[0]) is not None:
        return _use_value(view, words)
    rules = pw.board_rules(power) if power else None
    for blast in bd.find_blasts(board, rules):
        if blast.notation == notation:
            return _blast_value(card, kept, board, blast, power)
    return 0.0


def choose(view: View, legal: list[Action], rng: Rng) -> Action:
    """The best-valued legal action; ties broken at random."""
    scored = [(action_value(view, a.notation), a) for a in legal]
    best = max(v for v, _ in scored)
    return rng.choice([a for v, a in scored if v == best])
