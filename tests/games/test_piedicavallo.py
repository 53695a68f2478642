"""Piedicavallo Tarocchi: every test scenario of rules §6, and the clauses around them."""

from __future__ import annotations

import pytest

from tarocchi import IllegalAction, game
from tarocchi.cards import popcount
from tarocchi.games.base import shuffled_deal
from tarocchi.games.piedicavallo import (
    MATTO_BIT,
    OVER,
    PACK,
    PLAY,
    RULES,
    State,
    discard_reason,
    first_discard_mask,
    is_discard_legal,
    play_mask,
)
from tests.games.piedicavallo_helpers import codes, legal, m, play, table

S, E, N, W = 0, 1, 2, 3


def cid(code: str) -> int:
    return PACK.card_id(code)


# -- §1 the pack ------------------------------------------------------------------------------


def test_pack_has_62_cards_worth_114() -> None:
    """§6.1: 62 unique ids, 10 per suit, 21 trumps and the Matto, 114 points."""
    assert len(PACK) == 62
    assert len(set(PACK.codes)) == 62
    for suit in range(4):
        assert popcount(PACK.suit_mask[suit]) == 10
    assert popcount(PACK.trump_mask) == 21
    assert PACK.codes[PACK.matto] == "MATTO"
    assert PACK.total_points == 114
    assert PACK.points_of(PACK.full_mask) == 114


def test_removed_cards_are_absent() -> None:
    """§1: A-4 of Swords and Batons and 7-10 of Cups and Coins are removed."""
    for code in ("SW-A", "SW-2", "SW-3", "SW-4", "BA-4", "CU-7", "CU-10", "CO-8", "CO-9"):
        with pytest.raises(ValueError):
            PACK.card_id(code)


def test_strength_order() -> None:
    """§6.2: CU-A > CU-2 > CU-6; SW-10 > SW-5; CU-J > CU-A; T21 > T20; T1 lowest trump."""
    assert cid("CU-A") > cid("CU-2") > cid("CU-6")
    assert cid("SW-10") > cid("SW-5")
    assert cid("CU-J") > cid("CU-A")
    assert cid("T21") > cid("T20")
    assert all(cid("T1") < cid(f"T{n}") for n in range(2, 22))


def test_points_table() -> None:
    """§1: King 5, Queen 4, Knight 3, Jack 2, pips 1; T1 and T21 5, other trumps 1; Matto 5."""
    expect = {"SW-K": 5, "CO-Q": 4, "BA-N": 3, "CU-J": 2, "CU-A": 1, "SW-5": 1, "T1": 5,
              "T21": 5, "T20": 1, "T2": 1, "MATTO": 5}  # fmt: skip
    for code, pts in expect.items():
        assert PACK.points[cid(code)] == pts, code


def test_names_in_english_and_italian() -> None:
    """Every card has English and Italian names."""
    card = PACK.cards[cid("CU-N")]
    assert card.name_en == "Knight of Cups" and card.name_it == "Cavallo di Coppe"
    assert PACK.cards[cid("T21")].name_it == "21 Il Mondo"
    assert all(c.name_en and c.name_it for c in PACK.cards)


# -- §2 the deal and the discard ------------------------------------------------------------


def test_deal_sizes_and_first_card() -> None:
    """§6.3: dealer W: E, S, N get 15 and W 17; the first card goes to S; no duplicates."""
    seed = next(s for s in range(100) if shuffled_deal(s, 62)[0] == W)
    state = RULES.deal(seed)
    _, deck = shuffled_deal(seed, 62)
    assert state.dealer == W
    assert [popcount(h) for h in state.hands] == [15, 15, 15, 17]
    assert state.hands[S] >> deck[0] & 1
    assert state.hands[E] >> deck[1] & 1
    union = 0
    for h in state.hands:
        assert not union & h
        union |= h
    assert union == PACK.full_mask


def test_dealer_is_random_but_fixed_by_seed() -> None:
    """§2: the dealer is a random seat; the same seed always gives the same deal."""
    dealers = {RULES.deal(seed).dealer for seed in range(40)}
    assert dealers == {0, 1, 2, 3}
    assert RULES.deal(1234) == RULES.deal(1234)
    assert RULES.deal(1234) != RULES.deal(1235)


def test_dealer_discards_first() -> None:
    """§2: before the first lead the dealer discards two cards, one action each."""
    state = RULES.deal(5)
    assert state.to_move == state.dealer
    assert RULES.phase_name(state) == "discard"
    state = RULES.apply(state, RULES.legal_actions(state)[0])
    assert state.to_move == state.dealer and popcount(state.discard) == 1
    state = RULES.apply(state, RULES.legal_actions(state)[0])
    assert state.phase == PLAY and popcount(state.discard) == 2
    assert state.to_move == (state.dealer + 1) % 4


@pytest.mark.parametrize(
    ("card", "reason"),
    [
        ("SW-K", "Kings cannot be discarded"),
        ("T1", "1 The Magician cannot be discarded"),
        ("T21", "21 The World cannot be discarded"),
        ("MATTO", "the Matto cannot be discarded"),
    ],
)
def test_protected_cards_cannot_be_discarded(card: str, reason: str) -> None:
    """§6.4: a discard containing SW-K, T1, T21 or the Matto is illegal, with the reason."""
    state = table(S, {S: ["SW-K", "T1", "T21", "MATTO", "CU-3", "SW-6", "T5"]})
    hand = state.hands[S]
    assert not is_discard_legal(hand, m(card, "CU-3"))
    with pytest.raises(IllegalAction, match=reason):
        RULES.apply(state, cid(card))
    # and as the second card of an otherwise legal discard
    after = play(state, "CU-3")
    with pytest.raises(IllegalAction, match=reason):
        RULES.apply(after, cid(card))


def test_illegal_discard_leaves_state_unchanged() -> None:
    """§5.12: an illegal discard is rejected and the state does not change."""
    state = table(S, {S: ["SW-K", "CU-3", "SW-6"]})
    before = state
    with pytest.raises(IllegalAction):
        RULES.apply(state, cid("SW-K"))
    assert state == before
    with pytest.raises(IllegalAction, match="not in your hand"):
        RULES.apply(state, next(c for c in range(62) if not state.hands[S] >> c & 1))


def test_discard_trump_with_suit_cards_kept() -> None:
    """§6.5: more than two non-King suit cards and several trumps: {T5, CU-3} is illegal,
    {CU-3, SW-6} is legal and announces 0."""
    hand = m("CU-3", "SW-6", "BA-7", "CO-2", "T5", "T6", "T7", "T8", "T9", "T10", "T11",
             "T12", "T13", "T14", "T15", "T16", "SW-K")  # fmt: skip
    assert not is_discard_legal(hand, m("T5", "CU-3"))
    assert is_discard_legal(hand, m("CU-3", "SW-6"))
    assert "trump may be discarded only" in discard_reason(hand, m("T5"))
    state = table(N, {N: PACK.codes_of(hand)})
    with pytest.raises(IllegalAction, match="trump may be discarded only"):
        RULES.apply(state, cid("T5"))
    state = play(state, "CU-3", "SW-6")
    event = RULES.public_events(state)[0]
    assert (event.kind, event.seat, event.value) == ("announce", N, 0)


def test_discard_last_suit_card_with_a_trump() -> None:
    """§6.6: the only non-King suit card is CU-3, the rest trumps, Kings and the Matto:
    {CU-3, T7} is legal (announce 1); {T7, T8} is illegal because CU-3 stays."""
    hand = m("CU-3", "SW-K", "BA-K", "CU-K", "CO-K", "MATTO", "T1", "T7", "T8", "T9", "T10",
             "T11", "T12", "T13", "T14", "T15", "T16")  # fmt: skip
    assert is_discard_legal(hand, m("CU-3", "T7"))
    assert not is_discard_legal(hand, m("T7", "T8"))
    state = table(E, {E: PACK.codes_of(hand)})
    after = play(state, "T7")
    with pytest.raises(IllegalAction, match="trump may be discarded only"):
        RULES.apply(after, cid("T8"))
    after = play(after, "CU-3")
    assert RULES.public_events(after)[0].value == 1
    assert "1 trump" in RULES.public_events(after)[0].text


def test_discard_all_trumps_to_become_void() -> None:
    """§6.7: holding only the trumps T4 and T9: {T4, T9} is legal (announce 2, now void);
    {T4, SW-6} is illegal because T9 stays."""
    trumps = m("T4", "T9")
    suit_cards = [c for c in PACK.codes if c[:2] in ("SW", "BA", "CU")][:15]
    hand = trumps | m(*suit_cards)
    assert "SW-6" in suit_cards
    assert is_discard_legal(hand, m("T4", "T9"))
    assert not is_discard_legal(hand, m("T4", "SW-6"))
    state = play(table(W, {W: PACK.codes_of(hand)}), "T4", "T9")
    assert RULES.public_events(state)[0].value == 2
    assert not state.hands[W] & PACK.trump_mask


def test_t1_blocks_the_void_clause() -> None:
    """§6.8 and §5.11: holding T1 and T3 plus suit cards, {T3, SW-6} is illegal."""
    hand = m("T1", "T3", *[c for c in PACK.codes if c[:2] in ("SW", "BA")][:15])
    assert not is_discard_legal(hand, m("T3", "SW-6"))
    assert not first_discard_mask(hand) & m("T3")


def test_first_discard_mask_matches_pair_enumeration() -> None:
    """The fast first-card rule equals 'some legal pair contains this card', on many hands."""
    for seed in range(400):
        state = RULES.deal(seed)
        hand = state.hands[state.dealer]
        cards = [c for c in range(62) if hand >> c & 1]
        brute = 0
        for a in cards:
            if any(is_discard_legal(hand, 1 << a | 1 << b) for b in cards if b != a):
                brute |= 1 << a
        assert first_discard_mask(hand) == brute, seed


def test_first_discard_mask_on_trump_heavy_hands() -> None:
    """Hands where trumps must be discarded: the fast rule still matches enumeration."""
    hands = [
        m("T2", "T3", "T4", "T5", "T6", "T7", "T8", "T9", "T10", "T11", "T12", "T13", "SW-K",
          "BA-K", "CU-K", "CO-K", "MATTO"),
        m("T2", "T3", "SW-5", "BA-K", "CU-K", "CO-K", "MATTO", "T1", "T21", "T10", "T11",
          "T12", "T13", "T14", "T15", "T16", "T17"),
        m("T2", "SW-5", "SW-6", "SW-7", "SW-8", "SW-9", "SW-10", "SW-J", "SW-N", "SW-Q", "SW-K",
          "BA-5", "BA-6", "BA-7", "BA-8", "BA-9", "BA-10"),
        m("T2", "T3", *[c for c in PACK.codes if c[:2] == "SW"],
          "BA-5", "BA-6", "BA-7", "BA-8", "BA-K"),
    ]  # fmt: skip
    for hand in hands:
        assert popcount(hand) == 17
        cards = [c for c in range(62) if hand >> c & 1]
        brute = sum(
            1 << a
            for a in cards
            if any(is_discard_legal(hand, 1 << a | 1 << b) for b in cards if b != a)
        )
        assert brute, "a legal discard always exists"
        assert first_discard_mask(hand) == brute


def test_discard_is_hidden_but_owned_by_the_dealer() -> None:
    """§2: D stays hidden: only the dealer's view holds it; others see only the count."""
    state = RULES.deal(11)
    d = state.dealer
    state = RULES.apply(state, RULES.legal_actions(state)[0])
    state = RULES.apply(state, RULES.legal_actions(state)[0])
    for seat in range(4):
        v = RULES.view(state, seat)
        assert v.private == (state.discard if seat == d else 0)
        assert len(v.events) == 1 and not v.events[0].cards


# -- §3 trick play ----------------------------------------------------------------------


def trick_of(*cards: str) -> tuple[tuple[int, int], ...]:
    return tuple((i, cid(c)) for i, c in enumerate(cards))


@pytest.mark.parametrize(
    ("hand", "trick", "expect"),
    [
        (["SW-Q", "CU-2", "T5"], ["SW-7"], {"SW-Q"}),  # §6.9 follow suit
        (["CU-Q", "T2", "MATTO"], ["SW-7"], {"T2", "MATTO"}),  # §6.10 must trump
        (["CU-Q", "BA-5"], ["SW-7"], {"CU-Q", "BA-5"}),  # §6.11 void in both
        (["T2", "CU-K"], ["T15"], {"T2"}),  # §6.12 trump led, no overtrump needed
        (["CO-4", "SW-9", "T3", "MATTO"], ["MATTO"], {"CO-4", "SW-9", "T3", "MATTO"}),  # §6.13
        (["CO-4", "SW-9", "T3"], ["MATTO", "CO-A"], {"CO-4"}),  # §6.13 2nd card sets suit
        (["SW-9", "T3"], ["MATTO", "T7"], {"T3"}),  # §5.2 after a led Matto, trump led
        (["SW-9", "T3", "MATTO"], ["MATTO", "CO-A"], {"T3", "MATTO"}),  # §5.3 and §5.6
        (["SW-Q", "SW-5", "MATTO"], ["SW-7"], {"SW-Q", "SW-5", "MATTO"}),  # §5.5
        (["MATTO"], ["SW-7"], {"MATTO"}),  # only the Matto left
        (["SW-Q", "MATTO", "T4"], [], {"SW-Q", "MATTO", "T4"}),  # leading: anything
    ],
)
def test_legal_plays(hand: list[str], trick: list[str], expect: set[str]) -> None:
    """§3 legal_moves, spec scenarios §6.9-§6.13 and rulings §5."""
    assert codes(play_mask(m(*hand), trick_of(*trick))) == expect


def test_refused_play_names_the_rule() -> None:
    """§5.12: illegal plays are rejected with the rule and change nothing."""
    state = play(
        table(S, {E: ["SW-7", "T9"], N: ["SW-Q", "CU-2", "T5"], S: ["CO-3", "CO-4"]}),
        "CO-3",
        "CO-4",
    )
    state = play(state, "SW-7")
    with pytest.raises(IllegalAction, match="you must follow Swords"):
        RULES.apply(state, cid("CU-2"))
    with pytest.raises(IllegalAction, match="you must follow Swords"):
        RULES.apply(state, cid("T5"))
    state2 = play(
        table(S, {E: ["SW-7"], N: ["CU-2", "T5"], W: ["SW-5"], S: ["CO-3", "CO-4"]}), "CO-3", "CO-4"
    )
    state2 = play(state2, "SW-7")
    with pytest.raises(IllegalAction, match="you have no Swords, so you must play a trump"):
        RULES.apply(state2, cid("CU-2"))
    before = state2
    with pytest.raises(IllegalAction, match="not in your hand"):
        RULES.apply(state2, cid("SW-5"))
    assert state2 == before
    state3 = play(
        table(S, {E: ["T9"], N: ["CU-2", "T5"], S: ["CO-3", "CO-4"]}), "CO-3", "CO-4", "T9"
    )
    with pytest.raises(IllegalAction, match="you must play a trump: trumps were led"):
        RULES.apply(state3, cid("CU-2"))


def test_trick_a_follow_suit() -> None:
    """§6.14: E leads SW-7, N SW-Q, W SW-10, S SW-5: N wins, NS +7."""
    state = table(S, {E: ["SW-7"], N: ["SW-Q"], W: ["SW-10"], S: ["SW-5", "CU-3", "CO-3"]})
    state = play(state, "CU-3", "CO-3")
    assert state.to_move == E
    state = play(state, "SW-7", "SW-Q", "SW-10", "SW-5")
    assert state.winners == (N,)
    assert PACK.points_of(state.piles[0]) == 7 and state.piles[1] == 0
    assert state.to_move == N


def test_trick_b_trumps_and_no_duty_to_overtrump() -> None:
    """§6.15: S leads CU-K; E (void) T3; N CU-2; W (void, holds trumps) T2: E wins, EW +8."""
    cups_s = ["CU-K", "CU-Q", "CU-N", "CU-J", "CU-A"]
    cups_n = ["CU-2", "CU-3", "CU-4", "CU-5", "CU-6"]
    state = table(W, {S: cups_s, N: cups_n, E: ["T3"], W: ["T2", "T20", "CO-3", "CO-4"]})
    state = play(state, "CO-3", "CO-4")
    assert state.to_move == S
    state = play(state, "CU-K", "T3", "CU-2")
    assert legal(state) == codes(state.hands[W] & (PACK.trump_mask | MATTO_BIT))
    state = play(state, "T2")
    assert state.winners == (E,)
    assert PACK.points_of(state.piles[1]) == 8


def test_trick_c_led_matto() -> None:
    """§6.16: W leads MATTO; S CO-A sets coins; E CO-6; N (void) T21: N wins CO-A, CO-6, T21
    (7 points), EW keeps the MATTO, N leads next."""
    state = table(N, {
        S: ["CO-A", "CO-2", "CO-3"], E: ["CO-6", "CO-5", "CO-4"],
        W: ["MATTO", "CO-J", "CO-N", "CO-Q", "CO-K"], N: ["T21", "SW-5", "SW-6"],
    })  # fmt: skip
    state = play(state, "SW-5", "SW-6")
    assert state.to_move == W
    state = play(state, "MATTO")
    assert legal(state) == codes(state.hands[S])  # the second player may play anything
    state = play(state, "CO-A")
    assert legal(state) == {"CO-6", "CO-5", "CO-4"}
    state = play(state, "CO-6", "T21")
    assert state.winners == (N,)
    assert codes(state.piles[0]) == {"CO-A", "CO-6", "T21"}
    assert PACK.points_of(state.piles[0]) == 7
    assert state.piles[1] == MATTO_BIT
    assert state.to_move == N  # §5.8: the winner leads, not the Matto's player


def test_trick_d_matto_played_while_holding_the_suit() -> None:
    """§6.17: N leads BA-K, W MATTO (holding batons), S BA-5, E BA-N: N wins 9 points."""
    state = table(E, {N: ["BA-K"], W: ["MATTO", "BA-6"], S: ["BA-5"], E: ["BA-N", "CU-3",
                                                                          "CU-4"]})  # fmt: skip
    state = play(state, "CU-3", "CU-4")
    assert state.to_move == N
    state = play(state, "BA-K", "MATTO", "BA-5", "BA-N")
    assert state.winners[-1] == N
    assert PACK.points_of(state.piles[0]) == 9 and popcount(state.piles[0]) == 3
    assert state.piles[1] == MATTO_BIT


@pytest.mark.parametrize(
    ("cards", "winner"),
    [
        (["SW-5", "CU-2", "CU-4", "BA-9"], 0),  # §5.7: nobody follows or trumps
        (["T2", "CU-2", "SW-K", "MATTO"], 0),  # trumps led, nobody can trump
        (["MATTO", "CO-A", "CO-6", "T21"], 3),  # §6.16
        (["SW-7", "T3", "SW-K", "T2"], 1),  # the highest trump wins
        (["SW-7", "SW-K", "MATTO", "SW-10"], 1),  # the Matto never wins
        (["CU-A", "CU-2", "CU-J", "CU-6"], 2),  # in Cups the Jack beats the Ace
    ],
)
def test_trick_winner(cards: list[str], winner: int) -> None:
    """§3 trick_winner: highest trump, else highest of the led suit; the Matto never wins."""
    assert RULES.winning_play(trick_of(*cards)) == (winner, cid(cards[winner]))


def test_first_leader_and_following_leads() -> None:
    """§6.18: next(dealer) leads the first trick; each trick's winner leads the next."""
    for seed in range(20):
        state = RULES.deal(seed)
        state = play(state, *[RULES.action_code(RULES.legal_actions(state)[0])])
        state = play(state, *[RULES.action_code(RULES.legal_actions(state)[0])])
        assert state.to_move == (state.dealer + 1) % 4
        while state.phase == PLAY:
            before = len(state.winners)
            state = RULES.apply(state, RULES.legal_actions(state)[-1])
            if len(state.winners) > before and state.phase == PLAY:
                assert state.to_move == state.winners[-1]


# -- §4 scoring ------------------------------------------------------------------------------


def pick(pool: list[int], n: int, points: int) -> int:
    """Choose n cards from pool worth exactly `points` (all cards are worth at least 1)."""
    chosen = 0
    cards = sorted(pool, key=lambda c: -PACK.points[c])
    for k in range(n, 0, -1):
        c = next(c for c in cards if points - PACK.points[c] >= k - 1)
        cards.remove(c)
        chosen |= 1 << c
        points -= PACK.points[c]
    assert points == 0
    return chosen


def over(dealer: int, ns_tricks: int, ns: int, ew: int, discard: int) -> State:
    winners = tuple([S] * ns_tricks + [E] * (15 - ns_tricks))
    return State((0, 0, 0, 0), dealer, OVER, None, S, (), (), winners, (ns, ew), discard, 0)


def test_scoring_1() -> None:
    """§6.19: dealer N, D = CU-Q + SW-9; W's Matto stays with EW; NS 60+5 = 65, EW 44+5 = 49."""
    d = m("CU-Q", "SW-9")
    pool = [c for c in range(62) if not (d | MATTO_BIT) >> c & 1]
    ew = pick(pool, 24, 44)
    ns = PACK.full_mask & ~(d | MATTO_BIT | ew)
    assert popcount(ns) == 35 and PACK.points_of(ns) == 60
    r = RULES.result(over(N, 9, ns, ew | MATTO_BIT, d))
    assert (r.ns, r.ew, r.winner) == (65, 49, "NS")
    assert [(x.label, x.ns, x.ew) for x in r.lines] == [
        ("Cards won in tricks", 60, 44), ("The Matto", 0, 5), ("The discard", 5, 0)
    ]  # fmt: skip
    assert r.piles[0] == ns | d and r.piles[1] == ew | MATTO_BIT


def test_scoring_2_sweep_by_the_non_dealer_team() -> None:
    """§6.20: dealer N; EW win all 15 tricks; S played the Matto; D worth 3: EW 114, NS 0."""
    d = m("CU-J", "BA-7")
    ew = PACK.full_mask & ~(d | MATTO_BIT)
    state = over(N, 0, MATTO_BIT, ew, d)
    r = RULES.result(state)
    assert PACK.points_of(ew) == 106
    assert (r.ns, r.ew, r.winner) == (0, 114, "EW")
    assert r.lines[-1].label.startswith("Sweep") and (r.lines[-1].ns, r.lines[-1].ew) == (-8, 8)
    assert r.piles == (0, PACK.full_mask)


def test_scoring_3_sweep_by_the_dealer_team() -> None:
    """§6.21: dealer N; NS win all 15; E played the Matto; D = 6: NS 103 + 6 + 5 = 114."""
    d = m("SW-J", "CU-Q")
    ns = PACK.full_mask & ~(d | MATTO_BIT)
    assert PACK.points_of(ns) == 103
    r = RULES.result(over(N, 15, ns, MATTO_BIT, d))
    assert (r.ns, r.ew, r.winner) == (114, 0, "NS")


def test_scoring_4_draw() -> None:
    """§6.22: dealer E; EW tricks 48 + D 4 + Matto 5 = 57; NS tricks 57: a draw."""
    d = m("CU-J", "SW-J")
    pool = [c for c in range(62) if not (d | MATTO_BIT) >> c & 1]
    ns = pick(pool, 36, 57)
    ew = PACK.full_mask & ~(ns | d | MATTO_BIT)
    assert PACK.points_of(ew) == 48
    r = RULES.result(over(E, 8, ns, ew | MATTO_BIT, d))
    assert (r.ns, r.ew, r.winner) == (57, 57, "draw")


def test_one_trick_avoids_the_sweep() -> None:
    """§5.10: a team with exactly one trick keeps its discard and its Matto."""
    d = m("CU-J", "SW-J")
    trick = m("SW-5", "SW-6", "SW-7", "SW-8")
    ew = PACK.full_mask & ~(d | MATTO_BIT | trick)
    r = RULES.result(over(N, 1, trick | MATTO_BIT, ew, d))
    assert (r.ns, r.ew) == (4 + 5 + 4, 114 - 13)


def test_result_only_when_over() -> None:
    with pytest.raises(ValueError, match="not over"):
        RULES.result(RULES.deal(1))


def test_registry_and_codes() -> None:
    """The rules object is found by name; actions round-trip through their codes."""
    g = game("piedicavallo")
    assert g is RULES and g.name == "piedicavallo"
    for a in range(62):
        assert g.parse_action(g.action_code(a)) == a
        assert g.card_id(g.card_code(a)) == a
    assert g.parse_action(" cu-a ") == cid("CU-A")
    with pytest.raises(ValueError, match="no card"):
        g.parse_action("CU-7")
    with pytest.raises(ValueError):
        game("scopa")


def test_apply_after_the_end_is_refused() -> None:
    state = RULES.deal(3)
    while state.to_move is not None:
        state = RULES.apply(state, RULES.legal_actions(state)[0])
    assert RULES.is_over(state) and RULES.legal_actions(state) == []
    with pytest.raises(IllegalAction, match="the deal is over"):
        RULES.apply(state, 0)
    with pytest.raises(IllegalAction):
        RULES.apply(RULES.deal(3), -1)
    with pytest.raises(IllegalAction):
        RULES.apply(RULES.deal(3), 99)


def test_start_checks_the_dealer_and_the_hands() -> None:
    """Explicit hands are what a deal gives (rules §2): 15 cards each and 17 for the dealer,
    the whole pack between them, and a dealer 0-3."""
    rules = game("piedicavallo")
    state = rules.deal(3)
    hands = rules.dealt_hands(state)
    assert rules.start(hands, state.dealer) == state
    for dealer in (-1, 4, (state.dealer + 1) % 4):
        with pytest.raises(ValueError, match="holds"):
            rules.start(hands, dealer)
    short = list(hands)
    short[state.dealer] &= short[state.dealer] - 1  # one card less: the pack is not whole
    with pytest.raises(ValueError, match="whole pack"):
        rules.start((short[0], short[1], short[2], short[3]), state.dealer)
