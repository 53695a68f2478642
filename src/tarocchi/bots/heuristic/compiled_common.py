"""What the compiled heuristic players of every pack share, on masks of machine words.

`heuristic.common` estimates from a seat's view who may hold which card (Odds)
and what the current trick will bring (trick_outlook). The compiled players of
`compiled_piedicavallo` and `compiled_minchiate` make the same estimates with the
same floating-point steps, from a pack's tables (`Cards`): a group (a suit, the
trumps) always lies within one word, so every mask handed to these functions is
one word's, and a card's id is its word's first id plus its bit.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from tarocchi.bots.heuristic.common import higher_in_suit
from tarocchi.cards import FOOL, TRUMPS, Pack
from tarocchi.compiled import low_card, n_cards

# The weight a sampled deal takes per past play the heuristic players would have made
# otherwise (likelihood.Replay): with a card of the same suit and points, with any other.
# Sharp, as the chains of `likelihood.Chains` need (docs/experiments.md: the fits)
FACTORS = (0.02, 0.04)


class Cards(NamedTuple):
    """A pack's tables for the compiled heuristic players."""

    points: np.ndarray
    suit_of: np.ndarray
    higher: np.ndarray  # per card: the cards of its group above it, within its word
    group: np.ndarray  # per group (the suits 0-3, the trumps 4): its mask within its word
    trumps: int  # the trumps' mask within their word
    trump_off: int  # the id of the first card of the trumps' word
    matto: int  # the Matto's id
    equal: int  # trumps of equal rank, of which the last played wins (TrickCore.equal)


def cards_of(pack: Pack, trump_off: int = 0, equal: int = 0) -> Cards:
    """Return the tables of a pack whose trumps' word begins at card trump_off (0: the
    whole pack in one word), its trumps of equal rank `equal` (a one-word pack's)."""
    low = (1 << trump_off) - 1 if trump_off else (1 << 64) - 1

    def in_word(c: int, mask: int) -> int:
        return mask >> trump_off if trump_off and c >= trump_off else mask & low

    suits = [pack.suit_mask[s] & low for s in range(4)]
    return Cards(
        np.array(pack.points, dtype=np.int64),
        np.array(pack.suit_of, dtype=np.int64),
        np.array([in_word(c, higher_in_suit(pack, c)) for c in range(pack.size)], dtype=np.int64),
        np.array([*suits, pack.trump_mask >> trump_off], dtype=np.int64),
        pack.trump_mask >> trump_off,
        trump_off,
        pack.matto,
        equal,
    )


def recorded(moves: np.ndarray) -> tuple[int, ...]:
    """Return the cards a playout wrote to moves, up to its closing -1."""
    out = []
    for c in moves:
        if c < 0:
            break
        out.append(int(c))
    return tuple(out)


@njit(cache=True)
def tally(cards: Cards, near: int, other: int, want: int, card: int) -> tuple[int, int]:
    """Return the counts of past plays the heuristic players would have made otherwise,
    (with a card of the same suit and points, with any other), after one more play of card
    where they want want (the two kinds that FACTORS weigh)."""
    if want == card:
        return near, other
    if cards.points[want] == cards.points[card] and cards.suit_of[want] == cards.suit_of[card]:
        return near + 1, other
    return near, other + 1


@njit(cache=True)
def p_any(n: int, w: np.ndarray, m: int, off: int) -> float:
    """The chance that a seat holding n cards holds one of the cards m of one word (its
    bit 0 is card off), m already limited to the cards the seat may hold (Odds.p_any)."""
    if not m:
        return 0.0
    none = 1.0
    while m:
        c = off + low_card(m)
        m &= m - 1
        x = n * w[c]
        if x >= 1.0:
            return 1.0
        none *= 1.0 - x
    return 1.0 - none


@njit(cache=True)
def middle(mask: int) -> int:
    """The median bit of a non-empty one-word mask, the lower of an even count."""
    for _ in range((n_cards(mask) - 1) // 2):
        mask &= mask - 1
    return low_card(mask)


@njit(cache=True)
def scratch() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Return the work arrays of a compiled `choose`: branch values, flags and cards (two
    generations of at most 27 branches), card weights, and six rows of four ints."""
    return (
        np.empty((4, 32), dtype=np.float64),
        np.empty((2, 32), dtype=np.bool_),
        np.empty((2, 32), dtype=np.int64),
        np.zeros(128, dtype=np.float64),
        np.empty((6, 4), dtype=np.int64),
    )


@njit(cache=True)
def trick_so_far(
    cards: Cards,
    tseats: np.ndarray,
    tcards: np.ndarray,
    n: int,
    me: int,
    ts: np.ndarray,
    tc: np.ndarray,
    rest: np.ndarray,
) -> tuple[int, int, int, bool, int]:
    """Copy the trick's first n plays to ts/tc and the seats to play after me to rest; return
    the led suit (-1: none yet), the points of me's team's cards and of the opponents', whether
    a trump is in the trick, and how many seats play after me."""
    nrest = 0
    for i in range(1, 4 - n):
        rest[nrest] = (me + i) & 3
        nrest += 1
    led = -1
    own = opp = 0
    trumped = False
    for i in range(n):
        c = tcards[i]
        ts[i], tc[i] = tseats[i], c
        s = cards.suit_of[c]
        if led < 0 and s != FOOL:
            led = s
        if c != cards.matto:
            if (tseats[i] ^ me) & 1:
                opp += cards.points[c]
            else:
                own += cards.points[c]
            trumped = trumped or s == TRUMPS
    return led, own, opp, trumped, nrest


@njit(cache=True)
def outlook(
    cards: Cards,
    plo: np.ndarray,
    phi: np.ndarray,
    sizes: np.ndarray,
    w: np.ndarray,
    team: int,
    best_seat: int,
    best_card: int,
    led: int,
    rest: np.ndarray,
    nrest: int,
    load: float,
    duck: float,
    work: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray],
) -> tuple[float, float]:
    """(The chance that team wins the trick, the points the seats in rest add, + when it
    wins, - when it loses): common.trick_outlook, its branches in the same order. plo and
    phi hold what each seat may hold in the suits' word and in the trumps' (one array
    twice for a one-word pack); w each unseen card's weight (Odds)."""
    fl, fb, fc = work[0], work[1], work[2]
    bp, ba, np_, na = fl[0], fl[1], fl[2], fl[3]
    bw, nw = fb[0], fb[1]
    bc, nc = fc[0], fc[1]
    off = cards.trump_off
    nb = 1
    bp[0], bw[0], bc[0], ba[0] = 1.0, (best_seat & 1) == team, best_card, 0.0
    for r in range(nrest):
        seat = rest[r]
        ours = (seat & 1) == team
        k = 0
        for i in range(nb):
            p, winning, card, added = bp[i], bw[i], bc[i], ba[i]
            if winning == ours:
                np_[k], nw[k], nc[k], na[k] = p, winning, card, added + load
                k += 1
                continue
            # common.beaters: a follow of the led suit or a ruff, each within one word
            if cards.suit_of[card] == TRUMPS:
                above = cards.trumps & ~((2 << (card - off)) - 1) & phi[seat]
                if led == TRUMPS:
                    follow, f_off, ruff = above, off, 0
                else:
                    follow, f_off, ruff = 0, 0, above
            else:
                follow, f_off, ruff = cards.higher[card] & plo[seat], 0, cards.trumps & phi[seat]
            n = sizes[seat]
            p_follow = p_any(n, w, follow, f_off)
            p_ruff = 0.0
            if ruff:
                held = cards.group[led] & (phi[seat] if led == TRUMPS else plo[seat])
                p_void = 1.0 - p_any(n, w, held, off if led == TRUMPS else 0)
                p_ruff = p_void * p_any(n, w, ruff, off)
            p_ruff = min(p_ruff, 1.0 - p_follow)
            stay = 1.0 - p_follow - p_ruff
            if stay > 0.0:
                np_[k], nw[k], nc[k], na[k] = p * stay, winning, card, added + duck
                k += 1
            if p_follow > 0.0:
                c = f_off + middle(follow)
                np_[k], nw[k], nc[k] = p * p_follow, not winning, c
                na[k] = added + cards.points[c]
                k += 1
            if p_ruff > 0.0:
                c = off + middle(ruff)
                np_[k], nw[k], nc[k] = p * p_ruff, not winning, c
                na[k] = added + cards.points[c]
                k += 1
        for i in range(k):
            bp[i], bw[i], bc[i], ba[i] = np_[i], nw[i], nc[i], na[i]
        nb = k
    win = 0.0
    value = 0.0
    for i in range(nb):
        if bw[i]:
            win += bp[i]
            value += bp[i] * ba[i]
        else:
            value -= bp[i] * ba[i]
    return win, value
