"""The search bots and their playout kernels.

The kernels are differential-tested against the rules on many seeded deals: from
positions all through a random deal, every playout they play (its first action
given) is a legal sequence of actions that the rules score exactly as they do.
"""

from __future__ import annotations

import random
from itertools import pairwise
from typing import Any

import pytest

from tarocchi.bots import make_bot
from tarocchi.bots.parts import Settings
from tarocchi.bots.search import SearchBot, equivalent, kernel
from tarocchi.games import game
from tarocchi.match import play_deal
from tarocchi.views import view

KERNEL_GAMES = ["piedicavallo", "ottocento", "minchiate"]


def to_play_phase(name: str, seed: int) -> Any:
    """Return a seeded deal after its setup phases, played by the heuristic bots."""
    rules = game(name)
    state = rules.deal(seed)
    bots = [make_bot("heuristic", rules, seed * 4 + s) for s in range(4)]
    while state.to_move is not None and rules.phase_name(state) != "play":
        state = rules.apply(state, bots[state.to_move].choose(view(state, state.to_move)))
    return state


@pytest.mark.parametrize("name", KERNEL_GAMES)
def test_kernel_plays_exactly_like_the_rules(name: str) -> None:
    """From positions all through random deals, a playout whose first action is any legal
    one is a legal sequence of actions that the rules score exactly as the kernel does."""
    rules = game(name)
    k = kernel(name)
    for seed in range(120):
        rng = random.Random(seed)
        state = to_play_phase(name, seed)
        step = 0
        while state.to_move is not None:
            action = rng.choice(rules.legal_actions(state))
            if step % 5 == 0:
                moves: list[int] = []
                players = k.heuristic_players(view(state, state.to_move))
                value = k.playout(k.from_state(state), players, action, moves)
                assert moves[0] == action
                end = state
                for a in moves:
                    end = rules.apply(end, a)
                assert end.to_move is None
                assert k.totals(k.from_state(end)) == k.result_totals(rules.result(end))
                assert value == k.value(k.from_state(end))
            state = rules.apply(state, action)
            step += 1
        assert k.totals(k.from_state(state)) == k.result_totals(rules.result(state))


class Quick(SearchBot):
    """A search bot with a tiny budget, for tests."""

    settings = Settings(playouts=60, seconds=5.0)


class QuickInfer(SearchBot):
    """A tiny search over deals resampled by the plays so far."""

    settings = Settings(playouts=60, seconds=5.0, infer=2)


@pytest.mark.parametrize("cls", [Quick, QuickInfer])
@pytest.mark.parametrize("name", KERNEL_GAMES)
@pytest.mark.slow
def test_search_plays_legal_and_deterministic_deals(cls: type[SearchBot], name: str) -> None:
    rules = game(name)
    for seed in (1, 2):
        runs = []
        for _ in range(2):
            state = rules.deal(seed)
            bots = [cls(rules, seed * 8 + s) for s in range(4)]
            actions = []
            while state.to_move is not None:
                v = view(state, state.to_move)
                a = bots[state.to_move].choose(v)
                assert a in v.legal
                actions.append(a)
                state = rules.apply(state, a)
            runs.append(actions)
        assert runs[0] == runs[1]


def test_search_statistics_cover_every_legal_card() -> None:
    rules = game("piedicavallo")
    state = to_play_phase("piedicavallo", 5)
    v = view(state, state.to_move)
    stats = Quick(rules, 1).evaluate(v)
    assert stats is not None
    assert set(stats) == set(v.legal)
    assert all(st.count > 0 for st in stats.values())


def test_oracle_plays_through_the_match_runner() -> None:
    log = play_deal("piedicavallo", 3, ["oracle", "heuristic", "oracle", "heuristic"])
    assert log.final.to_move is None
    with pytest.raises(TypeError):
        make_bot("oracle", game("piedicavallo")).choose(view(log.initial, 0))


@pytest.mark.parametrize("level", ["easy", "normal", "hard"])
def test_levels_name_bots(level: str) -> None:
    from tarocchi.bots import LEVELS

    bot = make_bot(LEVELS[level], game("piedicavallo"), 0)
    state = to_play_phase("piedicavallo", 9)
    assert bot.choose(view(state, state.to_move)) in rules_legal(state)


def rules_legal(state: Any) -> list[int]:
    """Return the legal actions of a Piedicavallo state."""
    legal: list[int] = game("piedicavallo").legal_actions(state)
    return legal


@pytest.mark.parametrize("name", KERNEL_GAMES)
def test_equivalent_cards_are_interchangeable(name: str) -> None:
    rules = game(name)
    k = kernel(name)
    pack = rules.pack
    merged = 0
    for seed in range(30):
        state = to_play_phase(name, seed)
        rng = random.Random(seed)
        while state.to_move is not None:
            v = view(state, state.to_move)
            if v.phase == "play":
                classes = equivalent(v, k.INTERCHANGEABLE)
                assert sorted(a for c in classes for a in c) == sorted(v.legal)
                out = pack.full_mask & ~v.hand & ~v.played
                for c in classes:
                    for a, b in pairwise(c):
                        merged += 1
                        assert pack.suit_of[a] == pack.suit_of[b]
                        assert pack.points[a] == pack.points[b]
                        assert k.INTERCHANGEABLE >> a & k.INTERCHANGEABLE >> b & 1
                        assert not out & ((1 << b) - 1) & ~((2 << a) - 1)
            state = rules.apply(state, rng.choice(rules.legal_actions(state)))
    assert merged > 20


def test_equivalent_merges_cards_in_sequence() -> None:
    # South holds SW-5 SW-6 SW-7, SW-9 SW-10 and the Swords courts (the table fills its hand
    # from the lowest cards): SW-8 is still out, and the courts differ in points
    from tests.games.piedicavallo_helpers import table

    rules = game("piedicavallo")
    state = table(3, {0: ["SW-5", "SW-6", "SW-7", "SW-9"], 3: ["SW-8", "CU-6", "CU-5"]})
    for code in ("CU-6", "CU-5"):
        state = rules.apply(state, rules.card_id(code))
    v = view(state, 0)
    k = kernel("piedicavallo")
    classes = [[rules.card_code(a) for a in c] for c in equivalent(v, k.INTERCHANGEABLE)]
    assert ["SW-5", "SW-6", "SW-7"] in classes
    assert ["SW-9", "SW-10"] in classes
    assert ["SW-J"] in classes and ["SW-K"] in classes


def test_lead_over_is_the_paired_difference() -> None:
    from tarocchi.bots.search import Stat

    a, b = Stat(), Stat()
    for x, y in [(5.0, 1.0), (3.0, 2.0), (4.0, 0.0), (2.0, 2.0)]:
        a.add(x)
        b.add(y)
    mean, se = a.lead_over(b)
    assert mean == pytest.approx(2.25)  # differences 4, 1, 4, 0
    assert se == pytest.approx((((1.75**2 + 1.25**2 + 1.75**2 + 2.25**2) / 3) / 4) ** 0.5)
    assert a.count == 4 and a.total == 14.0


class Confident(SearchBot):
    """A search bot that leaves the heuristic's choice only on a clear lead."""

    settings = Settings(playouts=400, seconds=5.0, confidence=1e9)


def test_confidence_keeps_the_heuristic_choice_without_a_clear_lead() -> None:
    # with an impossible confidence the search never overrules the heuristic bot; with none
    # it does somewhere over these positions
    rules = game("piedicavallo")
    overruled = 0
    for seed in range(6):
        state = to_play_phase("piedicavallo", seed)
        for _ in range(8):
            v = view(state, state.to_move)
            confident, quick = Confident(rules, seed), Quick(rules, seed)
            heuristic = make_bot("heuristic", rules, 0).choose(v)
            if len(v.legal) > 1:
                assert confident.choose(v) == confident.fallback.choose(v)
                overruled += quick.choose(v) != quick.fallback.choose(v)
            state = rules.apply(state, heuristic)
    assert overruled > 0
