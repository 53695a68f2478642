"""The greedy playout policy shared by the game kernels, built from a pack's tables.

Every kernel plays its playouts with the same kind of player, who sees the whole
sampled deal (as every player of a determinized search does):

- following, when its partner is winning and no opponent still to play can beat
  him, it loads the card best given away (points, but not a strong trump);
- when an opponent is winning, it wins with its cheapest card that no opponent
  still to play can beat, else it ducks its least useful card (the Matto first,
  which returns to its team);
- leading, it cashes its best-paying card that neither opponent can beat, else
  it leads the lowest card of its shortest plain suit, else its lowest trump.

`Policy` builds these choices from a pack numbered the house way (suits in
blocks, weakest first, then the trumps, the Matto last) and a table of what
beats each card; the functions it returns are closures over the tables, so a
playout pays no attribute lookups.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from tarocchi.cards import TRUMPS, Pack

Lead = Callable[[list[int], int, int], int]
Follow = Callable[[list[int], int, int, int, int, int, int], int]


def beat_table(pack: Pack) -> tuple[int, ...]:
    """Return, per card, the cards that beat it when it wins a trick: higher trumps, or
    higher cards of its suit and every trump (the Matto: any other card)."""
    out = []
    not_matto = pack.full_mask & ~pack.matto_bit
    for card in range(pack.size):
        above = pack.full_mask & ~((2 << card) - 1)
        suit = pack.suit_of[card]
        if card == pack.matto:
            out.append(not_matto)
        elif suit == TRUMPS:
            out.append(pack.trump_mask & above)
        else:
            out.append((pack.suit_mask[suit] & above) | pack.trump_mask)
    return tuple(out)


def rank_in_group(pack: Pack, card: int) -> int:
    """Return the card's place within its suit (or the trumps), weakest 0."""
    group = pack.suit_mask[pack.suit_of[card]]
    return (group & ((1 << card) - 1)).bit_count()


class Policy:
    """The greedy playout player of one pack: `lead` and `follow` choose a card."""

    def __init__(
        self,
        pack: Pack,
        beat: Sequence[int],
        points: Sequence[int],
        trump_load_penalty: int = 3,
        clairvoyant: bool = True,
    ) -> None:
        matto = pack.matto
        matto_bit = pack.matto_bit
        trump_mask = pack.trump_mask
        groups = (*(pack.suit_mask[s] for s in range(4)), trump_mask)
        plain = groups[:4]
        low = min(points[c] for c in range(pack.size) if pack.suit_of[c] == TRUMPS)
        cheap_trumps = sum(
            1 << c for c in range(pack.size) if pack.suit_of[c] == TRUMPS and points[c] == low
        )

        def duck_cost(card: int) -> int:
            if card == matto:
                return -10  # the Matto returns to its team, so it ducks for free
            rank = rank_in_group(pack, card)
            if pack.suit_of[card] == TRUMPS:
                return 40 + 10 * points[card] + rank  # trumps can still ruff later
            return 10 * points[card] + rank

        def load_value(card: int) -> int:
            if card == matto:
                return -1000  # it returns to its team anyway and may still escape a trick
            rank = rank_in_group(pack, card)
            if pack.suit_of[card] == TRUMPS:
                # keep the trumps' power when a suit card pays as well
                return 10 * (points[card] - trump_load_penalty) - rank
            return 10 * points[card] - rank

        duck = tuple(duck_cost(c) for c in range(pack.size))
        load = tuple(load_value(c) for c in range(pack.size))
        self.duck, self.load = duck, load
        self.groups, self.cheap_trumps = groups, cheap_trumps

        def min_duck(m: int) -> int:
            """Return the card of m cheapest to give to a lost trick."""
            if m & matto_bit:
                return matto
            best, cost = -1, 1 << 30
            for g in groups:
                x = m & g
                if x:
                    c = (x & -x).bit_length() - 1
                    if duck[c] < cost:
                        best, cost = c, duck[c]
                    x &= cheap_trumps
                    if x:
                        c = (x & -x).bit_length() - 1
                        if duck[c] < cost:
                            best, cost = c, duck[c]
            return best

        def max_load(m: int) -> int:
            """Return the card of m best given to a trick the partner surely wins."""
            best, value = matto, -(1 << 30)
            for g in groups:
                x = m & g
                if x:
                    c = x.bit_length() - 1
                    if load[c] > value:
                        best, value = c, load[c]
                    c = (x & -x).bit_length() - 1
                    if load[c] > value:
                        best, value = c, load[c]
            return best

        def lead(hands: list[int], p: int, legal_m: int) -> int:
            """Return the card to lead."""
            opp1, opp2 = hands[(p + 1) & 3], hands[(p + 3) & 3]
            best, best_pts = -1, -1
            short, short_n = 0, 99
            for g in groups:
                mask = legal_m & g
                if not mask:
                    continue
                c = mask.bit_length() - 1
                b = beat[c]
                if (
                    points[c] > best_pts
                    and not (opp1 & g or opp1 & trump_mask) & b
                    and not (opp2 & g or opp2 & trump_mask) & b
                ):
                    best, best_pts = c, points[c]
                if g != trump_mask:
                    k = mask.bit_count()
                    if k < short_n:
                        short, short_n = mask, k
            if best >= 0:
                return best
            if short:
                return (short & -short).bit_length() - 1
            mask = legal_m & trump_mask or legal_m
            return (mask & -mask).bit_length() - 1

        def follow(
            hands: list[int], p: int, n: int, led: int, top: int, top_seat: int, legal_m: int
        ) -> int:
            """Return the card to play to a trick already led (n cards down, top winning)."""
            nxt = hands[(p + 1) & 3]  # the next player is an opponent whenever n < 3
            nxt = nxt & led or nxt & trump_mask  # what it may play that could beat
            m = legal_m & beat[top]
            if (top_seat ^ p) & 1 == 0:
                # the partner is winning: load points if no opponent after us can beat him
                if n == 3 or not nxt & beat[top]:
                    return max_load(legal_m)
                while m:
                    c = (m & -m).bit_length() - 1
                    if not nxt & beat[c]:
                        return c  # cover the partner with a card the opponent cannot beat
                    m &= m - 1
                return min_duck(legal_m)
            while m:
                c = (m & -m).bit_length() - 1
                if n == 3 or not nxt & beat[c]:
                    return c  # the cheapest card that surely wins
                m &= m - 1
            return min_duck(legal_m)

        def lead_counting(hands: list[int], p: int, legal_m: int) -> int:
            """Return the card to lead, knowing only which cards are out, not where."""
            out = (hands[0] | hands[1] | hands[2] | hands[3]) & ~hands[p]
            best, best_pts = -1, -1
            short, short_n = 0, 99
            for g in groups:
                mask = legal_m & g
                if not mask:
                    continue
                c = mask.bit_length() - 1
                if points[c] > best_pts and not out & g & beat[c]:
                    best, best_pts = c, points[c]  # a master of its suit (ruffs aside)
                if g != trump_mask:
                    k = mask.bit_count()
                    if k < short_n:
                        short, short_n = mask, k
            if best >= 0:
                return best
            if short:
                return (short & -short).bit_length() - 1
            mask = legal_m & trump_mask or legal_m
            return (mask & -mask).bit_length() - 1

        def follow_counting(
            hands: list[int], p: int, n: int, led: int, top: int, top_seat: int, legal_m: int
        ) -> int:
            """Return the card to follow with, knowing only which cards are out, not where: a
            card is safe when no card out beats it within its suit (a trump: no higher trump;
            ruffs aside)."""
            out = (hands[0] | hands[1] | hands[2] | hands[3]) & ~hands[p]
            plain = out & led & ~trump_mask
            trumps = out & trump_mask
            m = legal_m & beat[top]
            if (top_seat ^ p) & 1 == 0:
                threat = trumps if trump_mask >> top & 1 else plain
                if n == 3 or not threat & beat[top]:
                    return max_load(legal_m)
                while m:
                    c = (m & -m).bit_length() - 1
                    if not (trumps if trump_mask >> c & 1 else plain) & beat[c]:
                        return c
                    m &= m - 1
                return min_duck(legal_m)
            while m:
                c = (m & -m).bit_length() - 1
                if n == 3 or not (trumps if trump_mask >> c & 1 else plain) & beat[c]:
                    return c
                m &= m - 1
            return min_duck(legal_m)

        self.lead: Lead = lead if clairvoyant else lead_counting
        self.follow: Follow = follow if clairvoyant else follow_counting
        self.min_duck = min_duck
        self.max_load = max_load
        self.plain = plain


def random_card(mask: int, r: float) -> int:
    """Return the card of a non-empty mask picked by a uniform number r in [0, 1)."""
    k = int(r * mask.bit_count())
    for _ in range(k):
        mask &= mask - 1
    return (mask & -mask).bit_length() - 1
