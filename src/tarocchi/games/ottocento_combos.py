"""Ottocento's combinations (rules §3): sets, sequences, contatori and doubling, on card masks.

Two views of the same rules, tested against each other and against a literal
reading of the spec (tests/games/reference_ottocento.py):

- `combination_value(mask)`: the value only, from tables built at import, compiled (the
  hot path: every declaration, every end of deal, the Matto settlement, and the compiled
  players' judgement);
- `analyse(mask)`: the value with every scored combination and its cards, for
  declarations (the cards they reveal) and for the result's breakdown.

Terms: a *set* (cricca) is three or four real cards of a family; a *sequence*
is a Grande, a suit sequence, Aces or Moors; the *contatori* are the Bégato and
the Matto, which fill gaps or add length once in every sequence (rules §3).
Every family scores independently, so a card may serve a set and several
sequences at once.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

import numpy as np
from numba import njit

from tarocchi.cards import BIT, iter_bits, mask_of
from tarocchi.compiled import n_cards
from tarocchi.i18n import N_, Msg, joined
from tarocchi.packs.bolognese import (
    ANGEL,
    BEGATO,
    MATTO,
    MOON,
    MOORS_MASK,
    SUN,
    T5,
    WORLD,
    suit_card,
)

SUITS = range(4)
CONTATORI = BIT[BEGATO] | BIT[MATTO]
HEAD = BIT[WORLD] | BIT[SUN] | BIT[MOON]
RUN_LENGTH = 12  # T16 down to T5
RUN_FULL = (1 << RUN_LENGTH) - 1

# rules §3: the five sets, with their values for three and for four cards
# the suit sequences' names, by suit
SEQUENCE_NAMES = (
    N_("Swords sequence"),
    N_("Batons sequence"),
    N_("Cups sequence"),
    N_("Coins sequence"),
)
SETS: tuple[tuple[str, int, int, int], ...] = (
    (N_("Tarocchi"), BIT[ANGEL] | BIT[WORLD] | BIT[BEGATO] | BIT[MATTO], 18, 36),
    (N_("Kings"), mask_of(suit_card(s, "K") for s in SUITS), 17, 34),
    (N_("Queens"), mask_of(suit_card(s, "Q") for s in SUITS), 14, 28),
    (N_("Knights"), mask_of(suit_card(s, "N") for s in SUITS), 13, 26),
    (N_("Jacks"), mask_of(suit_card(s, "J") for s in SUITS), 12, 24),
)
TAROCCHI_MASK, KINGS_MASK, QUEENS_MASK, KNIGHTS_MASK, JACKS_MASK = (m for _, m, _, _ in SETS)
ACES_MASK = mask_of(suit_card(s, "A") for s in SUITS)
SUIT_KING = tuple(BIT[suit_card(s, "K")] for s in SUITS)
SUIT_FIGURES = tuple(mask_of(suit_card(s, r) for r in "QNJ") for s in SUITS)
SUIT_ACE = tuple(BIT[suit_card(s, "A")] for s in SUITS)
BLOCK = 10  # each suit is a block of 10 ids


def sequence_points(length: int) -> int:
    """Return the value of a sequence of the given length (rules §3: 10 + 5 per card over 3)."""
    return 10 + 5 * (length - 3) if length >= 3 else 0


def suit_length(king: bool, figures: int, ace: bool, c: int) -> int:
    """Return the length of a suit sequence, 0 if there is none (rules §3: the real King,
    two of Q/N/J with at least one real, the ace adds one, every contatore adds one)."""
    if not king or not (figures >= 2 or (figures == 1 and c >= 1)):
        return 0
    return 1 + figures + ace + c


def group_length(real: int, c: int) -> int:
    """Return the length of an Aces or Moors sequence, 0 if none (rules §3: three or more,
    at least two real)."""
    return real + c if real >= 3 or (real == 2 and c >= 1) else 0


def run_of(pattern: int, avail: int, prev: bool) -> tuple[int, int, bool, int]:
    """Extend a Grande from T16 down to T5 (rules §3).

    pattern has bit 11 for T16 down to bit 0 for T5; avail contatori may fill gaps,
    but never two positions in a row (prev: the position before T16 was a
    substitution). Return (positions covered, contatori used, reached T5, the
    pattern's cards that belong to the run)."""
    length = used = 0
    for k in range(RUN_LENGTH - 1, -1, -1):
        if pattern >> k & 1:
            length += 1
            prev = False
        elif used < avail and not prev:
            length += 1
            used += 1
            prev = True
        else:
            return length, used, False, pattern >> (k + 1) << (k + 1)
    return length, used, True, pattern


def run_by_gaps(pattern: int, avail: int, prev: bool) -> tuple[int, int, bool, int]:
    """Return what `run_of` returns, jumping from gap to gap (at most avail + 1 steps)."""
    gaps = ~pattern & RUN_FULL
    length = used = 0
    pos = RUN_LENGTH  # positions pos-1 .. 0 are still to cover
    while True:
        g = (gaps & ((1 << pos) - 1)).bit_length() - 1  # the next missing number
        if g < 0:
            return length + pos, used, True, pattern
        if pos - 1 > g:
            length += pos - 1 - g  # real cards down to the gap
            prev = False
        if used < avail and not prev:
            length += 1
            used += 1
            prev = True
            pos = g
        else:
            return length, used, False, pattern >> (g + 1) << (g + 1)


def _run_tables(avail: int, prev: bool) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Return, per run pattern, the encoded length (covered + unused contatori, +32 when the
    run reaches T5) and the run cards kept."""
    value, kept = [], []
    for p in range(1 << RUN_LENGTH):
        length, used, full, keep = run_by_gaps(p, avail, prev)
        value.append(length + avail - used + 32 * full)
        kept.append(keep)
    return tuple(value), tuple(kept)


# [avail] for a natural head (no contatore used yet), and for a head that used one
_NATURAL = tuple(_run_tables(a, False) for a in range(3))
_SUBSTITUTED = tuple(_run_tables(a, True) for a in range(2))


def grande_length(m: int) -> tuple[int, int]:
    """Return (length, cards) of the Grande in mask m, (0, 0) if there is none (rules §3: the
    real ANGEL, two of WORLD/SUN/MOON with at least one real, then T16..T5, then the Moors
    once the run is complete; unused contatori add one each)."""
    if not m >> ANGEL & 1:
        return 0, 0
    c = (m >> BEGATO & 1) + (m >> MATTO & 1)
    h = (m & HEAD).bit_count()
    pattern = m >> T5 & RUN_FULL
    if h >= 2:
        # one missing head card is a natural skip, not a substitution (rules §3)
        head = 1 + h
        value, kept = _NATURAL[c][0][pattern], _NATURAL[c][1][pattern]
    elif h == 1 and c:
        head = 3
        value, kept = _SUBSTITUTED[c - 1][0][pattern], _SUBSTITUTED[c - 1][1][pattern]
    else:
        return 0, 0
    cards = BIT[ANGEL] | (m & HEAD) | (kept << T5) | (m & CONTATORI)
    length = head + (value & 31)
    if value & 32:
        cards |= m & MOORS_MASK
        length += (m & MOORS_MASK).bit_count()
    return length, cards


def _encode(points: int) -> int:
    # a scored combination as points*8 + 1: one sum gives the total and the count
    return points * 8 + 1 if points else 0


def _set_table(v3: int, v4: int) -> tuple[int, ...]:
    return (0, 0, 0, _encode(v3), _encode(v4))


def _suit_table(suit: int, c: int) -> tuple[int, ...]:
    """Return the encoded value of a suit sequence for every 10-bit pattern of the suit."""
    base = suit * BLOCK
    king, figures, ace = SUIT_KING[suit] >> base, SUIT_FIGURES[suit] >> base, SUIT_ACE[suit] >> base
    return tuple(
        _encode(
            sequence_points(
                suit_length(bool(p & king), (p & figures).bit_count(), bool(p & ace), c)
            )
        )
        for p in range(1 << BLOCK)
    )


# [c]: Swords and Batons share one layout, Cups and Coins another (rules §1 orders)
_LONG = tuple(_suit_table(0, c) for c in range(3))
_ROUND = tuple(_suit_table(2, c) for c in range(3))
# [c][real count]
_GROUP = tuple(
    tuple(_encode(sequence_points(group_length(r, c))) for r in range(5)) for c in range(3)
)
# [c][head count]: the head's length, whether it used a contatore, 0 if the head fails
_HEAD_LEN = tuple(
    tuple(1 + h if h >= 2 else 3 if h == 1 and c else 0 for h in range(4)) for c in range(3)
)


# the tables as arrays for the compiled value
_SET_MASKS = np.array([m for _, m, _, _ in SETS], dtype=np.int64)
_SET_T = np.array([_set_table(v3, v4) for _, _, v3, v4 in SETS], dtype=np.int64)
_LONG_A = np.array(_LONG, dtype=np.int64)
_ROUND_A = np.array(_ROUND, dtype=np.int64)
_GROUP_A = np.array(_GROUP, dtype=np.int64)
_HEAD_LEN_A = np.array(_HEAD_LEN, dtype=np.int64)
_NATURAL_A = np.array([t[0] for t in _NATURAL], dtype=np.int64)
_SUBSTITUTED_A = np.array([t[0] for t in _SUBSTITUTED], dtype=np.int64)


@njit(cache=True)
def combination_value(m: int) -> int:
    """Return the value of the combinations in card mask m (rules §3); compiled, so that
    the rules and the compiled players share it."""
    c = (m >> BEGATO & 1) + (m >> MATTO & 1)
    s = 0
    for f in range(5):
        s += _SET_T[f, n_cards(m & _SET_MASKS[f])]
    q = (
        _LONG_A[c, m & 1023]
        + _LONG_A[c, m >> 10 & 1023]
        + _ROUND_A[c, m >> 20 & 1023]
        + _ROUND_A[c, m >> 30 & 1023]
        + _GROUP_A[c, n_cards(m & ACES_MASK)]
        + _GROUP_A[c, n_cards(m & MOORS_MASK)]
    )
    if m >> ANGEL & 1:
        h = n_cards(m & HEAD)
        head = _HEAD_LEN_A[c, h]
        if head:
            pattern = m >> T5 & RUN_FULL
            run = _NATURAL_A[c, pattern] if h >= 2 else _SUBSTITUTED_A[c - 1, pattern]
            length = head + (run & 31)
            if run & 32:
                length += n_cards(m & MOORS_MASK)
            q += (10 + 5 * (length - 3)) * 8 + 1
    # rules §3: three or more different sets double the sets; separately the sequences
    a = (s >> 3) << (1 if (s & 7) >= 3 else 0)
    b = (q >> 3) << (1 if (q & 7) >= 3 else 0)
    return a + b  # type: ignore[no-any-return]


class Combo(NamedTuple):
    """One scored combination: its name, kind, length, points and cards."""

    name: str  # "Kings", "Tarocchi", "Grande", "Swords sequence", "Aces", "Moors"
    kind: str  # "set" or "sequence"
    length: int
    points: int
    cards: int  # mask of the cards that make it (contatori included)

    def describe(self) -> str:
        """Return e.g. "3 Kings (17)" or "Grande of 8 cards (35)"."""
        if self.kind == "set":
            return Msg(
                "%(n)d %(name)s (%(points)d)", n=self.length, name=self.name, points=self.points
            )
        return Msg(
            "%(name)s of %(n)d cards (%(points)d)",
            n=self.length,
            name=self.name,
            points=self.points,
        )


class Analysis(NamedTuple):
    """Every combination scored in a set of cards, with the doublings and the value."""

    value: int
    sets: tuple[Combo, ...]
    sequences: tuple[Combo, ...]
    sets_doubled: bool
    sequences_doubled: bool
    cards: int  # every card that belongs to a scored combination

    @property
    def combos(self) -> tuple[Combo, ...]:
        """Return the sets, then the sequences."""
        return self.sets + self.sequences

    def describe(self) -> str:
        """Return a one-line English summary, e.g. "3 Kings (17), Cups sequence of 4 cards (15)"."""
        if not self.value:
            return Msg("no combinations")
        parts = joined([x.describe() for x in self.combos], ", ")
        doubled = []
        if self.sets_doubled:
            doubled.append(Msg("%(n)d different sets doubled", n=len(self.sets)))
        if self.sequences_doubled:
            doubled.append(Msg("%(n)d different sequences doubled", n=len(self.sequences)))
        if doubled:
            return Msg("%(combos)s (%(doubled)s)", combos=parts, doubled=joined(doubled, "; "))
        return parts


_new = tuple.__new__  # builds NamedTuples without the Python-level __new__


def _subsets(mask: int) -> list[int]:
    """Return every subset of mask."""
    out = [0]
    for c in iter_bits(mask):
        out += [x | BIT[c] for x in out]
    return out


def _set_combos(name: str, family: int, v3: int, v4: int) -> dict[int, Combo]:
    """Return the set scored by each subset of a family that scores one."""
    out = {}
    for held in _subsets(family):
        n = held.bit_count()
        if n >= 3:
            out[held] = Combo(name, "set", n, v4 if n == 4 else v3, held)
    return out


def _sequence_combos(
    name: str, family: int, length_of: Callable[[int, int], int]
) -> dict[int, Combo]:
    """Return the sequence scored by each subset of a family's cards and the contatori."""
    out = {}
    for held in _subsets(family | CONTATORI):
        length = length_of(held & ~CONTATORI, (held & CONTATORI).bit_count())
        if length:
            out[held] = Combo(name, "sequence", length, sequence_points(length), held)
    return out


def _suit_length_of(suit: int) -> Callable[[int, int], int]:
    def length_of(real: int, c: int) -> int:
        figures = (real & SUIT_FIGURES[suit]).bit_count()
        return suit_length(bool(real & SUIT_KING[suit]), figures, bool(real & SUIT_ACE[suit]), c)

    return length_of


def _group_length_of(real: int, c: int) -> int:
    return group_length(real.bit_count(), c)


# every set and every suit, Aces or Moors sequence, keyed by the cards of its family held
# (with the contatori for sequences): analysis is a few dictionary lookups
_SET_TABLES = tuple((family, _set_combos(*row)) for row in SETS for family in (row[1],))
_SUIT_CARDS = tuple(SUIT_KING[s] | SUIT_FIGURES[s] | SUIT_ACE[s] for s in SUITS)
_SEQUENCE_TABLES = tuple(
    (cards | CONTATORI, _sequence_combos(name, cards, length_of))
    for name, cards, length_of in (
        *((SEQUENCE_NAMES[s], _SUIT_CARDS[s], _suit_length_of(s)) for s in SUITS),
        (N_("Aces"), ACES_MASK, _group_length_of),
        (N_("Moors"), MOORS_MASK, _group_length_of),
    )
)


def analyse(m: int) -> Analysis:
    """Return every combination scored in card mask m (rules §3), with their cards."""
    sets = []
    for family, table in _SET_TABLES:
        found = table.get(m & family)
        if found:
            sets.append(found)
    seqs = []
    length, cards = grande_length(m)
    if length:
        seqs.append(_new(Combo, (N_("Grande"), "sequence", length, 10 + 5 * (length - 3), cards)))
    for family, table in _SEQUENCE_TABLES:
        found = table.get(m & family)
        if found:
            seqs.append(found)
    sets_doubled = len(sets) >= 3
    seqs_doubled = len(seqs) >= 3
    a = sum([x[3] for x in sets]) << sets_doubled
    b = sum([x[3] for x in seqs]) << seqs_doubled
    cards = 0
    for x in sets:
        cards |= x[4]
    for x in seqs:
        cards |= x[4]
    return _new(Analysis, (a + b, tuple(sets), tuple(seqs), sets_doubled, seqs_doubled, cards))
