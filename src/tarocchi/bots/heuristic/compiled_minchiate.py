"""The Minchiate heuristic bot's trick play compiled with numba: playouts and replays.

The same judgement as `HeuristicBot.card_values` (rules §4-§5: what the trick
brings, twice the opponents' counting cards and ours once, less what the card
is worth kept, the King rule's forced King, the Matto's payback), made on masks
of two 64-bit words as in `tarocchi.bots.compiled_minchiate` (the 56 suit cards
in the low word, the trumps and the Matto in the high one). The search plays a
sampled deal to its end with four such players, each judging from what its own
seat may know (`Players.playout`), and the hard level replays the plays so far
with them (`Players.replay`). tests/bots/test_compiled_heuristic.py proves that
`choose` is the heuristic bot's choice on every decision of many seeded deals
and that a playout is, move for move, the heuristic bots through the rules.

The functions from `start` to `finish` plug these players into the one trick loop of
`compiled_tricks` (`_playout`, `_replay`, compiled for this module by its `driver`).
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any, NamedTuple

import numpy as np
from numba import njit

from tarocchi.bots import compiled_minchiate as cm
from tarocchi.bots import compiled_tricks as tricks
from tarocchi.bots.compiled_minchiate import LOW, SPLIT, TABLES, Tables
from tarocchi.bots.compiled_tricks import best
from tarocchi.bots.heuristic.compiled_common import (
    cards_of,
    outlook,
    recorded,
    scratch,
    tally,
    trick_so_far,
)
from tarocchi.bots.heuristic.minchiate import HeuristicBot, fola_cards
from tarocchi.bots.inference import void_masks
from tarocchi.cards import TRUMPS
from tarocchi.compiled import low_card, n_cards
from tarocchi.games.base import led_suit, mover
from tarocchi.packs.minchiate import MATTO, PACK
from tarocchi.views import View, view

if TYPE_CHECKING:  # the rules compile at import
    from tarocchi.games import minchiate

_CARDS = cards_of(PACK, SPLIT)
# per card its points, its suit and the cards of its suit (or the trumps) above it within
# its word; per suit (0-3: low word; 4 the trumps: high word) its mask within its word
_POINTS, _SUIT_OF, _HIGHER, _GROUP = _CARDS.points, _CARDS.suit_of, _CARDS.higher, _CARDS.group
_KINGS = PACK.king_mask  # low word
_TRUMPS_HI = PACK.trump_mask >> SPLIT
_FULL_LO = PACK.full_mask & LOW
_FULL_HI = PACK.full_mask >> SPLIT


def params(bot: type[HeuristicBot] = HeuristicBot) -> np.ndarray:
    """Return the heuristic bot's tuning constants in the order the compiled code reads."""
    return np.array(
        [
            bot.load_pts, bot.duck_pts, bot.trick_value, bot.trump_master, bot.trump_base,
            bot.trump_slope, bot.king_power, bot.suit_master, bot.matto_power, bot.q_master,
            bot.q_trump, bot.q_king, bot.payback, bot.king_rule_gain, bot.matto_lead_penalty,
            bot.capture_factor,
        ],
        dtype=np.float64,
    )  # fmt: skip


# the indices of params()
LOAD, DUCK, TRICK_VALUE, TRUMP_MASTER, TRUMP_BASE, TRUMP_SLOPE, KING_POWER = range(7)
SUIT_MASTER, MATTO_POWER, Q_MASTER, Q_TRUMP, Q_KING, PAYBACK, KING_RULE = range(7, 14)
MATTO_LEAD, CAPTURE = range(14, 16)
PARAMS = params()


@njit(cache=True)
def _word(c: int) -> int:
    """The word a card lies in: 0 the suit cards, 1 the trumps and the Matto."""
    return 0 if c < SPLIT else 1


@njit(cache=True)
def _bit(c: int) -> int:
    """The card's bit within its word."""
    return 1 << (c if c < SPLIT else c - SPLIT)


@njit(cache=True)
def _keep(pr: np.ndarray, card: int, u_lo: int, u_hi: int, future: float) -> float:
    """What keeping card is worth (HeuristicBot.keep_value)."""
    if card == MATTO:
        return pr[MATTO_POWER] * future  # type: ignore[no-any-return]
    pts = _POINTS[card]
    if _SUIT_OF[card] == TRUMPS:
        above = _HIGHER[card] & u_hi
        if not above:
            power, q = pr[TRUMP_MASTER], pr[Q_MASTER]
        else:
            out = n_cards(u_hi & _TRUMPS_HI)
            below = out - n_cards(above)
            power, q = pr[TRUMP_BASE] + pr[TRUMP_SLOPE] * below / max(out, 1), pr[Q_TRUMP]
        return future * power + pts * (3 * q - 2)  # type: ignore[no-any-return]
    if (_KINGS >> card) & 1:
        return future * pr[KING_POWER] + pts * (3 * pr[Q_KING] - 2)  # type: ignore[no-any-return]
    if not _HIGHER[card] & u_lo:
        return future * pr[SUIT_MASTER]  # type: ignore[no-any-return]
    return 0.0


@njit(cache=True)
def _places(
    hands: np.ndarray,
    me: int,
    u_lo: int,
    u_hi: int,
    voids: np.ndarray,
    shown: np.ndarray,
    sizes: np.ndarray,
    plo: np.ndarray,
    phi: np.ndarray,
    w: np.ndarray,
) -> None:
    """Fill sizes with each hand's size, plo/phi with the unseen cards (u_lo, u_hi) each other
    seat may hold, and w with each unseen card's weight: 1 / the number of cards of the hands
    it may lie in (Odds)."""
    for s in range(4):
        sizes[s] = n_cards(hands[s, 0]) + n_cards(hands[s, 1])
        if s == me:
            plo[s] = phi[s] = 0
            continue
        v_lo, v_hi = voids[s, 0], voids[s, 1]
        for t in range(4):
            if t != s:  # a card shown in t's hand is not in s's
                v_lo |= shown[t, 0]
                v_hi |= shown[t, 1]
        plo[s], phi[s] = u_lo & ~v_lo, u_hi & ~v_hi
    for word in range(2):
        m = u_hi if word else u_lo
        off = SPLIT if word else 0
        while m:
            b = m & -m
            m &= m - 1
            slots = 0
            for s in range(4):
                if (phi[s] if word else plo[s]) & b:
                    slots += sizes[s]
            c = off + low_card(b)
            w[c] = 1.0 / slots if slots else 0.0


@njit(cache=True)
def _king_after(
    king: int,
    u_lo: int,
    team: int,
    rest: np.ndarray,
    nrest: int,
    sizes: np.ndarray,
    plo: np.ndarray,
    w: np.ndarray,
) -> float:
    """Return the odds that an opponent still to play holds king, unseen, and must give it
    up to the trump already in the trick (rules §4: the King rule)."""
    after = 0.0
    if king & u_lo:
        kc = low_card(king)
        for r in range(nrest):
            s = rest[r]
            if (s & 1) != team:
                after += min(1.0, sizes[s] * w[kc]) if plo[s] & king else 0.0
    return after


@njit(cache=True)
def choose(
    pr: np.ndarray,
    hands: np.ndarray,
    me: int,
    l_lo: int,
    l_hi: int,
    tseats: np.ndarray,
    tcards: np.ndarray,
    n: int,
    gone: np.ndarray,
    voids: np.ndarray,
    shown: np.ndarray,
    led_lo: int,
    work: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray],
) -> int:
    """Return the card the heuristic bot plays (HeuristicBot.card_values, then the first
    best in id order) from the legal cards (l_lo, l_hi): gone holds the cards played and
    the Fola's (per word), voids each seat's revealed voids, shown the cards every seat
    knows each hand holds (face up or declared), led_lo the suits led in finished tricks."""
    w, rows = work[3], work[4]
    sizes, plo, phi, rest, ts, tc = rows[0], rows[1], rows[2], rows[3], rows[4], rows[5]
    team = me & 1
    u_lo = _FULL_LO & ~(hands[me, 0] | gone[0])
    u_hi = _FULL_HI & ~(hands[me, 1] | gone[1])
    _places(hands, me, u_lo, u_hi, voids, shown, sizes, plo, phi, w)
    future = min(1.0, (sizes[me] - 1) / 4)
    led, own, opp, trumped, nrest = trick_so_far(_CARDS, tseats, tcards, n, me, ts, tc, rest)
    # rules §4: on a suit's first lead, a trump forces a later holder's King
    first_lead = 0 <= led < TRUMPS and not led_lo & _GROUP[led]
    king_after = 0.0
    if first_lead and not trumped:
        king_after = _king_after(_KINGS & _GROUP[led], u_lo, team, rest, nrest, sizes, plo, w)
    best_c, best_v = -1, -1e300
    for word in range(2):
        m = l_hi if word else l_lo
        while m:
            c = (SPLIT if word else 0) + low_card(m)
            m &= m - 1
            keep = _keep(pr, c, u_lo, u_hi, future)
            if c == MATTO:
                if led < 0:
                    ev = -keep - pr[MATTO_LEAD]
                    if ev > best_v:
                        best_c, best_v = c, ev
                    continue
                ws, wc = best(_CARDS, ts, tc, n, led)
                p, added = outlook(
                    _CARDS, plo, phi, sizes, w, team, ws, wc, led, rest, nrest, pr[LOAD], pr[DUCK],
                    work,
                )  # fmt: skip
                mine, cost = own, (1 - p) * pr[PAYBACK]
            else:
                suit = _SUIT_OF[c] if led < 0 else led
                ts[n], tc[n] = me, c
                ws, wc = best(_CARDS, ts, tc, n + 1, suit)
                p, added = outlook(
                    _CARDS, plo, phi, sizes, w, team, ws, wc, suit, rest, nrest, pr[LOAD], pr[DUCK],
                    work,
                )  # fmt: skip
                mine, cost = own + _POINTS[c], 0.0
            # rules §5: the winners score the losers' points at once and everything at the end
            ev = p * (2 * opp + mine) - (1 - p) * (2 * mine + opp)
            ev += pr[CAPTURE] * added + (2 * p - 1) * pr[TRICK_VALUE] - keep - cost
            if first_lead and not trumped and _SUIT_OF[c] == TRUMPS:
                ev += p * pr[KING_RULE] * king_after
            if ev > best_v:
                best_c, best_v = c, ev
    return best_c


@njit(cache=True)
def _reveal(voids: np.ndarray, p: int, card: int, led: int) -> None:
    """Mark the void a play reveals: a player who does not follow the led suit lacks it,
    and one who neither follows nor trumps lacks trumps too (the Matto reveals nothing)."""
    if card == MATTO or led < 0:
        return
    s = _SUIT_OF[card]
    if s != led:
        voids[p, 1 if led == TRUMPS else 0] |= _GROUP[led]
        if s != TRUMPS:
            voids[p, 1] |= _TRUMPS_HI


@njit(cache=True)
def _state(
    t: Tables,
    pr: np.ndarray,
    hands: np.ndarray,
    gone: np.ndarray,
    voids: np.ndarray,
    shown: np.ndarray,
    state: np.ndarray,
) -> tuple[Any, ...]:
    """Return a loop's state over these arrays, hands and state its own (the others
    copied): (the tables, params, hands, the cards gone, voids, the cards known in each
    hand, state (as `compiled_minchiate.take` keeps it), the trick's cards down and
    counting points (`compiled_minchiate.lay`), its seats and cards, scratch for the known
    cards still in hand, the choices' scratch arrays)."""
    return (
        t, pr, hands, gone.copy(), voids.copy(), shown, state, np.zeros(4, dtype=np.int64),
        np.zeros(2, dtype=np.int64), np.empty(4, dtype=np.int64), np.empty(4, dtype=np.int64),
        np.empty((4, 2), dtype=np.int64), scratch(),
    )  # fmt: skip


@tricks.hook
def lay(st: tuple[Any, ...], p: int, card: int, n: int, trick: tuple[int, bool]) -> Any:
    """Play p's card to the trick's place n, marking the void it reveals; return the
    trick's led group and whether a trump fell, after it."""
    t, _, hands, gone, voids, _, state, down, played, ts, tc, _, _ = st
    w = _word(card)
    hands[p, w] &= ~_bit(card)
    gone[w] |= _bit(card)
    _reveal(voids, p, card, trick[0])
    ts[n], tc[n] = p, card
    return cm.lay(t, card, p, state[0:4], down, played, trick[0], trick[1])


@njit(cache=True)
def start(args: tuple[Any, ...], p: int, n: int) -> tuple[tuple[Any, ...], Any, int]:
    """A playout's state from (the tables, params, the hands, the trick so far, state (the
    piles (two words a team), the tricks won, the suits led, the ledger and the last
    trick's winner, left holding the end), the cards played and the Fola's, the voids
    revealed so far, the cards known in each hand), its trick laid (played in turn by the
    seats before p: put back into their hands, `lay` takes them out)."""
    t, pr, hands, trick, state, gone, voids, shown = args
    st = _state(t, pr, hands, gone, voids, shown, state)
    tr = (-1, False)
    for i in range(n):
        seat = (p - n + i) & 3
        hands[seat, _word(trick[i])] |= _bit(trick[i])
        tr = lay(st, seat, trick[i], i, tr)
    left = 0
    for s in range(4):
        left += n_cards(hands[s, 0]) + n_cards(hands[s, 1])
    return st, tr, left


@njit(cache=True)
def begin(args: tuple[Any, ...]) -> tuple[tuple[Any, ...], Any]:
    """A replay's state from (the tables, params, the hands before the trick play, the Fola,
    the cards known in each hand then (those still held count)); its state array keeps only
    the suits led (as `take` does)."""
    t, pr, before, fola, shown = args
    st = _state(t, pr, before.copy(), fola, np.zeros((4, 2), dtype=np.int64), shown,
                np.zeros(12, dtype=np.int64))  # fmt: skip
    return st, (-1, False)


turn, notice = tricks.no_turn, tricks.no_notice


@tricks.hook
def legal(st: tuple[Any, ...], p: int, trick: tuple[int, bool]) -> tuple[int, int]:
    """The cards p may play to the trick (low word, high word)."""
    t, _, hands, _, _, _, state, _, _, _, _, _, _ = st
    return cm.legal(t, hands[p, 0], hands[p, 1], trick[0], trick[1], state[6])


@tricks.hook
def forced(legal_m: tuple[int, int]) -> int:
    """The only legal card, or -1 if there is a choice."""
    lo, hi = legal_m
    if n_cards(lo) + n_cards(hi) != 1:
        return -1
    return low_card(lo) if lo else SPLIT + low_card(hi)


@tricks.hook
def pick(st: tuple[Any, ...], p: int, legal_m: tuple[int, int], n: int, trick: Any) -> int:
    """The heuristic player's card for p (`choose`), knowing the cards shown still in each
    hand."""
    _, pr, hands, gone, voids, shown, state, _, _, ts, tc, held, work = st
    for s in range(4):
        held[s, 0] = shown[s, 0] & hands[s, 0]
        held[s, 1] = shown[s, 1] & hands[s, 1]
    return choose(
        pr, hands, p, legal_m[0], legal_m[1], ts, tc, n, gone, voids, held, state[6], work
    )


@tricks.hook
def close(st: tuple[Any, ...], trick: tuple[int, bool]) -> tuple[int, Any]:
    """End a whole trick: its winner's team takes it, scoring at once (`take`); return the
    winner and an empty trick."""
    t, _, _, _, _, _, state, down, played, ts, tc, _, _ = st
    p, _ = tricks.best(_CARDS, ts, tc, 4, trick[0])
    cm.take(t, state, p, trick[0], down, played)
    down[:] = 0
    played[:] = 0
    return p, (-1, False)


@tricks.hook
def settle(st: tuple[Any, ...], trick: tuple[int, bool]) -> Any:
    """End a whole trick in a replay: note its suit led (the King rule's); return an empty
    trick."""
    led, state = trick[0], st[6]
    if 0 <= led < TRUMPS:
        state[6] |= _GROUP[led]
    return (-1, False)


@tricks.hook
def judge(near: int, other: int, want: int, card: int) -> tuple[int, int]:
    """The counts of plays the players would have made otherwise, after one more."""
    return tally(_CARDS, near, other, want, card)


@tricks.hook
def finish(st: tuple[Any, ...]) -> None:
    """Nothing: the playout's end is in its state array."""


# the one trick loop (compiled_tricks), playing through the functions above
_playout = tricks.driver(tricks._playout, sys.modules[__name__])
_replay = tricks.driver(tricks._replay, sys.modules[__name__])


def _split(mask: int) -> tuple[int, int]:
    """Return a 97-card mask as (low word, high word)."""
    return mask & LOW, mask >> SPLIT


def _words(masks: tuple[int, ...] | list[int]) -> np.ndarray:
    """Return masks as rows of (low word, high word)."""
    return np.array([_split(m) for m in masks], dtype=np.int64)


# the events that show a card in a player's hand (rules §2-§3)
SHOWN_IN_HAND = frozenset(("rob", "expose", "take", "declare"))


class Outcome(NamedTuple):
    """What a heuristic playout leaves to score (as compiled_minchiate.Outcome)."""

    piles: tuple[int, int]  # the cards each team holds at the end (97-bit masks)
    ledger: tuple[int, int, int]  # the difference, NS resti, EW resti
    last: int  # the last trick's winner
    moves: tuple[int, ...]  # the cards played (when recorded)


_MOVES = np.empty(128, dtype=np.int64)  # the cards of the latest playout (one per process)


class Players:
    """Four heuristic players, each knowing what the public record of one view shows (the
    Fola, the cards shown in each hand, the voids revealed) and its own cards in the deal."""

    __slots__ = ("fola", "plays", "seat", "shown", "shown_once", "voids")

    def __init__(self, v: View) -> None:
        self.seat = v.seat
        self.fola = np.array(_split(fola_cards(v)), dtype=np.int64)
        self.voids = _words(void_masks(v))
        self.shown = _words(v.shown)
        # every card shown in a hand before play (robbed, exposed, taken from the Fola,
        # declared), known there until it is played or discarded
        once = [0, 0, 0, 0]
        for e in v.events:
            if e.kind in SHOWN_IN_HAND and e.seat is not None:
                once[e.seat] |= e.cards
        self.shown_once = _words(once)
        self.plays = [(s, c) for t in (*v.tricks, v.trick) for s, c in t]

    def playout(self, pos: Any, first: int = -1, record: bool = False) -> Outcome:
        """Play a kernel position (`kernel_minchiate.Pos`) of the deal to its end, the player
        to move playing card first (-1: its heuristic choice)."""
        state = np.array(
            [*_split(pos.piles[0]), *_split(pos.piles[1]), pos.won[0], pos.won[1],
             *_split(pos.led), *pos.ledger, pos.last],
            dtype=np.int64,
        )  # fmt: skip
        h = _words(pos.hands)
        held = 0
        for x in pos.hands:
            held |= x
        # every card in no hand is played (the trick's too) or in the Fola, shown to all
        gone = np.array(_split(PACK.full_mask & ~held), dtype=np.int64)
        trick = np.array(pos.trick, dtype=np.int64)
        args = (TABLES, PARAMS, h, trick, state, gone, self.voids, self.shown)
        _playout(args, pos.to_move, len(pos.trick), first, _MOVES)
        moves = recorded(_MOVES) if record else ()
        s = [int(x) for x in state]
        return Outcome(
            (s[0] | s[1] << SPLIT, s[2] | s[3] << SPLIT), (s[8], s[9], s[10]), s[11], moves
        )

    def replay(self, hands: tuple[int, int, int, int], discard: int = 0) -> tuple[int, int]:
        """Return how many of the other seats' past plays (with a choice) the heuristic
        players would have made otherwise on a deal with these hands now: (with a card of
        the same suit and points, with any other). Minchiate's discards lie in the Fola,
        shown to all, so discard is unused."""
        before = list(hands)
        for s, c in self.plays:
            before[s] |= 1 << c
        seats = np.array([s for s, _ in self.plays], dtype=np.int64)
        cards = np.array([c for _, c in self.plays], dtype=np.int64)
        args = (TABLES, PARAMS, _words(before), self.fola, self.shown_once)
        near, miss = _replay(args, seats, cards, self.seat)
        return int(near), int(miss)


def choose_in(state: minchiate.State) -> int:
    """Return the heuristic bot's card for the player to move in a trick-phase rules state,
    judged by the compiled code (for the differential test)."""
    p = mover(state)
    v = view(state, p)
    pl = Players(v)
    hands = _words(state.hands)
    n = len(state.trick)
    tseats = np.zeros(4, dtype=np.int64)
    tcards = np.zeros(4, dtype=np.int64)
    for i, (s, c) in enumerate(state.trick):
        tseats[i], tcards[i] = s, c
    held = 0
    for x in state.hands:
        held |= x
    gone = np.array(_split(PACK.full_mask & ~held), dtype=np.int64)
    legal_m = 0
    for a in v.legal:
        legal_m |= 1 << a
    l_lo, l_hi = _split(legal_m)
    led_lo = 0
    for trick in v.tricks:
        led = led_suit(trick, PACK.suit_of)
        if led is not None and led != TRUMPS:
            led_lo |= PACK.suit_mask[led]
    card: int = choose(
        PARAMS, hands, p, l_lo, l_hi, tseats, tcards, n, gone, pl.voids, pl.shown, led_lo,
        scratch(),
    )  # fmt: skip
    return card
