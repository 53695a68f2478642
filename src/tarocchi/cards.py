"""Cards as small ints and card sets as int bitmasks: bit helpers and the Pack type.

Every pack numbers its cards the same way (docs/architecture.md): the four suits
Swords, Batons, Cups, Coins in blocks, each from weakest to strongest, then the
trumps from weakest to strongest, then the Matto last. So within a suit, and
within the trumps, the stronger card has the higher id and a trick's winner is
a max over ids. Tables (points, suit of card, masks) are built once at import.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass

from tarocchi.i18n import N_, Msg
from tarocchi.i18n import SEATS as SEATS

SWORDS, BATONS, CUPS, COINS, TRUMPS, FOOL = range(6)
SUIT_CODES = ("SW", "BA", "CU", "CO")
SUIT_NAMES_EN = (N_("Swords"), N_("Batons"), N_("Cups"), N_("Coins"), N_("Trumps"), N_("the Matto"))
SUIT_NAMES_IT = ("Spade", "Bastoni", "Coppe", "Denari", "Trionfi", "il Matto")

TEAMS = (N_("NS"), N_("EW"))


def team_of(seat: int) -> int:
    """Return 0 for North-South, 1 for East-West."""
    return seat & 1


def iter_bits(mask: int) -> Iterator[int]:
    """Yield the set bits of mask, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def bits(mask: int) -> list[int]:
    """Return the set bits of mask as an ascending list."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def popcount(mask: int) -> int:
    """Return the number of set bits."""
    return mask.bit_count()


BIT = tuple(1 << i for i in range(128))


def mask_of(cards: Iterable[int]) -> int:
    """Return the bitmask of the given (distinct) card ids."""
    return sum(map(BIT.__getitem__, cards))


def highest(mask: int) -> int:
    """Return the highest set bit (the strongest card of a one-suit mask)."""
    return mask.bit_length() - 1


def lowest(mask: int) -> int:
    """Return the lowest set bit (the weakest card of a one-suit mask)."""
    return (mask & -mask).bit_length() - 1


@dataclass(frozen=True, slots=True)
class Card:
    """One card of a pack: its id, text code, names, suit, strength and points."""

    id: int
    code: str
    name_en: str
    name_it: str
    suit: int
    rank: str  # "K", "Q", "N", "J", "A", "2".."10" for suit cards; the code for trumps
    strength: int  # the rules' strength value, for display (ids already sort by it)
    points: int


class Pack:
    """A pack as data: cards by id, lookups by code, suit masks, points."""

    def __init__(self, name: str, cards: Sequence[Card]) -> None:
        for i, c in enumerate(cards):
            if c.id != i:
                raise ValueError(f"card {c.code} has id {c.id}, expected {i}")
        self.name = name
        self.cards: tuple[Card, ...] = tuple(cards)
        self.size = len(cards)
        self.codes: tuple[str, ...] = tuple(c.code for c in cards)
        self.by_code: dict[str, int] = {c.code: c.id for c in cards}
        if len(self.by_code) != self.size:
            raise ValueError("duplicate card codes")
        self.suit_of: tuple[int, ...] = tuple(c.suit for c in cards)
        self.points: tuple[int, ...] = tuple(c.points for c in cards)
        self.suit_mask: tuple[int, ...] = tuple(
            mask_of(c.id for c in cards if c.suit == s) for s in range(6)
        )
        self.trump_mask = self.suit_mask[TRUMPS]
        self.matto = self.by_code["MATTO"]
        self.matto_bit = 1 << self.matto
        self.full_mask = (1 << self.size) - 1
        self.king_mask = mask_of(c.id for c in cards if c.suit < TRUMPS and c.rank == "K")
        self.total_points = sum(self.points)
        # points of each byte value at each byte position: points_of is a few lookups
        self.n_bytes = (self.size + 7) // 8
        self._byte_points = tuple(
            tuple(
                sum(self.points[k] for j in range(8) if b >> j & 1 and (k := 8 * i + j) < self.size)
                for b in range(256)
            )
            for i in range(self.n_bytes)
        )

    def __len__(self) -> int:
        return self.size

    def code(self, card: int) -> str:
        """Return the text code of a card id."""
        return self.codes[card]

    def card_id(self, code: str) -> int:
        """Return the id of a text code; raise ValueError if the pack has no such card."""
        try:
            return self.by_code[code.strip().upper()]
        except KeyError:
            raise ValueError(
                Msg("no card %(code)s in the %(pack)s pack", code=repr(code), pack=self.name)
            ) from None

    def mask(self, codes: Iterable[str]) -> int:
        """Return the mask of the given codes."""
        return mask_of(self.card_id(c) for c in codes)

    def codes_of(self, mask: int) -> list[str]:
        """Return the codes of a mask, in id order."""
        return [self.codes[c] for c in iter_bits(mask)]

    def points_of(self, mask: int) -> int:
        """Return the plain sum of card points in a mask."""
        table = self._byte_points
        return sum(table[i][b] for i, b in enumerate(mask.to_bytes(self.n_bytes, "little")) if b)

    def sort_key(self, card: int) -> tuple[int, int]:
        """Return the display order: trumps, then each suit, strongest first; Matto last."""
        s = self.suit_of[card]
        order = {TRUMPS: 0, SWORDS: 1, BATONS: 2, CUPS: 3, COINS: 4, FOOL: 5}[s]
        return (order, -card)


# a card as the packs list it: (code, English, Italian, suit, rank, strength, points)
Row = tuple[str, str, str, int, str, int, int]


def suit_cards(
    suit: int, ranks: Sequence[tuple[str, int, int]], names: tuple[dict[str, str], dict[str, str]]
) -> list[Row]:
    """Build the rows of one suit from (rank, strength, points), weakest first."""
    code = SUIT_CODES[suit]
    en, it = names
    rows = []
    for rank, strength, points in ranks:
        name_en = f"{en.get(rank, rank)} of {SUIT_NAMES_EN[suit]}"
        name_it = f"{it.get(rank, rank)} di {SUIT_NAMES_IT[suit]}"
        rows.append((f"{code}-{rank}", name_en, name_it, suit, rank, strength, points))
    return rows


# the court cards of a 62-card pack from the Jack up, with their points
TAROT_COURT = (("J", 2), ("N", 3), ("Q", 4), ("K", 5))


def tarot_suits(
    long_pips: Sequence[str],
    round_pips: Sequence[str],
    names: tuple[dict[str, str], dict[str, str]],
) -> list[Row]:
    """Build the rows of the four suits of a 62-card pack: the pips weakest first (Swords
    and Batons long_pips, Cups and Coins round_pips), each worth 1, then the court cards
    (TAROT_COURT)."""
    rows = []
    for suit in (SWORDS, BATONS, CUPS, COINS):
        pips = long_pips if suit in (SWORDS, BATONS) else round_pips
        ranks = [(r, i + 1, 1) for i, r in enumerate(pips)]
        ranks += [(r, 7 + i, p) for i, (r, p) in enumerate(TAROT_COURT)]
        rows += suit_cards(suit, ranks, names)
    return rows


RANK_NAMES_EN = {"K": "King", "Q": "Queen", "N": "Knight", "J": "Jack", "A": "Ace"}
RANK_NAMES_IT = {"K": "Re", "Q": "Regina", "N": "Cavallo", "J": "Fante", "A": "Asso"}


def numbered_trumps(
    names: Sequence[tuple[str, str]], first: int, points: Callable[[int], int]
) -> list[Row]:
    """Build the rows of numbered trumps from trump first up, one per (English, Italian)
    subject, weakest first: code Tn, named "n subject", strength n, worth points(n)."""
    return [
        (f"T{n}", f"{n} {en}", f"{n} {it}", TRUMPS, f"T{n}", n, points(n))
        for n, (en, it) in enumerate(names, start=first)
    ]


# every pack's last card: the Matto, worth 5
MATTO_ROW: Row = ("MATTO", "The Fool (Matto)", "Il Matto", FOOL, "MATTO", 0, 5)


def build_pack(name: str, rows: Sequence[Row]) -> Pack:
    """Number rows (code, en, it, suit, rank, strength, points) given in id order."""
    return Pack(name, [Card(i, *row) for i, row in enumerate(rows)])
