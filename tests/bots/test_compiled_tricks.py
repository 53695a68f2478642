"""The compiled trick core of the one-word packs (bots/compiled_tricks.py) against the rules'
TrickCore: the same legal cards, the same winner of every partial trick and the same piles,
on seeded random tricks rich in trumps (Ottocento's equal Moors among them) and Mattos."""

from __future__ import annotations

import random

import numpy as np
import pytest

from tarocchi.bots.compiled_tricks import best, legal, take
from tarocchi.bots.heuristic.compiled_common import Cards, cards_of
from tarocchi.cards import FOOL, bits
from tarocchi.games.base import TrickCore
from tarocchi.games.ottocento import CORE as OTTOCENTO
from tarocchi.games.piedicavallo import CORE as PIEDICAVALLO
from tarocchi.packs.bolognese import MOORS_MASK
from tarocchi.packs.bolognese import PACK as BOLOGNESE
from tarocchi.packs.piemontese import PACK as PIEMONTESE

CASES = [
    ("piedicavallo", PIEDICAVALLO, cards_of(PIEMONTESE)),
    ("ottocento", OTTOCENTO, cards_of(BOLOGNESE, equal=MOORS_MASK)),
]


def _tricks(core: TrickCore, size: int, n: int) -> list[list[tuple[int, int]]]:
    """Return n seeded tricks of four plays, half drawn from the trumps, the Matto and one
    suit (so that equal trumps meet), half from the whole pack."""
    rng = random.Random(7)
    narrow = bits(core.trumps | core.matto_bit | core.led[0])
    out = []
    for i in range(n):
        cards = rng.sample(narrow if i & 1 else range(size), 4)
        first = rng.randrange(4)
        out.append([((first + k) & 3, c) for k, c in enumerate(cards)])
    return out


def _led(cards: Cards, trick: list[tuple[int, int]]) -> int:
    """Return the compiled code's led suit of a trick (-1 while none)."""
    return next((int(cards.suit_of[c]) for _, c in trick if cards.suit_of[c] != FOOL), -1)


@pytest.mark.parametrize(("name", "core", "cards"), CASES, ids=[c[0] for c in CASES])
def test_compiled_trick_core_is_the_rules(name: str, core: TrickCore, cards: Cards) -> None:
    """Each partial trick's winner, the legal cards of a hand after it and the piles after
    the whole trick are the rules' (TrickCore), on 4000 seeded tricks."""
    rng = random.Random(11)
    size = cards.suit_of.shape[0]
    equal_ties = 0
    for trick in _tricks(core, size, 4000):
        ts = np.array([s for s, _ in trick], dtype=np.int64)
        tc = np.array([c for _, c in trick], dtype=np.int64)
        for n in range(1, 5):
            want = core.winning_play(trick[:n]) or (-1, -1)
            assert best(cards, ts, tc, n, _led(cards, trick[:n])) == want, (name, trick[:n])
            hand = sum(1 << c for c in rng.sample(range(size), 12)) & ~sum(1 << c for _, c in trick)
            assert legal(cards, hand, _led(cards, trick[:n])) == core.follow(hand, trick[:n])
        equal_ties += bin(sum(1 << c for _, c in trick) & core.equal).count("1") > 1
        piles = np.array([1, 2], dtype=np.int64)  # cards taken before stay
        winner = take(cards, ts, tc, _led(cards, trick), piles)
        want_winner, want_piles = core.close((1, 2), trick)
        assert (winner, (int(piles[0]), int(piles[1]))) == (want_winner, want_piles)
    assert equal_ties > 100 or not core.equal  # the Moors' rule was put to the test
