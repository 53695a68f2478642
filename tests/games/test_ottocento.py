"""Ottocento: the pack, the deal, the discard, declarations, trick play and end scoring,
with every test scenario of rules §7 (the combination scenarios are in
test_ottocento_combos.py)."""

from __future__ import annotations

import pytest

from tarocchi import IllegalAction, game
from tarocchi.cards import BIT, FOOL, TRUMPS, popcount
from tarocchi.games.base import shuffled_deal
from tarocchi.games.ottocento import (
    DECLARE,
    DISCARD,
    MATTO_BIT,
    OVER,
    PACK,
    PLAY,
    RULES,
    State,
    discard_reason,
    play_mask,
    settle_matto,
)
from tarocchi.games.ottocento_combos import analyse, combination_value
from tarocchi.packs.bolognese import CANONICAL, CANONICAL_INDEX
from tarocchi.views import view
from tests.games.ottocento_helpers import (
    E,
    N,
    S,
    W,
    cards,
    cid,
    codes,
    deal_hands,
    discarded,
    legal,
    m,
    play,
    ready,
    run_random,
    seq,
    table,
)

# -- §1 the pack ------------------------------------------------------------------------------


def test_pack_has_62_cards_worth_118_and_87_in_pairs() -> None:
    """§7.1: 62 unique ids, raw value 118, 87 counted in pairs (93 with the last trick)."""
    assert len(PACK) == 62 and len(set(PACK.codes)) == 62
    assert [popcount(PACK.suit_mask[s]) for s in range(6)] == [10, 10, 10, 10, 21, 1]
    assert PACK.total_points == 118 == PACK.points_of(PACK.full_mask)
    assert (2 * 118 - 62) // 2 == 87
    assert RULES.name == "ottocento" and RULES.title == "Ottocento"
    assert game("ottocento") is RULES


def test_card_values() -> None:
    """§1: tarocchi and Kings 5, Queens 4, Knights 3, Jacks 2, every other card 1."""
    five = {"ANGEL", "WORLD", "BEGATO", "MATTO", "SW-K", "BA-K", "CU-K", "CO-K"}
    for card in PACK.cards:
        rank = card.code.split("-")[1] if "-" in card.code else ""
        want = 5 if card.code in five else {"Q": 4, "N": 3, "J": 2}.get(rank, 1)
        assert card.points == want, card.code
    assert PACK.points[cid("SUN")] == PACK.points[cid("MOOR3")] == PACK.points[cid("CU-A")] == 1


def test_strength_order() -> None:
    """§7.2: CU-A > CU-6 > CU-10; SW-10 > SW-A; MOOR2 > BEGATO; T5 > MOOR1; ANGEL > WORLD."""
    assert cid("CU-A") > cid("CU-6") > cid("CU-10")
    assert cid("SW-10") > cid("SW-A")
    assert cid("MOOR2") > cid("BEGATO")
    assert cid("T5") > cid("MOOR1")
    assert cid("ANGEL") > cid("WORLD")
    # within every suit the ids follow the §1 strength column
    for card in PACK.cards:
        for other in PACK.cards:
            if card.suit == other.suit < FOOL and card.id < other.id:
                assert card.strength <= other.strength
    # the four Moors are equal in strength
    assert {PACK.cards[cid(f"MOOR{k}")].strength for k in range(1, 5)} == {1}


def test_codes_and_names() -> None:
    """Codes as docs/rules.md gives them; English and Italian names; actions round-trip."""
    assert PACK.codes[:10] == tuple(seq("SW-A SW-6 SW-7 SW-8 SW-9 SW-10 SW-J SW-N SW-Q SW-K"))
    assert PACK.codes[20:30] == tuple(seq("CU-10 CU-9 CU-8 CU-7 CU-6 CU-A CU-J CU-N CU-Q CU-K"))
    numbered = [f"T{n}" for n in range(5, 17)]
    assert PACK.codes[40:] == tuple(
        seq("BEGATO MOOR1 MOOR2 MOOR3 MOOR4") + numbered + seq("MOON SUN WORLD ANGEL MATTO")
    )
    names = {c.code: (c.name_en, c.name_it) for c in PACK.cards}
    assert names["ANGEL"] == ("The Angel", "L'Angelo")
    assert names["WORLD"][1] == "Il Mondo" and names["SUN"][1] == "Il Sole"
    assert names["MOON"][1] == "La Luna" and names["MOOR2"][1] == "Moro 2"
    assert names["BEGATO"] == ("The Magician (Bégato)", "Il Bagatto")
    assert names["MATTO"][1] == "Il Matto"
    assert names["CO-N"] == ("Knight of Coins", "Cavallo di Denari")
    assert names["SW-Q"][1] == "Regina di Spade" and names["BA-J"][1] == "Fante di Bastoni"
    assert names["CU-K"][1] == "Re di Coppe"
    for action in range(64):
        assert RULES.parse_action(RULES.action_code(action)) == action
    assert RULES.action_code(62) == "DECLARE" and RULES.action_code(63) == "PASS"
    assert RULES.parse_action("declare") == 62


def test_canonical_order() -> None:
    """§1: SW, BA, CU, CO each K..A, then ANGEL..BEGATO, then MATTO."""
    order = [PACK.codes[c] for c in CANONICAL]
    assert order[:10] == seq("SW-K SW-Q SW-N SW-J SW-10 SW-9 SW-8 SW-7 SW-6 SW-A")
    assert order[20:30] == seq("CU-K CU-Q CU-N CU-J CU-10 CU-9 CU-8 CU-7 CU-6 CU-A")
    assert order[40:45] == ["ANGEL", "WORLD", "SUN", "MOON", "T16"]
    assert order[-6:] == ["MOOR1", "MOOR2", "MOOR3", "MOOR4", "BEGATO", "MATTO"]
    assert sorted(CANONICAL) == list(range(62))
    assert all(CANONICAL[CANONICAL_INDEX[c]] == c for c in range(62))


# -- §2 the deal and the discard ----------------------------------------------------------------


def test_deal_sizes_and_first_leader() -> None:
    """§7.3: dealer W: S, E, N get 15 and W 17; after the discard S leads."""
    seed = 0
    state = RULES.deal(seed)
    assert state.dealer == W
    assert [popcount(h) for h in state.hands] == [15, 15, 15, 17]
    assert state.phase == DISCARD and state.to_move == W
    state = play(state, *[PACK.codes[c] for c in RULES.legal_actions(state)[:1]])
    state = play(state, PACK.codes[RULES.legal_actions(state)[0]])
    assert state.to_move == S and state.phase in (DECLARE, PLAY)
    assert [popcount(h) for h in state.hands] == [15, 15, 15, 15]


def test_deal_is_three_rounds_of_five_then_two_to_the_dealer() -> None:
    """§2: packets of 5 from next(dealer), three rounds, then the last 2 to the dealer."""
    for seed in (1, 2, 77):
        dealer, deck = shuffled_deal(seed, 62)
        state = RULES.deal(seed)
        assert state.dealer == dealer
        for k in range(4):
            seat = (dealer + 1 + k) % 4
            packets = deck[5 * k : 5 * k + 5] + deck[20 + 5 * k : 25 + 5 * k]
            packets += deck[40 + 5 * k : 45 + 5 * k]
            extra = deck[60:] if seat == dealer else []
            assert state.hands[seat] == m(*(PACK.codes[c] for c in packets + extra))
        assert RULES.deal(seed) == state  # the same seed deals the same cards


def test_start_checks_hand_sizes() -> None:
    """Explicit hands must be 15 cards each and 17 for the dealer, covering the pack."""
    hands = deal_hands(W, {})
    with pytest.raises(ValueError):
        RULES.start(hands, S)
    with pytest.raises(ValueError):
        RULES.start((hands[0], hands[1], hands[2], hands[3] & ~BIT[hands[3].bit_length() - 1]), W)


DEALER_HAND = "SW-K ANGEL WORLD BEGATO MATTO SUN MOOR1 CU-Q T9 T7 SW-10 BA-9 CO-8 CU-8 CU-9 T5 T6"


def test_discard_protected_cards() -> None:
    """§7.4: {SW-K, T7} and {BEGATO, x} are illegal; {SUN, MOOR1} and {CU-Q, T9} are legal."""
    state = table(W, {W: DEALER_HAND.split()})
    for bad, reason in [
        ("SW-K", "Kings cannot be discarded"),
        ("BEGATO", "the Bégato cannot be discarded"),
        ("ANGEL", "the Angel cannot be discarded"),
        ("WORLD", "the World cannot be discarded"),
        ("MATTO", "the Matto cannot be discarded"),
    ]:
        with pytest.raises(IllegalAction, match=reason):
            play(state, bad)
        assert discard_reason(cid(bad)) == reason
    with pytest.raises(IllegalAction, match="not in your hand"):
        play(state, "SW-Q")
    with pytest.raises(IllegalAction, match="must first discard"):
        play(state, "DECLARE")
    assert "T7" in legal(state) and "SUN" in legal(state)
    after = play(state, "SUN", "MOOR1")
    assert after.discard == m("SUN", "MOOR1") and after.phase != DISCARD
    after = play(state, "CU-Q", "T9")
    assert after.discard == m("CU-Q", "T9")
    # one action per card, in either order; the first card cannot be discarded again
    once = play(state, "T9")
    assert "T9" not in legal(once) and "SW-K" not in legal(once)
    assert legal(state) == codes(state.hands[W] & ~m("SW-K", "ANGEL", "WORLD", "BEGATO", "MATTO"))


def test_discard_is_private_and_not_announced() -> None:
    """§2: the discard is hidden from all but the dealer; nothing is announced about it."""
    state = play(table(W, {W: DEALER_HAND.split()}), "SUN", "MOOR1")
    assert view(state, W).private == m("SUN", "MOOR1")
    for seat in (S, E, N):
        v = view(state, seat)
        assert v.private == 0 and not v.known & m("SUN", "MOOR1")
    assert all(e.kind in ("declare", "pass") for e in RULES.public_events(state))


# -- §3 declarations ---------------------------------------------------------------------------


def test_declare_or_pass_before_the_first_card() -> None:
    """§3.1: at his first turn in trick 1, just before playing, a player declares or passes;
    a card first is illegal; the leader declares first and the dealer last."""
    kings = ["SW-K", "BA-K", "CU-K"]
    state = table(W, {S: kings, E: ["CO-K", "SW-Q", "SW-N"]})
    state = play(state, "CU-6", "CO-6")  # W discards
    assert state.phase == DECLARE and state.to_move == S
    assert legal(state) == {"DECLARE", "PASS"}
    with pytest.raises(IllegalAction, match="declare all your combinations or pass"):
        play(state, "SW-K")
    state = play(state, "DECLARE")
    assert state.phase == PLAY and state.to_move == S
    ev = RULES.public_events(state)
    assert [(e.kind, e.seat, e.value) for e in ev] == [("declare", S, 17)]
    assert ev[0].cards == m(*kings) and "3 Kings (17)" in ev[0].text
    assert RULES.shown_cards(state)[S] == m(*kings)
    state = play(state, "SW-K")
    assert RULES.shown_cards(state)[S] == m("BA-K", "CU-K")  # shown while still in hand
    # E has nothing to declare: no choice, a public pass
    assert state.phase == PLAY and state.to_move == E
    assert [e.kind for e in RULES.public_events(state)] == ["declare", "pass"]
    assert "DECLARE" not in legal(state)


def test_pass_hides_the_hand_and_scores_nothing() -> None:
    """§3.3: passing is allowed even with combinations; the pass event shows nothing."""
    state = table(W, {S: ["SW-K", "BA-K", "CU-K"]})
    state = play(state, "CU-6", "CO-6", "PASS")
    (event,) = RULES.public_events(state)
    assert (event.kind, event.seat, event.cards, event.value) == ("pass", S, 0, 0)
    assert event.text == "South passes (declares nothing)"
    assert RULES.shown_cards(state) == (0, 0, 0, 0)
    # the automatic pass of an empty hand looks exactly the same
    state = table(W, {})
    state = play(state, "CU-6", "CO-6")
    assert state.phase == PLAY
    (auto,) = RULES.public_events(state)
    assert auto == event


def test_declarations_are_made_only_in_trick_one() -> None:
    """§3.1: DECLARE and PASS are not actions once a player has played."""
    state = table(W, {})
    state = play(state, "CU-6", "CO-6")
    with pytest.raises(IllegalAction, match="only at your first turn"):
        play(state, "DECLARE")


def test_dealer_declares_from_the_fifteen_cards_kept() -> None:
    """§3.2: the dealer's declaration is scored on his hand after the discard, never on D."""
    dealer = ["SW-Q", "BA-Q", "CU-Q", "SW-K", "BA-K", "CU-K"]
    state = table(W, {W: dealer})
    state = play(state, "CU-Q", "SW-9")  # three Queens broken by the discard
    while state.to_move != W:
        if state.phase == DECLARE:
            state = play(state, "PASS")
        else:
            state = RULES.apply(state, RULES.legal_actions(state)[0])
    assert state.phase == DECLARE and state.to_move == W
    state = play(state, "DECLARE")
    event = RULES.public_events(state)[-1]
    kept = state.hands[W]
    assert event.seat == W and event.value == combination_value(kept)
    assert codes(event.cards) >= {"SW-K", "BA-K", "CU-K"}
    assert "Queens" not in event.text and "CU-Q" not in codes(event.cards)
    assert "Queens" in analyse(kept | m("CU-Q")).describe()  # D would have made a set
    assert [e.seat for e in RULES.public_events(state)] == [S, E, N, W]


def test_declaration_is_all_or_nothing() -> None:
    """§3.2/§6.9: declaring shows every scored combination and scores evaluate(hand)."""
    hand = ["SW-K", "SW-Q", "SW-J", "BA-K", "CU-K", "ANGEL", "WORLD", "SUN", "MATTO"]
    state = play(table(W, {S: hand}), "CU-6", "CO-6", "DECLARE")
    event = RULES.public_events(state)[0]
    found = analyse(state.hands[S])
    assert event.value == found.value == combination_value(state.hands[S])
    assert event.cards == found.cards
    assert {"SW-K", "BA-K", "CU-K", "ANGEL", "WORLD", "SUN", "MATTO"} <= codes(event.cards)


def test_declared_cards_are_public_in_every_view() -> None:
    """§3.2: declared cards are shown to all seats (and stay in the hand)."""
    state = play(table(W, {S: ["SW-K", "BA-K", "CU-K"]}), "CU-6", "CO-6", "DECLARE")
    for seat in range(4):
        v = view(state, seat)
        assert v.shown[S] == m("SW-K", "BA-K", "CU-K")
        assert v.events[0].cards == m("SW-K", "BA-K", "CU-K")


# -- §4 trick play ------------------------------------------------------------------------------


def test_legal_follow() -> None:
    """§7.5: led SW-7: {SW-Q, CU-6, T5, MATTO} -> {SW-Q, MATTO}; {CU-6, T5} -> {T5};
    {CU-6, BA-9} -> both."""
    trick = ((S, cid("SW-7")),)
    assert play_mask(m("SW-Q", "CU-6", "T5", "MATTO"), trick) == m("SW-Q", "MATTO")
    assert play_mask(m("CU-6", "T5"), trick) == m("T5")
    assert play_mask(m("CU-6", "BA-9"), trick) == m("CU-6", "BA-9")
    assert play_mask(m("MATTO"), trick) == m("MATTO")  # §6.10


def test_led_matto_lets_the_next_card_set_the_suit() -> None:
    """§4/§6.1: after a led Matto the second card is free and sets the suit; if it is a
    trump, the others must play trumps."""
    matto = ((E, cid("MATTO")),)
    assert play_mask(m("CU-6", "T5", "SW-9"), matto) == m("CU-6", "T5", "SW-9")
    then_trump = (*matto, (N, cid("T9")))
    assert play_mask(m("CU-6", "T5", "SW-9"), then_trump) == m("T5")
    then_coins = (*matto, (N, cid("CO-A")))
    assert play_mask(m("CO-10", "T5"), then_coins) == m("CO-10")


def _first_trick(dealer: int, hands: dict[int, list[str]]) -> State:
    """Deal, let the dealer discard two cards not given by the test, and let the leader pass
    if he may declare."""
    state = discarded(table(dealer, hands), hands.get(dealer, []))
    return play(state, "PASS") if state.phase == DECLARE else state


def test_equal_moors_last_one_wins() -> None:
    """§7.6: S SW-7, E MOOR2, N MOOR4, W SW-K: N wins; with W's T5 instead, W wins."""
    east = ["MOOR2", *seq("CU-10 CU-9 CU-8 CU-7 CO-10 CO-9 CO-8 CO-7 T6 T7 T8 T9 BA-10 BA-9")]
    north = ["MOOR4", "MOOR1", *seq("BA-8 BA-7 BA-6 T10 T11 T12 T13 T14 T15 T16 CU-6 CO-6")]
    north.append("BA-J")
    state = _first_trick(W, {S: ["SW-7"], E: east, N: north, W: ["SW-K", "T5"]})
    assert legal(cards(state, "SW-7")) >= {"MOOR2"}
    assert legal(cards(state, "SW-7")) <= codes(PACK.trump_mask)  # E has no Swords
    after = cards(state, "SW-7", "MOOR2", "MOOR4", "SW-K")
    assert after.winners == (N,) and after.to_move == N
    assert after.piles == (m("SW-7", "MOOR2", "MOOR4", "SW-K"), 0)
    # the same trick with W (void in Swords) playing T5: W wins
    swords = [c for c in PACK.codes if c.startswith("SW-")]
    state = _first_trick(W, {S: swords, E: east, N: north, W: ["T5"]})
    after = cards(state, "SW-7", "MOOR2", "MOOR4", "T5")
    assert after.winners == (W,)
    partial = ((S, cid("SW-7")), (E, cid("MOOR4")), (N, cid("MOOR1")))
    assert RULES.winning_play(partial) == (N, cid("MOOR1"))


def test_moor_rulings() -> None:
    """§6.4: any numbered trump beats every Moor; the Bégato loses to a Moor; the last of
    several Moors wins."""
    for trick, index in (
        (("SW-7", "MOOR3", "BEGATO", "MOOR1"), 3),
        (("MOOR4", "MOOR3", "T5", "MOOR1"), 2),
        (("BEGATO", "MOOR1", "SW-K", "CU-K"), 1),
        (("MATTO", "MOOR1", "MOOR2", "SW-K"), 2),
    ):
        plays = [(seat, cid(c)) for seat, c in enumerate(trick)]
        assert RULES.winning_play(plays) == plays[index]


def test_led_matto_trick() -> None:
    """§7.7 (seats in counter-clockwise order: E, N, W, S): E leads the MATTO, N's CO-A sets
    Coins, W CO-10, S (void in Coins) BEGATO: S wins; EW keep the Matto and owe a card."""
    east = ["MATTO", *seq("BA-10 BA-9 BA-8 BA-7 BA-6 CU-10 CU-9 CU-8 CU-7 CU-6 T12 T13 T14 T15")]
    north = ["CO-A", *seq("SW-10 SW-9 SW-8 SW-7 SW-6 T5 T6 T7 T8 T9 T10 T11 CO-9 CO-8")]
    south = ["BEGATO", *seq("SW-A BA-A CU-A MOOR1 MOOR2 SW-J BA-J CU-N BA-N T16 MOON SUN CU-J")]
    state = _first_trick(S, {E: east, N: north, S: south, W: ["CO-10"]})
    assert state.to_move == E
    state = ready(play(state, "MATTO"))
    assert legal(state) == codes(state.hands[N])  # the Matto sets nothing
    state = ready(play(state, "CO-A"))
    assert legal(state) == codes(state.hands[W] & PACK.suit_mask[3])
    state = ready(play(state, "CO-10"))
    assert "BEGATO" in legal(state) and not legal(state) - codes(PACK.trump_mask)
    state = play(state, "BEGATO")
    assert state.winners == (S,)
    assert state.piles == (m("CO-A", "CO-10", "BEGATO"), MATTO_BIT)
    # EW owe a card at the end if they win a trick (§5), else they lose the Matto
    for seed in range(5):
        r = RULES.result(run_random(state, seed))
        given = dict(r.extra)["matto_settlement"]
        if dict(r.extra)["tricks"][1]:
            assert given is not None and BIT[cid(given)] & r.piles[0]
            assert MATTO_BIT & r.piles[1]
        else:
            assert given is None and MATTO_BIT & r.piles[0]


# -- §5 end of deal ---------------------------------------------------------------------------


def _final_state(
    dealer: int,
    tricks: list[list[tuple[int, str]]],
    discard: list[str],
    declarations: tuple[tuple[int, int, int], ...],
) -> State:
    """Build a finished state from its tricks (for scoring scenarios that no real play can
    reach); the winners and piles follow the rules."""
    winners, ns, ew = [], 0, 0
    out = []
    for plays in tricks:
        won = RULES.winning_play([(s, cid(c)) for s, c in plays])
        assert won is not None
        w = won[0]
        winners.append(w)
        out.append(tuple((s, cid(c)) for s, c in plays))
        for s, c in plays:
            team_of_card = s & 1 if c == "MATTO" else w & 1
            if team_of_card:
                ew |= BIT[cid(c)]
            else:
                ns |= BIT[cid(c)]
    return State(
        (0, 0, 0, 0), dealer, OVER, None, winners[-1], (), tuple(out), tuple(winners),
        (ns, ew), m(*discard), 0, declarations,
    )  # fmt: skip


SOUTH_177 = seq("ANGEL WORLD SUN T16 T15 T14 MATTO SW-K SW-Q SW-J BA-8 CU-7 CO-9 T10 MOOR2")
WEST_177 = seq("CU-K CO-K BA-K CU-Q CU-N CU-A SW-8 BA-9 CO-6 CO-7 T11 T9 T7 T6 SW-7")
EW_TRICKS_177 = seq(
    "CU-K CO-K BA-K CU-Q CU-N BA-Q CO-N SW-10 SW-8 SW-7 BA-10 BA-9 BA-A CU-6 CU-8 CO-6 "
    "CO-7 CO-8 T11 T9 T7 MOOR1 MOOR3"
)


def _lead_first(four: list[str]) -> list[str]:
    """Order four cards so that the first (the lead) wins: the top trump, else the top card."""
    return sorted(four, key=lambda c: (PACK.suit_of[cid(c)] == TRUMPS, cid(c)), reverse=True)


def _tricks_177() -> list[list[tuple[int, str]]]:
    """Fifteen tricks whose piles are those of §7.17: EW take 6 tricks holding the listed
    23 cards and S's Matto (in a trick E wins); NS take the other 9, the last included.

    §7.17 lists piles that no legal play can produce (W holds 13 of EW's 23 trick cards
    but plays only 6 cards into EW's 6 tricks), so the tricks are arranged by hand, each
    led by the card that wins it."""
    ew_cards = [c for c in EW_TRICKS_177 if c not in ("T11", "BA-10", "BA-9")]
    ns_cards = [c for c in PACK.codes if c not in [*EW_TRICKS_177, "MATTO", "CU-10", "BA-6"]]
    assert len(ns_cards) == 36
    tricks = [[(E, "T11"), (N, "BA-10"), (W, "BA-9"), (S, "MATTO")]]
    for k in range(5):
        four = _lead_first(ew_cards[4 * k : 4 * k + 4])
        tricks.append([(E, four[0]), (N, four[1]), (W, four[2]), (S, four[3])])
    for k in range(9):
        four = _lead_first(ns_cards[4 * k : 4 * k + 4])
        tricks.append([(S, four[0]), (E, four[1]), (N, four[2]), (W, four[3])])
    return tricks


def test_full_deal_177() -> None:
    """§7.17: dealer E, D = {CU-10, BA-6}; S declares 63, W 32, N passes, E has nothing;
    S's Matto falls in a trick won by E; NS win 9 tricks with the last. The Matto
    settlement gives SW-9; EW 94 (cp 35, captured 27, declared 32), NS 431 (cp 52,
    captured 310, declared 63, last trick 6)."""
    south, west = m(*SOUTH_177), m(*WEST_177)
    assert combination_value(south) == 63 and combination_value(west) == 32
    declarations = (
        (N, 0, 0),
        (W, analyse(west).cards, 32),
        (S, analyse(south).cards, 63),
        (E, 0, 0),
    )
    final = _final_state(E, _tricks_177(), ["CU-10", "BA-6"], declarations)
    assert [w & 1 for w in final.winners] == [1] * 6 + [0] * 9
    r = RULES.result(final)
    extra = dict(r.extra)
    assert extra["matto_settlement"] == "SW-9"
    assert popcount(r.piles[1]) == 26 and popcount(r.piles[0]) == 36
    assert extra["card_points"] == (52, 35)
    assert extra["captured"] == (310, 27)
    assert extra["declared"] == (63, 32)
    assert (r.ns, r.ew, r.winner) == (431, 94, "NS")
    lines = {line.label: line for line in r.lines}
    assert (lines["Declared by South"].ns, lines["Declared by West"].ew) == (63, 32)
    assert "Tarocchi (18)" in lines["Declared by South"].note
    assert "Grande of 7 cards (30)" in lines["Declared by South"].note
    assert "3 Kings (17)" in lines["Declared by West"].note
    assert "Declared by North" not in lines  # a pass scores nothing
    assert (lines["Last trick"].ns, lines["Last trick"].ew) == (6, 0)
    assert "give 9 of Swords to EW" in lines["Matto settlement"].note
    assert "East discarded 6 of Batons, 10 of Cups" in lines["The discard"].note
    captured = lines["Combinations captured by NS"]
    assert captured.ns == 310 and "Grande of 13 cards (60)" in captured.note
    assert "sequence points doubled" in captured.note
    # the cards, strongest first
    assert "The Angel, The World, The Sun, The Moon, 16 The Star" in captured.note
    assert lines["Combinations captured by EW"].ew == 27
    assert sum(x.ns for x in r.lines) == r.ns and sum(x.ew for x in r.lines) == r.ew


def test_matto_settlement_choice() -> None:
    """§5: a neutral one-point card goes first (MOOR2 would cost 40 in §7.17); among equal
    margins the first card in canonical order."""
    ew = m(*EW_TRICKS_177, "CU-10", "BA-6")
    ns = PACK.full_mask & ~ew
    assert PACK.codes[settle_matto(ns, ew)] == "SW-9"
    # the cost of MOOR2 (breaks NS's Moors, makes EW's), as the spec says: 40
    moor2 = BIT[cid("MOOR2")]
    lost = combination_value(ns) - combination_value(ns & ~moor2)
    gained = combination_value(ew | moor2) - combination_value(ew)
    assert lost + gained == 40


def test_matto_settlement_spares_combinations() -> None:
    """When every one-point card serves a combination, the one costing least goes."""
    # owner: three aces (Aces 10) and MOOR1; the opponents hold MOOR2 MOOR3 BEGATO, so
    # MOOR1 would give them Moors (10) and an ace breaks the Aces (10): a tie, SW-A first
    owner = m("SW-A", "BA-A", "CU-A", "MOOR1", "SW-K", "MATTO")
    other = m("MOOR2", "MOOR3", "BEGATO")
    assert PACK.codes[settle_matto(owner, other)] == "SW-A"
    # a fourth ace: an ace now costs 5 (Aces 4 -> 3), MOOR1 still 10
    owner |= m("CO-A")
    assert PACK.codes[settle_matto(owner, other)] == "SW-A"
    # without the opponents' Moors, MOOR1 costs nothing, an ace 5
    assert PACK.codes[settle_matto(owner, m("BEGATO"))] == "MOOR1"


def test_matto_settlement_without_one_point_cards() -> None:
    """§5: no one-point card: the lowest-value card other than the Matto."""
    owner = m("SW-J", "BA-J", "CU-J", "CO-Q", "CO-K", "MATTO")
    # any Jack breaks the Jacks (12): equal margins, canonical order gives SW-J
    assert PACK.codes[settle_matto(owner, 0)] == "SW-J"
    # with SW-K, SW-J also makes a Swords sequence with the Matto: BA-J goes instead
    owner = m("SW-J", "BA-J", "CU-J", "CO-Q", "SW-K", "MATTO")
    assert PACK.codes[settle_matto(owner, 0)] == "BA-J"
    owner = m("SW-Q", "BA-Q", "CU-Q", "CO-N", "SW-K", "MATTO")
    assert PACK.codes[settle_matto(owner, 0)] == "CO-N"  # the Knight is the lowest value


def _sweep_hands() -> dict[int, list[str]]:
    trumps = [c for c in PACK.codes if PACK.suit_of[cid(c)] == TRUMPS]
    suits = [c for c in PACK.codes if PACK.suit_of[cid(c)] < TRUMPS]
    return {
        S: trumps[:15],
        N: trumps[15:] + suits[:9],
        E: ["MATTO", *suits[9:25]],
        W: suits[25:],
    }


@pytest.mark.parametrize("seed", range(6))
def test_sweep(seed: int) -> None:
    """§7.18: NS win all 15 tricks, dealer E, E played the Matto: NS hold all 62 cards and
    score 87 + 846 + their declarations + 6; EW score their declarations only (§6.5)."""
    final = run_random(table(E, _sweep_hands()), seed)
    r = RULES.result(final)
    assert all(w & 1 == 0 for w in final.winners)
    assert r.piles == (PACK.full_mask, 0)
    decl = dict(r.extra)["declared"]
    assert r.ns == 87 + 846 + decl[0] + 6 and r.ew == decl[1]
    lines = {line.label: line for line in r.lines}
    assert "EW won no trick" in lines["Matto settlement"].note
    assert "goes to NS" in lines["The discard"].note


def test_sweep_by_the_dealers_team_keeps_the_discard() -> None:
    """§6.6: if the dealer's opponents win no trick, D stays with the dealer's team."""
    hands = _sweep_hands()
    hands[N], hands[E] = [*hands[N], *hands[E][1:3]], ["MATTO", *hands[E][3:]]
    final = run_random(table(N, hands), 3)
    r = RULES.result(final)
    assert r.piles == (PACK.full_mask, 0)
    assert "it counts for NS" in {x.label: x for x in r.lines}["The discard"].note


TIE_SEED = 2040  # a seed whose random play (random.Random(seed)) ends in equal totals


def test_equal_totals_draw() -> None:
    """§7.19: equal totals draw."""
    r = RULES.result(run_random(RULES.deal(TIE_SEED), TIE_SEED))
    assert r.ns == r.ew and r.winner == "draw"


# -- illegal actions, phases ---------------------------------------------------------------------


def test_illegal_actions_change_nothing() -> None:
    """§6.11: illegal plays are rejected with the rule's reason; the state is unchanged."""
    state = _first_trick(W, {S: ["SW-7", "CU-6"], E: ["SW-Q", "CU-9"]})
    state = play(state, "SW-7")
    before = state
    with pytest.raises(IllegalAction, match="you must follow Swords"):
        play(state, "CU-9")
    with pytest.raises(IllegalAction, match="not in your hand"):
        play(state, "SW-7")
    with pytest.raises(IllegalAction, match="not an action"):
        RULES.apply(state, 64)
    with pytest.raises(IllegalAction):
        RULES.apply(state, -1)
    assert state == before
    final = run_random(state, 1)
    with pytest.raises(IllegalAction, match="the deal is over"):
        RULES.apply(final, 0)
    with pytest.raises(ValueError):
        RULES.result(state)


def test_phase_names() -> None:
    """The phases are discard, declare, play and over."""
    state = table(W, {S: ["SW-K", "BA-K", "CU-K"]})
    assert RULES.phase_name(state) == "discard"
    state = play(state, "CU-6", "CO-6")
    assert RULES.phase_name(state) == "declare"
    state = play(state, "PASS")
    assert RULES.phase_name(state) == "play"
    assert RULES.phase_name(run_random(state, 0)) == "over"


def test_combination_score_ignores_repeats_and_rejects_unknown_codes() -> None:
    """combination_score takes codes; a repeated code counts once."""
    assert RULES.combination_score(["SW-K", "BA-K", "CU-K", "CU-K"]) == 17
    with pytest.raises(ValueError):
        RULES.combination_score(["T21"])


def test_records_round_trip() -> None:
    """A deal played by bots is recorded with DECLARE/PASS codes and replays to its result."""
    import json

    from tarocchi.match import play_deal
    from tarocchi.record import make_record, replay

    for seed in range(3):
        log = play_deal("ottocento", seed, ["random"] * 4)
        record = json.loads(json.dumps(make_record(log)))
        assert len(record["hands"][record["dealer"]]) == 17
        assert {a["action"] for a in record["actions"]} & {"DECLARE", "PASS"} or all(
            e["kind"] == "pass" for e in record["events"]
        )
        assert [e["kind"] for e in record["events"]].count("pass") + [
            e["kind"] for e in record["events"]
        ].count("declare") == 4
        _, final = replay(record)
        assert RULES.result(final) == log.result
        assert record["result"]["ns"] == log.result.ns
