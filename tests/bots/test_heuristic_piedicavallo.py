"""The Piedicavallo heuristic bot: legal on every deal, and the right card in scripted positions.

Positions are built with explicit hands (`deal`), then played up to the bot's turn
with `play`. Seats: 0 South, 1 East, 2 North, 3 West; West deals unless told, so
South leads the first trick and West, the dealer, plays fourth.
"""

from __future__ import annotations

import pytest

from tarocchi.arena import run
from tarocchi.bots import make_bot
from tarocchi.bots.heuristic.common import (
    Odds,
    beaters,
    is_master,
    played_mask,
    trick_outlook,
    win_chance,
)
from tarocchi.bots.heuristic.piedicavallo import HeuristicBot
from tarocchi.bots.inference import void_masks
from tarocchi.cards import SUIT_CODES, TRUMPS, bits, popcount
from tarocchi.games.piedicavallo import RULES, State
from tarocchi.packs.piemontese import PACK
from tarocchi.views import view

S, E, N, W = 0, 1, 2, 3


def m(codes: str) -> int:
    """Return the mask of space-separated card codes."""
    return PACK.mask(codes.split())


def deal(given: dict[int, str], voids: dict[int, str] | None = None, dealer: int = W) -> State:
    """Return the state before the discard with the given cards in the given seats.

    The other cards fill the hands: first the seats told to get no more cards of some suits
    ("SW", "BA", "CU", "CO", "T" for trumps, "MATTO"), each with cards spread evenly over
    what it may take, then the others round the table in id order."""
    voids = voids or {}
    hands = [m(given.get(s, "")) for s in range(4)]
    need = [15 + 2 * (s == dealer) - popcount(hands[s]) for s in range(4)]
    assert min(need) >= 0, "a seat was given too many cards"
    free = PACK.full_mask & ~(hands[0] | hands[1] | hands[2] | hands[3])
    for s in sorted(voids, key=lambda s: -len(voids[s].split())):
        banned = 0
        for code in voids[s].split():
            banned |= {"T": PACK.trump_mask, "MATTO": PACK.matto_bit}.get(code, 0)
            if code in SUIT_CODES:
                banned |= PACK.suit_mask[SUIT_CODES.index(code)]
        ok = bits(free & ~banned)
        assert len(ok) >= need[s], f"seat {s} cannot be filled"
        for i in range(need[s]):
            c = ok[i * len(ok) // need[s]]
            hands[s] |= 1 << c
            free &= ~(1 << c)
        need[s] = 0
    seat = 0
    for c in bits(free):
        while not need[seat]:
            seat = (seat + 1) % 4
        hands[seat] |= 1 << c
        need[seat] -= 1
        seat = (seat + 1) % 4
    return RULES.start((hands[0], hands[1], hands[2], hands[3]), dealer)


def play(state: State, codes: str) -> State:
    """Apply the space-separated actions in order."""
    for code in codes.split():
        state = RULES.apply(state, RULES.parse_action(code))
    return state


def choice(state: State) -> str:
    """Return the code of the heuristic bot's action for the player to move."""
    assert state.to_move is not None
    return PACK.code(HeuristicBot(RULES).choose(view(state, state.to_move)))


# -- legality over many deals ------------------------------------------------------------------


@pytest.mark.parametrize("names", [("heuristic",) * 4, ("heuristic", "random") * 2])
def test_only_legal_actions_over_200_deals(names: tuple[str, ...]) -> None:
    """Every action the bot takes is among the view's legal actions, on 200 seeded deals."""
    for seed in range(200):
        bots = [make_bot(names[s], RULES, seed * 8 + s) for s in range(4)]
        state = RULES.deal(seed)
        while state.to_move is not None:
            v = view(state, state.to_move)
            action = bots[state.to_move].choose(v)
            assert action in v.legal
            state = RULES.apply(state, action)
        assert len(state.winners) == 15


def test_is_registered_and_deterministic() -> None:
    """make_bot finds the bot by name; the same view always gets the same answer."""
    bot = make_bot("heuristic", RULES, 5)
    assert isinstance(bot, HeuristicBot)
    state = RULES.deal(11)
    while state.to_move is not None and len(state.winners) < 6:
        v = view(state, state.to_move)
        action = bot.choose(v)
        assert HeuristicBot(RULES, 99).choose(v) == action
        state = RULES.apply(state, action)


@pytest.mark.measure
def test_beats_random_on_duplicate_deals() -> None:
    """A small duplicate match (fixed seeds): the bot's team outscores random by a wide margin.
    The reported strength comes from the 500-pair arena; this guards against regressions."""
    result = run("piedicavallo", "heuristic", "random", pairs=20, seed=7)
    assert result["mean_margin"] > 12


# -- the dealer's discard (rules §2) -----------------------------------------------------------


def test_dealer_discards_a_short_suit_to_make_a_void() -> None:
    """With five trumps and only two small Coins, the dealer discards both to trump Coins."""
    state = deal(
        {
            W: "T5 T8 T11 T14 T17 SW-K SW-9 SW-8 BA-K BA-10 BA-9 BA-8 CU-K CU-5 CU-4 CO-6 CO-5",
        }
    )
    first = choice(state)
    assert first in ("CO-6", "CO-5")
    second = choice(play(state, first))
    assert {first, second} == {"CO-6", "CO-5"}


def test_dealer_banks_loose_court_cards_not_trumps() -> None:
    """Trumps may not go while suit cards remain (the engine refuses them); among the suit
    cards the dealer banks the unguarded Queen and Knight of Cups, which also voids Cups."""
    state = deal(
        {W: "T2 T3 T4 T5 T6 T7 T8 T9 T10 SW-K BA-K CO-K CU-Q CU-N SW-6 BA-5 CO-6"},
    )
    first = choice(state)
    second = choice(play(state, first))
    assert {first, second} == {"CU-Q", "CU-N"}


def test_dealer_with_only_trumps_kings_and_matto_discards_low_trumps() -> None:
    """Rules §2 (a): with no discardable suit card the dealer must discard trumps; it gives up
    its two lowest, never T1, T21, a King or the Matto."""
    state = deal({W: "T1 T2 T3 T4 T5 T6 T7 T8 T9 T10 T11 T12 T21 SW-K BA-K CU-K MATTO"})
    first = choice(state)
    second = choice(play(state, first))
    assert {first, second} == {"T2", "T3"}


# -- trick play ------------------------------------------------------------------------------------


def test_does_not_overtrump_a_partner_sure_to_win() -> None:
    """East trumped South's King with T20 and only West can beat it: West, void in Cups,
    must trump but underplays with T3 rather than spend T21."""
    state = deal(
        {S: "CU-K", E: "T20", N: "CU-6", W: "T21 T5 T3 SW-5 SW-6"},
        voids={E: "CU", W: "CU T MATTO"},
    )
    state = play(state, "SW-5 SW-6 CU-K T20 CU-6")
    assert choice(state) == "T3"


def test_loads_t1_on_a_partner_sure_trick() -> None:
    """Same trick, but West also holds T1: it goes on the partner's sure trick (5 points)."""
    state = deal(
        {S: "CU-K", E: "T20", N: "CU-6", W: "T21 T5 T3 T1 SW-5 SW-6"},
        voids={E: "CU", W: "CU T MATTO"},
    )
    state = play(state, "SW-5 SW-6 CU-K T20 CU-6")
    assert choice(state) == "T1"


def test_loads_the_queen_on_a_partner_king() -> None:
    """East's King of Swords wins and West plays last: West loads its Queen."""
    state = deal({S: "SW-5", E: "SW-K", N: "SW-6", W: "SW-Q SW-7 CU-5 CU-6"})
    state = play(state, "CU-5 CU-6 SW-5 SW-K SW-6")
    assert choice(state) == "SW-Q"


def test_third_hand_loads_t1_behind_partner_t21() -> None:
    """South leads T21, which nothing beats: North, third, plays T1 onto it."""
    state = deal({S: "T21", E: "T2", N: "T1 T4 T9 SW-K", W: "SW-5 SW-6"})
    state = play(state, "SW-5 SW-6 T21 T2")
    assert choice(state) == "T1"


def test_plays_the_matto_on_a_lost_trick() -> None:
    """South's King of Cups wins; West, last, holds only the Queen and Knight of Cups: the
    Matto saves them (it comes back to West's team anyway)."""
    state = deal(
        {S: "CU-K", E: "CU-5", N: "CU-6", W: "CU-Q CU-N MATTO SW-5 SW-6"},
        voids={W: "CU"},
    )
    state = play(state, "SW-5 SW-6 CU-K CU-5 CU-6")
    assert choice(state) == "MATTO"


def test_keeps_the_matto_when_the_partner_wins() -> None:
    """Now East holds the King and wins: West loads the Queen and keeps the Matto."""
    state = deal(
        {S: "CU-6", E: "CU-K", N: "CU-5", W: "CU-Q CU-N MATTO SW-5 SW-6"},
        voids={W: "CU"},
    )
    state = play(state, "SW-5 SW-6 CU-6 CU-K CU-5")
    assert choice(state) == "CU-Q"


def test_trumps_with_the_lowest_trump_as_last_player() -> None:
    """Nobody trumped a pointless Swords trick: West, void, wins it with its lowest trump."""
    state = deal(
        {S: "SW-7", E: "SW-5", N: "SW-9", W: "T3 T15 T21 CU-5 CU-6"},
        voids={W: "SW T MATTO"},
    )
    state = play(state, "CU-5 CU-6 SW-7 SW-5 SW-9")
    assert choice(state) == "T3"


def test_secures_t1_by_trumping_last() -> None:
    """The same trick with T1 in hand: trumping last with T1 wins and keeps its 5 points."""
    state = deal(
        {S: "SW-7", E: "SW-5", N: "SW-9", W: "T1 T3 T15 T21 CU-5 CU-6"},
        voids={W: "SW T MATTO"},
    )
    state = play(state, "CU-5 CU-6 SW-7 SW-5 SW-9")
    assert choice(state) == "T1"


def test_plays_t21_to_capture_a_rich_trick() -> None:
    """South's King and East's Knight of Coins are taken by North's T20: only West's T21
    beats it, and it wins 14 points."""
    state = deal(
        {S: "CO-K", E: "CO-N", N: "T20", W: "T21 T2 T4 SW-5 SW-6"},
        voids={E: "CO", N: "CO", W: "CO T MATTO"},
    )
    state = play(state, "SW-5 SW-6 CO-K CO-N T20")
    assert choice(state) == "T21"


def test_ducks_with_the_cheapest_card_when_the_trick_is_lost() -> None:
    """South's King of Swords cannot be beaten by West's Swords: West plays its pip."""
    state = deal({S: "SW-K", E: "SW-5", N: "SW-6", W: "SW-Q SW-N SW-7 CU-5 CU-6"})
    state = play(state, "CU-5 CU-6 SW-K SW-5 SW-6")
    assert choice(state) == "SW-7"


def test_does_not_waste_t1_under_a_higher_trump() -> None:
    """South leads T20 and West cannot beat it: West follows with T3, not T1 or T8."""
    state = deal({S: "T20", E: "T2", N: "T5", W: "T1 T3 T8 CU-5 CU-6"}, voids={W: "T"})
    state = play(state, "CU-5 CU-6 T20 T2 T5")
    assert choice(state) == "T3"


def test_returns_the_partner_suit() -> None:
    """South led Batons and North won the trick: with no better lead, North leads Batons back."""
    state = deal(
        {
            S: "BA-5 BA-Q BA-N",
            E: "BA-6",
            N: "BA-9 BA-10 SW-6 SW-7 CU-6 CU-5 CO-6 CO-5 T2 T3 T4 T6 T7 T8 T9",
            W: "BA-8 SW-5 SW-8",
        },
    )
    state = play(state, "SW-5 SW-8 BA-5 BA-6 BA-9 BA-8")
    assert choice(state) == "BA-10"


def test_does_not_lead_a_king_into_an_opponent_void() -> None:
    """East has shown a void in Coins (it trumped them): South leads its King of Batons, not
    the King of Coins that East would trump."""
    state = deal(
        {
            S: "CO-5 CO-K SW-K BA-K BA-5 BA-6",
            E: "T5 SW-6",
            N: "CO-6 SW-5",
            W: "CO-A SW-7 CU-5 CU-6",
        },
        voids={E: "CO"},
    )
    state = play(state, "CU-5 CU-6 CO-5 T5 CO-6 CO-A SW-6 SW-5 SW-7 SW-K")
    assert state.to_move == S
    assert choice(state) == "BA-K"


def test_counts_trumps_to_ruff_with_a_master() -> None:
    """T21 and T20 are gone, so East's T19 is master; North has shown a void in Coins. When
    South leads the King of Coins, East trumps with T19, which North cannot overtrump."""
    state = deal(
        {
            S: "CO-5 CO-K T21",
            E: "CO-6 T19 T5 T4",
            N: "T20 T2",
            W: "CO-A T3 SW-5 SW-6",
        },
        voids={E: "CO", N: "CO"},
    )
    state = play(state, "SW-5 SW-6 CO-5 CO-6 T20 CO-A T2 T3 T21 T5 CO-K")
    assert state.to_move == E
    assert choice(state) == "T19"


# -- the card-counting helpers -------------------------------------------------------------------


def test_beaters_and_masters() -> None:
    """Higher cards of the led suit and any trump beat a suit card; only higher trumps beat a
    trump; a card is master when no unseen card of its suit ranks above it."""
    cid = PACK.card_id
    follow, ruff = beaters(PACK, cid("SW-Q"), 0)
    assert PACK.codes_of(follow) == ["SW-K"]
    assert ruff == PACK.trump_mask
    follow, ruff = beaters(PACK, cid("T19"), 0)
    assert follow == 0 and PACK.codes_of(ruff) == ["T20", "T21"]
    follow, ruff = beaters(PACK, cid("T19"), TRUMPS)
    assert PACK.codes_of(follow) == ["T20", "T21"] and ruff == 0
    assert is_master(PACK, cid("SW-Q"), m("SW-N SW-5"))
    assert not is_master(PACK, cid("SW-Q"), m("SW-K"))
    trick = ((S, cid("MATTO")), (E, cid("CU-2")), (N, cid("CU-A")))
    assert RULES.winning_play(trick) == (N, cid("CU-A"))
    assert RULES.winning_play(((S, cid("MATTO")),)) is None


def test_odds_follow_revealed_voids_and_counting() -> None:
    """A seat that failed to follow cannot hold the suit; a trick nobody left can beat is sure."""
    state = deal({S: "CO-5", E: "T5", N: "CO-6", W: "CO-A SW-5 SW-6"}, voids={E: "CO"})
    state = play(state, "SW-5 SW-6 CO-5 T5 CO-6 CO-A")
    v = view(state, N)
    unseen = PACK.full_mask & ~(v.hand | played_mask(v) | v.private)
    odds = Odds(v, unseen, void_masks(v), ((m("T2 T3"), 0), (PACK.suit_mask[0], 2)))
    assert odds.p(E, PACK.card_id("CO-K")) == 0.0
    assert odds.p_void(E, 3) == 1.0
    assert 0.0 < odds.p(S, PACK.card_id("CO-K")) < 1.0
    # East leads T21 next: nobody can beat it, whoever is still to play
    t21 = PACK.card_id("T21")
    assert win_chance(odds, 1, (E, t21), TRUMPS, (S, W)) == 1.0
    p, added = trick_outlook(odds, 1, (E, t21), TRUMPS, (S, W), 2.5, 1.0)
    assert p == 1.0 and added == pytest.approx(3.5)
