"""An independent, deliberately plain reading of the Piedicavallo spec, on card codes.

It follows the rules (docs/rules.md, Piedicavallo) line by line and
shares nothing with the engine but the card codes, so differential tests can
pin the engine's bitmask rules against it.
"""

from __future__ import annotations

from dataclasses import dataclass

SUITS = ("SW", "BA", "CU", "CO")
LONG = ["5", "6", "7", "8", "9", "10", "J", "N", "Q", "K"]  # weakest first
ROUND = ["6", "5", "4", "3", "2", "A", "J", "N", "Q", "K"]
POINTS = {"K": 5, "Q": 4, "N": 3, "J": 2}


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
    def suit(self) -> str:
        return "TRUMP" if self.is_trump else "MATTO" if self.is_matto else self.code[:2]

    @property
    def rank(self) -> str:
        return self.code[3:]

    @property
    def is_king(self) -> bool:
        return not self.is_trump and not self.is_matto and self.rank == "K"

    @property
    def strength(self) -> int:
        if self.is_trump:
            return int(self.code[1:])
        if self.is_matto:
            return 0
        order = LONG if self.suit in ("SW", "BA") else ROUND
        return order.index(self.rank) + 1

    @property
    def points(self) -> int:
        if self.is_matto or self.code in ("T1", "T21"):
            return 5
        if self.is_trump:
            return 1
        return POINTS.get(self.rank, 1)


DECK = [C(f"{s}-{r}") for s in SUITS for r in (LONG if s in ("SW", "BA") else ROUND)]
DECK += [C(f"T{n}") for n in range(1, 22)] + [C("MATTO")]


def discard_legal(hand: set[C], d: set[C]) -> bool:
    """Spec §2 discard_legal."""
    if len(d) != 2 or not d <= hand:
        return False
    if any(c.is_king or c.code in ("T1", "T21", "MATTO") for c in d):
        return False
    if not any(c.is_trump for c in d):
        return True
    rest = hand - d
    return all(c.is_trump or c.is_king or c.is_matto for c in rest) or not any(
        c.is_trump for c in rest
    )


def legal_moves(hand: list[C], trick: list[C]) -> list[C]:
    """Spec §3 legal_moves."""
    others = [c for c in hand if c.code != "MATTO"]
    led = next((c.suit for c in trick if c.code != "MATTO"), None)
    if led is None:
        allowed = others
    elif any(c.suit == led for c in others):
        allowed = [c for c in others if c.suit == led]
    elif any(c.is_trump for c in others):
        allowed = [c for c in others if c.is_trump]
    else:
        allowed = others
    return allowed + [c for c in hand if c.code == "MATTO"]


def trick_winner(plays: list[tuple[int, C]]) -> int:
    """Spec §3 trick_winner."""
    real = [(s, c) for s, c in plays if c.code != "MATTO"]
    led = real[0][1].suit
    pool = [p for p in real if p[1].is_trump] or [p for p in real if p[1].suit == led]
    return max(pool, key=lambda p: p[1].strength)[0]


def score(trick_plays: list[list[tuple[int, C]]], discard: set[C], dealer: int) -> tuple[int, int]:
    """Spec §4: card points of tricks, the Matto to its player's team, D to the dealer's team,
    and the sweep."""
    totals = [0, 0]
    tricks = [0, 0]
    for plays in trick_plays:
        w = trick_winner(plays)
        tricks[w % 2] += 1
        for seat, c in plays:
            team = seat % 2 if c.is_matto else w % 2
            totals[team] += c.points
    totals[dealer % 2] += sum(c.points for c in discard)
    for t in (0, 1):
        if tricks[t] == 0:
            return (0, 114) if t == 0 else (114, 0)
    return totals[0], totals[1]
