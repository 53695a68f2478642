"""The PettingZoo adapter: PettingZoo's api_test, seeds, masks, illegal actions, rewards."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test

from tarocchi.adapters import pettingzoo as P
from tarocchi.games import GAMES, game
from tarocchi.games.base import IllegalAction

NAMES = list(GAMES)


# api_test's advice for other designs: our observations are the {"observation",
# "action_mask"} dicts PettingZoo's own card games use, and our agents are the seats
@pytest.mark.filterwarnings("ignore:Observation space for each agent probably should be")
@pytest.mark.filterwarnings("ignore:We recommend agents to be named")
@pytest.mark.filterwarnings("ignore:Observation is not a NumPy array")
@pytest.mark.parametrize("name", NAMES)
def test_pettingzoo_api_test(name: str) -> None:
    api_test(P.env(name), num_cycles=200)


@pytest.mark.parametrize("name", NAMES)
def test_reset_seed_deals_our_deal(name: str) -> None:
    env = P.raw_env(name)
    env.reset(seed=42)
    assert env.state == game(name).deal(42)
    env.reset()  # the next deal, from the env's generator
    other = env.state
    env.reset(seed=42)
    env.reset()
    assert env.state == other


@pytest.mark.parametrize("name", NAMES)
def test_masks_and_rewards(name: str) -> None:
    rules = game(name)
    env = P.raw_env(name)
    env.reset(seed=5)
    rng = np.random.default_rng(0)
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, _ = env.last()
        assert not truncated
        if terminated:
            m = rules.result(env.state).margin(0)
            team = P.AGENTS.index(agent) % 2
            assert reward == (m if team == 0 else -m)
            env.step(None)
            continue
        assert reward == 0
        seat = P.AGENTS.index(agent)
        legal = rules.view(env.state, seat).legal
        assert list(np.flatnonzero(obs["action_mask"])) == list(legal)
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert not env.agents


def test_illegal_action_raises_and_changes_nothing() -> None:
    env = P.raw_env("piedicavallo")
    env.reset(seed=1)
    before = env.state
    mask = env.observe(env.agent_selection)["action_mask"]
    with pytest.raises(IllegalAction):
        env.step(int(np.flatnonzero(mask == 0)[0]))
    assert env.state == before


def test_render_shows_no_card_in_hand() -> None:
    env = P.raw_env("piedicavallo", render_mode="ansi")
    env.reset(seed=1)
    text = env.render()
    rules = game("piedicavallo")
    hands = [c for h in env.state.hands for c in rules.pack.codes_of(h)]
    assert text and not set(text.replace(";", " ").replace(",", " ").split()) & set(hands)


def test_observe_and_step_before_reset_say_so() -> None:
    env = P.raw_env("piedicavallo")
    with pytest.raises(ValueError, match="call reset"):
        env.observe("south")
    assert env.state is None
