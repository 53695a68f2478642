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
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, NamedTuple

import numpy as np
from numba import njit

from tarocchi.bots.compiled_minchiate import LOW, SPLIT, TABLES, Tables, lay, legal, take
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
def _playout(
    t: Tables,
    pr: np.ndarray,
    hands: np.ndarray,
    p: int,
    trick: np.ndarray,
    state: np.ndarray,
    gone_now: np.ndarray,
    voids_now: np.ndarray,
    shown: np.ndarray,
    given: int,
    moves: np.ndarray,
) -> None:
    """Play the deal to its end from p's turn, the cards of trick down, p playing card first
    (-1: its heuristic choice), with four heuristic players; state holds, as
    `compiled_minchiate.take` keeps them, the piles (two words a team), the tricks won, the
    suits led, the ledger and the last trick's winner, and is left holding the end. gone_now
    holds the cards played and the Fola's, voids_now the voids revealed so far, shown the
    cards known in each hand. The cards played go to moves, then -1."""
    work = scratch()
    gone = gone_now.copy()
    voids = voids_now.copy()
    piles = state[0:4]  # a view: lay and take keep the piles in state
    led, trumped, n = -1, False, 0
    down = np.zeros(4, dtype=np.int64)
    played = np.zeros(2, dtype=np.int64)
    tseats = np.empty(4, dtype=np.int64)
    tcards = np.empty(4, dtype=np.int64)
    for i in range(trick.shape[0]):
        c = trick[i]
        seat = (p - trick.shape[0] + n) & 3
        _reveal(voids, seat, c, led)
        tseats[n], tcards[n] = seat, c
        n += 1
        led, trumped = lay(t, c, seat, piles, down, played, led, trumped)
    left = 0
    for s in range(4):
        left += n_cards(hands[s, 0]) + n_cards(hands[s, 1])
    k = 0
    held = np.empty((4, 2), dtype=np.int64)
    while left:
        lo, hi = hands[p, 0], hands[p, 1]
        l_lo, l_hi = legal(t, lo, hi, led, trumped, state[6])
        if given >= 0:
            card, given = given, -1
        elif n_cards(l_lo) + n_cards(l_hi) == 1:
            card = low_card(l_lo) if l_lo else SPLIT + low_card(l_hi)
        else:
            for s in range(4):
                held[s, 0] = shown[s, 0] & hands[s, 0]
                held[s, 1] = shown[s, 1] & hands[s, 1]
            card = choose(
                pr, hands, p, l_lo, l_hi, tseats, tcards, n, gone, voids, held, state[6], work
            )
        w = _word(card)
        hands[p, w] ^= _bit(card)
        gone[w] |= _bit(card)
        left -= 1
        moves[k] = card
        k += 1
        _reveal(voids, p, card, led)
        tseats[n], tcards[n] = p, card
        led, trumped = lay(t, card, p, piles, down, played, led, trumped)
        if n < 3:
            n += 1
            p = (p + 1) & 3
            continue
        p, _ = best(_CARDS, tseats, tcards, 4, led)
        take(t, state, p, led, down, played)
        led, trumped, n = -1, False, 0
        down[:] = 0
        played[:] = 0
    moves[k] = -1


@njit(cache=True)
def _replay(
    t: Tables,
    pr: np.ndarray,
    before: np.ndarray,
    fola: np.ndarray,
    shown: np.ndarray,
    seats: np.ndarray,
    cards: np.ndarray,
    skip: int,
) -> tuple[int, int]:
    """Replay the trick play so far (seats[i] played cards[i]) from the hands before it;
    return how many plays by seats other than skip, with a choice, the heuristic players
    would have made otherwise: (with a card of the same suit and points, with any other).
    shown holds the cards known in each hand then (those still held count)."""
    work = scratch()
    hands = before.copy()
    gone = fola.copy()
    voids = np.zeros((4, 2), dtype=np.int64)
    held = np.empty((4, 2), dtype=np.int64)
    piles = np.zeros(4, dtype=np.int64)  # lay's bookkeeping, unused here
    down = np.zeros(4, dtype=np.int64)
    played = np.zeros(2, dtype=np.int64)
    tseats = np.empty(4, dtype=np.int64)
    tcards = np.empty(4, dtype=np.int64)
    led_lo = 0
    near, miss = 0, 0
    led, trumped, n = -1, False, 0
    for i in range(len(cards)):
        p = seats[i]
        card = cards[i]
        l_lo, l_hi = legal(t, hands[p, 0], hands[p, 1], led, trumped, led_lo)
        if p != skip and n_cards(l_lo) + n_cards(l_hi) > 1:
            for s in range(4):
                held[s, 0] = shown[s, 0] & hands[s, 0]
                held[s, 1] = shown[s, 1] & hands[s, 1]
            want = choose(
                pr, hands, p, l_lo, l_hi, tseats, tcards, n, gone, voids, held, led_lo, work
            )
            near, miss = tally(_CARDS, near, miss, want, card)
        w = _word(card)
        hands[p, w] &= ~_bit(card)
        gone[w] |= _bit(card)
        _reveal(voids, p, card, led)
        tseats[n], tcards[n] = p, card
        led, trumped = lay(t, card, p, piles, down, played, led, trumped)
        n += 1
        if n == 4:
            if 0 <= led < TRUMPS:
                led_lo |= _GROUP[led]
            led, trumped, n = -1, False, 0
    return near, miss


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
        _playout(
            TABLES, PARAMS, h, pos.to_move, np.array(pos.trick, dtype=np.int64), state, gone,
            self.voids, self.shown, first, _MOVES,
        )  # fmt: skip
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
        near, miss = _replay(
            TABLES,
            PARAMS,
            _words(before),
            self.fola,
            self.shown_once,
            seats,
            cards,
            self.seat,
        )
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
