"""Minchiate scoring (rules §5): the resti ledger, the end of the deal, the Matto payback."""

from __future__ import annotations

import random

import pytest

from tarocchi.cards import popcount
from tarocchi.games.minchiate import MATTO_BIT, PACK, RULES, State
from tarocchi.games.minchiate_ledger import Ledger
from tests.games import reference_minchiate as ref


def finished(seed: int) -> State:
    """Play a deal with random legal actions to its end."""
    rng = random.Random(seed)
    state = RULES.deal(seed)
    while state.to_move is not None:
        state = RULES.apply(state, rng.choice(RULES.legal_actions(state)))
    return state


def lines(state: State) -> dict[str, tuple[float, float, str]]:
    return {x.label: (x.ns, x.ew, x.note) for x in RULES.result(state).lines}


def extra(state: State) -> dict[str, object]:
    return dict(RULES.result(state).extra)


# -- the ledger ---------------------------------------------------------------------------------


def test_resti_depend_on_the_order_of_events() -> None:
    """§7.18: D = 50; A scores 20 -> 1 resto, D = 10; B scores 40 -> D = -30; an even end gives
    B 1 resto: net 0, a draw. The same points, B then A, give A +1."""
    ledger = Ledger(50).score(0, 20)
    assert ledger == Ledger(10, 1, 0)
    ledger = ledger.score(1, 40)
    assert ledger == Ledger(-30, 1, 0)
    assert ledger.finish(100, 100).net == 0
    assert Ledger(50).score(1, 40).score(0, 20).finish(100, 100).net == 1
    for order in ([(0, 20), (1, 40)], [(1, 40), (0, 20)]):
        spec = ref.Ledger()
        spec.D = 50
        ours = Ledger(50)
        for team, pts in order:
            spec.score(team, pts)
            ours = ours.score(team, pts)
        assert ours.finish(7, 7).net == spec.finish(7, 7)


@pytest.mark.parametrize(
    ("diff", "ns", "ew"),
    [(1, 1, 0), (60, 1, 0), (61, 2, 0), (120, 2, 0), (-121, 0, 3), (0, 0, 0), (-1, 0, 1)],
)
def test_final_rounding(diff: int, ns: int, ew: int) -> None:
    """§7.19: a lead of 1-60 makes 1 resto, 61-120 2, ...; 0 makes nothing."""
    assert Ledger().finish(max(diff, 0), max(-diff, 0)) == Ledger(0, ns, ew)


def test_ledger_matches_the_spec_on_random_sequences() -> None:
    """Long random score sequences convert exactly as the spec's while-loops do."""
    rng = random.Random(5)
    for _ in range(2000):
        spec, ours = ref.Ledger(), Ledger()
        for _ in range(rng.randint(0, 30)):
            team, pts = rng.randrange(2), rng.choice([0, 3, 5, 10, 13, 20, 45, 90, 150])
            spec.score(team, pts)
            ours = ours.score(team, pts)
            assert (ours.diff, ours.ns, ours.ew) == (spec.D, spec.resti[0], spec.resti[1])
            assert -60 < ours.diff < 60
        end = (rng.randint(0, 300), rng.randint(0, 300))
        assert ours.finish(*end).net == spec.finish(*end)


def test_worked_deal_of_the_spec() -> None:
    """§7.20: B robs 10 (-10); S's exposed CO-K +5 (-5); dealer N takes 13 (+8); W declares
    Kings 15 (-7); S declares Seq 30-33 + Matto 25 and Matto 20 (+38); A captures T39 and T37
    (+20 -> 58); B captures S's King (53); end A 170, B 110 -> D = 113 -> A +2."""
    assert RULES.combination_score(["SW-K", "BA-K", "CU-K"]) == 15
    assert RULES.combination_score(["T1", "T30", "T31", "T32", "T33", "T40", "MATTO"]) == 45
    ledger = Ledger()
    steps = [(1, 10, -10), (0, 5, -5), (0, 13, 8), (1, 15, -7), (0, 25, 18), (0, 20, 38),
             (0, 20, 58), (1, 5, 53)]  # fmt: skip
    for team, pts, diff in steps:
        ledger = ledger.score(team, pts)
        assert ledger.diff == diff
    final = ledger.finish(170, 110)
    assert final == Ledger(0, 2, 0) and final.net == 2


# -- the end of the deal -------------------------------------------------------------------------


def test_cards_over_42_and_last_trick() -> None:
    """§7.17: a side with 12 tricks (48 cards) gets +6; the last trick +10."""
    state = next(s for s in map(finished, range(500)) if sum(1 for w in s.winners if w & 1) == 9)
    got = lines(state)
    assert got["Cards over 42"][:2] == (6, 0)
    assert got["Cards over 42"][2] == "North-South hold 48 cards, East-West 36"
    last = state.winners[-1] & 1
    assert got["Last trick"][:2] == ((10, 0) if last == 0 else (0, 10))


def test_sweep_is_worth_406() -> None:
    """§7.21: one side with every card in play: 142 + versicole 212 + 42 + 10 = 406."""
    state = finished(11)
    in_play = PACK.full_mask & ~RULES.fola_mask(state)
    sweep = state._replace(piles=(in_play, 0), winners=(0,) * 21)
    result = RULES.result(sweep)
    got = dict(result.extra)
    assert (got["ns_points"], got["ew_points"]) == (406, 0)
    assert result.piles == (in_play, 0)
    assert result.ns >= 1 and result.winner == "NS"


def test_matto_lost_with_five_tricks_pays_a_card() -> None:
    """§7.22: the Matto lost to the opponents, its side winning 5 tricks: it goes back to its
    side, one zero-point card moves over at the end, and the counts are 20 and 64."""
    for seed in range(3000):
        state = finished(seed)
        payback = RULES.matto_payback(state)
        if payback is None:
            continue
        team = payback[0]
        won = sum(1 for w in state.winners if w & 1 == team)
        if won == 5:
            break
    else:
        pytest.fail("no deal with a lost Matto and 5 tricks")
    assert popcount(state.piles[team]) == 21 and state.piles[team] & MATTO_BIT
    card = payback[2]
    assert PACK.points[card] == 0 and PACK.codes[card] != "T29"
    pile = {ref.C(c) for c in PACK.codes_of(state.piles[team])}
    assert PACK.codes[card] == ref.payback(pile).code
    result = RULES.result(state)
    assert popcount(result.piles[team]) == 20 and popcount(result.piles[1 - team]) == 64
    assert result.piles[team] & MATTO_BIT
    note = lines(state)["Matto payback"][2]
    assert note.startswith(f"The Matto lost trick {payback[1] + 1} to ")
    assert PACK.cards[card].name_en in note and PACK.codes[card] not in note


def test_matto_goes_over_when_its_side_wins_no_trick() -> None:
    """§7.23: a side without a trick gives the Matto itself: no capture score, and the other
    side counts its 5 and the Matto bonus on each versicola."""
    state = finished(11)
    in_play = PACK.full_mask & ~RULES.fola_mask(state)
    blank = state._replace(piles=(MATTO_BIT, in_play & ~MATTO_BIT), winners=(1,) * 21)
    payback = RULES.matto_payback(blank)
    assert payback is not None and payback[0] == 0 and payback[2] == PACK.matto
    result = RULES.result(blank)
    got = dict(result.extra)
    assert result.piles == (0, in_play)
    assert (got["ns_points"], got["ew_points"]) == (0, 406)
    ledger = got["ledger"]
    assert isinstance(ledger, list)
    assert not [e for e in ledger if "given for the Matto" in e["what"]]


def test_payback_card_order() -> None:
    """§5: a zero-point card but T29 (lowest id), else T29, else the lowest counting card."""
    from tarocchi.games.minchiate import payback_card
    from tests.games.minchiate_helpers import cid, m

    assert payback_card(m("MATTO", "CO-2", "SW-3", "T40")) == cid("SW-3")
    assert payback_card(m("MATTO", "T29", "T40")) == cid("T29")
    assert payback_card(m("MATTO", "T40", "T2", "CU-K")) == cid("T2")
    assert payback_card(m("MATTO")) == cid("MATTO")


def test_result_carries_resti_points_and_the_ledger() -> None:
    """§5-§6: ns/ew are resti, the winner is by net resti (0 a draw); the extra carries the raw
    end totals and a JSON-able ledger whose last entry is the final rounding."""
    for seed in range(40):
        state = finished(seed)
        result = RULES.result(state)
        got = dict(result.extra)
        assert (result.ns, result.ew) == (got["ns_resti"], got["ew_resti"])
        net = result.ns - result.ew
        assert result.winner == ("NS" if net > 0 else "EW" if net < 0 else "draw")
        assert got["net_resti"] == net
        ledger = got["ledger"]
        assert isinstance(ledger, list) and ledger[-1]["difference"] == 0
        assert (ledger[-1]["ns_resti"], ledger[-1]["ew_resti"]) == (result.ns, result.ew)
        labels = [x.label for x in result.lines]
        for label in ("Card points in the piles", "Cards over 42", "Last trick", "Resti"):
            assert label in labels
        resti = lines(state)["Resti"]
        assert resti[:2] == (result.ns, result.ew)
        unit = "resto" if abs(net) == 1 else "resti"
        verdict = f"win by {abs(net)} {unit}." if net else "A draw: equal resti."
        assert resti[2].endswith(verdict)


def test_draw_on_equal_resti() -> None:
    """§5: net resti 0 is a draw."""
    for seed in range(400):
        result = RULES.result(finished(seed))
        if result.ns == result.ew:
            assert result.winner == "draw"
            return
    pytest.fail("no drawn deal in 400 seeds")
