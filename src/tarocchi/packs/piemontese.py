"""The Tarocco Piemontese pack as Piedicavallo plays it: 62 of the 78 cards.

Ids (weakest first within each group, so a trick's winner is a max over ids):

    0-9    SW-5 SW-6 SW-7 SW-8 SW-9 SW-10 SW-J SW-N SW-Q SW-K
    10-19  BA-5 ... BA-K                (as Swords)
    20-29  CU-6 CU-5 CU-4 CU-3 CU-2 CU-A CU-J CU-N CU-Q CU-K
    30-39  CO-6 ... CO-K                (as Cups)
    40-60  T1 ... T21                   (T21 strongest)
    61     MATTO

Points (rules §1): King 5, Queen 4, Knight 3, Jack 2, other suit cards 1;
T1 and T21 5, T2..T20 1; the Matto 5. The pack totals 114.
"""

from __future__ import annotations

from tarocchi import cards

# rules §1: long suits drop A-4, round suits drop 7-10; the ace ranks above the 2.
LONG_RANKS = ["5", "6", "7", "8", "9", "10"]
ROUND_RANKS = ["6", "5", "4", "3", "2", "A"]

IT_NAMES = {**cards.RANK_NAMES_IT, "Q": "Donna"}

TRUMP_NAMES = (
    ("The Magician", "Il Bagatto"),
    ("The Popess", "La Papessa"),
    ("The Empress", "L'Imperatrice"),
    ("The Emperor", "L'Imperatore"),
    ("The Pope", "Il Papa"),
    ("The Lovers", "Gli Amanti"),
    ("The Chariot", "Il Carro"),
    ("Justice", "La Giustizia"),
    ("The Hermit", "L'Eremita"),
    ("The Wheel of Fortune", "La Ruota della Fortuna"),
    ("Strength", "La Forza"),
    ("The Hanged Man", "L'Appeso"),
    ("Death", "La Morte"),
    ("Temperance", "La Temperanza"),
    ("The Devil", "Il Diavolo"),
    ("The Tower", "La Torre"),
    ("The Star", "Le Stelle"),
    ("The Moon", "La Luna"),
    ("The Sun", "Il Sole"),
    ("Judgement", "Il Giudizio"),
    ("The World", "Il Mondo"),
)


PACK = cards.build_pack(
    "Tarocco Piemontese",
    [
        *cards.tarot_suits(LONG_RANKS, ROUND_RANKS, (cards.RANK_NAMES_EN, IT_NAMES)),
        *cards.numbered_trumps(TRUMP_NAMES, 1, lambda n: 5 if n in (1, 21) else 1),
        cards.MATTO_ROW,
    ],
)
T1 = PACK.by_code["T1"]
T21 = PACK.by_code["T21"]
MATTO = PACK.matto
