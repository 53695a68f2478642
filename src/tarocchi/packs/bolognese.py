"""The Tarocchino Bolognese pack as Ottocento plays it: 62 cards.

Ids (weakest first within each group, so a trick's winner is a max over ids,
except that the four Moors are equal: the rules object resolves their ties):

    id     code        English                    Italian
    0-9    SW-A SW-6 SW-7 SW-8 SW-9 SW-10 SW-J SW-N SW-Q SW-K      (Spade)
    10-19  BA-A ... BA-K                          (Bastoni, ordered as Swords)
    20-29  CU-10 CU-9 CU-8 CU-7 CU-6 CU-A CU-J CU-N CU-Q CU-K      (Coppe)
    30-39  CO-10 ... CO-K                         (Denari, ordered as Cups)
    40     BEGATO      The Magician (Bégato)      Il Bagatto
    41-44  MOOR1-MOOR4 The Moors                  I Mori
    45-56  T5 ... T16  Love ... The Star          L'Amore ... La Stella
    57     MOON        The Moon                   La Luna
    58     SUN         The Sun                    Il Sole
    59     WORLD       The World                  Il Mondo
    60     ANGEL       The Angel                  L'Angelo
    61     MATTO       The Fool (Matto)           Il Matto

Court cards: K King (Re), Q Queen (Regina), N Knight (Cavallo), J Jack (Fante).

Card values (rules §1): the four tarocchi (ANGEL, WORLD, BEGATO, MATTO) and the
Kings 5, Queens 4, Knights 3, Jacks 2, every other card 1. The pack's raw value
is 118; counted in pairs (each pair scores its two values minus 1) it is 87.
"""

from __future__ import annotations

from tarocchi import cards

# rules §1: Swords and Batons run 10 high, Cups and Coins run the ace high, pips reversed.
LONG_PIPS = ["A", "6", "7", "8", "9", "10"]
ROUND_PIPS = ["10", "9", "8", "7", "6", "A"]

# numbered trumps, T5 to T16, with their Bolognese subjects
NUMBERED = (
    ("Love", "L'Amore"),
    ("The Chariot", "Il Carro"),
    ("Temperance", "La Temperanza"),
    ("Justice", "La Giustizia"),
    ("Strength", "La Forza"),
    ("The Wheel", "La Ruota"),
    ("The Old Man", "Il Vecchio"),
    ("The Traitor", "Il Traditore"),
    ("Death", "La Morte"),
    ("The Devil", "Il Diavolo"),
    ("The Tower", "La Saetta"),
    ("The Star", "La Stella"),
)


PACK = cards.build_pack(
    "Tarocchino Bolognese",
    [
        *cards.tarot_suits(LONG_PIPS, ROUND_PIPS, (cards.RANK_NAMES_EN, cards.RANK_NAMES_IT)),
        ("BEGATO", "The Magician (Bégato)", "Il Bagatto", cards.TRUMPS, "BEGATO", 0, 5),
        *(
            (f"MOOR{k}", f"Moor {k}", f"Moro {k}", cards.TRUMPS, f"MOOR{k}", 1, 1)
            for k in range(1, 5)
        ),
        *cards.numbered_trumps(NUMBERED, 5, lambda n: 1),
        ("MOON", "The Moon", "La Luna", cards.TRUMPS, "MOON", 17, 1),
        ("SUN", "The Sun", "Il Sole", cards.TRUMPS, "SUN", 18, 1),
        ("WORLD", "The World", "Il Mondo", cards.TRUMPS, "WORLD", 19, 5),
        ("ANGEL", "The Angel", "L'Angelo", cards.TRUMPS, "ANGEL", 20, 5),
        cards.MATTO_ROW,
    ],
)

BEGATO = PACK.by_code["BEGATO"]
MOOR1 = PACK.by_code["MOOR1"]
T5 = PACK.by_code["T5"]
T16 = PACK.by_code["T16"]
MOON = PACK.by_code["MOON"]
SUN = PACK.by_code["SUN"]
WORLD = PACK.by_code["WORLD"]
ANGEL = PACK.by_code["ANGEL"]
MATTO = PACK.matto

MOORS_MASK = cards.mask_of(range(MOOR1, MOOR1 + 4))
NUMBERED_MASK = cards.mask_of(range(T5, T16 + 1))


def suit_card(suit: int, rank: str) -> int:
    """Return the id of a suit card, e.g. suit_card(cards.CUPS, "A")."""
    return PACK.by_code[f"{cards.SUIT_CODES[suit]}-{rank}"]


# rules §1: the canonical order used for tie-breaks: SW, BA, CU, CO, each
# K Q N J 10 9 8 7 6 A, then the trumps from ANGEL down to BEGATO, then the Matto.
CANONICAL_RANKS = ("K", "Q", "N", "J", "10", "9", "8", "7", "6", "A")
CANONICAL: tuple[int, ...] = (
    *(
        suit_card(s, r)
        for s in (cards.SWORDS, cards.BATONS, cards.CUPS, cards.COINS)
        for r in CANONICAL_RANKS
    ),
    ANGEL,
    WORLD,
    SUN,
    MOON,
    *range(T16, T5 - 1, -1),
    *range(MOOR1, MOOR1 + 4),
    BEGATO,
    MATTO,
)
# CANONICAL_INDEX[card] is the card's place in the canonical order
CANONICAL_INDEX: tuple[int, ...] = tuple(CANONICAL.index(c) for c in range(PACK.size))
