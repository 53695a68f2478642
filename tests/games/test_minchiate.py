"""Minchiate: every test scenario of rules §7, and the clauses around them (pack, deal, play)."""

from __future__ import annotations

import pytest

from tarocchi import IllegalAction, game
from tarocchi.cards import bits, popcount
from tarocchi.games.minchiate import (
    DECLARE,
    DISCARD,
    DONE,
    MATTO,
    N_CARDS,
    PACK,
    PLAY,
    RULES,
    SPECIAL,
    cut_of,
    discard_mask,
    is_robbable,
    king_rule_king,
    play_mask,
)
from tarocchi.packs.minchiate import TRUMP_NAMES, trump
from tests.games.minchiate_helpers import (
    cid,
    codes,
    deck_from_rest,
    legal,
    m,
    play,
    quiet_fola,
    table,
    to_play,
)

S, E, N, W = 0, 1, 2, 3

# -- §1 the pack ------------------------------------------------------------------------------


def test_pack_has_97_cards_25_counting_worth_142() -> None:
    """§7.1: a new deck has 97 cards, 25 counting cards, total value 142."""
    assert len(PACK) == 97 and len(set(PACK.codes)) == 97
    assert sum(1 for p in PACK.points if p) == 25
    assert PACK.total_points == 142 == PACK.points_of(PACK.full_mask)
    for suit in range(4):
        assert popcount(PACK.suit_mask[suit]) == 14
    assert popcount(PACK.trump_mask) == 40
    assert PACK.codes[MATTO] == "MATTO" and MATTO == 96


def test_rank_orders() -> None:
    """§7.2: CO-A > CO-2 > CO-10; SW-10 > SW-A; CU-J > CU-A; BA-K > BA-Q; T40 tops the trumps."""
    assert cid("CO-A") > cid("CO-2") > cid("CO-10")
    assert cid("CU-A") > cid("CU-2") > cid("CU-10")
    assert cid("SW-10") > cid("SW-A") and cid("BA-10") > cid("BA-9")
    assert cid("CU-J") > cid("CU-A") and cid("SW-J") > cid("SW-10")
    assert cid("BA-K") > cid("BA-Q") > cid("BA-N") > cid("BA-J")
    assert [cid(f"T{n}") for n in range(1, 41)] == list(range(cid("T1"), cid("T40") + 1))


def test_points_table() -> None:
    """§1: T36-40 10; T1, T10, T13, T20, T28, T30-35, the Matto and Kings 5; T2-5 3; else 0."""
    expect = {"T40": 10, "T36": 10, "T35": 5, "T30": 5, "T28": 5, "T20": 5, "T13": 5, "T10": 5,
              "T1": 5, "T2": 3, "T5": 3, "T29": 0, "T6": 0, "T27": 0, "MATTO": 5, "CU-K": 5,
              "SW-Q": 0, "CO-A": 0, "BA-10": 0}  # fmt: skip
    for code, pts in expect.items():
        assert PACK.points[cid(code)] == pts, code


def test_names_in_english_and_italian() -> None:
    """§1: traditional trump names; Fante in Swords/Batons, Fantina in Cups/Coins."""
    assert len(TRUMP_NAMES) == 40
    assert PACK.cards[cid("T1")].name_it == "1 Papa I"
    assert PACK.cards[cid("T15")].name_it == "15 La Casa del Diavolo"
    assert PACK.cards[cid("T40")].name_en == "40 The Trumpets"
    assert PACK.cards[cid("T40")].name_it == "40 Le Trombe"
    assert PACK.cards[cid("SW-J")].name_it == "Fante di Spade"
    assert PACK.cards[cid("CU-J")].name_it == "Fantina di Coppe"
    assert PACK.cards[cid("CO-J")].name_en == "Maid of Coins"
    assert all(c.name_en and c.name_it for c in PACK.cards)
    assert trump(29) == cid("T29")


# -- §2 the cut, robbing and deal ---------------------------------------------------------------


def rest_with(fola: list[str] | None = None, bottom: list[str] | None = None) -> list[int]:
    """Return a `rest` order: the Fola given top first (or 13 quiet cards), the other cards in
    id order, with `bottom` as its last cards (the cut packet's bottom, bottom card last)."""
    fixed = [cid(c) for c in (fola or [])] + [cid(c) for c in (bottom or [])]
    taken = sum(1 << c for c in fixed)
    fola_ids = [cid(c) for c in fola] if fola else quiet_fola(taken)
    fola_ids += quiet_fola(taken | sum(1 << c for c in fola_ids), 13 - len(fola_ids))
    used = set(fola_ids) | {cid(c) for c in (bottom or [])}
    body = [c for c in range(N_CARDS) if c not in used]
    return body + fola_ids + [cid(c) for c in (bottom or [])]


def test_cutter_robs_an_unbroken_run_from_the_bottom() -> None:
    """§7.12: the lifted packet ends (bottom-up) T25, CO-K, T29, CU-4: the cutter robs three,
    scores 5 at once and must discard three."""
    dealer = N
    cutter = E  # §2.1: prev(dealer)
    order = [c for c in range(N_CARDS) if c not in map(cid, ("CU-4", "T29", "CO-K", "T25"))]
    order += [cid("CU-4"), cid("T29"), cid("CO-K"), cid("T25")]
    # the lifted packet is the deck's top 30 cards; its bottom card is deck[29]
    lifted = order[-30:]
    deck = lifted + order[:-30]
    state = RULES.deal_from(deck, dealer, 30)
    info = state.info
    assert info.cutter == cutter
    assert [PACK.codes[c] for c in info.robbed] == ["T25", "CO-K", "T29"]
    assert popcount(state.hands[cutter]) == 24
    assert state.phase == DISCARD and state.to_move == cutter
    rob = next(e for e in RULES.public_events(state) if e.kind == "rob")
    assert codes(rob.cards) == {"T25", "CO-K", "T29"} and rob.seat == cutter
    score = RULES.scores(state)[0]
    assert (score.team, score.points, score.seat) == (1, 5, cutter)
    assert codes(RULES.shown_cards(state)[cutter]) >= {"CO-K", "T29"}
    for _ in range(3):
        assert state.to_move == cutter
        state = RULES.apply(state, RULES.legal_actions(state)[0])
    assert state.to_move != cutter and popcount(state.hands[cutter]) == 21


def test_robbable_cards() -> None:
    """§2.2: counting cards and trumps above 20 (T29 and T21-27 too, worth 0) may be robbed."""
    for code in ("T21", "T27", "T29", "T40", "T1", "T2", "T20", "CU-K", "MATTO"):
        assert is_robbable(cid(code)), code
    for code in ("T19", "T6", "SW-3", "CO-Q", "BA-J"):
        assert not is_robbable(cid(code)), code


def test_cutter_robs_at_most_13() -> None:
    """§6.1: 14 or more robbable cards in a row: the cutter stops at 13, the Fola starts empty
    and the dealer robs and takes nothing."""
    special = bits(SPECIAL | m(*(f"T{n}" for n in range(21, 28))))[:14]
    order = [c for c in range(N_CARDS) if c not in special] + special
    deck = order[-20:] + order[:-20]
    state = RULES.deal_from(deck, S, 20)
    assert len(state.info.robbed) == 13 and state.info.fola == ()
    assert state.info.fola_robbed == () and state.info.fola_taken == 0
    assert popcount(state.hands[state.info.cutter]) == 34
    assert sum(map(popcount, state.hands)) == 97


def test_deal_packets_and_exposed_cards() -> None:
    """§2.3: 10 then 11 cards each from next(dealer); the 11th is face up and scores at once."""
    dealer = W
    rest = rest_with()
    state = RULES.deal_from(deck_from_rest(rest, 50), dealer, 50)
    info = state.info
    for k in range(4):
        seat = (dealer + 1 + k) & 3
        first = rest[10 * k : 10 * k + 10]
        second = rest[40 + 11 * k : 51 + 11 * k]
        assert info.dealt[seat] == sum(1 << c for c in first + second)
        assert info.exposed[seat] == second[-1]
    assert list(info.fola) == rest[84:]
    exposed = [e for e in RULES.public_events(state) if e.kind == "expose"]
    assert [e.seat for e in exposed] == [S, E, N, W]
    counting = [s for s in range(4) if PACK.points[info.exposed[s]]]
    scored = [sc.seat for sc in RULES.scores(state) if sc.key[0] == 1]
    assert scored == [s for s in (S, E, N, W) if s in counting]


def test_dealer_robs_the_fola_then_takes_every_special_card() -> None:
    """§7.13: Fola top-first T36, SW-3, T2, T29, BA-K, CU-7: the dealer robs T36, stops at SW-3,
    takes T2, T29 and BA-K, scores 18 and discards 4."""
    dealer = S
    rest = rest_with(fola=["T36", "SW-3", "T2", "T29", "BA-K", "CU-7"])
    state = RULES.deal_from(deck_from_rest(rest, 30), dealer, 30)
    info = state.info
    assert [PACK.codes[c] for c in info.fola_robbed] == ["T36"]
    assert PACK.codes[info.fola_stop] == "SW-3"
    assert codes(info.fola_taken) == {"T2", "T29", "BA-K"}
    assert popcount(state.hands[dealer]) == 25
    dealer_scores = [sc for sc in RULES.scores(state) if sc.key[0] == 2]
    assert sum(sc.points for sc in dealer_scores) == 18
    assert all(sc.team == 0 for sc in dealer_scores)
    assert state.phase == DISCARD and state.to_move == dealer
    stop = [e for e in RULES.public_events(state) if e.kind == "fola" and e.seat == dealer]
    assert codes(stop[0].cards) == {"SW-3"}
    # the rest of the Fola is seen by the dealer alone
    assert RULES.private_cards(state, dealer) == info.fola_rest
    assert RULES.private_cards(state, E) == 0


def test_discard_check() -> None:
    """§7.14: CU-K illegal, T29 illegal, T24 legal, SW-5 legal, T5 illegal (§2.5)."""
    dealer = S
    rest = rest_with(fola=["T24", "T29", "CU-K", "T5"])
    rest.remove(cid("SW-5"))
    rest.insert(0, cid("SW-5"))  # next(dealer) = East gets SW-5 ...
    state = RULES.deal_from(deck_from_rest(rest, 30), dealer, 30)
    hand = state.hands[dealer]
    assert codes(hand) >= {"T24", "T29", "CU-K", "T5"}
    ok = codes(discard_mask(hand))
    assert "T24" in ok and not ok & {"CU-K", "T29", "T5"}
    assert ok == codes(hand & ~SPECIAL)
    reasons = {c: RULES.illegal_reason(state, cid(c)) for c in ("CU-K", "T29", "T5")}
    assert reasons["T29"] == "trump 29 may never be discarded (rules §2.5)"
    assert "only zero-point cards may be discarded: King of Cups is worth 5" in reasons["CU-K"]
    assert "5 Papa V is worth 3" in reasons["T5"]
    with pytest.raises(IllegalAction):
        RULES.apply(state, cid("CU-K"))
    assert "SW-5" in codes(discard_mask(hand | m("SW-5")))


def test_discard_shortfall_falls_back_to_t29_then_low_cards() -> None:
    """§6.2: with no zero-point card left, T29 goes first, then the lowest-valued specials."""
    assert discard_mask(m("T29", "T2", "CU-K")) == m("T29")
    assert discard_mask(m("T2", "T3", "CU-K", "T40")) == m("T2", "T3")
    assert discard_mask(m("SW-2", "T29")) == m("SW-2")


def test_cut_is_a_fixed_function_of_the_seed() -> None:
    """§2.2: the cut comes from the seed alone, in 1..96, the same on every machine."""
    assert [cut_of(s) for s in range(5)] == [cut_of(s) for s in range(5)]
    cuts = {cut_of(s) for s in range(3000)}
    assert min(cuts) == 1 and max(cuts) == 96
    assert RULES.deal(123).info.cut == cut_of(123)
    assert RULES.deal(123) == RULES.deal(123)
    assert game("minchiate") is RULES


def test_deal_from_rejects_bad_input() -> None:
    """An explicit deal must hold the 97 cards once, a cut of 1-96 and a seat."""
    with pytest.raises(ValueError):
        RULES.deal_from(list(range(96)), S, 10)
    with pytest.raises(ValueError):
        RULES.deal_from(list(range(97)), S, 0)
    with pytest.raises(ValueError):
        RULES.deal_from(list(range(97)), 4, 10)


# -- §3 declarations -----------------------------------------------------------------------------


def test_declarations_go_ccw_from_the_dealers_right_and_skip_empty_hands() -> None:
    """§3: next(dealer) declares first; a player without versicole is skipped; each choice is
    shown and scored; DECL-DONE passes on; then the Fola is shown and play starts."""
    dealer = N
    # every card that could form a versicola is placed: the rest of the hands cannot add one
    state = table(
        dealer,
        {
            W: ["SW-K", "BA-K", "CU-K", "T13", "T20"],
            S: ["T30", "T31", "T32", "T33", "T1", "T40", "MATTO"],
            N: ["T2", "T3", "T4", "T29", "T35", "T37", "T39"],
            E: ["CO-K", "T5", "T10", "T28", "T34", "T36", "T38"],
        },
    )
    assert state.phase == DECLARE and state.to_move == W
    assert legal(state) == {"DECL-KINGS", "DECL-DONE"}
    state = play(state, "DECL-KINGS")  # nothing left to declare: East has none, so South
    assert state.to_move == S
    assert legal(state) == {"DECL-SEQ-HIGH-1", "DECL-MATTO", "DECL-DONE"}
    state = play(state, "DECL-SEQ-HIGH-1")
    assert legal(state) == {"DECL-MATTO", "DECL-DONE"}
    with pytest.raises(IllegalAction, match="already declared"):
        play(state, "DECL-SEQ-HIGH-1")
    with pytest.raises(IllegalAction, match="you do not hold the Kings"):
        play(state, "DECL-KINGS")
    state = play(state, "DECL-DONE")  # South keeps the Matto versicola quiet
    assert state.to_move == N and legal(state) == {"DECL-SEQ-LOW", "DECL-DONE"}
    state = play(state, "DECL-DONE")
    assert state.phase == PLAY and state.to_move == W
    declared = [(s, RULES.extra_actions[k]) for s, k, _, _ in state.declared]
    assert declared == [(W, "DECL-KINGS"), (S, "DECL-SEQ-HIGH-1")]
    values = [v for _, _, _, v in state.declared]
    assert values == [15, 25]  # 20 + 5 for the Matto
    shown = RULES.shown_cards(state)
    assert codes(shown[W]) >= {"SW-K", "BA-K", "CU-K"}
    assert codes(shown[S]) >= {"T30", "T31", "T32", "T33"} and "MATTO" not in codes(shown[S])
    texts = [e.text for e in RULES.public_events(state) if e.kind == "declare"]
    assert texts == [
        "West declares 3 Kings (Swords, Batons, Cups): 15.",
        "South declares the sequence of trumps 30-33: 20 + 5 for the Matto = 25.",
    ]
    # §7.20's start: W's Kings 15 for East-West, then S's 25 for North-South
    assert [(sc.team, sc.points) for sc in RULES.scores(state) if sc.key[0] == 4] == [
        (1, 15),
        (0, 25),
    ]
    fola = [e for e in RULES.public_events(state) if e.kind == "fola" and e.seat is None]
    assert popcount(fola[-1].cards) == 13


def test_declaring_is_refused_out_of_turn() -> None:
    """A declaration code is refused during play and a card during declarations."""
    state = table(N, {W: ["SW-K", "BA-K", "CU-K"]})
    with pytest.raises(IllegalAction, match="not to play a card"):
        RULES.apply(state, cid("SW-A"))
    state = to_play(state)
    with pytest.raises(IllegalAction, match="the declarations are over"):
        RULES.apply(state, DONE)


# -- §4 trick play -------------------------------------------------------------------------------


def test_trick_winner() -> None:
    """§7.3: SW-7 led; SW-9, T5, T30: T30 wins; with no trumps SW-9 wins."""
    trick = [(W, cid("SW-7")), (S, cid("SW-9")), (E, cid("T5")), (N, cid("T30"))]
    assert RULES.winning_play(trick) == (N, cid("T30"))
    trick = [(W, cid("SW-7")), (S, cid("SW-9")), (E, cid("SW-2")), (N, cid("CU-K"))]
    assert RULES.winning_play(trick) == (S, cid("SW-9"))
    assert RULES.winning_play([(W, MATTO), (S, cid("CO-2")), (E, cid("CO-A"))]) == (
        E,
        cid("CO-A"),
    )


def test_follow_suit_else_trump_else_any() -> None:
    """§7.4: Coins led: {CO-3, T7, MATTO} -> {CO-3, MATTO}; {T7, T31, BA-2} -> {T7, T31};
    {BA-2, CU-5} -> both."""
    trick = ((W, cid("CO-5")),)
    assert play_mask(m("CO-3", "T7", "MATTO"), trick, 0) == m("CO-3", "MATTO")
    assert play_mask(m("T7", "T31", "BA-2"), trick, 0) == m("T7", "T31")
    assert play_mask(m("BA-2", "CU-5"), trick, 0) == m("BA-2", "CU-5")
    # §4: a led Matto lets the next card set the suit; the Matto may lead
    assert play_mask(m("BA-2", "CU-5", "T3"), ((W, MATTO),), 0) == m("BA-2", "CU-5", "T3")
    assert play_mask(m("BA-2", "T3"), ((W, MATTO), (S, cid("T9"))), 0) == m("T3")
    # §6.4: void holding the Matto may play it instead of trumping
    assert play_mask(m("T7", "MATTO"), trick, 0) == m("T7", "MATTO")


def test_king_rule_forces_the_king() -> None:
    """§7.5: first Cups lead, W plays CU-5, S (void) trumps with T12, E holding CU-K, CU-2 and
    the Matto must play CU-K, with the rule named when another card is tried."""
    state = table(
        N,
        {W: ["CU-5"], S: ["T12"], E: ["CU-K", "CU-2", "MATTO"]},
        void={S: ["CU"], E: ["CU"]},
    )
    state = play(to_play(state), "CU-5", "T12")
    assert state.to_move == E and legal(state) == {"CU-K"}
    assert RULES.king_rule(state) == m("CU-K")
    for card in ("CU-2", "MATTO"):
        with pytest.raises(IllegalAction) as err:
            play(state, card)
        assert str(err.value) == (
            "the King rule forces the King of Cups: it is the first Cups trick and a trump "
            "has been played"
        )
    assert king_rule_king(m("CU-K", "CU-2"), state.trick, 0) == m("CU-K")


def test_king_rule_not_before_a_trump() -> None:
    """§7.6: same trick, but S follows with CU-9: E may play CU-K, CU-2 or the Matto."""
    state = table(
        N,
        {W: ["CU-5"], S: ["CU-9"], E: ["CU-K", "CU-2", "MATTO"]},
        void={S: ["CU"], E: ["CU"]},
    )
    state = play(to_play(state), "CU-5", "CU-9")
    assert legal(state) == {"CU-K", "CU-2", "MATTO"}
    assert RULES.king_rule(state) == 0


def test_king_rule_only_on_the_first_lead_of_the_suit() -> None:
    """§7.7: on the second Cups lead, with a trump already played before E, E is free."""
    state = table(
        N,
        {
            W: ["CU-Q", "CU-N"],
            S: ["CU-9", "T12"],
            E: ["CU-K", "CU-2", "CU-3", "MATTO"],
            N: ["CU-8"],
        },
        void={S: ["CU"], E: ["CU"]},
    )
    state = play(to_play(state), "CU-Q", "CU-9", "CU-2", "CU-8")
    assert state.winners == (W,) and state.to_move == W
    state = play(state, "CU-N", "T12")
    assert legal(state) == {"CU-K", "CU-3", "MATTO"}


def test_king_rule_moot_on_trump_leads_and_discards_do_not_use_up_the_first_lead() -> None:
    """§6.6: never on trump leads; §6.7: an off-suit discard of Cups is not a Cups lead."""
    led = PACK.suit_mask[2]
    trick = ((W, cid("T3")), (S, cid("T9")))
    assert play_mask(m("CU-K", "CU-2", "T4"), trick, 0) == m("T4")
    trick = ((W, cid("CU-5")), (S, cid("T9")))
    assert play_mask(m("CU-K", "CU-2"), trick, led) == m("CU-K", "CU-2")
    state = table(
        N,
        {W: ["SW-3", "SW-K", "CU-5"], S: ["CU-9", "T12"], E: ["CU-K", "CU-2"], N: ["SW-4"]},
        void={S: ["SW"], E: ["SW", "T"]},
    )
    # trick 1: Swords led; South, void in Swords, must trump (§4), not throw CU-9
    state = play(to_play(state), "SW-3")
    assert "CU-9" not in legal(state)
    state = play(state, "T12")
    assert state.led == 0
    # East has no Swords and no trump: a Cups card goes off-suit
    assert legal(state) >= {"CU-2", "CU-K"}
    state = play(state, "CU-2", "SW-4")
    assert state.led == PACK.suit_mask[0]  # only Swords have been led


def test_matto_stays_with_its_team_when_lost() -> None:
    """§4: the Matto never wins; lost to the opponents it returns to its owner's team pile."""
    state = table(N, {W: ["SW-3"], S: ["SW-10"], E: ["MATTO"], N: ["SW-4"]})
    state = play(to_play(state), "SW-3", "SW-10", "MATTO", "SW-4")
    assert state.winners == (S,)
    ns, ew = state.piles
    assert codes(ns) == {"SW-3", "SW-10", "SW-4"} and codes(ew) == {"MATTO"}
    assert not [sc for sc in RULES.scores(state) if sc.key[0] == 6]  # the Matto is never taken


def test_opponents_counting_cards_score_at_once() -> None:
    """§7.15: S leads T38, E plays T39, N plays T2, W plays T6: E wins and East-West score
    10 + 3 = 13 at once (T6 is their own card)."""
    state = table(W, {S: ["T38"], E: ["T39"], N: ["T2"], W: ["T6"]})
    state = play(to_play(state), "T38", "T39", "T2", "T6")
    assert state.winners == (E,)
    last = RULES.scores(state)[-1]
    assert (last.key, last.team, last.seat, last.points) == ((6, 0), 1, E, 13)
    assert codes(last.cards) == {"T38", "T2"}
    event = RULES.public_events(state)[-1]
    assert event.kind == "score" and event.value == 13
    assert event.text.startswith(
        "East-West score 13 for 38 The Sun and 2 Papa II captured by East in trick 1."
    )


def test_own_cards_die_at_home() -> None:
    """§7.16: N plays BA-K and S wins the trick: nothing scores at once; it counts at the end."""
    state = table(
        E,
        {N: ["BA-K"], W: ["BA-2"], S: ["T40"], E: ["BA-3"]},
        void={S: ["BA"]},
    )
    state = play(to_play(state), "BA-K", "BA-2", "T40", "BA-3")
    assert state.winners == (S,)
    assert not [sc for sc in RULES.scores(state) if sc.key[0] == 6]
    assert "BA-K" in codes(state.piles[0])


def test_illegal_actions_change_nothing() -> None:
    """An illegal action raises IllegalAction naming the rule and leaves the state alone."""
    state = to_play(table(N, {W: ["CU-5"], S: ["CU-9"]}))
    before = state
    with pytest.raises(IllegalAction, match="not in your hand"):
        RULES.apply(state, cid("CU-9"))
    with pytest.raises(IllegalAction):
        RULES.apply(state, -1)
    with pytest.raises(IllegalAction):
        RULES.apply(state, 10_000)
    assert state == before
    state = play(state, "CU-5")
    with pytest.raises(IllegalAction, match="you must follow Cups"):
        play(state, next(c for c in PACK.codes_of(state.hands[S]) if not c.startswith("CU")))


def test_codes_round_trip() -> None:
    """Every action has a text code that parses back (DESIGN rule 9)."""
    for a in range(N_CARDS + len(RULES.extra_actions)):
        assert RULES.parse_action(RULES.action_code(a)) == a
    assert RULES.action_code(DONE) == "DECL-DONE"
