"""Belief sampling: full deals consistent with what one seat knows (determinizations).

A search bot never reads hidden cards. It samples full states from its view and
searches those: every hidden hand, and every hidden pile (Piedicavallo's and
Ottocento's discard), filled with the unseen cards so that nothing contradicts
the view. Each game's constraints live in its `Belief` subclass:

- every seat: its hand size, the cards it showed (declared or exposed, still in
  hand), and the voids it revealed by failing to follow suit or to trump
  (`tarocchi.bots.inference.void_masks`);
- Piedicavallo (rules §2): the dealer's discard holds exactly the announced
  number of trumps, never a King, T1, T21 or the Matto, and a discard with trumps
  is legal only if the dealer kept no trump at all (clause b) or nothing but
  trumps, Kings and the Matto (clause a); while the dealer is still discarding,
  the card down begins a legal discard;
- Ottocento (rules §2-§3): the discard never holds a King, ANGEL, WORLD, BEGATO or
  the Matto; a declarer's hand at its first turn scored exactly the declared
  value (no card that would have added to it); a player asked to declare holds a
  combination;
- Minchiate: see `tarocchi.bots.belief_minchiate`.

The cards are dealt group by group, the most constrained first, each card to a
place that allows it with chance proportional to the room left there; a Hall
check on the places keeps every partial deal completable, so sampling never
backtracks (`Plan`). Rules the places cannot express are checked on the whole
deal, which is redrawn when it breaks one. The draw runs compiled with numba, its
random numbers from a stream the caller's generator seeds, so a seeded bot
samples the same deals every time. What play suggests about the hidden hands
beyond these constraints is weighed by the hard level (`tarocchi.bots.likelihood`).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import lru_cache
from typing import TYPE_CHECKING

import numpy as np
from numba import njit

from tarocchi.bots.inference import void_masks
from tarocchi.cards import BIT, bits, iter_bits, popcount
from tarocchi.compiled import next_random
from tarocchi.games.base import GameState
from tarocchi.views import Trick, View

if TYPE_CHECKING:  # the rules compile at import: they are loaded lazily
    from tarocchi.games import ottocento, piedicavallo

# a place where hidden cards go: (the cards it may take, how many it takes)
Place = tuple[int, int]


class Infeasible(ValueError):
    """The constraints admit no deal (a bug, or a view the rules cannot produce)."""


@lru_cache(maxsize=64)
def _affected(n: int) -> tuple[tuple[tuple[tuple[int, ...], int], ...], ...]:
    """Return, for n places, affected[i][g]: the place subsets S that hold i but not all of
    the signature g (the subsets whose slack drops when a card of signature g goes to i),
    as a tuple and as a mask over subsets."""
    full = 1 << n
    out = []
    for i in range(n):
        row = []
        for g in range(full):
            subsets = tuple(s for s in range(full) if s >> i & 1 and s & g != g)
            row.append((subsets, sum(1 << s for s in subsets)))
        out.append(tuple(row))
    return tuple(out)


def assign(cards: int, places: Sequence[Place], rng: random.Random) -> list[int]:
    """Deal the cards of a mask into places (allowed mask, size); return each place's cards.

    Every card lands in a place that allows it and every place gets exactly its size.
    Raise Infeasible when no such deal exists."""
    return Plan(cards, places).draw(rng)


WORD = 63  # the draw's output words hold 63 cards each, so that none is negative


@lru_cache(maxsize=64)
def _affected_arrays(n: int) -> tuple[np.ndarray, np.ndarray]:
    """Return `_affected(n)` as arrays: subsets[i, g, :count[i, g]] are the subsets."""
    aff = _affected(n)
    full = 1 << n
    width = max(1, max(len(aff[i][g][0]) for i in range(n) for g in range(full)))
    subsets = np.zeros((n, full, width), dtype=np.int64)
    count = np.zeros((n, full), dtype=np.int64)
    for i in range(n):
        for g in range(full):
            row = aff[i][g][0]
            subsets[i, g, : len(row)] = row
            count[i, g] = len(row)
    return subsets, count


@njit(cache=True)
def _place(
    out: np.ndarray,
    sizes: np.ndarray,
    slack: np.ndarray,
    tight: np.ndarray,
    subsets: np.ndarray,
    count: np.ndarray,
    i: int,
    g: int,
    c: int,
) -> None:
    """Put card c (of signature g) in place i: one room less there and in every subset of
    places whose slack the card uses."""
    out[i, c // WORD] |= 1 << (c % WORD)
    sizes[i] -= 1
    for j in range(count[i, g]):
        s = subsets[i, g, j]
        slack[s] -= 1
        if not slack[s]:
            tight[s] = True


@njit(cache=True)
def _open(tight: np.ndarray, subsets: np.ndarray, count: np.ndarray, i: int, g: int) -> bool:
    """Whether place i may still take a card of signature g: no subset of places whose
    slack the card would use is already tight."""
    for j in range(count[i, g]):  # noqa: SIM110 (numba compiles the loop, not a generator)
        if tight[subsets[i, g, j]]:
            return False
    return True


@njit(cache=True)
def _draw(
    seed: int,
    sizes_in: np.ndarray,
    slack_in: np.ndarray,
    tight_in: np.ndarray,
    subsets: np.ndarray,
    count: np.ndarray,
    sigs: np.ndarray,
    starts: np.ndarray,
    cards: np.ndarray,
    out: np.ndarray,
) -> None:
    """Deal the groups of cards (group k: cards[starts[k]:starts[k + 1]], allowed in the
    places of signature sigs[k]) into out (a row of words per place); see Plan.draw."""
    rng = np.uint64(seed)
    n = sizes_in.shape[0]
    sizes = sizes_in.copy()
    slack = slack_in.copy()
    tight = tight_in.copy()
    out[:] = 0
    slots = np.empty(cards.shape[0], dtype=np.int64)
    order = np.empty(cards.shape[0], dtype=np.int64)
    for k in range(sigs.shape[0]):
        g = sigs[k]
        a, b = starts[k], starts[k + 1]
        m = b - a
        # no place can fill up before this group is dealt: deal it like a pack
        fast = True
        for i in range(n):
            if g >> i & 1 and sizes[i]:
                for j in range(count[i, g]):
                    if slack[subsets[i, g, j]] < m:
                        fast = False
        if fast:
            ns = 0
            for i in range(n):
                if g >> i & 1:
                    for _ in range(sizes[i]):
                        slots[ns] = i
                        ns += 1
            for x in range(ns - 1, 0, -1):  # Fisher-Yates
                rng, r = next_random(rng)
                y = int(r * (x + 1))
                slots[x], slots[y] = slots[y], slots[x]
            for x in range(min(m, ns)):
                _place(out, sizes, slack, tight, subsets, count, slots[x], g, cards[a + x])
            continue
        for x in range(m):
            order[x] = cards[a + x]
        for x in range(m - 1, 0, -1):
            rng, r = next_random(rng)
            y = int(r * (x + 1))
            order[x], order[y] = order[y], order[x]
        for x in range(m):
            total = 0
            last = -1
            for i in range(n):
                if g >> i & 1 and sizes[i] and _open(tight, subsets, count, i, g):
                    total += sizes[i]
                    last = i
            if last < 0:  # unreachable: the slack check keeps the deal completable
                raise ValueError("a card was left without a place")
            pick = last
            rng, r = next_random(rng)
            left = r * total
            for i in range(n):
                if g >> i & 1 and sizes[i] and _open(tight, subsets, count, i, g):
                    left -= sizes[i]
                    if left < 0:
                        pick = i
                        break
            _place(out, sizes, slack, tight, subsets, count, pick, g, order[x])


class Plan:
    """The cards to deal grouped by the places that allow them, with Hall's slack per set
    of places: built once, it draws many deals."""

    __slots__ = (
        "affected",
        "cards",
        "n",
        "out",
        "signature",
        "sigs",
        "sizes",
        "slack",
        "starts",
        "tight",
        "words",
    )

    def __init__(self, cards: int, places: Sequence[Place]) -> None:
        """Prepare the deal of cards into places; raise Infeasible if there is none."""
        n = len(places)
        full = 1 << n
        sizes = [size for _, size in places]
        if sum(sizes) != popcount(cards):
            raise Infeasible(f"{popcount(cards)} cards for {sum(sizes)} places")
        # split the cards by signature: the set of places that allow them
        parts = [(cards, 0)] if cards else []
        for i, (allowed, size) in enumerate(places):
            if not size:
                continue
            bit = 1 << i
            split = []
            for m, g in parts:
                inner = m & allowed
                if inner:
                    split.append((inner, g | bit))
                if m & ~allowed:
                    split.append((m & ~allowed, g))
            parts = split
        groups: dict[int, list[int]] = {}
        for m, g in parts:
            if not g:
                raise Infeasible("a card has no place")
            groups[g] = bits(m)
        # slack[S] = room in the places of S - cards that can go nowhere but S (Hall's
        # condition: a complete deal exists iff no slack is negative); sums over subsets
        inside = [0] * full
        for g, cs in groups.items():
            inside[g] = len(cs)
        for i in range(n):
            bit = 1 << i
            for s in range(full):
                if s & bit:
                    inside[s] += inside[s ^ bit]
        slack = [0] * full
        tight = 0  # the subsets with no slack left, as a mask
        for s in range(1, full):
            low = s & -s
            room = slack[s ^ low] + inside[s ^ low] + sizes[low.bit_length() - 1]
            slack[s] = room - inside[s]
            if slack[s] < 0:
                raise Infeasible("the places cannot hold the cards that must go there")
            if not slack[s]:
                tight |= 1 << s
        self.n = n
        self.sizes = np.array(sizes, dtype=np.int64)
        self.slack = np.array(slack, dtype=np.int64)
        self.tight = np.array([bool(tight >> t & 1) for t in range(full)], dtype=np.bool_)
        self.affected = _affected_arrays(n)
        # the most constrained cards first
        order = sorted(groups, key=popcount)
        self.sigs = np.array(order, dtype=np.int64)
        self.starts = np.cumsum([0] + [len(groups[g]) for g in order], dtype=np.int64)
        self.cards = np.array([c for g in order for c in groups[g]], dtype=np.int64)
        words = max(self.cards, default=0) // WORD + 1
        self.out = np.zeros((n, words), dtype=np.int64)
        # each card's signature, for the swaps of `Belief.neighbour`
        self.signature = {c: g for g, cs in groups.items() for c in cs}

    def draw(self, rng: random.Random) -> list[int]:
        """Return each place's cards in a random deal: each card goes to a place that can
        take it with chance proportional to the room left there (a group that no place can
        fill up before it is dealt goes out like a shuffled pack); rng seeds the stream."""
        subsets, count = self.affected
        out = self.out
        _draw(
            rng.getrandbits(63), self.sizes, self.slack, self.tight, subsets, count,
            self.sigs, self.starts, self.cards, out,
        )  # fmt: skip
        rows = out.tolist()
        return [sum(w << (WORD * k) for k, w in enumerate(row)) for row in rows]


def played_by(view: View) -> tuple[int, int, int, int]:
    """Return, per seat, the cards it has played to tricks so far."""
    out = [0, 0, 0, 0]
    for trick in (*view.tricks, view.trick):
        for seat, card in trick:
            out[seat] |= BIT[card]
    return out[0], out[1], out[2], out[3]


# -- per game: the places and the state built from a sample ---------------------------------


# the State fields every game shares after its hands (see `Belief.public`)
Public = tuple[
    int, int, int | None, int, Trick, tuple[Trick, ...], tuple[int, ...], tuple[int, int]
]


class Belief:
    """What one seat's view allows: the hidden cards and the places each may lie in.

    Built once per decision; `sample` then draws as many deals as the search wants.
    A game's subclass fills `attempts` (lists of places to try in turn: the first
    one that admits a deal is used), may reject a deal in `accept`, and builds the
    rules' State from a deal in `build`. The places always begin with the other
    three seats' hands, in seat order from the observer's left."""

    retries = 200  # deals drawn before giving up on `accept` (then the last one is kept)

    def __init__(self, view: View) -> None:
        self.view = view
        self.seat = view.seat
        pack = view.rules.pack
        self.pack = pack
        self.unseen = pack.full_mask & ~view.known
        self.voids = list(void_masks(view))
        self.others = [(view.seat + k) & 3 for k in (1, 2, 3)]
        self.played = played_by(view)
        self.fixed = list(view.shown)  # cards every seat knows a hand holds
        self.attempts: list[list[Place]] = []
        self._plan: Plan | None = None

    def hand_places(self) -> list[Place]:
        """Return the places of the three other hands: any card but their voids."""
        v = self.view
        full = self.pack.full_mask
        return [
            (full & ~self.voids[s], v.hand_sizes[s] - popcount(self.fixed[s])) for s in self.others
        ]

    def sample(self, rng: random.Random) -> GameState:
        """Return a full state consistent with the view."""
        return self.build(self.deal(rng))

    def deal(self, rng: random.Random) -> list[int]:
        """Return the cards of each place in a random deal the view allows."""
        if self._plan is None:
            for places in self.attempts:
                try:
                    self._plan = Plan(self.unseen, places)
                except Infeasible:
                    continue
                break
            else:
                raise Infeasible(f"no deal fits this {self.view.game} view")
        dealt = self._plan.draw(rng)
        for _ in range(self.retries):
            if self.accept(dealt):
                break
            dealt = self._plan.draw(rng)
        return dealt

    def accept(self, dealt: list[int]) -> bool:
        """Return False to redraw a deal that breaks a rule the places cannot express."""
        return True

    def neighbour(self, dealt: list[int], rng: random.Random) -> list[int] | None:
        """Return dealt with two hidden cards of different places swapped, or
        None when the places or a whole-deal rule forbid the swap tried. The proposal is
        symmetric (a pair is as likely to be tried from either deal), as Metropolis-Hastings
        needs (`tarocchi.bots.likelihood.Chains`)."""
        plan = self._plan
        assert plan is not None, "deal() first"
        hidden = 0
        for m in dealt:
            hidden |= m
        cards = bits(hidden)
        if not cards:
            return None
        a = cards[rng.randrange(len(cards))]
        i = next(k for k, m in enumerate(dealt) if m >> a & 1)
        rest = bits(hidden & ~dealt[i])
        if not rest:
            return None
        b = rest[rng.randrange(len(rest))]
        j = next(k for k, m in enumerate(dealt) if m >> b & 1)
        sig = plan.signature
        if not (sig[a] >> j & 1 and sig[b] >> i & 1):
            return None
        out = list(dealt)
        both = BIT[a] | BIT[b]
        out[i] ^= both
        out[j] ^= both
        return out if self.accept(out) else None

    def hands(self, dealt: list[int]) -> tuple[int, int, int, int]:
        """Return the four hands of a deal: the seat's own, the others' sampled and fixed."""
        out = [0, 0, 0, 0]
        out[self.seat] = self.view.hand
        for i, s in enumerate(self.others):
            out[s] = dealt[i] | self.fixed[s]
        return out[0], out[1], out[2], out[3]

    def legal(self, hands: tuple[int, int, int, int], fallback: int) -> int:
        """Return the legal mask of the player to move: the view's own when it is the seat's
        turn, else fallback (computed by the game from the sampled hands)."""
        v = self.view
        if v.to_move is None:
            return 0
        if v.to_move == self.seat:
            return sum(BIT[a] for a in v.legal)
        return fallback

    def build(self, dealt: list[int]) -> GameState:
        """Return the rules' State of a deal."""
        raise NotImplementedError

    def public(self, phase: int, to_move: int | None) -> Public:
        """Return the State fields every game shares after its hands, from the view: the
        dealer, the phase, who moves, the leader, the trick, the tricks, their winners and
        the cards won."""
        v = self.view
        return (v.dealer, phase, to_move, v.leader, v.trick, v.tricks, v.winners, v.won)

    def discard(self, dealt: list[int]) -> int:
        """Return the dealer's discard in a deal, where a game's playout players need it."""
        return 0


class PiedicavalloBelief(Belief):
    """Piedicavallo: the hands and, for all but the dealer, the dealer's discard (rules §2)."""

    def __init__(self, view: View) -> None:
        from tarocchi.games import piedicavallo as pc

        super().__init__(view)
        self.pc = pc
        seat, dealer = view.seat, view.dealer
        base = self.hand_places()
        self.hidden_discard = seat != dealer
        self.discarding = view.phase == "discard"
        if not self.hidden_discard:
            self.attempts.append(base)
        elif self.discarding:
            # the dealer is still discarding: what is down so far is a card it may discard
            done = pc.HAND_SIZE + pc.DISCARD_SIZE - view.hand_sizes[dealer]
            self.attempts.append([*base, (self.pack.full_mask & ~pc.PROTECTED, done), (0, 0)])
        else:
            k = next((e.value for e in view.events if e.kind == "announce"), 0)
            piles = [(pc.DISCARDABLE_TRUMPS, k), (pc.DISCARDABLE_SUIT, 2 - k)]
            if k == 0:
                self.attempts.append(base + piles)
            else:
                # rules §2: a discard with trumps is legal only if the dealer kept no trump
                # (clause b, by far the likelier) or only trumps, Kings and the Matto (a)
                i = self.others.index(dealer)
                for void in (self.pack.trump_mask, pc.DISCARDABLE_SUIT):
                    if self.played[dealer] & void:
                        continue
                    places = list(base)
                    places[i] = (places[i][0] & ~void, places[i][1])
                    self.attempts.append(places + piles)

    def accept(self, dealt: list[int]) -> bool:
        """While the dealer is discarding, the cards down must begin a legal discard."""
        if not (self.discarding and self.hidden_discard):
            return True
        i = self.others.index(self.view.dealer)
        return not self.pc.discard_reason(dealt[i] | dealt[3], dealt[3])

    def build(self, dealt: list[int]) -> piedicavallo.State:
        """Return the Piedicavallo State of a deal."""
        from tarocchi.games import piedicavallo as pc

        v = self.view
        hands = self.hands(dealt)
        discard = self.discard(dealt)
        p = v.to_move
        legal = self.legal(hands, 0 if p is None else pc.play_mask(hands[p], v.trick))
        phase = pc.PHASE_NAMES.index(v.phase)
        return pc.State(
            hands,
            *self.public(phase, p),
            discard,
            legal,
        )

    def discard(self, dealt: list[int]) -> int:
        """Return the dealer's discard: sampled, unless this seat is the dealer."""
        return dealt[3] | dealt[4] if self.hidden_discard else self.view.private


class OttocentoBelief(Belief):
    """Ottocento: the hands, the dealer's discard (rules §2), and each declarer's hand at
    its first turn scoring exactly what it declared (rules §3)."""

    def __init__(self, view: View) -> None:
        from tarocchi.games import ottocento as oc
        from tarocchi.games.ottocento_combos import analyse, combination_value

        super().__init__(view)
        self.oc = oc
        self.value_of = combination_value
        self.analyse = analyse
        seat, dealer = view.seat, view.dealer
        self.declared = [(e.seat, e.cards, e.value) for e in view.events if e.kind == "declare"]
        full = self.pack.full_mask
        self.hidden_discard = seat != dealer
        discardable = full & ~oc.PROTECTED if self.hidden_discard else 0
        # a declarer holds no card that would have changed its declaration (rules §3: all
        # combinations are shown). A card that can lie nowhere else is the declarer's, so
        # it joins the test, until nothing changes: e.g. a Matto that would have added to
        # every other declaration is this one's, and then so is no card that would score
        # with the Matto (without this, 200 draws in a row could all be refused)
        declarers = [(s, cards, value) for s, cards, value in self.declared if s != seat]
        changed = True
        while changed:
            changed = False
            for s, cards, value in declarers:
                assert s is not None
                elsewhere = discardable
                for t in self.others:
                    if t != s:
                        elsewhere |= full & ~self.voids[t]
                forced = self.unseen & ~self.voids[s] & ~elsewhere
                for c in iter_bits(self.unseen & ~self.voids[s] & ~forced):
                    hand = cards | forced | BIT[c]
                    if combination_value(hand) != value or analyse(hand).cards != cards:
                        self.voids[s] |= BIT[c]
                        changed = True
        base = self.hand_places()
        if not self.hidden_discard:
            self.attempts.append(base)
        else:
            done = view.hand_sizes[dealer] - oc.HAND_SIZE
            size = oc.DISCARD_SIZE - done if view.phase == "discard" else oc.DISCARD_SIZE
            self.attempts.append([*base, (full & ~oc.PROTECTED, size)])

    def accept(self, dealt: list[int]) -> bool:
        """Each declarer's hand at its first turn scored exactly the declared value with the
        declared cards, and a
        player now asked to declare or pass holds a combination (rules §3: a hand that
        scores nothing passes without being asked)."""
        v = self.view
        p = v.to_move
        if (
            v.phase == "declare"
            and p is not None
            and p != self.seat
            and not self.value_of(dealt[self.others.index(p)] | self.fixed[p])
        ):
            return False
        for s, cards, value in self.declared:
            assert s is not None
            if s == self.seat:
                continue
            hand = dealt[self.others.index(s)] | self.fixed[s] | self.played[s] | cards
            if self.value_of(hand) != value or self.analyse(hand).cards != cards:
                return False  # the hand would have shown other cards for the same value
        return True

    def discard(self, dealt: list[int]) -> int:
        """Return the dealer's discard: sampled, unless this seat is the dealer."""
        return dealt[3] if self.hidden_discard else self.view.private

    def build(self, dealt: list[int]) -> ottocento.State:
        """Return the Ottocento State of a deal."""
        from tarocchi.games import ottocento as oc

        v = self.view
        hands = self.hands(dealt)
        discard = dealt[3] if self.hidden_discard else v.private
        decls = tuple(
            (e.seat, e.cards, e.value) if e.kind == "declare" else (e.seat, 0, 0)
            for e in v.events
            if e.kind in ("declare", "pass") and e.seat is not None  # each names its seat
        )
        phase = oc.PHASE_NAMES.index(v.phase)
        p = v.to_move
        if p is None:
            fallback = 0
        elif phase == oc.DECLARE:
            fallback = oc.DECIDE_LEGAL
        elif phase == oc.DISCARD:
            fallback = hands[p] & ~oc.PROTECTED
        else:
            fallback = oc.play_mask(hands[p], v.trick)
        return oc.State(
            hands,
            *self.public(phase, p),
            discard,
            self.legal(hands, fallback),
            decls,
        )
