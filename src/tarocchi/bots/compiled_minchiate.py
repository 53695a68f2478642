"""Minchiate's trick rules compiled with numba, on masks of two 64-bit words.

The 97-card pack does not fit one machine word, so a mask here is a pair: the
56 suit cards (ids 0-55) in the low word, the 40 trumps and the Matto (ids
56-96) in the high word. Every group the players reason about (a suit, the
trumps) lies within one word. These are the compiled copies of the rules the
compiled heuristic players (`tarocchi.bots.heuristic.compiled_minchiate`) play by:
the legal cards (rules §4, the King rule included), laying a card on the trick and
taking the trick, whose winners score their opponents' counting cards at once through
the resti ledger (rules §5); the trick's winner is `compiled_tricks.best`'s, which reads
card ids, not masks. tests/bots/test_compiled_heuristic.py proves
the players' playouts equal to the rules, move for move and in their scores.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from tarocchi.games.minchiate import CAPTURE_POINTS
from tarocchi.packs.minchiate import PACK

SPLIT = 56  # the first card of the high word
LOW = (1 << SPLIT) - 1
RESTO = 60  # rules §5: each 60-point lead makes a resto


class Tables(NamedTuple):
    """The pack's tables, masks split into (low word, high word)."""

    group_of: np.ndarray  # per card: its group (0-3 the suits, 4 the trumps; -1 the Matto)
    group_mask: np.ndarray  # per group: its mask within its word
    capture: np.ndarray  # per card: the counting points its capture scores at once
    kings: int  # low word
    trumps: int  # high word
    matto: int  # the Matto's bit in the high word


def _tables() -> Tables:
    """Return the Minchiate pack's tables."""
    pack = PACK
    if pack.size != SPLIT + 41 or pack.trump_mask & LOW or pack.matto != SPLIT + 40:
        raise ValueError("the two-word masks expect 56 suit cards, then 40 trumps and the Matto")
    groups = [*(pack.suit_mask[s] for s in range(4)), pack.trump_mask]
    group_of = [
        -1 if c == pack.matto else next(i for i, g in enumerate(groups) if g >> c & 1)
        for c in range(pack.size)
    ]

    def arr(values: list[int] | tuple[int, ...]) -> np.ndarray:
        return np.array(values, dtype=np.int64)

    return Tables(
        arr(group_of),
        arr([g & LOW or g >> SPLIT for g in groups]), arr(CAPTURE_POINTS), pack.king_mask,
        pack.trump_mask >> SPLIT, 1 << (pack.matto - SPLIT),
    )  # fmt: skip


TABLES = _tables()


@njit(cache=True)
def legal(t: Tables, lo: int, hi: int, led: int, trumped: bool, led_lo: int) -> tuple[int, int]:
    """The cards of a hand (lo, hi words) that may be played to a trick of the group led (-1:
    the lead): follow, else trump, else any card; the Matto always, except under the King
    rule (rules §4: the first trick of a suit after a trump fell, led_lo marking the suit
    groups already led, forces the King)."""
    if led < 0:
        return lo, hi
    w = 1 if led == 4 else 0
    gm = t.group_mask[led]
    m = (hi if w else lo) & gm
    if m:
        king = m & t.kings if w == 0 else 0
        if king and trumped and not led_lo & gm:
            return king, 0
        if w == 0:
            return m, hi & t.matto
        return 0, m | (hi & t.matto)
    m = hi & t.trumps
    if m:
        return 0, m | (hi & t.matto)
    return lo, hi


@njit(cache=True)
def lay(
    t: Tables,
    card: int,
    seat: int,
    piles: np.ndarray,
    down: np.ndarray,
    played: np.ndarray,
    led: int,
    trumped: bool,
) -> tuple[int, bool]:
    """Lay seat's card on the trick: the Matto straight to its team's pile (rules §4),
    another card down with its counting points; return the trick's led group and whether a
    trump fell. (The card winning the trick is `compiled_tricks.best`'s, on card ids.)"""
    team = seat & 1
    if t.group_of[card] < 0:
        piles[2 * team + 1] |= t.matto
        return led, trumped
    if card < SPLIT:
        down[2 * team] |= 1 << card
    else:
        down[2 * team + 1] |= 1 << (card - SPLIT)
    played[team] += t.capture[card]
    if led < 0:
        led = t.group_of[card]
    return led, trumped or card >= SPLIT


@njit(cache=True)
def take(
    t: Tables, state: np.ndarray, top_seat: int, led: int, down: np.ndarray, played: np.ndarray
) -> None:
    """End a trick: its winner's team takes the cards down (the Matto is already with its
    team) and scores at once the counting cards its opponents played (rules §5), through
    the resti ledger; state (the players' playout's) counts the trick, its led suit and
    its winner."""
    team = top_seat & 1
    state[2 * team] |= down[0] | down[2]
    state[2 * team + 1] |= down[1] | down[3]
    gained = played[1 - team]
    if gained:
        diff = state[8] + (gained if team == 0 else -gained)
        if diff >= RESTO:
            state[9] += diff // RESTO
            diff %= RESTO
        elif diff <= -RESTO:
            state[10] += (-diff) // RESTO
            diff = -((-diff) % RESTO)
        state[8] = diff
    state[4 + team] += 1
    if led == 4:
        state[7] |= t.group_mask[4]
    else:
        state[6] |= t.group_mask[led]
    state[11] = top_seat
