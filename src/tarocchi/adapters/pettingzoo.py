"""PettingZoo adapter: each game as an AEC environment (`env("piedicavallo")`).

Agents are the four seats, "south", "east", "north", "west" (seats 0-3; South and
North are partners). An agent's observation is a dict: "observation", the seat's
observation vector (`tarocchi.adapters.observe`), and "action_mask", 1 for each
legal action id. `reset(seed=s)` deals our engine's deal of seed s (no seed: one
drawn from the environment's generator); the deal's only reward comes at its end,
each seat's team margin in the game's unit (Minchiate: net resti). An illegal
action raises `tarocchi.IllegalAction` and changes nothing.
"""

from __future__ import annotations

from typing import ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from tarocchi.adapters.observe import action_count, observation, observation_size
from tarocchi.games import game
from tarocchi.games.base import GameState, mover

AGENTS = ("south", "east", "north", "west")


class TarocchiEnv(AECEnv[str, dict[str, np.ndarray], int]):  # type: ignore[misc]
    """One deal of one of our games, seat by seat."""

    metadata: ClassVar[dict[str, object]] = {"render_modes": ["ansi"], "is_parallelizable": False}

    def __init__(self, name: str, render_mode: str | None = None) -> None:
        super().__init__()
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode must be None or 'ansi'; got {render_mode!r}")
        self.rules = game(name)
        self.metadata = {**TarocchiEnv.metadata, "name": f"tarocchi_{self.rules.name}_v0"}  # type: ignore[misc]
        self.render_mode = render_mode
        self.possible_agents = list(AGENTS)
        n, a = observation_size(self.rules), action_count(self.rules)
        self.observation_spaces = {
            agent: spaces.Dict(
                {
                    "observation": spaces.Box(0.0, 1.0, (n,), np.float32),
                    "action_mask": spaces.Box(0, 1, (a,), np.int8),
                }
            )
            for agent in AGENTS
        }
        self.action_spaces = {agent: spaces.Discrete(a) for agent in AGENTS}
        self._seeds = np.random.default_rng()
        self.state: GameState | None = None

    def observation_space(self, agent: str) -> spaces.Dict:
        """Return an agent's observation space."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Discrete:
        """Return an agent's action space (every action id of the game)."""
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, object] | None = None) -> None:
        """Deal a new deal: our engine's deal of seed, or of a seed drawn by the env."""
        if seed is not None:
            self._seeds = np.random.default_rng(seed)
        else:
            seed = int(self._seeds.integers(1 << 62))
        self.state = state = self.rules.deal(seed)
        self.agents = list(AGENTS)
        self.rewards = dict.fromkeys(AGENTS, 0.0)
        self._cumulative_rewards = dict.fromkeys(AGENTS, 0.0)
        self.terminations = dict.fromkeys(AGENTS, False)
        self.truncations = dict.fromkeys(AGENTS, False)
        self.infos: dict[str, dict[str, object]] = {agent: {} for agent in AGENTS}
        self.agent_selection = AGENTS[mover(state)]

    def dealt(self) -> GameState:
        """Return the deal going on (ValueError before the first reset)."""
        if self.state is None:
            raise ValueError("no deal yet: call reset() first")
        return self.state

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """Return the agent's observation vector and its legal-action mask."""
        view = self.rules.view(self.dealt(), AGENTS.index(agent))
        mask = np.zeros(action_count(self.rules), np.int8)
        mask[list(view.legal)] = 1
        return {"observation": observation(view), "action_mask": mask}

    def step(self, action: int | None) -> None:
        """Play the selected agent's action (None for an agent whose deal is over)."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} is to act: pass an action id, not None")
        self.state = self.rules.apply(self.dealt(), int(action))  # IllegalAction: unchanged
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        if self.state.to_move is None:
            m = self.rules.result(self.state).margin(0)
            self.rewards = {a: m if i % 2 == 0 else -m for i, a in enumerate(AGENTS)}
            self.terminations = dict.fromkeys(AGENTS, True)
            self.agent_selection = AGENTS[(AGENTS.index(agent) + 1) % 4]
        else:
            self.agent_selection = AGENTS[mover(self.state)]
        self._accumulate_rewards()

    def render(self) -> str | None:
        """Return the table in text (ansi): what every seat sees (hand sizes, the cards
        each team has taken, the current trick); no hidden card."""
        if self.render_mode is None or self.state is None:
            return None
        view = self.rules.view(self.state, 0)
        pack = self.rules.pack
        sizes = " ".join(f"{a} {n}" for a, n in zip(AGENTS, view.hand_sizes, strict=True))
        taken = " ".join(
            f"{t} {len(pack.codes_of(m))}" for t, m in zip(("NS", "EW"), view.won, strict=True)
        )
        trick = " ".join(f"{AGENTS[s]}:{pack.codes[c]}" for s, c in view.trick) or "-"
        return f"{view.phase}, cards in hand: {sizes}; taken: {taken}; trick: {trick}"

    def close(self) -> None:
        """Nothing to release."""


def raw_env(name: str, render_mode: str | None = None) -> TarocchiEnv:
    """Return the bare environment of a game."""
    return TarocchiEnv(name, render_mode)


def env(name: str, render_mode: str | None = None) -> AECEnv:
    """Return a game's environment with PettingZoo's order-enforcing wrapper."""
    return wrappers.OrderEnforcingWrapper(raw_env(name, render_mode))
