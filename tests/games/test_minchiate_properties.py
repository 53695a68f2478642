"""Minchiate: differential tests against the spec's pseudo-code, perft counts and properties
over many seeded random deals (views hide what they must, cards and points are conserved,
the ledger keeps its invariants, records replay)."""

from __future__ import annotations

import itertools
import json
import random
import re
from pathlib import Path

from tarocchi.cards import bits, mask_of, popcount
from tarocchi.games.minchiate import (
    DECLARE,
    DISCARD,
    DISCARDABLE,
    DONE,
    N_CARDS,
    PACK,
    PLAY,
    RULES,
    SPECIAL,
    State,
    card_points,
    combos,
    play_mask,
)
from tarocchi.match import play_deal
from tarocchi.record import make_record, replay
from tarocchi.views import to_json, view
from tests.conftest import THOUSAND_DEALS
from tests.games import reference_minchiate as ref
from tests.games.perft import perft

CODE = re.compile(r"\b(?:SW|BA|CU|CO)-(?:10|[2-9AJNQK])\b|\bT(?:40|[1-3][0-9]|[1-9])\b")
DATA = Path(__file__).parent.parent / "data" / "minchiate_perft.json"


def cards(mask: int) -> set[ref.C]:
    return {ref.C(PACK.codes[c]) for c in bits(mask)}


def random_deal(seed: int) -> list[State]:
    """Play a deal with random legal actions; return every state."""
    rng = random.Random(seed)
    state = RULES.deal(seed)
    states = [state]
    while state.to_move is not None:
        state = RULES.apply(state, rng.choice(RULES.legal_actions(state)))
        states.append(state)
    return states


def reference_legal(state: State) -> set[str]:
    """The legal actions by the spec alone."""
    p = state.to_move
    assert p is not None
    hand = cards(state.hands[p])
    if state.phase == DISCARD:
        # §2.5: zero-point cards but T29 (§6.2's fallback is checked separately)
        out = {c.code for c in hand if c.points == 0 and c.code != "T29"}
        assert out, "a shortfall: not expected in these seeds"
        return out
    if state.phase == DECLARE:
        done = {k for s, k, _, _ in state.declared if s == p}
        open_ = [k for k in (c.kind for c in combos(state.hands[p])) if k not in done]
        assert len(ref.combos(hand)) == len(combos(state.hands[p]))
        return {RULES.extra_actions[k] for k in open_} | {"DECL-DONE"}
    first: dict[str, int] = {}
    for i, t in enumerate(state.tricks):
        led = next(ref.C(PACK.codes[c]).suit for _, c in t if PACK.codes[c] != "MATTO")
        first.setdefault(led, i)
    trick = [ref.C(PACK.codes[c]) for _, c in state.trick]
    real = [c for c in trick if c.code != "MATTO"]
    if real:
        first.setdefault(real[0].suit, len(state.tricks))
    return {c.code for c in ref.legal(hand, trick, first, len(state.tricks))}


def reference_result(final: State) -> tuple[int, int, int, int]:
    """Score a finished deal by the spec alone: (ns resti, ew resti, ns points, ew points)."""
    info, dealer = final.info, final.dealer
    ledger = ref.Ledger()
    ledger.score(info.cutter & 1, sum(c.points for c in cards(mask_of(info.robbed))))
    for k in range(4):
        seat = (dealer + 1 + k) & 3
        ledger.score(seat & 1, ref.C(PACK.codes[info.exposed[seat]]).points)
    ledger.score(dealer & 1, sum(c.points for c in cards(mask_of(info.fola_robbed))))
    ledger.score(dealer & 1, sum(c.points for c in cards(info.fola_taken)))
    for seat, _, _, value in final.declared:  # values: test_declared_values_are_the_spec_values
        ledger.score(seat & 1, value)
    piles: list[set[ref.C]] = [set(), set()]
    matto_owner = -1
    for trick, winner in zip(final.tricks, final.winners, strict=True):
        plays = [(s, ref.C(PACK.codes[c])) for s, c in trick]
        assert ref.trick_winner(plays) == winner
        team = winner & 1
        for s, c in plays:
            if c == ref.MATTO:
                piles[s & 1].add(c)
                if (s ^ winner) & 1:
                    matto_owner = s & 1
            else:
                piles[team].add(c)
        ledger.score(team, sum(c.points for s, c in plays if (s ^ winner) & 1 and c != ref.MATTO))
    if matto_owner >= 0:
        given = ref.payback(piles[matto_owner])
        piles[matto_owner].discard(given)
        piles[1 - matto_owner].add(given)
        if given != ref.MATTO:
            ledger.score(1 - matto_owner, given.points)
    last = final.winners[-1] & 1
    end = [ref.end_total(piles[t], last == t) for t in (0, 1)]
    ledger.finish(end[0], end[1])
    return ledger.resti[0], ledger.resti[1], end[0], end[1]


def test_quick_forms_agree_with_the_plain_ones() -> None:
    """The hot path's inlined legal mask is play_mask's; card_points is the points table's."""
    rng = random.Random(9)
    for seed in range(200):
        for state in random_deal(seed):
            if state.phase == PLAY:
                p = state.to_move
                assert p is not None
                assert state.legal == play_mask(state.hands[p], state.trick, state.led)
    for _ in range(5000):
        mask = rng.getrandbits(N_CARDS)
        assert card_points(mask) == PACK.points_of(mask)


def test_engine_matches_the_spec() -> None:
    """On 300 random deals, every legal set, trick winner and final result equals the spec's."""
    for seed in range(300):
        states = random_deal(seed)
        for state in states[:-1]:
            engine = {RULES.action_code(a) for a in RULES.legal_actions(state)}
            assert engine == reference_legal(state), (seed, len(state.tricks), state.trick)
        final = states[-1]
        r = RULES.result(final)
        got = dict(r.extra)
        assert (r.ns, r.ew, got["ns_points"], got["ew_points"]) == reference_result(final), seed


def test_declared_values_are_the_spec_values() -> None:
    """§3: each declared versicola is worth what the spec's pseudo-code gives in that hand."""
    seen = 0
    for seed in range(400):
        states = random_deal(seed)
        for before, after in itertools.pairwise(states):
            if after.declared != before.declared:
                seat, _, declared, value = after.declared[-1]
                expect = ref.combos(cards(before.hands[seat]))
                assert (sorted(PACK.codes_of(declared)), value) in [
                    (sorted(codes), v) for _, codes, v in expect
                ]
                seen += 1
    assert seen > 50


def first_lead(seed: int) -> State:
    """Return the first lead reached from a seed by always taking the lowest legal action."""
    state = RULES.deal(seed)
    while state.phase != PLAY:
        state = RULES.apply(state, RULES.legal_actions(state)[0])
    return state


def test_perft_counts() -> None:
    """Move generation is pinned by stored counts of action sequences from fixed deals."""
    stored = json.loads(DATA.read_text())
    assert len(stored["seeds"]) >= 3 and stored["depth"] >= 4
    for seed, counts in stored["seeds"].items():
        state = RULES.deal(int(seed))
        assert [perft(RULES, state, d) for d in range(1, stored["depth"] + 1)] == counts, seed
    for seed, counts in stored["play_starts"].items():
        state = first_lead(int(seed))
        assert [perft(RULES, state, d) for d in range(1, stored["play_depth"] + 1)] == counts, seed


def test_perft_counts_agree_with_the_reference() -> None:
    """The stored counts are also what the spec's rules generate (depth 4 from the leads)."""
    stored = json.loads(DATA.read_text())

    for seed, counts in stored["play_starts"].items():
        assert perft(RULES, first_lead(int(seed)), 4, reference_legal) == counts[3]
    assert perft(RULES, RULES.deal(58), 4, reference_legal) == stored["seeds"]["58"][3]


def allowed_for(state: State, seat: int) -> tuple[int, int]:
    """Return (every card seat may know the place of, the cards only it may know), worked out
    from the rules alone (§2: what is dealt face up, robbed, taken; §2.5-2.6: the discards and
    the Fola; §3: declarations; §4: cards played)."""
    info = state.info
    played = mask_of(c for t in (*state.tricks, state.trick) for _, c in t)
    public = mask_of(info.robbed) | mask_of(info.exposed) | mask_of(info.fola_robbed)
    public |= info.fola_taken | (1 << info.fola_stop if info.fola_stop >= 0 else 0)
    for _, _, declared, _ in state.declared:
        public |= declared  # (versicole may share cards: no mask_of here)
    public |= (state.discards[0] | state.discards[1]) & SPECIAL  # §6.2: forced, announced
    private = 0
    if state.phase >= PLAY:
        public |= info.fola_rest | state.discards[0] | state.discards[1]
    elif seat == info.cutter:
        private = state.discards[0]
    elif seat == state.dealer:
        private = state.discards[1] | info.fola_rest
    return state.hands[seat] | played | public | private, private


def sampled(states: list[State]) -> list[State]:
    """The first state, each phase's first state, every 15th and the last."""
    keep = {0, len(states) - 1}
    keep.update(range(0, len(states), 15))
    for i in range(1, len(states)):
        moved = states[i].phase != states[i - 1].phase or states[i].to_move != states[i - 1].to_move
        if moved and states[i].phase < PLAY:
            keep.add(i)
    return [states[i] for i in sorted(keep)]


@THOUSAND_DEALS
def test_views_never_show_a_hidden_card(seeds: range) -> None:
    """On 1000 random deals, no view holds a card its seat cannot know, shown cards are really
    in their hands, and before the Fola is shown no discarder's shown cards could have been
    discarded."""
    for seed in seeds:
        for state in sampled(random_deal(seed)):
            for seat in range(4):
                v = view(state, seat)
                allowed, private = allowed_for(state, seat)
                assert v.hand == state.hands[seat]
                assert v.private == private, (seed, seat)
                assert not v.known & ~allowed, (seed, seat, PACK.codes_of(v.known & ~allowed))
                for e in v.events:  # no text names a card its event does not show
                    named = {PACK.card_id(c) for c in CODE.findall(e.text)}
                    assert all(allowed >> c & 1 for c in named), (seed, seat, e.text)
                for s in range(4):
                    assert not v.shown[s] & ~state.hands[s]
                    if state.phase < PLAY and s in (state.info.cutter, state.dealer):
                        assert not v.shown[s] & DISCARDABLE
                assert not (v.won[0] | v.won[1]) & ~v.played
                assert (v.legal != ()) == (state.to_move == seat)
                if seat == 0 and seed % 50 == 0:
                    json.dumps(to_json(v))


def test_cards_and_points_are_conserved() -> None:
    """On 1000 random deals: hands, trick, piles and Fola partition the pack at every step;
    84 cards are in play and 13 in the Fola, none special; the piles hold all 142 points."""
    for seed in range(1000):
        states = random_deal(seed)
        for state in states:
            fola = RULES.fola_mask(state)
            trick = mask_of(c for _, c in state.trick)
            masks = [*state.hands, *state.piles, fola, trick]
            union = 0
            for mask in masks:
                assert not union & mask, seed
                union |= mask
            assert union == PACK.full_mask, seed
        start = next(s for s in states if s.phase == PLAY)
        assert sum(map(popcount, start.hands)) == 84
        assert all(popcount(h) == 21 for h in start.hands)
        fola = RULES.fola_mask(start)
        assert popcount(fola) == 13 and not fola & SPECIAL
        final = states[-1]
        assert len(final.winners) == 21 and final.hands == (0, 0, 0, 0)
        result = RULES.result(final)
        ns, ew = result.piles
        assert not ns & ew and ns | ew == PACK.full_mask & ~fola
        assert PACK.points_of(ns) + PACK.points_of(ew) == 142
        assert popcount(ns) % 4 == 0 and popcount(ew) % 4 == 0


def test_ledger_invariants() -> None:
    """On 1000 random deals: every entry leaves a difference under 60, resti never go down, the
    difference is the signed points so far less 60 per net resto, and the last entry settles
    the end totals into the final resti."""
    for seed in range(1000):
        final = random_deal(seed)[-1]
        result = RULES.result(final)
        got = dict(result.extra)
        ledger = got["ledger"]
        assert isinstance(ledger, list)
        signed = 0
        ns = ew = 0
        for entry in ledger[:-1]:
            assert entry["points"] > 0 and entry["team"] in ("NS", "EW")
            signed += entry["points"] if entry["team"] == "NS" else -entry["points"]
            assert entry["ns_resti"] >= ns and entry["ew_resti"] >= ew
            ns, ew = entry["ns_resti"], entry["ew_resti"]
            assert -60 < entry["difference"] < 60
            assert entry["difference"] == signed - 60 * (ns - ew)
        diff = signed - 60 * (ns - ew) + got["ns_points"] - got["ew_points"]
        end = ledger[-1]
        up = -(-abs(diff) // 60)
        assert (end["ns_resti"], end["ew_resti"]) == (
            ns + (up if diff > 0 else 0),
            ew + (up if diff < 0 else 0),
        )
        assert (result.ns, result.ew) == (end["ns_resti"], end["ew_resti"])
        json.dumps(ledger)


def test_records_replay() -> None:
    """Records of played deals carry the deal fields and resti, and replay to the same result."""
    for seed in range(30):
        log = play_deal("minchiate", seed, ["random"] * 4)
        record = json.loads(json.dumps(make_record(log)))
        assert record["cut"] == log.initial.info.cut
        assert len(record["hands"]) == 4 and all(len(h) == 21 for h in record["hands"])
        assert len(record["deck"]) == N_CARDS
        assert "ns_resti" in record["result"] and "ew_resti" in record["result"]
        rules, final = replay(record)
        assert rules is RULES and final == log.final


def test_every_action_kind_is_reachable() -> None:
    """Random deals reach every declaration action and DECL-DONE."""
    seen: set[int] = set()
    for seed in range(400):
        for state in random_deal(seed):
            if state.phase == DECLARE:
                seen |= set(RULES.legal_actions(state))
    assert {a for a in seen if a >= N_CARDS} >= {
        RULES.parse_action(c) for c in ("DECL-SEQ-LOW", "DECL-SEQ-HIGH-1", "DECL-KINGS")
    } | {DONE}
