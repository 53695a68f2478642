"""Policy-based inference: the replay of past plays and the weighted resampling."""

from __future__ import annotations

import random

import numpy as np
import pytest

from tarocchi.bots import make_bot
from tarocchi.bots.belief import belief
from tarocchi.bots.likelihood import Replay, Resampler
from tarocchi.bots.search import kernel
from tarocchi.games import game
from tarocchi.views import view
from tests.bots.test_search import to_play_phase

REPLAY_GAMES = ["piedicavallo", "ottocento", "minchiate"]


@pytest.mark.parametrize("name", REPLAY_GAMES)
@pytest.mark.parametrize("seeing", [True, False])
def test_replay_finds_no_deviation_in_the_players_own_deal(name: str, seeing: bool) -> None:
    k = kernel(name)
    assert k is not None
    policy = k.POLICY if seeing else k.COUNTING
    for seed in range(20):
        pos = k.from_state(to_play_phase(name, seed))
        moves: list[int] = []
        k.seeded_playout(pos, seed, 0.0, policy, moves)
        seats, cards = [], []
        p = pos
        for action in moves:
            if not getattr(p, "deciding", False):  # Ottocento's declarations are no card
                seats.append(p.to_move)
                cards.append(action)
            p = k.play(p, action)
        moves = cards
        arr = np.array(seats, dtype=np.int64), np.array(moves, dtype=np.int64)
        assert k.replay(k.COMPILED, seeing, pos.hands, *arr, -1) == (0, 0)
        # a random deviation is counted, unless the deviating player had no choice
        rng = random.Random(seed)
        moved = list(moves)
        i = rng.randrange(8)
        j = next(j for j in range(i + 1, len(moved)) if seats[j] == seats[i])
        moved[i], moved[j] = moved[j], moved[i]
        near, miss = k.replay(
            k.COMPILED, seeing, pos.hands, arr[0], np.array(moved, dtype=np.int64), -1
        )
        assert near + miss <= len(moves)


@pytest.mark.parametrize("name", REPLAY_GAMES)
def test_weights_never_rule_out_a_deal_the_view_allows(name: str) -> None:
    rules = game(name)
    k = kernel(name)
    assert k is not None
    for seed in range(6):
        state = rules.deal(seed)
        bots = [make_bot("heuristic", rules, seed * 4 + s) for s in range(4)]
        rng = random.Random(seed)
        step = 0
        while state.to_move is not None:
            v = view(state, state.to_move)
            if v.phase == "play" and step % 9 == 0:
                replay = Replay(v, k)
                assert len(replay) == len(v.played.bit_count() * [0])
                assert replay.weight(state.hands) > 0  # the true deal
                known = belief(v)
                for _ in range(20):
                    sampled = known.sample(rng)
                    assert 0 < replay.weight(sampled.hands) <= 1
            state = rules.apply(state, bots[state.to_move].choose(v))
            step += 1


def test_resampler_follows_the_weights() -> None:
    pool = iter(range(1000))
    rs = Resampler(lambda: next(pool), lambda d: 3.0 if d < 8 else 1.0, random.Random(0), 2, 8)
    got = [rs() for _ in range(8)]
    assert set(got) <= set(range(16))  # one block: twice 8 deals drawn, 8 kept
    assert sum(1 for d in got if d < 8) == 6  # three quarters of the weight: 6 of 8


def test_resampler_is_deterministic_given_its_seed() -> None:
    def run() -> list[int]:
        rng = random.Random(5)
        rs = Resampler(lambda: rng.randrange(100), lambda d: 1.0 + d % 7, rng, 3, 16)
        return [rs() for _ in range(40)]

    assert run() == run()


def test_resampler_keeps_an_all_but_one_unlikely_pool() -> None:
    pool = iter(range(1000))
    rs = Resampler(lambda: next(pool), lambda d: 1.0 if d == 5 else 1e-300, random.Random(1), 2, 4)
    assert [rs() for _ in range(4)] == [5, 5, 5, 5]


def test_hard_level_decides_mid_deal_deterministically() -> None:
    from tarocchi.bots.search import HardSearchBot

    rules = game("piedicavallo")
    state = to_play_phase("piedicavallo", 11)
    bots = [make_bot("heuristic", rules, s) for s in range(4)]
    for _ in range(9):  # two tricks and a card: a history to replay, a trick to follow
        state = rules.apply(state, bots[state.to_move].choose(view(state, state.to_move)))
    v = view(state, state.to_move)
    picks = {HardSearchBot(rules, 3).choose(v) for _ in range(2)}
    assert len(picks) == 1
    assert picks <= set(v.legal)
