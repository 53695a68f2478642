"""The running score counts as the end counts: at every trick of seeded deals its parts are
the end's breakdown counted on the cards taken so far, and at the end the breakdown itself;
every seat's view gives the same score, so it holds nothing one seat may not know."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest

from tarocchi.cards import SEATS
from tarocchi.games import GAMES, game
from tarocchi.games import minchiate as mi
from tarocchi.games.base import Tally
from tarocchi.games.minchiate_combos import versicole_value
from tarocchi.games.minchiate_deal import CARDS_PAR, card_points, end_points
from tarocchi.games.minchiate_ledger import Ledger
from tarocchi.games.ottocento_combos import combination_value
from tarocchi.packs.bolognese import PACK as BOLOGNESE
from tarocchi.packs.piemontese import MATTO as PIEMONTESE_MATTO
from tarocchi.views import view

SEEDS = range(8)


def tricks_of(name: str, seed: int) -> Iterator[tuple[Any, Tally]]:
    """Play a seeded random deal; yield the state and South's tally when play starts, after
    every trick and at the end, checking first that every seat's view tallies alike."""
    rules = game(name)
    state = rules.deal(seed)
    rng = random.Random(seed)
    seen = -1
    while True:
        if rules.phase_name(state) != "discard" and not state.trick and len(state.winners) > seen:
            seen = len(state.winners)
            tallies = [rules.tally(view(state, seat)) for seat in range(4)]
            assert tallies[1:] == tallies[:3], (name, seed, seen)  # a public fact
            yield state, tallies[0]
        if rules.is_over(state):
            return
        state = rules.apply(state, rng.choice(rules.legal_actions(state)))


def by_label(t: Tally) -> dict[str, tuple[float, float]]:
    return {str(x.label): (x.ns, x.ew) for x in t.parts}


@pytest.mark.parametrize("name", sorted(GAMES))
def test_at_the_end_the_score_is_the_breakdown(name: str) -> None:
    rules = game(name)
    for seed in SEEDS:
        *_, (state, tally) = tricks_of(name, seed)
        result = rules.result(state)
        assert (tally.ns, tally.ew) == (result.ns, result.ew)
        assert tally.parts == result.lines


def test_ottocento_counts_the_cards_taken_as_the_end_counts_them() -> None:
    for seed in SEEDS:
        for state, tally in tricks_of("ottocento", seed):
            if state.to_move is None:
                continue
            parts = by_label(tally)
            declared = [0, 0]
            for seat, shown, value in state.declarations:
                declared[seat & 1] += value
                if shown:  # rules §3: each declaration scores for its declarer's team
                    label = f"Declared by {SEATS[seat]}"
                    assert parts[label] == ((value, 0) if seat % 2 == 0 else (0, value))
            # rules §1: in pairs, each card its value minus a half (odd piles keep the half)
            cards = [pair_points(pile) for pile in state.piles]
            assert parts["Card points (counted in pairs)"] == (cards[0], cards[1])
            captured = [combination_value(pile) for pile in state.piles]
            assert parts["Combinations captured by NS"] == (captured[0], 0)
            assert parts["Combinations captured by EW"] == (0, captured[1])
            assert (tally.ns, tally.ew) == tuple(
                cards[t] + captured[t] + declared[t] for t in (0, 1)
            )
            assert sum(x.ns for x in tally.parts) == tally.ns


def pair_points(pile: int) -> float:
    return BOLOGNESE.points_of(pile) - pile.bit_count() / 2


def test_ottocento_tells_the_pair_counting_with_the_deals_numbers() -> None:
    rules = game("ottocento")
    halves = set()
    for state, tally in (x for seed in SEEDS for x in tricks_of("ottocento", seed)):
        line = next(x for x in tally.parts if str(x.label).startswith("Card points"))
        # the end tells its settled piles (the discard joined, the Matto settled)
        piles = rules.result(state).piles if state.to_move is None else state.piles
        for pile in piles:
            pts = rules.pack.points_of(pile)
            n = pile.bit_count()
            told = f"{n} cards worth {pts}, minus 1 a pair: {pts} − {n / 2:g} = {pts - n / 2:g}"
            assert told in str(line.note), line.note
        half = "until the Matto is settled" in str(line.note)
        assert half == bool(piles[0].bit_count() & 1 or piles[1].bit_count() & 1)
        halves.add(half)
    assert halves == {False, True}  # the deals show both


def test_minchiate_shows_what_scored_at_once_and_the_end_count_so_far() -> None:
    rules = game("minchiate")
    sources = {mi.CUT: mi.ROBBED, mi.DEAL: mi.FACE_UP, mi.FOLA: mi.FROM_FOLA,
               mi.DECLARATIONS: mi.DECLARED, mi.TRICK: mi.CAPTURED}  # fmt: skip
    found = set()
    for seed in range(24):
        for state, tally in tricks_of("minchiate", seed):
            if state.to_move is None:
                continue
            parts = by_label(tally)
            # the immediate scores by stage (rules §5), as the rules list them
            want = {str(label): [0, 0] for label in mi.SOURCE_LABELS}
            ledger = Ledger()
            for sc in rules.scores(state):
                want[str(mi.SOURCE_LABELS[sources[sc.key[0]]])][sc.team] += sc.points
                ledger = ledger.score(sc.team, sc.points)
            for label, (ns, ew) in want.items():
                assert parts.get(label, (0, 0)) == (ns, ew), (seed, label)
                if ns or ew:
                    found.add(label)
            assert (tally.ns, tally.ew) == (ledger.ns, ledger.ew)
            assert parts["Running difference"] == (max(ledger.diff, 0), max(-ledger.diff, 0))
            # the end's count (rules §5) on the piles so far, before the last trick's 10
            ns_pile, ew_pile = state.piles
            assert parts["Card points in the piles"] == (card_points(ns_pile), card_points(ew_pile))
            for team, pile in enumerate(state.piles):
                label = f"Captured versicole ({('North-South', 'East-West')[team]})"
                value = versicole_value(pile)
                assert parts.get(label, (0, 0))[team] == value
            over = [max(0, p.bit_count() - CARDS_PAR) for p in state.piles]
            assert parts["Cards over 42"] == (over[0], over[1])
            assert parts["End-of-deal total"] == end_points(ns_pile, ew_pile, None)
    assert found == {str(label) for label in mi.SOURCE_LABELS}  # the seeds try every source


def test_piedicavallo_counts_the_cards_taken_and_names_the_hidden_discard() -> None:
    rules = game("piedicavallo")
    matto = 1 << PIEMONTESE_MATTO
    for seed in SEEDS:
        for state, tally in tricks_of("piedicavallo", seed):
            if state.to_move is None:
                continue
            parts = by_label(tally)
            taken = [rules.pack.points_of(p & ~matto) for p in state.piles]
            assert parts["Cards won in tricks"] == (taken[0], taken[1])
            held = [5 * bool(p & matto) for p in state.piles]
            assert parts["The Matto"] == (held[0], held[1])
            # rules §4: the discard counts at the end; nobody but the dealer knows its points
            assert parts["The discard"] == (0, 0)
            assert (tally.ns, tally.ew) == tuple(rules.pack.points_of(p) for p in state.piles)
