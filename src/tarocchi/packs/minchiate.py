"""The Florentine Minchiate pack: 97 cards, 40 trumps, the Matto and four suits of 14.

Ids (weakest first within each group, so a trick's winner is a max over ids):

    0-13   SW-A SW-2 ... SW-10 SW-J SW-N SW-Q SW-K   (long suit: 10 high, ace low)
    14-27  BA-A ... BA-K                             (as Swords)
    28-41  CU-10 CU-9 ... CU-2 CU-A CU-J CU-N CU-Q CU-K   (round suit: ace high, 10 low)
    42-55  CO-10 ... CO-K                            (as Cups)
    56-95  T1 ... T40                                (T40, the Trumpets, strongest)
    96     MATTO                                     The Fool / Il Matto

The trumps, with their traditional names (English / Italian):

    56  T1   Papa I                 Papa I              76  T21  Water         L'Acqua
    57  T2   Papa II                Papa II             77  T22  Earth         La Terra
    58  T3   Papa III               Papa III            78  T23  Air           L'Aria
    59  T4   Papa IV                Papa IV             79  T24  Libra         La Bilancia
    60  T5   Papa V                 Papa V              80  T25  Virgo         La Vergine
    61  T6   Temperance             La Temperanza       81  T26  Scorpio       Lo Scorpione
    62  T7   Fortitude              La Fortezza         82  T27  Aries         L'Ariete
    63  T8   Justice                La Giustizia        83  T28  Capricorn     Il Capricorno
    64  T9   The Wheel              La Ruota            84  T29  Sagittarius   Il Sagittario
    65  T10  The Chariot            Il Carro            85  T30  Cancer        Il Cancro
    66  T11  The Hunchback          Il Gobbo            86  T31  Pisces        I Pesci
    67  T12  The Hanged Man         L'Impiccato         87  T32  Aquarius      L'Acquario
    68  T13  Death                  La Morte            88  T33  Leo           Il Leone
    69  T14  The Devil              Il Diavolo          89  T34  Taurus        Il Toro
    70  T15  The House of the Devil La Casa del Diavolo 90  T35  Gemini        I Gemelli
    71  T16  Hope                   La Speranza         91  T36  The Star      La Stella
    72  T17  Prudence               La Prudenza         92  T37  The Moon      La Luna
    73  T18  Faith                  La Fede             93  T38  The Sun       Il Sole
    74  T19  Charity                La Carità           94  T39  The World     Il Mondo
    75  T20  Fire                   Il Fuoco            95  T40  The Trumpets  Le Trombe

The lowest court card is the Fante (Jack) in Swords and Batons and the Fantina
(Maid) in Cups and Coins; both have the code J.

Points (rules §1): T36-T40 10 each; T1, T10, T13, T20, T28, T30-T35, the Matto
and the four Kings 5 each; T2-T5 3 each; every other card 0 (T29 counts 5 only
inside a sequence, §3). 25 counting cards, 142 points in all.
"""

from __future__ import annotations

from tarocchi import cards

# rules §1: Swords/Batons pips rank 10 high to ace low, Cups/Coins ace high to 10 low;
# every suit then K > Q > N > J above the pips.
LONG_RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10"]
ROUND_RANKS = ["10", "9", "8", "7", "6", "5", "4", "3", "2", "A"]
COURT = [("J", 11), ("N", 12), ("Q", 13), ("K", 14)]

MAID_EN = {**cards.RANK_NAMES_EN, "J": "Maid"}
FANTE_IT = {**cards.RANK_NAMES_IT, "J": "Fante"}
FANTINA_IT = {**cards.RANK_NAMES_IT, "J": "Fantina"}

TRUMP_NAMES = (
    ("Papa I", "Papa I"),
    ("Papa II", "Papa II"),
    ("Papa III", "Papa III"),
    ("Papa IV", "Papa IV"),
    ("Papa V", "Papa V"),
    ("Temperance", "La Temperanza"),
    ("Fortitude", "La Fortezza"),
    ("Justice", "La Giustizia"),
    ("The Wheel", "La Ruota"),
    ("The Chariot", "Il Carro"),
    ("The Hunchback", "Il Gobbo"),
    ("The Hanged Man", "L'Impiccato"),
    ("Death", "La Morte"),
    ("The Devil", "Il Diavolo"),
    ("The House of the Devil", "La Casa del Diavolo"),
    ("Hope", "La Speranza"),
    ("Prudence", "La Prudenza"),
    ("Faith", "La Fede"),
    ("Charity", "La Carità"),
    ("Fire", "Il Fuoco"),
    ("Water", "L'Acqua"),
    ("Earth", "La Terra"),
    ("Air", "L'Aria"),
    ("Libra", "La Bilancia"),
    ("Virgo", "La Vergine"),
    ("Scorpio", "Lo Scorpione"),
    ("Aries", "L'Ariete"),
    ("Capricorn", "Il Capricorno"),
    ("Sagittarius", "Il Sagittario"),
    ("Cancer", "Il Cancro"),
    ("Pisces", "I Pesci"),
    ("Aquarius", "L'Acquario"),
    ("Leo", "Il Leone"),
    ("Taurus", "Il Toro"),
    ("Gemini", "I Gemelli"),
    ("The Star", "La Stella"),
    ("The Moon", "La Luna"),
    ("The Sun", "Il Sole"),
    ("The World", "Il Mondo"),
    ("The Trumpets", "Le Trombe"),
)

TEN_POINT_TRUMPS = frozenset(range(36, 41))
FIVE_POINT_TRUMPS = frozenset((1, 10, 13, 20, 28, 30, 31, 32, 33, 34, 35))
THREE_POINT_TRUMPS = frozenset(range(2, 6))


def trump_points(n: int) -> int:
    """Return the card points of trump n (rules §1)."""
    if n in TEN_POINT_TRUMPS:
        return 10
    if n in FIVE_POINT_TRUMPS:
        return 5
    return 3 if n in THREE_POINT_TRUMPS else 0


def _rows() -> list[cards.Row]:
    rows = []
    for suit in (cards.SWORDS, cards.BATONS, cards.CUPS, cards.COINS):
        long = suit in (cards.SWORDS, cards.BATONS)
        pips = LONG_RANKS if long else ROUND_RANKS
        # strength (rules §1): long-suit pip n -> n; round-suit pip n -> 11 - n
        ranks = [(r, i + 1, 0) for i, r in enumerate(pips)]
        ranks += [(r, s, 5 if r == "K" else 0) for r, s in COURT]
        names = (cards.RANK_NAMES_EN, FANTE_IT) if long else (MAID_EN, FANTINA_IT)
        rows += cards.suit_cards(suit, ranks, names)
    return [*rows, *cards.numbered_trumps(TRUMP_NAMES, 1, trump_points), cards.MATTO_ROW]


PACK = cards.build_pack("Minchiate", _rows())
MATTO = PACK.matto
T1 = PACK.by_code["T1"]  # trump n has id T1 + n - 1


def trump(n: int) -> int:
    """Return the card id of trump n (1..40)."""
    if not 1 <= n <= 40:
        raise ValueError(f"no trump {n} in Minchiate")
    return T1 + n - 1
