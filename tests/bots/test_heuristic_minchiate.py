"""The Minchiate heuristic bot: legal on every deal, and the right choice in scripted positions.

Positions are dealt through the real pre-play sequence with explicit cards (see
tests/games/minchiate_helpers.py), then played up to the bot's turn. Seats: 0 South,
1 East, 2 North, 3 West; play goes South, East, North, West, and next(dealer) leads.
"""

from __future__ import annotations

import pytest

from tarocchi.bots.heuristic.minchiate import HeuristicBot
from tarocchi.games.minchiate import DECLARE, DISCARD, DONE, PACK, PLAY, RULES, State
from tarocchi.match import play_deal
from tarocchi.views import view
from tests.games.minchiate_helpers import (
    cid,
    deck_from_rest,
    play,
    table,
    to_play,
)

S, E, N, W = 0, 1, 2, 3


def choice(state: State) -> str:
    """Return the code of the heuristic bot's action for the player to move."""
    assert state.to_move is not None
    return RULES.action_code(HeuristicBot(RULES).choose(view(state, state.to_move)))


def test_declares_every_versicola() -> None:
    """§3: the AI declares all it holds, one versicola at a time, then passes on."""
    state = table(N, {W: ["SW-K", "BA-K", "CU-K", "T2", "T3", "T4"]})
    assert state.phase == DECLARE and state.to_move == W
    assert choice(state) in ("DECL-SEQ-LOW", "DECL-KINGS")
    while state.phase == DECLARE and state.to_move == W:
        action = choice(state)
        assert action != "DECL-DONE"
        state = play(state, action)
    assert {k for s, k, _, _ in state.declared if s == W} == {0, 7}


def test_discards_a_short_suit_to_trump_it() -> None:
    """§2.5: the dealer discards a lone zero-point card of a suit it can then trump."""
    dealer = S
    order = list(range(PACK.size))
    # the Fola, top first: T2 and T3 are taken; the rest are quiet cards
    fola = [cid(c) for c in ("T19", "T2", "T3", "T18", "T17", "T16", "T15", "T14", "T12",
                              "T11", "T9", "T8", "T7")]  # fmt: skip
    # South (the dealer, fourth in the deal) gets one Sword, the SW-3, and no King of Swords
    south = [cid(c) for c in ("SW-3", "T6", "T21", "T22", "T23", "T24", "T25", "T26", "T27",
                               "BA-2", "BA-3", "BA-4", "BA-5", "BA-6", "CU-2", "CU-3", "CU-4",
                               "CU-5", "CO-2", "CO-3", "CO-4")]  # fmt: skip
    others = [c for c in order if c not in fola and c not in south]
    rest = others[:30] + south[:10] + others[30:63] + south[10:] + fola
    state = RULES.deal_from(deck_from_rest(rest, 30), dealer, 30)
    assert state.phase == DISCARD and state.to_move == dealer
    assert choice(state) == "SW-3"


def test_does_not_overtrump_a_winning_partner() -> None:
    """East leads Cups, North ruffs with T38 and West follows: South, last and void, ruffs
    under North (loading points if it can), not with T39 or T40."""
    state = table(
        S,
        {E: ["CU-5", "CU-K"], N: ["T38"], W: ["CU-9"], S: ["T39", "T40", "T7"]},
        void={N: ["CU"], S: ["CU"]},
    )
    state = play(to_play(state), "CU-5", "T38", "CU-9")
    assert state.to_move == S
    card = cid(choice(state))
    assert cid("T1") <= card < cid("T38")  # a trump under North's, never T39 or T40
    assert PACK.points[card] > 0  # and one that carries points home


def test_loads_a_king_on_a_partners_sure_trick() -> None:
    """East leads Batons, North wins with BA-K, West follows; South, void in Batons and trumps,
    throws a King rather than a worthless card (§5: it scores in our pile)."""
    state = table(
        S,
        {E: ["BA-3"], N: ["BA-K"], W: ["BA-4"], S: ["CU-K", "SW-2", "SW-3"]},
        void={S: ["BA", "T"]},
    )
    state = play(to_play(state), "BA-3", "BA-K", "BA-4")
    assert choice(state) in ("CU-K", "SW-K", "CO-K")


def test_protects_a_king_from_the_opponents() -> None:
    """East leads T40; South, last, with no trump, keeps CU-K and throws a worthless card."""
    state = table(
        S,
        {E: ["T40"], N: ["T6"], W: ["T8"], S: ["CU-K", "SW-2", "SW-3"]},
        void={S: ["T"]},
    )
    state = play(to_play(state), "T40", "T6", "T8")
    assert PACK.points[cid(choice(state))] == 0


def test_slips_the_matto_into_a_lost_trick() -> None:
    """East leads T40; South must follow trumps with T35 (5 points) or play the Matto: the
    Matto keeps the points at home (§4)."""
    state = table(
        S,
        {E: ["T40"], N: ["T6"], W: ["T8"], S: ["T35", "MATTO"]},
        void={S: ["T"]},
    )
    state = play(to_play(state), "T40", "T6", "T8")
    assert choice(state) == "MATTO"


def test_keeps_the_matto_when_the_trick_is_ours() -> None:
    """North wins the trick for sure: South follows with a worthless trump, not the Matto."""
    state = table(
        S,
        {E: ["T8"], N: ["T40"], W: ["T9"], S: ["T6", "MATTO"]},
        void={S: ["T"]},
    )
    state = play(to_play(state), "T8", "T40", "T9")
    assert choice(state) == "T6"


def test_wins_with_the_cheapest_card() -> None:
    """East leads T30; South, last, wins with T32 and keeps the master T40."""
    state = table(
        S,
        {E: ["T30"], N: ["T6"], W: ["T8"], S: ["T32", "T40", "T9"]},
        void={S: ["T"]},
    )
    state = play(to_play(state), "T30", "T6", "T8")
    assert choice(state) == "T32"


def test_ruffs_to_force_an_opponents_king() -> None:
    """§4: on the first Cups lead South ruffs with T7, not the Matto: East, next, holds the
    exposed CU-K and must then give it up to South's trump."""
    state = table(
        N,
        {W: ["CU-5"], S: ["T7", "MATTO"], E: ["CU-K", "CU-2"]},
        void={S: ["CU", "T"], E: ["T"]},
        exposed={E: "CU-K"},
    )
    state = play(to_play(state), "CU-5")
    assert state.to_move == S
    assert choice(state) == "T7"
    state = play(state, "T7")
    assert [PACK.codes[c] for c in RULES.legal_actions(state)] == ["CU-K"]


@pytest.mark.parametrize("seed", range(25))
def test_legal_on_seeded_deals(seed: int) -> None:
    """Four heuristic bots finish seeded deals with legal actions only (apply would raise)."""
    log = play_deal("minchiate", seed, ["heuristic"] * 4)
    assert RULES.is_over(log.final)
    assert len([a for _, a in log.actions if a < PACK.size]) >= 84
    declared = [a for _, a in log.actions if a >= PACK.size]
    assert DONE not in declared  # the AI declares everything, so never passes
    assert log.final.phase > PLAY
