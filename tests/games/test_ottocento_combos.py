"""Ottocento combinations (rules §3): every worked example of §7, more cases, and properties."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tarocchi import game
from tarocchi.games.ottocento_combos import (
    CONTATORI,
    analyse,
    combination_value,
    grande_length,
    run_by_gaps,
    run_of,
    sequence_points,
)
from tarocchi.packs.bolognese import PACK
from tests.conftest import examples
from tests.games import reference_ottocento as reference
from tests.games.ottocento_helpers import codes, m, seq

RULES = game("ottocento")
score = RULES.combination_score

NUMBERED = [f"T{n}" for n in range(16, 4, -1)]


# -- §7 worked examples ------------------------------------------------------------------------


def test_whole_pack() -> None:
    """§7.1: the whole pack scores 296 in sets and 550 in sequences: 846."""
    found = analyse(PACK.full_mask)
    assert found.value == 846 == score(PACK.codes)
    assert sum(x.points for x in found.sets) * 2 == 296
    assert sum(x.points for x in found.sequences) * 2 == 550
    assert [x.length for x in found.sequences] == [22, 7, 7, 7, 7, 6, 6]


def test_suit_sequence_natural_skip_and_ace() -> None:
    """§7.8: K Q J + A is a sequence of 4 (the missing Knight is a natural skip)."""
    assert score(["SW-K", "SW-Q", "SW-J", "SW-A"]) == 15


def test_suit_sequence_with_contatori() -> None:
    """§7.9: K Q + Bégato 10; + the ace 15; + the Matto as well 20."""
    assert score(["SW-K", "SW-Q", "BEGATO"]) == 10
    assert score(["SW-K", "SW-Q", "BEGATO", "SW-A"]) == 15
    assert score(["SW-K", "SW-Q", "BEGATO", "SW-A", "MATTO"]) == 20


def test_non_sequences() -> None:
    """§7.10: K Q A is none; K A with two contatori is none; two aces and the Matto are Aces
    10; one ace with two contatori is none."""
    assert score(["SW-K", "SW-Q", "SW-A"]) == 0
    assert score(["SW-K", "SW-A", "BEGATO", "MATTO"]) == 0
    assert score(["SW-A", "CU-A", "MATTO"]) == 10
    assert score(["SW-A", "BEGATO", "MATTO"]) == 0


def test_grande_bégato_fills_one_gap() -> None:
    """§7.11: head A W Mo, 16 15, Bégato for 14, 13 12, 11 missing: L8 35 + Tarocchi 18."""
    cards = ["ANGEL", "WORLD", "MOON", "T16", "T15", "T13", "T12", "BEGATO"]
    assert grande_length(m(*cards))[0] == 8
    assert score(cards) == 53


def test_grande_two_gaps_in_a_row_stop() -> None:
    """§7.12: Bégato fills 14, 13 is missing too: stop; the Matto appends: L7 30 + 18."""
    cards = ["ANGEL", "SUN", "MOON", "T16", "T15", "T12", "BEGATO", "MATTO"]
    length, shown = grande_length(m(*cards))
    assert length == 7
    assert "T12" not in codes(shown)  # lost after the break
    assert score(cards) == 48


def test_grande_contatore_in_the_head() -> None:
    """§7.13: the Bégato completes the head, so 16 cannot be filled: L4 15 + Tarocchi 36."""
    assert score(["ANGEL", "WORLD", "BEGATO", "MATTO", "T15", "T14"]) == 51
    # "with T16 instead" (of T14, or of T15): L6 25, total 61
    assert score(["ANGEL", "WORLD", "BEGATO", "MATTO", "T16", "T15"]) == 61
    assert score(["ANGEL", "WORLD", "BEGATO", "MATTO", "T16", "T14"]) == 61
    # with T16 added to all three: 16 15 14, the Matto fills 13, 12 missing: L7 30
    assert score(["ANGEL", "WORLD", "BEGATO", "MATTO", "T16", "T15", "T14"]) == 66


def test_complete_grande_takes_the_moors() -> None:
    """§7.14: the Bégato fills 9, the run is complete, +2 Moors: L17 80, Moors 10,
    Tarocchi 18; two sequences, no doubling: 108."""
    cards = ["ANGEL", "WORLD", "SUN", *(t for t in NUMBERED if t != "T9")]
    cards += ["BEGATO", "MOOR1", "MOOR3"]
    assert grande_length(m(*cards))[0] == 17
    assert score(cards) == 108


def test_three_sets_double() -> None:
    """§7.15: three Kings, Queens and Jacks: (17+14+12)*2 = 86, plus the Swords 10."""
    cards = ["SW-K", "BA-K", "CU-K", "SW-Q", "BA-Q", "CO-Q", "SW-J", "CU-J", "CO-J"]
    found = analyse(m(*cards))
    assert found.sets_doubled and not found.sequences_doubled
    assert [x.name for x in found.sequences] == ["Swords sequence"]
    assert score(cards) == 96


def test_four_sequences_double_and_the_bégato_serves_all() -> None:
    """§7.16: SW 15, CU 15, Aces 10, Moors 15; four sequences: x2 = 110."""
    cards = ["BEGATO", "SW-K", "SW-Q", "CU-K", "CU-N", "CU-J", "SW-A", "CO-A"]
    cards += ["MOOR1", "MOOR2", "MOOR3"]
    found = analyse(m(*cards))
    assert {x.name: x.points for x in found.sequences} == {
        "Swords sequence": 15,
        "Cups sequence": 15,
        "Aces": 10,
        "Moors": 15,
    }
    assert all("BEGATO" in codes(x.cards) for x in found.sequences)
    assert found.sequences_doubled
    assert score(cards) == 110


def test_full_deal_declarations() -> None:
    """§7.17: South declares 63 (Tarocchi 18, Grande 30, Swords 15); West 32."""
    south = seq("ANGEL WORLD SUN T16 T15 T14 MATTO SW-K SW-Q SW-J BA-8 CU-7 CO-9 T10 MOOR2")
    found = analyse(m(*south))
    assert {x.name: x.points for x in found.combos} == {
        "Tarocchi": 18,
        "Grande": 30,
        "Swords sequence": 15,
    }
    assert score(south) == 63
    # the Matto fills 13 and the run stops at 12: T10 and MOOR2 are not shown
    assert codes(found.cards) == set(seq("ANGEL WORLD SUN T16 T15 T14 MATTO SW-K SW-Q SW-J"))
    west = seq("CU-K CO-K BA-K CU-Q CU-N CU-A SW-8 BA-9 CO-6 CO-7 T11 T9 T7 T6 SW-7")
    assert {x.name: x.points for x in analyse(m(*west)).combos} == {
        "Kings": 17,
        "Cups sequence": 15,
    }
    assert score(west) == 32


def test_full_deal_captured_combinations() -> None:
    """§7.17: NS capture Tarocchi 36 + Jacks 24 and four doubled sequences (Grande 60,
    Swords 30, Aces 20, Moors 15): 310; EW capture Kings 17 + Cups 10."""
    ew = "CU-K CO-K BA-K CU-Q CU-N BA-Q CO-N SW-10 SW-8 SW-7 BA-10 BA-9 BA-A CU-6 CU-8 CO-6"
    ew += " CO-7 CO-8 T11 T9 T7 MOOR1 MOOR3 CU-10 BA-6 SW-9"
    ew_mask = m(*ew.split())
    ns_mask = PACK.full_mask & ~ew_mask
    assert bin(ew_mask).count("1") == 26
    ns = analyse(ns_mask)
    assert {x.name: x.points for x in ns.sets} == {"Tarocchi": 36, "Jacks": 24}
    assert {x.name: (x.length, x.points) for x in ns.sequences} == {
        "Grande": (13, 60),
        "Swords sequence": (7, 30),
        "Aces": (5, 20),
        "Moors": (4, 15),
    }
    assert ns.value == 310
    assert {x.name: x.points for x in analyse(ew_mask).combos} == {
        "Kings": 17,
        "Cups sequence": 10,
    }
    assert combination_value(ew_mask) == 27


# -- more cases of our own ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("cards", "value"),
    [
        ([], 0),
        # the Tarocchi set, and a Grande A W + Bégato (+ the Matto appended)
        (["ANGEL", "WORLD", "BEGATO"], 18 + 10),
        (["ANGEL", "WORLD", "BEGATO", "MATTO"], 36 + 15),
        (["SW-K", "BA-K", "CU-K", "CO-K"], 34),
        (["SW-Q", "BA-Q", "CU-Q"], 14),
        (["SW-Q", "BA-Q", "CU-Q", "CO-Q"], 28),
        (["SW-N", "BA-N", "CU-N"], 13),
        (["SW-N", "BA-N", "CU-N", "CO-N"], 26),
        (["SW-J", "BA-J", "CU-J"], 12),
        (["SW-J", "BA-J", "CU-J", "CO-J"], 24),
        # sets use real cards only: two Kings and two contatori are nothing
        (["SW-K", "BA-K", "BEGATO", "MATTO"], 0),
        # a suit sequence needs its real King
        (["SW-Q", "SW-N", "SW-J", "SW-A", "BEGATO", "MATTO"], 0),
        (["CU-K", "CU-Q", "CU-N"], 10),
        (["CU-K", "CU-Q", "CU-N", "CU-J"], 15),
        (["CU-K", "CU-Q", "CU-N", "CU-J", "CU-A"], 20),
        # one real figure needs a contatore; the ace then adds length
        (["CO-K", "CO-J", "MATTO"], 10),
        (["CO-K", "CO-J", "CO-A", "MATTO"], 15),
        (["CO-K", "CO-J", "CO-A"], 0),
        # Aces and Moors: three real, or two real and a contatore
        (["SW-A", "BA-A", "CU-A"], 10),
        (["SW-A", "BA-A", "CU-A", "CO-A"], 15),
        (["MOOR1", "MOOR2", "MOOR3", "MOOR4"], 15),
        (["MOOR1", "MOOR4", "BEGATO"], 10),
        (["MOOR1", "MOOR4", "BEGATO", "MATTO"], 15),
        (["MOOR1", "BEGATO", "MATTO"], 0),
        # Grande heads: A W S, A W Mo (natural skip), A S Mo; one head card needs a contatore
        (["ANGEL", "WORLD", "SUN"], 10),
        (["ANGEL", "WORLD", "MOON"], 10),
        (["ANGEL", "SUN", "MOON"], 10),
        (["ANGEL", "WORLD", "SUN", "MOON"], 15),
        (["ANGEL", "SUN", "MATTO"], 10),
        (["WORLD", "SUN", "MOON", "T16", "T15"], 0),  # no real Angel
        (["ANGEL", "SUN"], 0),
        # a natural skip in the head is not a substitution: 16 may then be filled
        # (Grande A W Mo, Matto for 16, 15 14: 25; Tarocchi A W Matto: 18)
        (["ANGEL", "WORLD", "MOON", "MATTO", "T15", "T14"], 25 + 18),
        # a contatore head then a filled 16 would be two substitutions in a row: the Matto
        # appends (Grande 4: 15; Tarocchi A Bégato Matto: 18)
        (["ANGEL", "SUN", "BEGATO", "MATTO", "T15"], 15 + 18),
    ],
)
def test_values(cards: list[str], value: int) -> None:
    """Sets and sequences one at a time."""
    assert score(cards) == value
    assert reference.evaluate(cards) == value


def test_contatore_head_blocks_sixteen() -> None:
    """A, S + Bégato head; 16 missing cannot take the Matto (two in a row): the Matto
    appends. Grande 4 = 15; no Tarocchi set (Angel, Bégato, Matto is three: 18)."""
    found = analyse(m("ANGEL", "SUN", "BEGATO", "MATTO", "T15"))
    assert {x.name: (x.length, x.points) for x in found.combos} == {
        "Tarocchi": (3, 18),
        "Grande": (4, 15),
    }
    assert "T15" not in codes(found.cards)


def test_alternating_fills() -> None:
    """Contatori may fill gaps that are not adjacent: 16, (15), 14, (13), 12, 11 missing."""
    cards = ["ANGEL", "WORLD", "SUN", "MOON", "T16", "T14", "T12", "BEGATO", "MATTO"]
    assert grande_length(m(*cards))[0] == 4 + 5
    assert run_of(0b101010000000, 2, False) == (5, 2, False, 0b101010000000)


def test_table_builder_matches_the_literal_run() -> None:
    """The gap-jumping run used to build the tables equals the position-by-position one."""
    for avail, prev in ((0, False), (1, False), (2, False), (0, True), (1, True)):
        for pattern in range(1 << 12):
            assert run_by_gaps(pattern, avail, prev) == run_of(pattern, avail, prev)


def test_full_run_without_moors_and_with_moors() -> None:
    """The Moors join only a complete run; unused contatori still add one each."""
    base = ["ANGEL", "WORLD", "SUN", "MOON", *NUMBERED]
    assert grande_length(m(*base))[0] == 16
    assert grande_length(m(*base, "MOOR2"))[0] == 17
    assert grande_length(m(*base, "MOOR2", "BEGATO", "MATTO"))[0] == 19
    broken = [c for c in base if c not in ("T6", "T5")]
    assert grande_length(m(*broken, "MOOR2"))[0] == 14  # 6 and 5 missing: no Moors


def test_contatori_serve_every_sequence() -> None:
    """Each contatore adds one to every valid sequence at once (rules §3 and §8.1)."""
    cards = ["SW-K", "SW-Q", "SW-N", "BA-K", "BA-Q", "BA-N", "CU-K", "CU-Q", "CU-N"]
    sets = (17 + 14 + 13) * 2  # three Kings, Queens, Knights
    assert score(cards) == sets + 3 * 10 * 2  # three sequences double
    assert score([*cards, "BEGATO"]) == sets + 3 * 15 * 2
    assert score([*cards, "BEGATO", "MATTO"]) == sets + 3 * 20 * 2  # two Tarocchi: no set


def test_sets_double_separately_from_sequences() -> None:
    """Three different sets double the sets; sequences keep their own count."""
    sets3 = ["SW-K", "BA-K", "CU-K", "SW-Q", "BA-Q", "CU-Q", "SW-N", "BA-N", "CU-N"]
    found = analyse(m(*sets3))
    assert found.sets_doubled and found.sequences_doubled  # K Q N of SW, BA and CU too
    assert found.value == (17 + 14 + 13) * 2 + 3 * 10 * 2
    two_sets = ["SW-K", "BA-K", "CU-K", "SW-J", "BA-J", "CO-J"]
    found = analyse(m(*two_sets))
    assert not found.sets_doubled
    assert found.value == 17 + 12


def test_descriptions() -> None:
    """Combinations describe themselves in plain English."""
    found = analyse(m("SW-K", "BA-K", "CU-K", "CU-Q", "CU-N", "CU-A"))
    assert found.describe() == "3 Kings (17), Cups sequence of 4 cards (15)"
    assert analyse(0).describe() == "no combinations"
    assert "doubled" in analyse(PACK.full_mask).describe()


def test_sequence_points() -> None:
    """10 for three cards and 5 for each card beyond."""
    assert [sequence_points(n) for n in range(2, 8)] == [0, 10, 15, 20, 25, 30]


# -- properties ----------------------------------------------------------------------------------

# a bias towards the cards that make combinations, so that long sequences show up often
CARD_IDS = st.integers(0, PACK.size - 1)
RICH = [
    PACK.card_id(c)
    for c in seq(
        "ANGEL WORLD SUN MOON BEGATO MATTO MOOR1 MOOR2 MOOR3 MOOR4 SW-K SW-Q SW-N SW-J SW-A "
        "CU-K CU-Q CU-N CU-J CU-A BA-K BA-Q CO-K CO-A"
    )
]
NUMBERED_IDS = [PACK.card_id(c) for c in NUMBERED]
masks = st.builds(
    lambda a, b, c: a | b | c,
    st.sets(CARD_IDS, max_size=40).map(lambda s: sum(1 << x for x in s)),
    st.sets(st.sampled_from(RICH)).map(lambda s: sum(1 << x for x in s)),
    st.sets(st.sampled_from(NUMBERED_IDS), min_size=6).map(lambda s: sum(1 << x for x in s)),
)


@examples(500, 1500)
def test_fast_evaluator_matches_the_literal_spec(examples: int) -> None:
    """The table-driven evaluator, the analysis and the literal reading of §3 agree."""

    @settings(max_examples=examples, deadline=None)
    @given(masks)
    def agree(mask: int) -> None:
        value = reference.evaluate(PACK.codes_of(mask))
        assert combination_value(mask) == value
        assert analyse(mask).value == value

    agree()


@examples(250, 750)
def test_adding_a_card_never_lowers_the_value(examples: int) -> None:
    """Adding a card never lowers a set count, a sequence length or the total."""

    @settings(max_examples=examples, deadline=None)
    @given(masks, CARD_IDS)
    def never_lower(mask: int, card: int) -> None:
        before, after = analyse(mask), analyse(mask | 1 << card)
        assert after.value >= before.value
        sets_after = {x.name: x.length for x in after.sets}
        for x in before.sets:
            assert sets_after[x.name] >= x.length
        seqs_after = {x.name: x.length for x in after.sequences}
        for x in before.sequences:
            assert seqs_after[x.name] >= x.length

    never_lower()


@examples(250, 750)
def test_the_shown_cards_score_what_the_hand_scores(examples: int) -> None:
    """A declaration shows exactly the cards of its combinations; they alone score the same,
    and every combination's length is its number of cards."""

    @settings(max_examples=examples, deadline=None)
    @given(masks)
    def shown_alone(mask: int) -> None:
        found = analyse(mask)
        assert found.cards & ~mask == 0
        again = analyse(found.cards)
        assert again == found
        for x in found.combos:
            assert bin(x.cards).count("1") == x.length

    shown_alone()


@settings(max_examples=500, deadline=None)
@given(masks)
def test_contatori_add_five_to_each_sequence(mask: int) -> None:
    """With a contatore added, every sequence already valid gains one card (the Grande at
    least one: a filled gap may reconnect the run to later trumps)."""
    if mask & CONTATORI == CONTATORI:
        return
    extra = CONTATORI & ~mask & -(CONTATORI & ~mask)  # one missing contatore
    before = {x.name: x.length for x in analyse(mask).sequences}
    after = {x.name: x.length for x in analyse(mask | extra).sequences}
    for name, length in before.items():
        if name == "Grande":
            assert after[name] >= length + 1
        else:
            assert after[name] == length + 1
