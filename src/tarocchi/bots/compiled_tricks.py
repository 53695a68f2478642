"""The trick rules of the one-word packs (Piedicavallo's and Ottocento's 62 cards) compiled
with numba: the cards that may follow, laying a card on the trick, the card winning it and
taking it. These are the compiled twins of `tarocchi.games.base.TrickCore` that the
compiled heuristic players (`tarocchi.bots.heuristic.compiled_<game>`) play by; Minchiate's
two-word twin is `tarocchi.bots.compiled_minchiate` (its players judge a partial trick with
`best`, which reads card ids, not masks). A pack's tables are
`compiled_common.Cards`. tests/bots/test_compiled_heuristic.py proves the players'
playouts equal to the rules, move for move and in their scores.

It also owns the one trick loop of every compiled player, of either mask width: `driver`
compiles `_playout` (play a deal to its end) and `_replay` (replay the plays so far,
counting those the players would have made otherwise) for one player's module, whose
functions of the names below plug in its state, its rules' width and its choices.
"""

from __future__ import annotations

from collections.abc import Callable
from types import FunctionType, ModuleType
from typing import Any, TypeVar

import numpy as np
from numba import njit
from numba.core.dispatcher import Dispatcher

from tarocchi.bots.heuristic.compiled_common import Cards
from tarocchi.cards import TRUMPS
from tarocchi.compiled import low_card

F = TypeVar("F", bound=Callable[..., Any])


# The decorator of a player's functions that the drivers call with its state (a tuple of
# its arrays). They borrow the loop's arrays and neither allocate nor return any, so they
# take no reference counts (numba's `_nrt` switch off): numba would count each array of
# the tuple at each call, across branches it cannot prune, which cost the playouts a
# fifth; inlined, the calls do not copy the tuple either (docs/experiments.md, "One
# playout driver and one replay driver"). NB numba's cache does not key these options:
# after changing them, delete the `__pycache__/*.nb*` files.
def hook(fn: F) -> F:
    """Compile a player's function that the drivers call (see above)."""
    options: dict[str, Any] = {
        "cache": True,
        "_nrt": False,
        "forceinline": True,
    }  # _nrt: numba's own switch
    compiled: F = njit(**options)(fn)
    return compiled


@njit(cache=True)
def legal(cards: Cards, hand: int, led: int) -> int:
    """The cards of a one-word pack's hand that may be played to a trick of suit led (-1:
    none yet): follow suit, else trump, else any card; the Matto always (Piedicavallo §3,
    Ottocento §4)."""
    if led < 0:
        return hand
    m = hand & cards.group[led]
    if not m:
        m = hand & cards.trumps
    return m | (hand & (1 << cards.matto)) if m else hand


@hook
def only(legal_m: int) -> int:
    """The only card of a one-word mask of legal cards, or -1 if there is a choice."""
    return low_card(legal_m) if legal_m & (legal_m - 1) == 0 else -1


@njit(cache=True)
def play(
    cards: Cards,
    hands: np.ndarray,
    p: int,
    card: int,
    ts: np.ndarray,
    tc: np.ndarray,
    n: int,
    led: int,
    voids: np.ndarray,
) -> int:
    """Take card from p's hand (a one-word pack's) into the trick's place n, marking the
    void it reveals (a player who does not follow lacks the suit; one who neither follows
    nor trumps lacks trumps too; the Matto reveals nothing); return the trick's led suit
    after it."""
    hands[p] ^= 1 << card
    ts[n], tc[n] = p, card
    if card == cards.matto:
        return led
    s = cards.suit_of[card]
    if led < 0:
        return s  # type: ignore[no-any-return]
    if s != led:
        voids[p] |= cards.group[led]
        if s != TRUMPS:
            voids[p] |= cards.trumps
    return led


# the first scalars of a one-word player's loop state (an int array): the cards played,
# the Matto's player and the winner of its trick (-1: not yet)
PLAYED, OWNER, TAKER = range(3)


@hook
def lay_card(
    cards: Cards,
    hands: np.ndarray,
    voids: np.ndarray,
    ts: np.ndarray,
    tc: np.ndarray,
    sc: np.ndarray,
    p: int,
    card: int,
    n: int,
    led: int,
) -> int:
    """A one-word player's `lay`: play p's card to the trick's place n (`play`), noting in
    sc that it is played and, the Matto, who played it; return the trick's led suit after
    it."""
    sc[PLAYED] |= 1 << card
    if card == cards.matto:
        sc[OWNER] = p
    return play(cards, hands, p, card, ts, tc, n, led, voids)


@njit(cache=True)
def best(cards: Cards, tseats: np.ndarray, tcards: np.ndarray, n: int, led: int) -> tuple[int, int]:
    """(Seat, card) winning the first n plays of a trick of suit led: the highest trump, else
    the highest card of the led suit; of equal trumps the last played (TrickCore.winning_play);
    (-1, -1) while only the Matto lies there."""
    bs, bc, bt = -1, -1, False
    for i in range(n):
        c = tcards[i]
        s = cards.suit_of[c]
        if s == TRUMPS:
            if not bt or c > bc or (cards.equal and cards.equal >> c & cards.equal >> bc & 1):
                bs, bc, bt = tseats[i], c, True
        elif s == led and not bt and (bs < 0 or c > bc):
            bs, bc = tseats[i], c
    return bs, bc


@njit(cache=True)
def take(cards: Cards, ts: np.ndarray, tc: np.ndarray, led: int, piles: np.ndarray) -> int:
    """End a whole trick of suit led: its winner's team takes the cards, the Matto goes to
    its player's team (TrickCore.take); return the winner."""
    winner, _ = best(cards, ts, tc, 4, led)
    won = 0
    for i in range(4):
        c = tc[i]
        if c == cards.matto:
            piles[ts[i] & 1] |= 1 << c
        else:
            won |= 1 << c
    piles[winner & 1] |= won
    return winner


@njit(cache=True)
def lay_down(
    cards: Cards,
    hands: np.ndarray,
    p: int,
    trick: np.ndarray,
    n: int,
    ts: np.ndarray,
    tc: np.ndarray,
    voids: np.ndarray,
    owner: int,
) -> tuple[int, int]:
    """Lay the first n cards of trick, played in turn by the seats before p (out of hands
    already), in ts/tc, marking the voids they show; return the trick's led suit and the
    Matto's player (owner while the Matto is not among them)."""
    led = -1
    for i in range(n):
        seat = (p - n + i) & 3
        hands[seat] |= 1 << trick[i]  # play takes it out again
        led = play(cards, hands, seat, trick[i], ts, tc, i, led, voids)
        if trick[i] == cards.matto:
            owner = seat
    return led, owner


@njit(cache=True)
def close(
    cards: Cards,
    ts: np.ndarray,
    tc: np.ndarray,
    led: int,
    piles: np.ndarray,
    won: np.ndarray,
    taker: int,
) -> tuple[int, int]:
    """End a whole trick of suit led: take it (`take`) and count it to its winner's team in
    won; return the winner and the winner of the Matto's trick (taker while the Matto is
    not in this one)."""
    winner = take(cards, ts, tc, led, piles)
    won[winner & 1] += 1
    for i in range(4):
        if tc[i] == cards.matto:
            taker = winner
    return winner, taker


# The player's module a driver plays through; bound per copy by `driver`, so that numba
# calls the player's functions directly (a global is a constant to it), as a hand-written
# loop would, and caches the copy on disk (functions passed as arguments it cannot cache).
game: Any = None


def _playout(args: Any, p: int, n: int, given: int, moves: np.ndarray) -> Any:
    """Play the deal to its end from p's turn, the first n cards of the trick down (played
    in turn by the seats before p), p playing card given first (-1: its player's choice);
    write the actions taken to moves, then -1, and return the player's `finish`.

    The player's module provides: start(args, p, n) -> (state, trick, cards left);
    turn(state, p, moves, k) -> k, what it does at a turn before playing (Ottocento's
    declarations); legal(state, p, trick) -> the legal cards; forced(legal) -> the only
    legal card, or -1; pick(state, p, legal, n, trick) -> its choice; lay(state, p, card,
    n, trick) -> the trick after it; close(state, trick) -> (the winner, an empty trick);
    finish(state) -> what the playout returns."""
    st, tr, left = game.start(args, p, n)
    k = 0
    while left:
        k = game.turn(st, p, moves, k)
        legal_m = game.legal(st, p, tr)
        card = given if given >= 0 else game.forced(legal_m)
        given = -1
        if card < 0:
            card = game.pick(st, p, legal_m, n, tr)
        moves[k] = card
        k += 1
        left -= 1
        tr = game.lay(st, p, card, n, tr)
        if n < 3:
            n += 1
            p = (p + 1) & 3
            continue
        p, tr = game.close(st, tr)
        n = 0
    moves[k] = -1
    return game.finish(st)


def _replay(args: Any, seats: np.ndarray, cards: np.ndarray, skip: int) -> tuple[int, int]:
    """Replay the trick play so far (seats[i] played cards[i]) from the hands before it;
    return how many plays by seats other than skip, with a choice, the players would have
    made otherwise: (with a card of the same suit and points, with any other).

    The player's module provides, besides legal, forced, pick and lay (as for
    `_playout`): begin(args) -> (state, empty trick); notice(state, p), what a turn shows
    before the play; judge(near, other, want, card) -> the counts after one more play
    (`compiled_common.tally`); settle(state, trick) -> an empty trick, a whole trick
    ended."""
    st, tr = game.begin(args)
    near, miss = 0, 0
    n = 0
    for i in range(len(cards)):
        p = seats[i]
        card = cards[i]
        game.notice(st, p)
        legal_m = game.legal(st, p, tr)
        if p != skip and game.forced(legal_m) < 0:
            want = game.pick(st, p, legal_m, n, tr)
            near, miss = game.judge(near, miss, want, card)
        tr = game.lay(st, p, card, n, tr)
        n += 1
        if n == 4:
            tr = game.settle(st, tr)
            n = 0
    return near, miss


@hook
def no_turn(st: Any, p: int, moves: np.ndarray, k: int) -> int:
    """A player's `turn` where nothing comes before a card."""
    return k


@hook
def no_notice(st: Any, p: int) -> None:
    """A player's `notice` where nothing comes before a card."""


def driver(loop: Callable[..., Any], player: ModuleType) -> Dispatcher:
    """Return loop (`_playout` or `_replay`) compiled for a player's module. The copy is
    filed under the player's module, so that numba's on-disk cache, stamped by its file,
    compiles it again when the player changes (the loop's own changes change its code)."""
    if not isinstance(loop, FunctionType):
        raise TypeError(f"a driver is a plain function, not {loop!r}")
    name = f"{loop.__name__}_{player.__name__.rsplit('.', 1)[-1]}"
    code = loop.__code__.replace(
        co_name=name, co_qualname=name, co_filename=player.__file__ or loop.__code__.co_filename
    )
    copy = FunctionType(code, {**loop.__globals__, "game": player}, name)
    copy.__module__ = player.__name__
    return njit(cache=True)(copy)
