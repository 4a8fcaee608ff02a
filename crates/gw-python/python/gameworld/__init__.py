"""GameWorld games as Gymnasium environments, backed by the Rust engine.

    import gameworld
    env = gameworld.make("01_2048+01_01", render_size=(64, 64))
    obs, info = env.reset(seed=1)
    obs, reward, terminated, truncated, info = env.step(env.action_space.sample())

Every task is also registered with Gymnasium as ``GameWorld/<game>-<task>-v0``
(``gymnasium.make("GameWorld/2048-01_01-v0")``); ``gameworld.vector.make``
steps many copies on a Rust thread pool. The game and task registry is
embedded in the extension; ``registry=DIR`` or ``$GAMEWORLD_REGISTRY`` reads
another one from disk.
"""

from __future__ import annotations

import re

import gymnasium as gym

from . import _core
from .env import GameWorldEnv
from .openworld import OpenWorldEnv
from . import vector

#: The package version (the Rust workspace's).
__version__: str = _core.__version__

__all__ = ["__version__", "make", "env_ids", "GameWorldEnv", "OpenWorldEnv", "vector", "gym_id"]

NAMESPACE = "GameWorld"
#: The game id of the open world (its env class is ``OpenWorldEnv``).
OPEN_WORLD = "openworld"


def gym_id(game_id: str, task_id: str) -> str:
    """``01_2048`` + ``01_01`` → ``GameWorld/2048-01_01-v0``."""
    return f"{NAMESPACE}/{re.sub(r'^[0-9]+_', '', game_id)}-{task_id}-v0"


def _tasks():
    return _core.task_ids()


# Environment families: a factory per id. The games come from the registry;
# the open world will be one more entry here once it ships its env class.
_FAMILIES: dict[str, type] = {}
_BY_GYM_ID: dict[str, str] = {}


def _register() -> None:
    for game_id, task_id, _name in _tasks():
        gid = gym_id(game_id, task_id)
        _BY_GYM_ID[gid] = f"{game_id}+{task_id}"
        if game_id == OPEN_WORLD:
            if gid not in gym.registry:
                gym.register(
                    id=gid,
                    entry_point="gameworld.openworld:OpenWorldEnv",
                    kwargs={"game_task": f"{game_id}+{task_id}"},
                    disable_env_checker=False,
                )
            continue
        if gid not in gym.registry:
            gym.register(
                id=gid,
                entry_point="gameworld.env:GameWorldEnv",
                # gymnasium.make_vec(id, num_envs=N) builds the Rust-threaded batch.
                vector_entry_point="gameworld.vector:GameWorldVectorEnv",
                kwargs={"game_task": f"{game_id}+{task_id}"},
                disable_env_checker=False,
            )


def _game_task(env_id: str) -> str:
    """Accept ``01_2048+01_01`` or ``GameWorld/2048-01_01-v0``."""
    if env_id in _BY_GYM_ID:
        return _BY_GYM_ID[env_id]
    if "GameWorld/" + env_id in _BY_GYM_ID:
        return _BY_GYM_ID["GameWorld/" + env_id]
    return env_id


def env_ids() -> list[str]:
    """Every registered Gymnasium id, in registry order."""
    return list(_BY_GYM_ID) + list(_FAMILIES)


def make(env_id: str, **kwargs) -> gym.Env:
    """``gameworld.make("01_2048+01_01", interface="generalist"|"computer-use",
    render_size=(W, H), obs="rgb"|"state"|"both")`` → a ``gymnasium.Env``.
    An open-world task (``"openworld+atomic_logs"``) gives an
    :class:`OpenWorldEnv` (keywords ``obs="rgb"|"dict"``,
    ``action_format="dict"|"vpt"``, ``reward="progress"|"items"|"sparse"``,
    ``depth``, ``segmentation``).

    Other keywords: ``render_mode="rgb_array"`` (``render()`` returns the full
    viewport frame), ``info_state=True`` (the gameAPI state in every info),
    ``end_on_fail=True`` (a lost game ends the episode instead of dealing a new
    board), ``registry=DIR``.
    """
    if not isinstance(env_id, str):
        raise TypeError(f"env_id={env_id!r} must be a string such as \"01_2048+01_01\" or \"GameWorld/2048-01_01-v0\"")
    if env_id in _FAMILIES:
        return _FAMILIES[env_id](**kwargs)
    game_task = _game_task(env_id)
    if game_task.split("+", 1)[0] == OPEN_WORLD:
        return OpenWorldEnv(game_task, **kwargs)
    return GameWorldEnv(game_task, **kwargs)


_register()
