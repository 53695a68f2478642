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
- Minchiate (rules §2-§5): face-up (robbed, exposed, taken) and declared cards
  stay with their holder, each declaration is a canonical versicola of the
  declarer's hand with its Matto bonus (which places the Matto), a player asked
  to declare holds an undeclared versicola, and a player who kept a King back in
  the first trick of its suit after a trump fell does not hold it (the King rule
  would have forced it). Before the first lead the Fola and the discards are
  hidden: the cutter's and the dealer's discards so far are zero-point cards other
  than T29, as is what stayed in the Fola (the dealer took every special card);
  from the first lead on they are public. The pre-play facts are rebuilt from the
  public events, with a deck that deals the sampled hands (`deal_from` replays it
  exactly).

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
from typing import Any

import numpy as np
from numba import njit

from tarocchi.bots.compiled import _next
from tarocchi.bots.inference import void_masks
from tarocchi.cards import BIT, bits, iter_bits, popcount
from tarocchi.views import View

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
                rng, r = _next(rng)
                y = int(r * (x + 1))
                slots[x], slots[y] = slots[y], slots[x]
            for x in range(min(m, ns)):
                _place(out, sizes, slack, tight, subsets, count, slots[x], g, cards[a + x])
            continue
        for x in range(m):
            order[x] = cards[a + x]
        for x in range(m - 1, 0, -1):
            rng, r = _next(rng)
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
            rng, r = _next(rng)
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

    def sample(self, rng: random.Random) -> Any:
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

    def build(self, dealt: list[int]) -> Any:
        """Return the rules' State of a deal."""
        raise NotImplementedError

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

    def build(self, dealt: list[int]) -> Any:
        """Return the Piedicavallo State of a deal."""
        pc, v = self.pc, self.view
        hands = self.hands(dealt)
        discard = self.discard(dealt)
        p = v.to_move
        legal = self.legal(hands, 0 if p is None else pc.play_mask(hands[p], v.trick))
        phase = pc.PHASE_NAMES.index(v.phase)
        return pc.State(
            hands,
            v.dealer,
            phase,
            p,
            v.leader,
            v.trick,
            v.tricks,
            v.winners,
            v.won,
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

    def build(self, dealt: list[int]) -> Any:
        """Return the Ottocento State of a deal."""
        oc, v = self.oc, self.view
        hands = self.hands(dealt)
        discard = dealt[3] if self.hidden_discard else v.private
        decls = tuple(
            (e.seat, e.cards, e.value) if e.kind == "declare" else (e.seat, 0, 0)
            for e in v.events
            if e.kind in ("declare", "pass")
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
            v.dealer,
            phase,
            p,
            v.leader,
            v.trick,
            v.tricks,
            v.winners,
            v.won,
            discard,
            self.legal(hands, fallback),
            decls,
        )


class MinchiateBelief(Belief):
    """Minchiate: the hands, with the face-up and declared cards fixed (rules §2-§3), the
    King rule's revelations (rules §4), each declaration as the canonical versicola of the
    declarer's hand, Matto bonus included (rules §3); before the first lead also the
    hidden discards and the Fola's hidden cards (rules §2.4-§2.5)."""

    def __init__(self, view: View) -> None:
        from tarocchi.games import minchiate as mc
        from tarocchi.games.minchiate_combos import MATTO_SET, combo_base, combos

        super().__init__(view)
        self.mc = mc
        self.combos = combos
        seat = view.seat
        matto_bit = self.pack.matto_bit
        # rules §4, the King rule: after a trump, in the first trick of a plain suit, a
        # player who still follows with another card (or the Matto) does not hold its King
        led_before = 0
        for trick in (*view.tricks, view.trick):
            suit = _led_mask(mc.LED_MASK, trick)
            if suit and suit != mc.TRUMP_MASK and not led_before & suit:
                king = suit & mc.KING_MASK
                trumped = False
                for s, card in trick:
                    if trumped and card != king.bit_length() - 1 and BIT[card] & (suit | matto_bit):
                        self.voids[s] |= king
                    if mc.TRUMP_MASK >> card & 1:
                        trumped = True
            if len(trick) == 4:
                led_before |= suit
        self.led = led_before
        # rules §3: each declaration, with its value from the score that follows it
        self.declared: list[tuple[int, int, int]] = []
        events = view.events
        for i, e in enumerate(events):
            if e.kind != "declare" or e.seat is None:
                continue
            value = next(
                x.value
                for x in events[i + 1 :]
                if x.kind == "score" and x.seat == e.seat and x.cards == e.cards
            )
            self.declared.append((e.seat, e.cards, value))
            if e.seat == seat:
                continue
            kind_matto = any(c.kind == MATTO_SET and c.cards == e.cards for c in combos(e.cards))
            with_matto = e.cards | matto_bit
            if not kind_matto:
                bonus = value - combo_base(e.cards)
                if self.unseen & matto_bit:
                    if bonus:
                        # the declarer held the Matto: it has not been played, so holds it
                        self.fixed[e.seat] |= matto_bit
                        self.unseen &= ~matto_bit
                    else:
                        self.voids[e.seat] |= matto_bit
            # a card that would have changed the declared versicola was not in the hand
            for c in iter_bits(self.unseen & ~self.voids[e.seat]):
                found = combos(with_matto | BIT[c]) + combos(e.cards | BIT[c])
                if not any(x.cards == e.cards for x in found):
                    self.voids[e.seat] |= BIT[c]
        self.hidden = _HiddenPreplay(view, mc) if view.phase in ("discard", "declare") else None
        h = self.hidden
        if h is None:
            self.attempts.append(self.hand_places())
        else:
            # a discarder's zero-point face-up cards are in its hand or its discards
            loose = h.loose[h.cutter] | h.loose[h.dealer]
            self.unseen |= loose
            for t in range(4):
                self.voids[t] |= loose & ~h.loose[t]
            hands = self.hand_places()
            self.attempts.append([*hands, *h.places()])
            # rules §6.2: a hand left without zero-point cards discards T29 or its cheapest
            self.attempts.append([*hands, *h.places(self.pack.full_mask)])

    def accept(self, dealt: list[int]) -> bool:
        """Each declaration is a canonical versicola of the declarer's hand, with its value;
        a player now asked to declare holds a versicola it has not declared (rules §3)."""
        if not all(self._kind(dealt, s, cards, value) >= 0 for s, cards, value in self.declared):
            return False
        v = self.view
        p = v.to_move
        if v.phase == "declare" and p is not None and p != self.seat:
            return bool(self._asked(self.hands(dealt), p) & ~(1 << self.mc.DONE))
        return True

    def _asked(self, hands: tuple[int, int, int, int], p: int) -> int:
        """Return the declaration actions open to p: its hand's, less the kinds declared."""
        done = 0
        for s, cards, value in self.declared:
            if s == p:
                done |= 1 << (self.mc.N_CARDS + self._kind_in(hands[p], s, cards, value))
        return self.mc.declarable(hands[p]) & ~done

    def _kind_in(self, hand: int, s: int, cards: int, value: int) -> int:
        """Return the kind of a declaration in a hand holding it now, or -1 if the hand would
        not have declared it: the rules declare a kind's first versicola in the hand."""
        found = self.combos(hand | self.played[s] | cards)
        for c in found:
            if c.cards == cards and c.value == value:
                first = next(x for x in found if x.kind == c.kind)
                return c.kind if first is c else -1
        return -1

    def _kind(self, dealt: list[int], s: int, cards: int, value: int) -> int:
        """Return the kind of a declaration in the declarer's sampled hand, or -1."""
        hand = self.fixed[s] | (self.view.hand if s == self.seat else dealt[self.others.index(s)])
        return self._kind_in(hand, s, cards, value)

    def build(self, dealt: list[int]) -> Any:
        """Return the Minchiate State of a deal, with the pre-play facts rebuilt from the
        public events (a deck that deals exactly these hands)."""
        mc, v = self.mc, self.view
        hands = self.hands(dealt)
        p = v.to_move
        phase = mc.PHASE_NAMES.index(v.phase)
        if p is None:
            fallback = 0
        elif phase == mc.DISCARD:
            fallback = mc.discard_mask(hands[p])
        elif phase == mc.DECLARE:
            fallback = self._asked(hands, p)
        else:
            fallback = mc.play_mask(hands[p], v.trick, self.led)
        declared = tuple(
            (s, self._kind(dealt, s, cards, value), cards, value)
            for s, cards, value in self.declared
        )
        hidden = None if self.hidden is None else self.hidden.split(dealt[3:])
        info, discards = _minchiate_info(v, hands, self.played, hidden)
        return mc.State(
            hands,
            v.dealer,
            phase,
            p,
            v.leader,
            v.trick,
            v.tricks,
            v.winners,
            v.won,
            self.legal(hands, fallback),
            self.led,
            discards,
            declared,
            info,
        )


def _led_mask(led_of: Sequence[int], trick: Sequence[tuple[int, int]]) -> int:
    """Return the mask of a trick's led suit: its first card's, or its second's after a led
    Matto; 0 while none is set."""
    if not trick:
        return 0
    return led_of[trick[0][1]] or (len(trick) > 1 and led_of[trick[1][1]]) or 0


def _in_text_order(cards: int, text: str) -> tuple[int, ...]:
    """Return the cards of a mask in the order an event's message names them (its `cards`
    parameter: the robbed cards, in the order they were robbed)."""
    named = getattr(text, "params", {}).get("cards", ())
    place = {card.id: i for i, card in enumerate(named)}
    return tuple(sorted(iter_bits(cards), key=lambda c: place.get(c, 0)))


class _HiddenPreplay:
    """What a Minchiate view hides before the first lead besides the hands: the cutter's and
    the dealer's discards so far and the Fola cards the dealer left in it, each a place
    of the sample unless the seat knows it (rules §2.4-§2.5)."""

    def __init__(self, view: View, mc: Any) -> None:
        seat, dealer = view.seat, view.dealer
        cutter = next(e.seat for e in view.events if e.kind == "cut" and e.seat is not None)
        assert cutter is not None
        faceup = [0, 0, 0, 0]
        for e in view.events:
            if e.kind in ("expose", "rob", "take") and e.seat is not None:
                faceup[e.seat] |= e.cards
        # rules §2.5: the cutter's and the dealer's face-up zero-point cards may have been
        # discarded; the seat knows where its own are
        self.loose = [0, 0, 0, 0]
        for t in (cutter, dealer):
            if t != seat:
                self.loose[t] = faceup[t] & mc.DISCARDABLE
        robbed = sum(popcount(e.cards) for e in view.events if e.kind == "rob" and e.seat == cutter)
        # what the dealer robbed from the Fola and then had to take (the cutter never deals)
        got = sum(
            popcount(e.cards) for e in view.events if e.seat == dealer and e.kind in ("rob", "take")
        )
        stop = next((e.cards for e in view.events if e.kind == "fola" and e.seat == dealer), 0)
        fola = next(e.value for e in view.events if e.kind == "fola" and e.seat is None)
        self.seat, self.cutter, self.dealer, self.stop = seat, cutter, dealer, stop
        sizes = view.hand_sizes
        self.n_cut = mc.HAND_SIZE + robbed - sizes[cutter]  # the cutter's discards so far
        self.n_deal = mc.HAND_SIZE + got - sizes[dealer]  # the dealer's
        self.n_rest = fola - got - popcount(stop)  # the Fola's unseen cards
        self.private = view.private
        self.own_faceup = faceup[seat]
        self.discardable = mc.DISCARDABLE

    def places(self, discards: int = 0) -> list[tuple[int, int]]:
        """Return the places the seat does not know: (cards allowed, how many); discards:
        the cards a discard may hold (default: the zero-point cards other than T29)."""
        out = []
        zero = self.discardable
        discards = discards or zero
        cut, deal = self.loose[self.cutter], self.loose[self.dealer]
        if self.seat != self.cutter:
            out.append((discards & ~deal, self.n_cut))
        if self.seat != self.dealer:
            out.append((discards & ~cut, self.n_deal))
            # the dealer took every special card
            out.append((zero & ~cut & ~deal, self.n_rest))
        return out

    def split(self, dealt: Sequence[int]) -> tuple[int, int, int]:
        """Return (cutter's discards, dealer's discards, Fola rest) of a sample: the places
        drawn, the seat's own knowledge where it has it. The dealer's own private cards are
        its discards and the Fola rest together; which were which cannot change the play
        (both lie in the Fola, which never scores): the cards it received face up were
        discarded (they never lay in the Fola rest), then its lowest others but the card
        that stopped its robbing (which stayed in the Fola)."""
        drawn = list(dealt)
        cut = self.private if self.seat == self.cutter else drawn.pop(0)
        if self.seat == self.dealer:
            deal = self.private & self.own_faceup
            others = bits(self.private & self.discardable & ~deal & ~self.stop)
            deal |= sum(BIT[c] for c in others[: self.n_deal - popcount(deal)])
            rest = self.private & ~deal
        else:
            deal = drawn.pop(0)
            rest = drawn.pop(0) | self.stop
        return cut, deal, rest


def _minchiate_info(
    v: View,
    hands: tuple[int, int, int, int],
    played: tuple[int, int, int, int],
    hidden: tuple[int, int, int] | None = None,
) -> tuple[Any, tuple[int, int]]:
    """Return (DealInfo, discards) for a sampled Minchiate deal: the public pre-play facts
    from the view's events (before the first lead, hidden gives the sampled discards and
    Fola rest), and a deck order that deals the sampled hands."""
    from tarocchi.games import minchiate as mc

    dealer = v.dealer
    cut = cutter = 0
    robbed: tuple[int, ...] = ()
    fola_robbed: tuple[int, ...] = ()
    exposed = [0, 0, 0, 0]
    fola_stop, fola_taken, fola_all = -1, 0, 0
    discards = [0, 0]
    for e in v.events:
        if e.kind == "cut" and e.seat is not None:
            cut, cutter = e.value, e.seat
        elif e.kind == "rob" and e.seat == cutter and e.cards and not fola_robbed:
            robbed = _in_text_order(e.cards, e.text)
        elif e.kind == "rob" and e.seat == dealer and e.cards:
            fola_robbed = _in_text_order(e.cards, e.text)
        elif e.kind == "expose" and e.seat is not None:
            exposed[e.seat] = e.cards.bit_length() - 1
        elif e.kind == "fola" and e.seat == dealer and e.cards:
            fola_stop = e.cards.bit_length() - 1
        elif e.kind == "take" and e.seat == dealer and e.cards:
            fola_taken = e.cards
        elif e.kind == "fola" and e.seat is None and e.cards:
            fola_all = e.cards
        elif e.kind == "discard" and e.seat is not None:
            discards[0 if e.seat == cutter else 1] = e.cards  # the reveal comes last
    if cutter == dealer:  # the dealer and cutter event kinds share names: tell them apart
        raise ValueError("the cutter is never the dealer")
    if hidden is not None:  # before the first lead: the sampled discards and Fola rest
        discards = [hidden[0], hidden[1]]
        fola_all = hidden[0] | hidden[1] | hidden[2]
    robbed_mask = sum(BIT[c] for c in robbed)
    got = sum(BIT[c] for c in fola_robbed) | fola_taken
    dealt = [hands[s] | played[s] for s in range(4)]
    # rules §2.5: robbed and taken cards were not dealt; discards were
    dealt[cutter] = (dealt[cutter] | discards[0]) & ~robbed_mask
    dealt[dealer] = (dealt[dealer] | discards[1]) & ~got
    fola_rest = fola_all & ~(discards[0] | discards[1])
    # rules §2.4: the Fola, top first: the dealer's robbed cards, the card that stopped him,
    # then the others; the last one is left unrobbable if it can be, as the card above
    # the cutter's robbed run was (it stopped the robbing)
    tail = list(iter_bits((fola_rest | fola_taken) & ~(BIT[fola_stop] if fola_stop >= 0 else 0)))
    tail.sort(key=lambda c: not mc.ROBBABLE >> c & 1)
    stop = (fola_stop,) if fola_stop >= 0 else ()
    fola = (*fola_robbed, *stop, *tail)
    # rules §2.3: each seat's first packet of 10, then 11 with the exposed card last
    rest: list[int] = []
    packets = []
    for k in range(4):
        seat = (dealer + 1 + k) & 3
        cards = [c for c in iter_bits(dealt[seat]) if c != exposed[seat]]
        packets.append((cards[:10], [*cards[10:], exposed[seat]]))
    for first, _ in packets:
        rest += first
    for _, second in packets:
        rest += second
    rest += fola
    # rules §2.2: rest = deck[cut:] + deck[:low], and deck[low:cut] are the robbed, bottom up
    low = cut - len(robbed)
    deck = (*rest[len(rest) - low :], *reversed(robbed), *rest[: len(rest) - low])
    faceup = [BIT[exposed[s]] for s in range(4)]
    faceup[cutter] |= robbed_mask
    faceup[dealer] |= got
    info = mc.DealInfo(
        deck,
        cut,
        cutter,
        robbed,
        (exposed[0], exposed[1], exposed[2], exposed[3]),
        (dealt[0], dealt[1], dealt[2], dealt[3]),
        fola,
        fola_robbed,
        fola_stop,
        fola_taken,
        fola_rest,
        (faceup[0], faceup[1], faceup[2], faceup[3]),
    )
    return info, (discards[0], discards[1])


BELIEFS: dict[str, type[Belief]] = {
    "piedicavallo": PiedicavalloBelief,
    "ottocento": OttocentoBelief,
    "minchiate": MinchiateBelief,
}


def belief(view: View) -> Belief:
    """Return the belief of view's seat: built once, it samples as many deals as asked."""
    return BELIEFS[view.game](view)


def sample(view: View, rng: random.Random) -> Any:
    """Return a full state consistent with view (a determinization for view.seat)."""
    return belief(view).sample(rng)
