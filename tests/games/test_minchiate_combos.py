"""Minchiate versicole (rules §3): the scenarios of §7.8-§7.11 and the spec's pseudo-code."""

from __future__ import annotations

import random

import pytest

from tarocchi.games.minchiate import RULES
from tarocchi.games.minchiate_combos import (
    KINGS,
    MATTO_SET,
    SEQ_HIGH_1,
    SEQ_HIGH_2,
    SEQ_HIGH_3,
    SEQ_LOW,
    TENS,
    THIRTEEN,
    combos,
    describe,
    has_versicola,
    versicole_value,
)
from tarocchi.packs.minchiate import PACK
from tests.conftest import examples
from tests.games import reference_minchiate as ref
from tests.games.minchiate_helpers import codes, m

score = RULES.combination_score


@pytest.mark.parametrize(
    ("cards", "value"),
    [
        # §7.8
        (["T1", "T2", "T3", "T4"], 14),
        (["T28", "T29", "T30"], 15),
        (["T29", "T30", "T31"], 15),
        (["T28", "T30", "T31"], 0),
        # §7.9
        (["T36", "T37", "T38", "T39", "T40"], 50),
        (["T36", "T37", "T38", "T39", "T40", "MATTO"], 55),
        (["T10", "T20", "T30", "T40"], 25),
        (["T20", "T30", "T40"], 20),
        (["T10", "T20", "T30"], 15),
        (["T10", "T30", "T40"], 0),
        # §7.10
        (["T1", "MATTO", "T40"], 20),
        (["T1", "T13", "T28", "T29", "T30", "T40", "MATTO", "SW-K", "BA-K", "CU-K"], 80),
        # §7.11
        (["T32", "T33", "T34", "T36", "T37", "T38", "MATTO"], 55),
        (["T32", "T33", "T34", "T35", "T36", "T37", "T38", "MATTO"], 55),
        # Kings, and the Matto completing nothing but its own versicola
        (["SW-K", "BA-K", "CU-K"], 15),
        (["SW-K", "BA-K", "CU-K", "CO-K"], 20),
        (["SW-K", "BA-K", "MATTO"], 0),
        (["T1", "T2", "MATTO"], 0),
        (["T29"], 0),
    ],
)
def test_combination_score(cards: list[str], value: int) -> None:
    """combination_score is the worth of the versicole in a set of cards, Matto bonus in."""
    assert score(cards) == value


def test_worked_hand_of_the_spec() -> None:
    """§7.10: Thirteen 15+5, Seq 28-30 15+5, Matto 20, Kings 15+5 = 80, one by one."""
    found = combos(m("T1", "T13", "T28", "T29", "T30", "T40", "MATTO", "SW-K", "BA-K", "CU-K"))
    assert [(c.kind, c.base, c.bonus) for c in found] == [
        (SEQ_HIGH_1, 15, 5),
        (MATTO_SET, 20, 0),
        (THIRTEEN, 15, 5),
        (KINGS, 15, 5),
    ]
    assert [describe(c) for c in found] == [
        "the sequence of trumps 28-30: 15 + 5 for the Matto = 20",
        "the Matto versicola (trumps 1 and 40 with the Matto): 20",
        "the Thirteen (trumps 1, 13 and 28): 15 + 5 for the Matto = 20",
        "3 Kings (Swords, Batons, Cups): 15 + 5 for the Matto = 20",
    ]


def test_canonical_runs_and_kinds() -> None:
    """§3: maximal runs only, the high ones numbered from the lowest; one Tens combination."""
    found = combos(m("T2", "T3", "T4", "T28", "T29", "T30", "T32", "T33", "T34", "T36", "T37",
                     "T38", "T10", "T20", "T40"))  # fmt: skip
    kinds = [c.kind for c in found]
    assert kinds == [SEQ_LOW, SEQ_HIGH_1, SEQ_HIGH_2, SEQ_HIGH_3, TENS]
    assert [codes(c.cards) for c in found[:4]] == [
        {"T2", "T3", "T4"},
        {"T28", "T29", "T30"},
        {"T32", "T33", "T34"},
        {"T36", "T37", "T38"},
    ]
    assert codes(found[-1].cards) == {"T10", "T20", "T30", "T40"}
    assert not has_versicola(m("T1", "T2", "T28", "T30", "SW-K", "BA-K"))


def test_full_pack_versicole() -> None:
    """§7.21: every versicola of the whole pack is worth 212 (17+90+20+15+25+20, 5 bonuses)."""
    assert versicole_value(PACK.full_mask) == 212
    assert [c.value for c in combos(PACK.full_mask)] == [22, 95, 20, 20, 30, 25]


@examples(5_000, 15_000)
def test_engine_matches_the_spec_pseudo_code(examples: int) -> None:
    """On 20,000 random sets of cards (5,000 in the fast tier) the versicole equal the spec's
    pseudo-code's."""
    rng = random.Random(examples)  # each tier its own sets
    for _ in range(examples):
        ids = rng.sample(range(PACK.size), rng.randint(0, 70))
        mask = sum(1 << c for c in ids)
        cards = {ref.C(PACK.codes[c]) for c in ids}
        expect = ref.combos(cards)
        found = combos(mask)
        assert [c.value for c in found] == [v for _, _, v in expect]
        assert [sorted(PACK.codes_of(c.cards)) for c in found] == [sorted(v) for _, v, _ in expect]
        assert versicole_value(mask) == ref.combos_value(cards)
        assert has_versicola(mask) == bool(expect)
