"""The Ottocento heuristic bot: legal on every deal, and the clear move in scripted positions.

Positions are built from explicit hands (tests.games.ottocento_helpers.table: the cards
given, the rest from a plain deal), the dealer discards two cards not named by the test,
and the cards are played (passing whenever a player may declare) up to the bot's turn.
Seats: 0 South, 1 East, 2 North, 3 West; West deals, so South leads trick 1 and West,
the dealer, plays fourth.
"""

from __future__ import annotations

import pytest

from tarocchi.bots import make_bot
from tarocchi.bots.heuristic.ottocento import HeuristicBot, beaten_by, p_holds_any
from tarocchi.cards import TRUMPS, popcount
from tarocchi.games.ottocento import DECLARE_ACTION, PACK, RULES, State
from tarocchi.games.ottocento_combos import analyse, combination_value
from tarocchi.match import play_deal
from tarocchi.views import view
from tests.games.ottocento_helpers import (
    E,
    N,
    S,
    W,
    cards,
    cid,
    discarded,
    m,
    play,
    ready,
    seq,
    table,
)


def position(dealer: int, hands: dict[int, str], *played: str) -> State:
    """Deal, discard and play up to the bot's turn. A dealer given 17 cards discards the last
    two named; otherwise he discards two cards the test did not name."""
    given = {s: seq(h) for s, h in hands.items()}
    named = given.get(dealer, [])
    if len(named) == 17:
        state = play(table(dealer, given), *named[-2:])
    else:
        state = discarded(table(dealer, given), named)
    return ready(cards(state, *played))


def choice(state: State) -> str:
    """Return the code the heuristic bot picks for the player to move."""
    seat = state.to_move
    assert seat is not None
    bot = HeuristicBot(RULES, 1)
    action = bot.choose(view(state, seat))
    assert action in RULES.legal_actions(state)
    return RULES.action_code(action)


NO_CUPS_E = "T16 SW-A SW-6 SW-7 SW-8 SW-9 BA-A BA-6 BA-7 BA-8 BA-9 CO-10 CO-9 CO-8 CO-7"
NO_CUPS_W = "SUN T5 T7 T8 T9 T10 T11 MOOR1 SW-10 SW-J BA-10 BA-N CO-6 CO-A SW-Q BA-Q T12"


def test_does_not_overtrump_a_winning_partner() -> None:
    """Partner E trumped S's lead with T16; N followed; W, void, must trump: not with SUN."""
    state = position(
        W,
        {E: NO_CUPS_E, W: NO_CUPS_W, S: "CU-7 CU-K CU-N", N: "CU-8 CU-Q CU-J"},
        "CU-7",
        "T16",
        "CU-8",
    )
    assert state.to_move == W
    assert RULES.legal_actions(state) and "SUN" in {
        RULES.action_code(a) for a in RULES.legal_actions(state)
    }
    assert choice(state) not in ("SUN", "T12", "T11")  # any trump below T16 keeps the trick


def test_loads_points_on_the_partners_trick() -> None:
    """Partner E's T16 holds the trick and W plays last: W gives the Queen, not a pip."""
    west = "CU-Q CU-6 SW-10 SW-J BA-10 BA-N CO-6 CO-A T5 T7 T8 T9 T10 T11 MOOR1 SW-Q T12"
    state = position(
        W, {E: NO_CUPS_E, W: west, S: "CU-7 CU-K CU-N", N: "CU-8 CU-J"}, "CU-7", "T16", "CU-8"
    )
    assert {RULES.action_code(a) for a in RULES.legal_actions(state)} == {"CU-Q", "CU-6"}
    assert choice(state) == "CU-Q"


def test_keeps_the_matto_for_a_lost_trick() -> None:
    """N, an opponent, trumped S's lead; W must follow with the King or play the Matto: the
    Matto, which stays with EW (rules §5), rather than the King, which would be lost."""
    north = "T16 SW-A SW-6 SW-7 SW-8 SW-9 BA-A BA-6 BA-7 BA-8 BA-9 CO-10 CO-9 CO-8 CO-7"
    west = "CU-K MATTO SW-10 SW-J BA-10 BA-N CO-6 CO-A T5 T7 T8 T9 T10 T11 MOOR1 SW-Q T12"
    state = position(W, {N: north, W: west, S: "CU-7 CU-N", E: "CU-9 CU-Q"}, "CU-7", "CU-9", "T16")
    assert {RULES.action_code(a) for a in RULES.legal_actions(state)} == {"CU-K", "MATTO"}
    assert choice(state) == "MATTO"


def test_does_not_waste_the_matto_when_the_partner_wins() -> None:
    """Partner E's T16 wins and W plays last: W follows with a pip and keeps the Matto."""
    west = "CU-6 MATTO SW-10 SW-J BA-10 BA-N CO-6 CO-A T5 T7 T8 T9 T10 T11 MOOR1 SW-Q T12"
    state = position(
        W, {E: NO_CUPS_E, W: west, S: "CU-7 CU-K CU-N", N: "CU-8 CU-J"}, "CU-7", "T16", "CU-8"
    )
    assert {RULES.action_code(a) for a in RULES.legal_actions(state)} == {"CU-6", "MATTO"}
    assert choice(state) == "CU-6"


def test_wins_cheaply_in_fourth_seat() -> None:
    """S leads SW-10, partner E plays SW-6, N SW-7: W takes it with SW-J, not SW-8."""
    west = "SW-J SW-8 CU-10 CU-9 BA-10 BA-N CO-6 CO-A T5 T7 T8 T9 T10 T11 MOOR1 CU-8 T12"
    state = position(W, {W: west, S: "SW-10", E: "SW-6", N: "SW-7"}, "SW-10", "SW-6", "SW-7")
    legal = {RULES.action_code(a) for a in RULES.legal_actions(state)}
    assert {"SW-J", "SW-8"} <= legal and not legal - {"SW-J", "SW-8", "SW-9", "SW-A"}
    assert choice(state) == "SW-J"


def test_trumps_an_opponents_king_with_the_smallest_trump() -> None:
    """S leads CU-K; E and N follow; W, void in Cups, trumps with T5 rather than SUN."""
    west = "SUN T5 SW-10 SW-J BA-10 BA-N CO-6 CO-A SW-6 SW-7 SW-8 SW-9 BA-6 BA-7 BA-8 BA-9 SW-A"
    state = position(W, {W: west, S: "CU-K", E: "CU-9", N: "CU-8"}, "CU-K", "CU-9", "CU-8")
    assert {RULES.action_code(a) for a in RULES.legal_actions(state)} == {"SUN", "T5"}
    assert choice(state) == "T5"


def test_ducks_when_the_trick_is_lost() -> None:
    """N trumped S's lead; W cannot win and must follow: it gives the pip, not the Queen."""
    north = "T16 SW-A SW-6 SW-7 SW-8 SW-9 BA-A BA-6 BA-7 BA-8 BA-9 CO-10 CO-9 CO-8 CO-7"
    west = "CU-Q CU-6 SW-10 SW-J BA-10 BA-N CO-6 CO-A T5 T7 T8 T9 T10 T11 MOOR1 SW-Q T12"
    state = position(W, {N: north, W: west, S: "CU-7 CU-N", E: "CU-9 CU-K"}, "CU-7", "CU-9", "T16")
    assert {RULES.action_code(a) for a in RULES.legal_actions(state)} == {"CU-Q", "CU-6"}
    assert choice(state) == "CU-6"


def test_returns_the_partners_suit() -> None:
    """E led Batons in trick 1 and W took it; W now leads back a Baton rather than another
    low card."""
    west = "BA-K BA-9 CU-10 CO-10 SW-6 SW-7 CU-9 CO-9 SW-8 CU-8 CO-8 SW-9 SW-A CU-7 CO-7"
    hands = {E: "BA-A BA-Q", N: "BA-7", W: west, S: "BA-8"}
    state = position(S, hands, "BA-A", "BA-7", "BA-K", "BA-8")
    assert state.to_move == W and state.trick == ()
    assert PACK.suit_of[cid(choice(state))] == 1  # Batons


def test_declares_its_combinations() -> None:
    """With three Kings and a Grande in hand the bot declares (the points outweigh what the
    shown cards tell)."""
    south = "SW-K BA-K CU-K ANGEL WORLD SUN T16 T15"
    state = discarded(table(W, {S: seq(south)}))
    assert RULES.phase_name(state) == "declare" and state.to_move == S
    assert HeuristicBot(RULES, 0).choose(view(state, S)) == DECLARE_ACTION


def test_discard_keeps_the_combinations() -> None:
    """The dealer's two discards leave the combinations he holds intact and never touch a
    protected card."""
    west = "SW-Q BA-Q CU-Q SW-K BA-K ANGEL WORLD SUN T16 T15 T14 CU-6 CO-7 SW-8 BA-9 CO-10 T6"
    state = table(W, {W: seq(west)})
    full = state.hands[W]
    bot = HeuristicBot(RULES, 0)
    for _ in range(2):
        state = RULES.apply(state, bot.choose(view(state, W)))
    assert popcount(state.discard) == 2
    assert combination_value(state.hands[W]) == combination_value(full)
    assert not state.discard & m("SW-K", "BA-K", "ANGEL", "WORLD")
    assert not state.discard & PACK.trump_mask  # it had suit cards to spare


def test_discard_makes_a_void() -> None:
    """Given two lone low cards of different suits, the dealer discards both."""
    west = "CU-6 CO-7 SW-K SW-Q SW-J SW-10 SW-9 BA-K BA-Q BA-J BA-10 BA-9 T16 T15 T14 T13 T12"
    state = table(W, {W: seq(west)})
    bot = HeuristicBot(RULES, 0)
    for _ in range(2):
        state = RULES.apply(state, bot.choose(view(state, W)))
    assert state.discard == m("CU-6", "CO-7")


def test_helpers() -> None:
    """Moors tie to the later one; the chance of holding a card grows with the slots."""
    above = beaten_by(cid("MOOR2"), TRUMPS)[0]
    assert above >> cid("MOOR1") & 1 and above >> cid("T5") & 1
    assert not above >> cid("BEGATO") & 1
    follow, ruff = beaten_by(cid("SW-10"), 0)
    assert follow == m("SW-J", "SW-N", "SW-Q", "SW-K") and ruff == PACK.trump_mask
    assert p_holds_any(0, 30, 10) == 0.0
    assert p_holds_any(m("SW-K"), 30, 10) == pytest.approx(1 / 3)
    assert p_holds_any(m("SW-K"), 30, 30) == 1.0
    assert p_holds_any(m("SW-K", "SW-Q"), 30, 15) > p_holds_any(m("SW-K"), 30, 15)


def test_only_legal_actions_over_many_deals() -> None:
    """Four heuristic bots (and two against random ones) finish 40 seeded deals: every action
    is legal (the rules would raise otherwise) and every declaration is complete."""
    for seed in range(40):
        names = ["heuristic"] * 4 if seed % 2 else ["heuristic", "random"] * 2
        log = play_deal("ottocento", seed, names)
        assert RULES.is_over(log.final)
        for _, shown, value in log.final.declarations:
            if shown:
                assert value == analyse(shown).value


def test_registry_finds_the_bot() -> None:
    """make_bot("heuristic", ottocento) is this class."""
    assert isinstance(make_bot("heuristic", RULES, 3), HeuristicBot)
