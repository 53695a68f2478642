"""Versicole: Minchiate's scoring combinations, found in a card mask by table lookups.

Section numbers (§) refer to docs/rules.md (Minchiate). A versicola is one of
(rules §3):

- a sequence: a maximal run of at least three consecutive trumps wholly within
  1-5 or within 28-40 (adjacent runs merge; a gap breaks a run); T29 is worth 5
  inside a run (0 elsewhere);
- the Matto: T1, the Matto and T40 (20);
- the Thirteen: T1, T13 and T28 (15);
- the Tens: T20 and T30 with T10 or T40 or both, one combination worth the sum
  of its cards (15, 20 or 25);
- the Kings: three or four Kings (15 or 20).

Each combination is worth the sum of its cards' values; when the set also holds
the Matto, every combination but the Matto one earns 5 more (the Matto
bonus). The Matto never completes any other combination.

The worth of the sequences is looked up in two tables indexed by the trump
bits: 32 entries for trumps 1-5 and 8192 for trumps 28-40, built at import.
"""

from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple

from tarocchi.cards import SUIT_NAMES_EN
from tarocchi.i18n import N_, Msg, joined, nmsg
from tarocchi.packs.minchiate import MATTO, PACK, T1, trump, trump_points

SEQ_LOW, SEQ_HIGH_1, SEQ_HIGH_2, SEQ_HIGH_3, MATTO_SET, THIRTEEN, TENS, KINGS = range(8)
KIND_CODES = (
    "SEQ-LOW",
    "SEQ-HIGH-1",
    "SEQ-HIGH-2",
    "SEQ-HIGH-3",
    "MATTO",
    "THIRTEEN",
    "TENS",
    "KINGS",
)
# the kinds' names, a parameter of messages ("you do not hold %(versicola)s")
KIND_NAMES = (
    N_("the sequence of trumps 1-5"),
    N_("the first sequence of trumps 28-40"),
    N_("the second sequence of trumps 28-40"),
    N_("the third sequence of trumps 28-40"),
    N_("the Matto versicola (trumps 1 and 40 with the Matto)"),
    N_("the Thirteen (trumps 1, 13 and 28)"),
    N_("the Tens"),
    N_("the Kings"),
)
MATTO_BONUS = 5
HIGH_LOW, HIGH_TOP = 28, 40  # rules §3: the high sequences lie within 28-40
HIGH_BITS = HIGH_TOP - HIGH_LOW + 1

MATTO_BIT = 1 << MATTO
KING_MASK = PACK.king_mask
# bit n-1 of `mask >> T1` is trump n
_T = (0, *(1 << (n - 1) for n in range(1, 41)))
MATTO_TRUMPS = _T[1] | _T[40]
THIRTEEN_TRUMPS = _T[1] | _T[13] | _T[28]
TWENTY_THIRTY = _T[20] | _T[30]
FORTY_TRUMPS = (1 << 40) - 1


def sequence_value(n: int) -> int:
    """Return what trump n is worth inside a sequence (rules §3: T29 is worth 5 there)."""
    return 5 if n == 29 else trump_points(n)


def run_bits(pattern: int) -> int:
    """Return the bits of a pattern that lie in runs of three or more consecutive bits."""
    starts = pattern & pattern >> 1 & pattern >> 2
    return starts | starts << 1 | starts << 2


def _codes(low: int, size: int) -> tuple[int, ...]:
    """Return, for every pattern of trumps low..low+size-1, the worth of its sequences
    times 4 plus their number (a maximal run starts at a bit whose lower neighbour is off)."""
    weights = [sequence_value(low + i) for i in range(size)]
    out = []
    for pattern in range(1 << size):
        inrun = run_bits(pattern)
        value = sum(w for i, w in enumerate(weights) if inrun >> i & 1)
        out.append(value * 4 + (inrun & ~(inrun << 1)).bit_count())
    return tuple(out)


LOW_CODE = _codes(1, 5)
HIGH_CODE = _codes(HIGH_LOW, HIGH_BITS)


def combo_base(cards: int) -> int:
    """Return the sum of a versicola's card values (T29 counts 5: only a sequence holds it)."""
    return PACK.points_of(cards) + (5 if cards >> trump(29) & 1 else 0)


class Combo(NamedTuple):
    """One versicola: its kind, its cards, the sum of their values and the Matto bonus."""

    kind: int
    cards: int  # card mask
    base: int
    bonus: int

    @property
    def value(self) -> int:
        """Return the versicola's worth, Matto bonus included."""
        return self.base + self.bonus


_new_combo = tuple.__new__  # end-of-deal scoring builds a few per pile


def combos(mask: int) -> list[Combo]:
    """Return the canonical versicole of a set of cards (rules §3), in kind order: the low
    sequence, the high sequences from the lowest, Matto, Thirteen, Tens, Kings."""
    t = mask >> T1 & FORTY_TRUMPS
    has_matto = mask & MATTO_BIT
    bonus = MATTO_BONUS if has_matto else 0
    out: list[Combo] = []
    inrun = run_bits(t & 31) | run_bits(t >> (HIGH_LOW - 1)) << (HIGH_LOW - 1)
    starts = inrun & ~(inrun << 1)  # each maximal run starts at a set bit
    kind = SEQ_HIGH_1
    while starts:
        low = starts & -starts
        starts ^= low
        block = inrun // low
        run = ((block ^ (block + 1)) >> 1) * low  # the run's trump bits
        if run < 32:
            out.append(_new_combo(Combo, (SEQ_LOW, run << T1, LOW_CODE[run] >> 2, bonus)))
        else:
            value = HIGH_CODE[run >> (HIGH_LOW - 1)] >> 2
            out.append(_new_combo(Combo, (kind, run << T1, value, bonus)))
            kind += 1
    if has_matto and t & MATTO_TRUMPS == MATTO_TRUMPS:
        out.append(_new_combo(Combo, (MATTO_SET, MATTO_TRUMPS << T1 | MATTO_BIT, 20, 0)))
    if t & THIRTEEN_TRUMPS == THIRTEEN_TRUMPS:
        out.append(_new_combo(Combo, (THIRTEEN, THIRTEEN_TRUMPS << T1, 15, bonus)))
    if t & TWENTY_THIRTY == TWENTY_THIRTY and t & (_T[10] | _T[40]):
        tens = t & (_T[10] | TWENTY_THIRTY | _T[40])
        out.append(_new_combo(Combo, (TENS, tens << T1, _tens_value(t), bonus)))
    kings = mask & KING_MASK
    n = kings.bit_count()
    if n >= 3:
        out.append(_new_combo(Combo, (KINGS, kings, 5 * n, bonus)))
    return out


def _tens_value(t: int) -> int:
    """Return the worth of the Tens in trump bits t (rules §3: 20 and 30 with 10 make 15,
    with 40 make 20, with both make 25)."""
    return 10 + (5 if t & _T[10] else 0) + (10 if t & _T[40] else 0)


def versicole_value(mask: int) -> int:
    """Return the total worth of the versicole in a set of cards, Matto bonus included
    (the quick form of `sum(c.value for c in combos(mask))`)."""
    t = mask >> T1 & FORTY_TRUMPS
    lo = LOW_CODE[t & 31]
    hi = HIGH_CODE[t >> (HIGH_LOW - 1)]
    value = (lo >> 2) + (hi >> 2)
    count = (lo & 3) + (hi & 3)
    if t & THIRTEEN_TRUMPS == THIRTEEN_TRUMPS:
        value += 15
        count += 1
    if t & TWENTY_THIRTY == TWENTY_THIRTY and t & (_T[10] | _T[40]):
        value += _tens_value(t)
        count += 1
    kings = (mask & KING_MASK).bit_count()
    if kings >= 3:
        value += 5 * kings
        count += 1
    if mask & MATTO_BIT:
        if t & MATTO_TRUMPS == MATTO_TRUMPS:
            value += 20
        value += MATTO_BONUS * count
    return value


def has_versicola(mask: int) -> bool:
    """Return True if a set of cards holds at least one versicola."""
    t = mask >> T1 & FORTY_TRUMPS
    return bool(
        LOW_CODE[t & 31] & 3
        or HIGH_CODE[t >> (HIGH_LOW - 1)] & 3
        or t & THIRTEEN_TRUMPS == THIRTEEN_TRUMPS
        or (t & TWENTY_THIRTY == TWENTY_THIRTY and t & (_T[10] | _T[40]))
        or (mask & KING_MASK).bit_count() >= 3
        or (mask & MATTO_BIT and t & MATTO_TRUMPS == MATTO_TRUMPS)
    )


KING_IDS = tuple(c for c in range(PACK.size) if KING_MASK >> c & 1)
TEN_IDS = tuple(trump(n) for n in (10, 20, 30, 40))


@lru_cache(maxsize=4096)
def combo_name(kind: int, cards: int) -> Msg:
    """Return the name of a versicola, naming its cards by trump number or suit (English,
    with its recipe)."""
    if kind <= SEQ_HIGH_3:
        first = PACK.cards[(cards & -cards).bit_length() - 1].strength
        last = PACK.cards[cards.bit_length() - 1].strength
        return Msg("the sequence of trumps %(first)d-%(last)d", first=first, last=last)
    if kind == MATTO_SET:
        return Msg(KIND_NAMES[MATTO_SET])
    if kind == THIRTEEN:
        return Msg(KIND_NAMES[THIRTEEN])
    if kind == TENS:
        numbers = joined([PACK.cards[c].strength for c in TEN_IDS if cards >> c & 1])
        return Msg("the Tens (trumps %(numbers)s)", numbers=numbers)
    return nmsg(
        "%(n)d King (%(suits)s)",
        "%(n)d Kings (%(suits)s)",
        cards.bit_count(),
        suits=joined([SUIT_NAMES_EN[PACK.suit_of[c]] for c in KING_IDS if cards >> c & 1]),
    )


@lru_cache(maxsize=4096)
def describe(combo: Combo) -> Msg:
    """Return a description of a versicola and its worth (English, with its recipe)."""
    what = combo_name(combo.kind, combo.cards)
    if combo.bonus:
        return Msg(
            "%(versicola)s: %(base)d + %(bonus)d for the Matto = %(value)d",
            versicola=what,
            base=combo.base,
            bonus=combo.bonus,
            value=combo.value,
        )
    return Msg("%(versicola)s: %(value)d", versicola=what, value=combo.value)
