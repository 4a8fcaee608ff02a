"""One GameWorld game and task as a ``gymnasium.Env``."""

from __future__ import annotations

import json
import string
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from . import _core

#: Observation kinds accepted by ``obs=``.
OBS_KINDS = ("rgb", "state", "both")
#: Interfaces accepted by ``interface=``.
INTERFACES = ("generalist", "computer-use")
#: Longest state JSON the ``state`` observation space admits.
STATE_MAX_CHARS = 1 << 22
#: The ``state`` observation is compact JSON in printable ASCII.
STATE_CHARSET = "".join(chr(c) for c in range(32, 127))
BUTTONS = ("left", "right", "middle")
#: Largest render size side (the Rust side refuses more).
MAX_RENDER_SIDE = 8192
#: A discrete action index or a seed must fit these bounds before it
#: reaches the Rust side (which would raise OverflowError without saying why).
I64_MAX = 2**63 - 1


def _check_choice(name: str, value: str, choices: tuple[str, ...]) -> str:
    if value not in choices:
        raise ValueError(f"{name}={value!r} is unknown; use one of {', '.join(map(repr, choices))}")
    return value


def _render_size(render_size) -> tuple[int, int] | None:
    if render_size is None:
        return None
    try:
        w, h = (int(v) for v in render_size)
    except (TypeError, ValueError):
        raise ValueError(f"render_size={render_size!r} must be a (width, height) pair") from None
    if not (1 <= w <= MAX_RENDER_SIDE and 1 <= h <= MAX_RENDER_SIDE):
        raise ValueError(
            f"render_size={render_size!r} must be between (1, 1) and ({MAX_RENDER_SIDE}, {MAX_RENDER_SIDE})"
        )
    return (w, h)


def check_seed(seed) -> int:
    """A seed as the Rust side takes it (0 <= seed < 2**64), else ValueError/TypeError."""
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)):
        raise TypeError(f"seed={seed!r} must be an integer in 0..2**64 or None")
    if not 0 <= int(seed) < 2**64:
        raise ValueError(f"seed={seed} must be in 0..2**64")
    return int(seed)


def discrete_index(action, n: int) -> int:
    """A generalist action as an index; one that cannot be one is a
    ValueError/TypeError naming the action space (an index that is merely
    outside it is left to the Rust side, whose message names the game)."""
    if type(action) is int or isinstance(action, np.integer) and not isinstance(action, np.bool_):
        # The common cases (a Python int, what a Discrete space samples),
        # without numpy's conversions; a value past i64 raises below.
        v = int(action)
        if -I64_MAX - 1 <= v <= I64_MAX:
            return v
    a = np.asarray(action)
    if a.size != 1:
        raise ValueError(f"a generalist action is one integer in Discrete({n}), not shape {a.shape}")
    v = a.reshape(()).item()
    if isinstance(v, float) and (not np.isfinite(v) or v != int(v)):
        raise ValueError(f"action {v!r} is not a whole number in Discrete({n})")
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        raise TypeError(f"action {action!r} must be an integer in Discrete({n})")
    v = int(v)
    if not -I64_MAX - 1 <= v <= I64_MAX:
        raise ValueError(f"action {v} is outside Discrete({n})")
    return v


def observation_space(obs: str, render_size: tuple[int, int]) -> spaces.Space:
    w, h = render_size
    rgb = spaces.Box(0, 255, shape=(h, w, 3), dtype=np.uint8)
    state = spaces.Text(STATE_MAX_CHARS, min_length=2, charset=STATE_CHARSET)
    return {"rgb": rgb, "state": state, "both": spaces.Dict({"rgb": rgb, "state": state})}[obs]


def action_space(core) -> spaces.Space:
    """Generalist: ``Discrete`` over the role's semantic actions (see
    ``action_names``). Computer-use: a ``Dict`` with the action ``type``
    (index into ``action_types``), the ``key`` (index into ``keys``), the mouse
    ``button`` (left, right, middle), the ``point`` clicked or dragged from,
    the ``to`` point of a drag (viewport pixels) and the wait ``duration`` in
    seconds. Keys and drags hold for the role's own duration."""
    if core.interface == "generalist":
        return spaces.Discrete(len(core.action_names))
    w, h = core.viewport
    return spaces.Dict(
        {
            "type": spaces.Discrete(len(core.kinds)),
            "key": spaces.Discrete(max(1, len(core.keys))),
            "button": spaces.Discrete(len(BUTTONS)),
            "point": spaces.MultiDiscrete([w, h]),
            "to": spaces.MultiDiscrete([w, h]),
            "duration": spaces.Box(0.0, 10.0, shape=(1,), dtype=np.float32),
        }
    )


def discrete_batch(actions, num_envs: int, n: int) -> np.ndarray:
    """One generalist action per environment as int64, refusing what is not
    a whole number (a float array would be truncated on the Rust side)."""
    a = np.reshape(np.asarray(actions), (num_envs,))
    if a.dtype.kind == "f":
        bad = ~np.isfinite(a) | (a != np.trunc(a)) | (np.abs(a) > 2**62)
        if bad.any():
            raise ValueError(f"action {a[bad][0]!r} is not a whole number in Discrete({n})")
    elif a.dtype.kind not in "iu":
        raise TypeError(f"generalist actions must be integers in Discrete({n}), not {a.dtype}")
    return np.ascontiguousarray(a, dtype=np.int64)


def cu_rows(action: dict[str, Any], n: int) -> np.ndarray:
    """A (batched) computer-use ``Dict`` action as the (n, 8) rows the Rust
    side reads: type, key, button, point x, point y, to x, to y, duration."""
    rows = np.empty((n, 8), dtype=np.float64)
    rows[:, 0] = np.reshape(action["type"], (n,))
    rows[:, 1] = np.reshape(action.get("key", 0), (n,)) if "key" in action else 0
    rows[:, 2] = np.reshape(action.get("button", 0), (n,)) if "button" in action else 0
    point = np.reshape(action.get("point", (0, 0)), (n, 2)) if "point" in action else 0
    to = np.reshape(action.get("to", (0, 0)), (n, 2)) if "to" in action else 0
    rows[:, 3:5] = point
    rows[:, 5:7] = to
    rows[:, 7] = np.reshape(action["duration"], (n,)) if "duration" in action else 0.5
    # type, key and button are indices: NaN, infinities and fractions would
    # be truncated on the Rust side (NaN becomes 0, a different action).
    for col, name in ((0, "type"), (1, "key"), (2, "button")):
        v = rows[:, col]
        bad = ~np.isfinite(v) | (v != np.trunc(v)) | (np.abs(v) > 2**53)
        if bad.any():
            raise ValueError(f"action {name} {v[bad][0]!r} is not a whole number (an index into its Discrete space)")
    return rows


class _Core:
    """The Rust environment plus what the Python side needs to know of it."""

    def __init__(self, rust, interface: str):
        self.rust = rust
        self.interface = interface
        self.action_names = list(rust.action_names)
        self.keys = list(rust.keys)
        self.kinds = list(rust.kinds)
        self.viewport = tuple(rust.viewport)
        self.render_size = tuple(rust.render_size)
        self.info = dict(rust.info)


class GameWorldEnv(gym.Env):
    """A GameWorld task as a Gymnasium environment.

    ``reset(seed=s)`` starts the game exactly as ``gameworld run --seed s``
    does; the same seed and actions give the same observations and rewards.
    The reward of a step is the task progress it gained (an episode's rewards
    sum to its best progress, 0..1). ``terminated``/``truncated`` follow the
    evaluator's stop reasons (the step budget truncates). With
    ``continue_on_fail`` tasks a lost game deals a new board inside the
    episode (``info["game_reset"]``) unless ``end_on_fail=True``.
    """

    metadata = {"render_modes": ["rgb_array"], "render_fps": 5}

    def __init__(
        self,
        game_task: str,
        interface: str = "generalist",
        render_size: tuple[int, int] | None = (64, 64),
        obs: str = "rgb",
        render_mode: str | None = None,
        info_state: bool = False,
        end_on_fail: bool = False,
        registry: str | None = None,
    ):
        super().__init__()
        _check_choice("interface", interface, INTERFACES)
        self.obs_kind = _check_choice("obs", obs, OBS_KINDS)
        if render_mode is not None:
            _check_choice("render_mode", render_mode, tuple(self.metadata["render_modes"]))
        self.render_mode = render_mode
        self.info_state = bool(info_state)
        rust = _core.Env(game_task, interface, _render_size(render_size), bool(end_on_fail), registry)
        self._core = _Core(rust, interface)
        self.game_task = game_task
        self.interface = interface
        self.action_names = self._core.action_names
        self.action_types = self._core.kinds
        self.keys = self._core.keys
        self.viewport = self._core.viewport
        self.render_size = self._core.render_size
        self.task = self._core.info
        self.observation_space = observation_space(obs, self.render_size)
        self.action_space = action_space(self._core)
        self._started = False

    # -- observations -------------------------------------------------------
    def _observe(self):
        rust = self._core.rust
        if self.obs_kind == "state":
            return rust.state()
        w, h = self.render_size
        frame = np.empty((h, w, 3), dtype=np.uint8)
        rust.observe(frame)
        if self.obs_kind == "rgb":
            return frame
        return {"rgb": frame, "state": rust.state()}

    def _info(self, out) -> dict[str, Any]:
        (_, _, _, score, progress, best, invalid, stop, game_reset, step, board) = out
        info = {"score": score, "progress": progress, "best_progress": best,
                "invalid": invalid, "stop_reason": stop, "game_reset": game_reset,
                "step": step, "board": board}
        if self.info_state:
            info["state"] = json.loads(self._core.rust.state())
        return info

    # -- gymnasium API ------------------------------------------------------
    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None):
        super().reset(seed=seed)
        if seed is None:
            seed = int(self.np_random.integers(0, 2**63 - 1))
        self._core.rust.reset(check_seed(seed))
        self._started = True
        # The start's score and progress (a task may start part-done).
        return self._observe(), self._info(self._core.rust.current())

    def step(self, action):
        if not self._started:
            raise gym.error.ResetNeeded("call reset() before step()")
        rust = self._core.rust
        if isinstance(action, dict) and "type" not in action:
            # A raw GameWorld payload, as a model would reply it.
            out = rust.step_payload(json.dumps(action))
        elif isinstance(action, str):
            out = rust.step_payload(json.dumps(action))
        elif self.interface == "generalist":
            out = rust.step_index(discrete_index(action, len(self.action_names)))
        else:
            out = rust.step_cu(tuple(float(v) for v in cu_rows(action, 1)[0]))
        reward, terminated, truncated = out[0], out[1], out[2]
        return self._observe(), float(reward), bool(terminated), bool(truncated), self._info(out)

    def render(self):
        if self.render_mode == "rgb_array":
            return self._core.rust.frame()
        return None

    def state(self) -> dict[str, Any]:
        """The current gameAPI state (what the evaluator reads)."""
        return json.loads(self._core.rust.state())
