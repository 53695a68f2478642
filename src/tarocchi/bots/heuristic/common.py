"""What the heuristic bots share: the choice by phase, and card counting (who may hold what,
who can still win).

Everything here reads only what a view shows (the seat's hand, the cards played,
the voids revealed by failing to follow) and works on any pack numbered the house
way (suits in blocks, weakest first, then the trumps, then the Matto), so the
Piedicavallo, Ottocento and Minchiate bots can share it. The chance model is a
plain marginal estimate: an unseen card lies with each seat that may still hold
it, or in a hidden pile, in proportion to the number of cards each holds.
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Callable, Sequence
from typing import NamedTuple

from tarocchi.bots.base import Bot
from tarocchi.cards import TRUMPS, Pack, iter_bits, popcount
from tarocchi.views import View


class JudgingBot(Bot):
    """A heuristic bot: a forced action at once, otherwise its judgement of the phase (the
    dealer's discard, a declaration, a card to play by the values of card_values)."""

    def choose(self, view: View) -> int:
        """Return the action for the seat's view."""
        legal = view.legal
        if len(legal) == 1:
            return legal[0]
        if view.phase == "discard":
            return self.discard(view)
        if view.phase == "declare":
            return self.declare(view)
        values = self.card_values(view)
        return max(legal, key=values.__getitem__)  # among equals the first in id order

    @abstractmethod
    def discard(self, view: View) -> int:
        """Return the card to discard."""

    def declare(self, view: View) -> int:
        """Return the declaration to make (refused in a game without declarations)."""
        raise ValueError(f"{self.rules.title} has no declarations")

    @abstractmethod
    def card_values(self, view: View) -> dict[int, float]:
        """Return the value of each legal card to play."""


Trick = Sequence[tuple[int, int]]
# a hidden pile as (the cards it may hold, how many of them it holds), e.g. a discard
HiddenGroup = tuple[int, int]


def played_mask(view: View) -> int:
    """Return every card played to a trick so far (finished tricks and the current one)."""
    m = 0
    for t in view.tricks:
        for _, c in t:
            m |= 1 << c
    for _, c in view.trick:
        m |= 1 << c
    return m


def higher_in_suit(pack: Pack, card: int) -> int:
    """Return the mask of the cards of card's suit (or trumps) that beat it."""
    return pack.suit_mask[pack.suit_of[card]] & ~((2 << card) - 1)


class Tables(NamedTuple):
    """A pack's lookups as the heuristic players read them on their hot path (module
    globals: one lookup each)."""

    points: tuple[int, ...]
    suit_of: tuple[int, ...]
    suit_mask: tuple[int, ...]
    trump_mask: int
    kings: int
    full: int
    higher: tuple[int, ...]  # per card, the cards of its suit (or trumps) that beat it


def tables(pack: Pack) -> Tables:
    """Return a pack's lookups (see Tables)."""
    higher = tuple(higher_in_suit(pack, c) for c in range(pack.size))
    return Tables(pack.points, pack.suit_of, pack.suit_mask, pack.trump_mask, pack.king_mask,
                  pack.full_mask, higher)  # fmt: skip


def is_master(pack: Pack, card: int, unseen: int) -> bool:
    """Return True if no unseen card of the same suit (or trump) ranks above card."""
    return not higher_in_suit(pack, card) & unseen


def beaters(pack: Pack, best: int, led: int) -> tuple[int, int]:
    """Return (cards of the led suit that beat best, trumps that beat best).

    A player may use the first only while holding the led suit, the second only once
    void in it (or when trumps were led, where both masks are the higher trumps)."""
    trumps = pack.trump_mask
    if pack.suit_of[best] == TRUMPS:
        above = trumps & ~((2 << best) - 1)
        return (above, 0) if led == TRUMPS else (0, above)
    return higher_in_suit(pack, best), trumps


class Odds:
    """The chance that each other seat holds each unseen card, from hand sizes and voids."""

    __slots__ = ("_memo", "pack", "possible", "sizes", "unseen", "weight")

    def __init__(
        self,
        view: View,
        unseen: int,
        voids: Sequence[int],
        hidden: Sequence[HiddenGroup] = (),
    ) -> None:
        """Build the estimate for view.seat; `hidden` lists piles no seat holds."""
        self.pack = view.rules.pack
        self.unseen = unseen
        self.sizes = view.hand_sizes
        me = view.seat
        self.possible = [0 if s == me else unseen & ~voids[s] for s in range(4)]
        # weight[c] = 1 / (the number of hidden places where c may lie)
        weight = [0.0] * self.pack.size
        possible, sizes = self.possible, self.sizes
        for c in iter_bits(unseen):
            b = 1 << c
            slots = 0
            for s in range(4):
                if possible[s] & b:
                    slots += sizes[s]
            for cards, n in hidden:
                if cards & b:
                    slots += n
            if slots:
                weight[c] = 1.0 / slots
        self.weight = weight
        self._memo: dict[tuple[int, int], float] = {}

    def p(self, seat: int, card: int) -> float:
        """Return the chance that seat holds card."""
        if not (self.possible[seat] >> card) & 1:
            return 0.0
        return min(1.0, self.sizes[seat] * self.weight[card])

    def p_any(self, seat: int, mask: int) -> float:
        """Return the chance that seat holds at least one card of mask."""
        m = mask & self.possible[seat]
        if not m:
            return 0.0
        key = (seat, m)
        got = self._memo.get(key)
        if got is not None:
            return got
        n = self.sizes[seat]
        w = self.weight
        none = 1.0
        for c in iter_bits(m):
            x = n * w[c]
            if x >= 1.0:
                none = 0.0
                break
            none *= 1.0 - x
        self._memo[key] = 1.0 - none
        return 1.0 - none

    def p_void(self, seat: int, suit: int) -> float:
        """Return the chance that seat holds no card of suit (a suit index)."""
        return 1.0 - self.p_any(seat, self.pack.suit_mask[suit])

    def p_beat(self, seat: int, best: int, led: int) -> float:
        """Return the chance that seat can play a card beating best in a trick of suit led."""
        follow, ruff = beaters(self.pack, best, led)
        p_follow = self.p_any(seat, follow)
        if not ruff:
            return p_follow
        p_ruff = self.p_any(seat, ruff)
        if not p_ruff:
            return p_follow
        return min(1.0, p_follow + self.p_void(seat, led) * p_ruff)


def win_chance(
    odds: Odds,
    team: int,
    best: tuple[int, int],
    led: int,
    rest: Sequence[int],
) -> float:
    """Return the chance that team ends up winning a trick now won by best, with the seats
    in rest still to play (see trick_outlook)."""
    return trick_outlook(odds, team, best, led, rest, 0.0, 0.0)[0]


def outlook_memo(
    odds: Odds, team: int, rest: Sequence[int], load: float, duck: float
) -> Callable[[tuple[int, int], int], tuple[float, float]]:
    """Return `trick_outlook` for one trick, remembered by the winning play and the suit
    (many cards lead to the same)."""
    memo: dict[tuple[int, int, int], tuple[float, float]] = {}

    def outlook(best: tuple[int, int], suit: int) -> tuple[float, float]:
        key = (best[0], best[1], suit)
        if key not in memo:
            memo[key] = trick_outlook(odds, team, best, suit, rest, load, duck)
        return memo[key]

    return outlook


def trick_outlook(
    odds: Odds,
    team: int,
    best: tuple[int, int],
    led: int,
    rest: Sequence[int],
    load: float,
    duck: float,
) -> tuple[float, float]:
    """Return (the chance that team wins the trick, the expected points the seats in rest
    add to it, counted + when team wins and - when it loses).

    Each seat of the side that is behind beats the winning card with the chance that it
    can: by following with a higher card of the led suit, or by trumping once void. The
    card it beats with is unknown, so the middle one of those it may hold stands for it.
    A seat that does not beat adds `load` points when its side is winning, else `duck`."""
    pack = odds.pack
    points = pack.points
    # branches of (probability, our side winning, the winning card, points added so far)
    branches = [(1.0, (best[0] & 1) == team, best[1], 0.0)]
    for seat in rest:
        ours = (seat & 1) == team
        nxt = []
        for p, winning, card, added in branches:
            if winning == ours:
                nxt.append((p, winning, card, added + load))
                continue
            follow, ruff = beaters(pack, card, led)
            follow &= odds.possible[seat]
            ruff &= odds.possible[seat]
            p_follow = odds.p_any(seat, follow)
            p_ruff = odds.p_void(seat, led) * odds.p_any(seat, ruff) if ruff else 0.0
            p_ruff = min(p_ruff, 1.0 - p_follow)
            stay = 1.0 - p_follow - p_ruff
            if stay > 0.0:
                nxt.append((p * stay, winning, card, added + duck))
            if p_follow > 0.0:
                c = middle(follow)
                nxt.append((p * p_follow, not winning, c, added + points[c]))
            if p_ruff > 0.0:
                c = middle(ruff)
                nxt.append((p * p_ruff, not winning, c, added + points[c]))
        branches = nxt
    win = 0.0
    value = 0.0
    for p, winning, _, added in branches:
        if winning:
            win += p
            value += p * added
        else:
            value -= p * added
    return win, value


def middle(mask: int) -> int:
    """Return the median card of a non-empty mask (the lower one of an even count)."""
    for _ in range((popcount(mask) - 1) // 2):
        mask &= mask - 1
    return (mask & -mask).bit_length() - 1
