"""Cooperative games as PettingZoo ``ParallelEnv`` s.

    from gameworld.pettingzoo import parallel_env
    env = parallel_env("12_fireboy-and-watergirl+12_01", render_size=(64, 64))
    observations, infos = env.reset(seed=1)
    while env.agents:
        actions = {a: env.action_space(a).sample() for a in env.agents}
        observations, rewards, terminations, truncations, infos = env.step(actions)

Every role of the game is an agent (``possible_agents``, in the game's role
order: ``watergirl``, ``fireboy``). Each step all agents act together
against the same frame, exactly as ``gameworld run`` steps a cooperative
game: each role's action is read with its own controls (an invalid one is a
no-op for that role only), the actions play together, then the evaluator
scores the shared state. Every agent sees the shared screen and gets the
shared reward (task progress gained); the episode ends for all at once.
Requires ``pip install pettingzoo``.
"""

from __future__ import annotations

import json
from typing import Any

import numpy as np
from gymnasium import spaces

from . import _core
from .env import _render_size, check_seed, discrete_index

try:
    from pettingzoo import ParallelEnv
except ImportError as e:  # pragma: no cover - depends on the environment
    raise ImportError(
        "gameworld.pettingzoo needs the pettingzoo package: pip install pettingzoo"
    ) from e

__all__ = ["GameWorldParallelEnv", "parallel_env"]


class GameWorldParallelEnv(ParallelEnv):
    """A GameWorld task with one agent per role (see the module docstring)."""

    metadata = {"name": "gameworld_parallel_v0", "render_modes": ["rgb_array"], "render_fps": 5,
                "is_parallelizable": True}

    def __init__(
        self,
        game_task: str,
        render_size: tuple[int, int] | None = (64, 64),
        render_mode: str | None = None,
        info_state: bool = False,
        end_on_fail: bool = False,
        registry: str | None = None,
    ):
        if render_mode not in (None, "rgb_array"):
            raise ValueError(f"render_mode={render_mode!r} is unknown; use 'rgb_array' or None")
        self.render_mode = render_mode
        self.info_state = bool(info_state)
        self._rust = _core.Env(game_task, "generalist", _render_size(render_size), bool(end_on_fail), registry)
        if self._rust.ow_tables is not None:
            raise ValueError("the open world has one player; use gameworld.make")
        roles = self._rust.roles
        self.game_task = game_task
        self.task = dict(self._rust.info)
        self.possible_agents = [name for name, _ in roles]
        self.action_names = {name: list(names) for name, names in roles}
        self.render_size = tuple(self._rust.render_size)
        w, h = self.render_size
        self.observation_spaces = {a: spaces.Box(0, 255, shape=(h, w, 3), dtype=np.uint8) for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(len(self.action_names[a])) for a in self.possible_agents}
        self.agents: list[str] = []
        self._seed_rng = np.random.default_rng()

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def _frame(self) -> np.ndarray:
        w, h = self.render_size
        frame = np.empty((h, w, 3), dtype=np.uint8)
        self._rust.observe(frame)
        return frame

    def _info(self, out, invalid=None) -> dict[str, dict[str, Any]]:
        (_, _, _, score, progress, best, _inv, stop, game_reset, step, board) = out
        shared = {"score": score, "progress": progress, "best_progress": best, "stop_reason": stop,
                  "game_reset": game_reset, "step": step, "board": board}
        if self.info_state:
            shared["state"] = json.loads(self._rust.state())
        infos = {}
        for i, a in enumerate(self.agents):
            infos[a] = dict(shared, invalid=invalid[i] if invalid else None)
        return infos

    def reset(self, seed: int | None = None, options: dict | None = None):
        if seed is None:
            seed = int(self._seed_rng.integers(0, 2**63 - 1))
        else:
            self._seed_rng = np.random.default_rng(check_seed(seed))
        self._rust.reset(check_seed(seed))
        self.agents = list(self.possible_agents)
        frame = self._frame()
        obs = {a: frame.copy() for a in self.agents}
        return obs, self._info(self._rust.current())

    def step(self, actions: dict[str, Any]):
        if not self.agents:
            raise RuntimeError("the episode has ended; call reset()")
        missing = [a for a in self.agents if a not in actions]
        unknown = [a for a in actions if a not in self.possible_agents]
        if missing or unknown:
            raise ValueError(f"actions need one entry per agent {self.agents}; missing {missing}, unknown {unknown}")
        row = [discrete_index(actions[a], self.action_spaces[a].n) for a in self.agents]
        out, invalid = self._rust.step_joint(row)
        reward, terminated, truncated = float(out[0]), bool(out[1]), bool(out[2])
        frame = self._frame()
        obs = {a: frame.copy() for a in self.agents}
        rewards = {a: reward for a in self.agents}
        terms = {a: terminated for a in self.agents}
        truncs = {a: truncated for a in self.agents}
        infos = self._info(out, invalid)
        if terminated or truncated:
            self.agents = []
        return obs, rewards, terms, truncs, infos

    def render(self):
        if self.render_mode == "rgb_array":
            return self._rust.frame()
        return None

    def state(self) -> np.ndarray:
        """The shared screen (the global state of PettingZoo's API)."""
        return self._frame()

    def close(self):
        pass


def parallel_env(env_id: str, **kwargs) -> GameWorldParallelEnv:
    """A :class:`GameWorldParallelEnv` for ``env_id`` (``"12_fireboy-and-watergirl+12_01"``
    or its Gymnasium id ``"GameWorld/fireboy-and-watergirl-12_01-v0"``)."""
    from . import _game_task

    return GameWorldParallelEnv(_game_task(env_id), **kwargs)
