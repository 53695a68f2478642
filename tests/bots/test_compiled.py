"""The compiled playouts play exactly like the Python kernels and score like the rules.

For every game (Piedicavallo and Ottocento on one-word masks, Minchiate on two-word
masks): without random moves a compiled playout must choose, action for action,
what the Python kernel's greedy players choose (seeing every hand, or counting
cards only) and reach the same value; with random moves every playout must be a
legal sequence of actions that the rules score exactly as the compiled playout does.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from tarocchi.bots import compiled
from tarocchi.bots.search import kernel
from tarocchi.games import game
from tests.bots.test_search import to_play_phase

GAMES = ["piedicavallo", "ottocento", "minchiate"]


def positions(name: str, seeds: range, every: int) -> list[tuple[Any, Any]]:
    """Return (rules state, kernel position) pairs met along random seeded deals, from the
    first declaration or card on, finished deals included."""
    rules = game(name)
    k = kernel(name)
    assert k is not None
    out = []
    for seed in seeds:
        rng = random.Random(seed)
        state = to_play_phase(name, seed)
        step = 0
        while state.to_move is not None:
            if step % every == 0:
                out.append((state, k.from_state(state)))
            state = rules.apply(state, rng.choice(rules.legal_actions(state)))
            step += 1
        out.append((state, k.from_state(state)))
    return out


def starts(name: str, count: int) -> list[tuple[Any, Any]]:
    """Return deals stopped at their first decision after the discard, for the games whose
    kernel plays from there (Ottocento: the first declaration, when a player holds a
    combination; Minchiate's kernel starts at the first lead)."""
    if name == "minchiate":
        return []
    rules = game(name)
    k = kernel(name)
    assert k is not None
    out = []
    for seed in range(count):
        state = rules.deal(seed)
        while rules.phase_name(state) == "discard":
            state = rules.apply(state, rules.legal_actions(state)[0])
        out.append((state, k.from_state(state)))
    return out


@pytest.mark.parametrize("name", GAMES)
def test_compiled_greedy_playouts_are_the_python_playouts(name: str) -> None:
    k = kernel(name)
    assert k is not None
    checked = 0
    for _, pos in positions(name, range(120), every=5) + starts(name, 40):
        for policy in (k.POLICY, k.COUNTING):
            py_moves: list[int] = []
            fast_moves: list[int] = []
            expected = k.playout(pos, random.Random(0), 0.0, py_moves, policy)
            assert k.seeded_playout(pos, 99, 0.0, policy, fast_moves) == expected
            assert fast_moves == py_moves
            checked += 1
    assert checked > 2000


@pytest.mark.parametrize("eps", [0.3, 1.0])
@pytest.mark.parametrize("name", GAMES)
def test_compiled_random_playouts_are_legal_and_scored_like_the_rules(
    name: str, eps: float
) -> None:
    rules = game(name)
    k = kernel(name)
    assert k is not None
    different = set()
    for i, (state, pos) in enumerate(positions(name, range(120, 200), every=9) + starts(name, 20)):
        moves: list[int] = []
        seed = (i * 0x9E3779B97F4A7C15) % (1 << 64)  # full 64-bit seeds, as the search's
        value = k.seeded_playout(pos, seed, eps, k.POLICY if i % 2 else k.COUNTING, moves)
        end, kend = state, pos
        for action in moves:
            assert action in rules.legal_actions(end)
            end = rules.apply(end, action)
            kend = k.play(kend, action)
        assert end.to_move is None
        assert k.totals(kend) == k.result_totals(rules.result(end))  # the kernel scores alike
        assert value == k.value(kend)  # and the compiled playout reached that end
        different.add(tuple(moves))
    assert len(different) > 80  # the random moves differ from playout to playout


@pytest.mark.parametrize("name", GAMES)
def test_the_seed_fixes_the_random_moves(name: str) -> None:
    k = kernel(name)
    assert k is not None
    _, pos = positions(name, range(1), every=100)[0]
    runs = {}
    for seed in (1, 2):
        a: list[int] = []
        b: list[int] = []
        k.seeded_playout(pos, seed, 0.5, k.POLICY, a)
        k.seeded_playout(pos, seed, 0.5, k.POLICY, b)
        assert a == b
        runs[seed] = a
    assert runs[1] != runs[2]


def test_packs_are_given_the_masks_they_fit() -> None:
    from tarocchi.bots import compiled_minchiate
    from tarocchi.bots import kernel_minchiate as km
    from tarocchi.bots import kernel_piedicavallo as kp

    with pytest.raises(ValueError, match="does not fit"):
        compiled.tables(km.PACK, km.BEAT, km.LED_MASK, km.POLICY)
    with pytest.raises(ValueError, match="two-word masks"):
        compiled_minchiate.tables(kp.PACK, kp.BEAT, kp.POINTS, kp.POLICY)
