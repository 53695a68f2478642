"""An independent, deliberately plain reading of the Minchiate spec, on card codes.

It follows the rules (docs/rules.md, Minchiate: §3 combos, §4 legal,
§5 Ledger) line by line and shares nothing with the engine but the card codes,
so differential tests can pin the engine's bitmask rules against it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

SUITS = ("SW", "BA", "CU", "CO")
LONG = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "N", "Q", "K"]  # weakest first
ROUND = ["10", "9", "8", "7", "6", "5", "4", "3", "2", "A", "J", "N", "Q", "K"]


@dataclass(frozen=True)
class C:
    """A card read from its code."""

    code: str

    @property
    def is_matto(self) -> bool:
        return self.code == "MATTO"

    @property
    def is_trump(self) -> bool:
        return self.code.startswith("T")

    @property
    def n(self) -> int:
        """The trump's number."""
        return int(self.code[1:])

    @property
    def suit(self) -> str:
        return "TRUMP" if self.is_trump else "MATTO" if self.is_matto else self.code[:2]

    @property
    def rank(self) -> str:
        return self.code[3:]

    @property
    def is_king(self) -> bool:
        return self.suit in SUITS and self.rank == "K"

    @property
    def strength(self) -> int:
        if self.is_trump:
            return self.n
        if self.is_matto:
            return 0
        order = LONG if self.suit in ("SW", "BA") else ROUND
        return order.index(self.rank) + 1

    @property
    def points(self) -> int:
        """§1: T36-40 10; T1, T10, T13, T20, T28, T30-35, Matto, Kings 5; T2-5 3; else 0."""
        if self.is_matto or self.is_king:
            return 5
        if not self.is_trump:
            return 0
        if self.n >= 36:
            return 10
        if self.n in (1, 10, 13, 20, 28) or 30 <= self.n <= 35:
            return 5
        return 3 if 2 <= self.n <= 5 else 0


def T(n: int) -> C:
    return C(f"T{n}")


MATTO = C("MATTO")
DECK = [C(f"{s}-{r}") for s in SUITS for r in (LONG if s in ("SW", "BA") else ROUND)]
DECK += [T(n) for n in range(1, 41)] + [MATTO]


def king(suit: str) -> C:
    return C(f"{suit}-K")


# -- §3 combinations -----------------------------------------------------------------------


def combos(cards: set[C]) -> list[tuple[str, list[str], int]]:
    """Spec §3 `combos`: (kind, codes, value) with the Matto bonus."""
    out: list[tuple[str, list[str], int]] = []
    for lo, hi in ((1, 5), (28, 40)):
        run: list[int] = []
        for n in range(lo, hi + 2):
            if n <= hi and T(n) in cards:
                run.append(n)
            else:
                if len(run) >= 3:
                    value = sum(5 if m == 29 else T(m).points for m in run)
                    out.append(("seq", [f"T{m}" for m in run], value))
                run = []
    if {T(1), MATTO, T(40)} <= cards:
        out.append(("matto", ["T1", "MATTO", "T40"], 20))
    if {T(1), T(13), T(28)} <= cards:
        out.append(("thirteen", ["T1", "T13", "T28"], 15))
    tens = [T(n) for n in (10, 20, 30, 40) if T(n) in cards]
    if T(20) in cards and T(30) in cards and len(tens) >= 3:
        out.append(("tens", [c.code for c in tens], sum(c.points for c in tens)))
    ks = [c for c in cards if c.is_king]
    if len(ks) >= 3:
        out.append(("kings", sorted(c.code for c in ks), 5 * len(ks)))
    if MATTO in cards:
        out = [(k, v, x if k == "matto" else x + 5) for k, v, x in out]
    return out


def combos_value(cards: set[C]) -> int:
    return sum(v for _, _, v in combos(cards))


# -- §4 trick play ---------------------------------------------------------------------------


def legal(hand: set[C], trick: list[C], first_lead_trick: dict[str, int], trick_no: int) -> set[C]:
    """Spec §4 `legal`."""
    cards = [c for c in trick if c != MATTO]
    if not cards:
        return set(hand)
    led = cards[0].suit
    if (
        led != "TRUMP"
        and first_lead_trick.get(led) == trick_no
        and any(c.is_trump for c in cards)
        and king(led) in hand
    ):
        return {king(led)}
    base = (
        [c for c in hand if c.suit == led]
        or [c for c in hand if c.is_trump]
        or [c for c in hand if c != MATTO]
    )
    return set(base) | ({MATTO} & hand)


def trick_winner(plays: list[tuple[int, C]]) -> int:
    """§4: highest trump, else highest card of the led suit; the Matto never wins."""
    real = [(s, c) for s, c in plays if c != MATTO]
    led = real[0][1].suit
    trumps = [(s, c) for s, c in real if c.is_trump]
    pool = trumps or [(s, c) for s, c in real if c.suit == led]
    return max(pool, key=lambda p: p[1].strength)[0]


# -- §5 scoring -----------------------------------------------------------------------------


class Ledger:
    """Spec §5 `Ledger`, literally (A = North-South = team 0)."""

    def __init__(self) -> None:
        self.D = 0
        self.resti = {0: 0, 1: 0}

    def score(self, team: int, pts: int) -> None:
        if pts <= 0:
            return
        self.D += pts if team == 0 else -pts
        while self.D >= 60:
            self.resti[0] += 1
            self.D -= 60
        while self.D <= -60:
            self.resti[1] += 1
            self.D += 60

    def finish(self, end_a: int, end_b: int) -> int:
        self.D += end_a - end_b
        if self.D > 0:
            self.resti[0] += math.ceil(self.D / 60)
        elif self.D < 0:
            self.resti[1] += math.ceil(-self.D / 60)
        return self.resti[0] - self.resti[1]


def end_total(pile: set[C], last_trick: bool) -> int:
    """§5: card points + combinations in the pile + cards over 42 + 10 for the last trick."""
    return (
        sum(c.points for c in pile)
        + combos_value(pile)
        + max(0, len(pile) - 42)
        + (10 if last_trick else 0)
    )


def payback(pile: set[C]) -> C:
    """§5: a zero-point non-T29 card (lowest id), else T29, else the lowest counting card;
    the Matto itself when the pile holds nothing else."""
    rest = [c for c in pile if c != MATTO]
    if not rest:
        return MATTO
    ident = {c: i for i, c in enumerate(DECK)}
    zero = [c for c in rest if c.points == 0 and c != T(29)]
    if zero:
        return min(zero, key=ident.__getitem__)
    if T(29) in rest:
        return T(29)
    return min(rest, key=lambda c: (c.points, ident[c]))
