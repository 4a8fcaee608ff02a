"""Many copies of one GameWorld task stepped together on a Rust thread pool.

``gameworld.vector.make(id, num_envs=N, threads=T)`` returns a
``gymnasium.vector.VectorEnv``. Each step releases the GIL, steps the N games
on T threads and draws their frames straight into one preallocated
``(N, H, W, 3)`` uint8 array; rewards, flags and info arrays are preallocated
too. With ``copy=False`` (the default) the returned arrays *are* those
buffers, overwritten by the next call: copy them if you keep them.

Auto-reset follows Gymnasium's next-step mode (``metadata["autoreset_mode"]``):
the step after an environment terminates or truncates resets it (its action
is ignored, its reward is 0) and returns the new episode's first observation.
``reset(seed=s)`` seeds environment i with ``s + i``; each later automatic
reset draws its seed from the previous one, so a run is reproducible from
``s`` alone.
"""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from . import _core
from .env import (
    INTERFACES,
    OBS_KINDS,
    _check_choice,
    _Core,
    _render_size,
    action_space,
    check_seed,
    cu_rows,
    discrete_batch,
    observation_space,
)

#: Most environments in one vector env: each holds a viewport-sized frame
#: (3.7 MB at 1280x720) besides its game, so a mistyped count would exhaust
#: memory before any step.
MAX_ENVS = 4096


class GameWorldVectorEnv(VectorEnv):
    metadata = {"autoreset_mode": AutoresetMode.NEXT_STEP, "render_modes": []}

    def __init__(
        self,
        game_task: str,
        num_envs: int = 8,
        threads: int | None = None,
        interface: str = "generalist",
        render_size: tuple[int, int] | None = (64, 64),
        obs: str = "rgb",
        end_on_fail: bool = False,
        copy: bool = False,
        registry: str | None = None,
    ):
        _check_choice("interface", interface, INTERFACES)
        self.obs_kind = _check_choice("obs", obs, OBS_KINDS)
        if isinstance(num_envs, bool) or not isinstance(num_envs, (int, np.integer)):
            raise TypeError(f"num_envs={num_envs!r} must be an integer")
        if not 1 <= num_envs <= MAX_ENVS:
            raise ValueError(f"num_envs={num_envs} must be between 1 and {MAX_ENVS}")
        if threads is not None and (isinstance(threads, bool) or not isinstance(threads, (int, np.integer)) or threads < 1):
            raise ValueError(f"threads={threads!r} must be a positive integer or None (every core)")
        self.num_envs = int(num_envs)
        self._rust = _core.VecEnv(
            game_task,
            self.num_envs,
            threads,
            interface,
            _render_size(render_size),
            bool(end_on_fail),
            registry,
            obs != "state",
        )
        # Read the action tables from one single environment's description.
        single = _Core(_core.Env(game_task, interface, _render_size(render_size), bool(end_on_fail), registry), interface)
        self.game_task = game_task
        self.interface = interface
        self.copy = bool(copy)
        self.action_names = single.action_names
        self.action_types = single.kinds
        self.keys = single.keys
        self.viewport = single.viewport
        self.render_size = single.render_size
        self.task = single.info
        self.threads = self._rust.num_threads
        self.single_observation_space = observation_space(obs, self.render_size)
        self.single_action_space = action_space(single)
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self.action_space = batch_space(self.single_action_space, self.num_envs)
        self.metadata = dict(self.metadata)
        self._stop_names = np.array(self._rust.stop_reasons, dtype=object)
        self._started = False

    def _observations(self):
        if self.obs_kind == "state":
            return tuple(self._rust.states())
        rgb = self._rust.obs
        if self.copy:
            rgb = rgb.copy()
        if self.obs_kind == "rgb":
            return rgb
        return {"rgb": rgb, "state": tuple(self._rust.states())}

    def _infos(self) -> dict[str, Any]:
        metrics, codes = self._rust.metrics, self._rust.codes
        infos = {
            "score": metrics[:, 0].copy(),
            "progress": metrics[:, 1].copy(),
            "best_progress": metrics[:, 2].copy(),
            "step": metrics[:, 3].astype(np.int64),
            "invalid": codes[:, 0].copy(),
            "stop_reason": self._stop_names[codes[:, 1]],
            "game_reset": codes[:, 2].astype(bool),
        }
        mask = np.ones(self.num_envs, dtype=bool)
        for key in list(infos):
            infos["_" + key] = mask
        return infos

    def reset(self, *, seed: int | list[int] | None = None, options: dict[str, Any] | None = None):
        if self._rust is None:
            raise RuntimeError("this vector environment is closed; make a new one")
        if seed is None:
            seeds = [int(s) for s in np.random.SeedSequence().generate_state(self.num_envs, np.uint64) >> 1]
        elif isinstance(seed, (int, np.integer)):
            seeds = [check_seed(seed + i) for i in range(self.num_envs)]
        else:
            seeds = [check_seed(s) if s is not None else int(np.random.SeedSequence().generate_state(1, np.uint64)[0] >> 1) for s in seed]
            if len(seeds) != self.num_envs:
                raise ValueError(f"{len(seeds)} seeds for num_envs={self.num_envs}")
        if seed is not None:
            self._np_random, self._np_random_seed = gym.utils.seeding.np_random(seeds[0])
        self._rust.reset(seeds)
        self._started = True
        return self._observations(), self._infos()

    def step(self, actions):
        if self._rust is None:
            raise RuntimeError("this vector environment is closed; make a new one")
        if not self._started:
            raise gym.error.ResetNeeded("call reset() before step()")
        if self.interface == "generalist":
            self._rust.step_index(discrete_batch(actions, self.num_envs, len(self.action_names)))
        else:
            self._rust.step_cu(cu_rows(actions, self.num_envs))
        rewards, term, trunc = self._rust.rewards, self._rust.terminated, self._rust.truncated
        if self.copy:
            rewards, term, trunc = rewards.copy(), term.copy(), trunc.copy()
        return self._observations(), rewards, term, trunc, self._infos()

    def close_extras(self, **kwargs):
        self._rust = None


def make(env_id: str, num_envs: int = 8, threads: int | None = None, **kwargs) -> VectorEnv:
    """A vector environment of ``num_envs`` copies of ``env_id`` (a Gymnasium
    id such as ``GameWorld/2048-01_01-v0`` or ``01_2048+01_01``) stepped on
    ``threads`` Rust threads (default: every core, at most ``num_envs``).
    Keyword arguments are those of :func:`gameworld.make` plus ``copy``."""
    from . import OPEN_WORLD, _game_task
    from .openworld import OpenWorldEnv

    game_task = _game_task(env_id)
    if game_task.split("+", 1)[0] == OPEN_WORLD:
        # The open world's dict observations and actions batch through
        # Gymnasium's own vector env (one process; threads do not apply).
        if isinstance(num_envs, bool) or not isinstance(num_envs, (int, np.integer)) or not 1 <= num_envs <= MAX_ENVS:
            raise ValueError(f"num_envs={num_envs!r} must be an integer between 1 and {MAX_ENVS}")
        return gym.vector.SyncVectorEnv(
            [lambda: OpenWorldEnv(game_task, **kwargs) for _ in range(int(num_envs))],
            autoreset_mode=AutoresetMode.NEXT_STEP,
        )
    return GameWorldVectorEnv(game_task, num_envs=num_envs, threads=threads, **kwargs)
