"""The open world (game ``openworld``, the Optimus task suites) as a
``gymnasium.Env`` with MineRL-style spaces.

    env = gameworld.make("openworld+atomic_logs")          # or
    env = gymnasium.make("GameWorld/openworld-atomic_logs-v0", obs="dict")
    obs, info = env.reset(seed=1)
    obs, reward, terminated, truncated, info = env.step(env.action_space.sample())

One step is one control tick (1/20 game second), exactly the CLI's ``act``
step: the action becomes the role's ``act`` payload and runs through the
same stepper, evaluator and stop reasons as ``gameworld run``.
"""

from __future__ import annotations

import json
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from . import _core
from .env import _check_choice, _render_size, check_seed

#: The ``Discrete(2)`` buttons of the ``Dict`` action.
BUTTONS = ("forward", "back", "left", "right", "jump", "sneak", "sprint", "attack", "use", "drop", "inventory")
#: Observation kinds accepted by ``obs=``.
OBS_KINDS = ("rgb", "dict")
#: Action formats accepted by ``action_format=``.
ACTION_FORMATS = ("dict", "vpt")
#: Rewards accepted by ``reward=``.
REWARDS = ("progress", "items", "sparse")
#: VPT discretisation: joint button classes and joint camera classes (11 x 11 mu-law bins).
VPT_BUTTONS = 8641
VPT_CAMERA = 121
#: The largest camera turn of one step, degrees.
CAMERA_MAX = 180.0
#: Depth of a sky pixel (the renderer's view distance, blocks).
VIEW_DISTANCE = 40.0
#: Inventory slots x stack size: the most of one item the player can hold.
MAX_COUNT = 36 * 64


def _flag(name: str, v) -> float:
    a = np.asarray(v)
    if a.size != 1:
        raise ValueError(f"action field {name!r} must be one value in Discrete(2), not shape {a.shape}")
    x = a.reshape(()).item()
    if isinstance(x, float) and not np.isfinite(x):
        raise ValueError(f"action field {name!r} must be 0 or 1, got {x!r}")
    if isinstance(x, (bool, int, float)):
        return float(x)
    raise ValueError(f"action field {name!r} must be 0 or 1, got {v!r}")


def _number(name: str, v) -> float:
    a = np.asarray(v)
    if a.size != 1 or a.dtype.kind not in "biuf":
        raise ValueError(f"action field {name!r} must be one number, got {v!r}")
    return float(a.reshape(()).item())


class OpenWorldEnv(gym.Env):
    """An open-world task as a Gymnasium environment.

    Action (``action_format="dict"``, MineRL-style): ``forward back left right
    jump sneak sprint attack use drop inventory`` are ``Discrete(2)``;
    ``hotbar`` is ``Discrete(10)`` (0 keeps the slot); ``camera`` is
    ``Box(-180, 180, (2,))`` (pitch, yaw in degrees; positive pitch looks
    down, positive yaw turns right); ``craft`` and ``smelt`` are
    ``Discrete(n + 1)`` (0 = none, i = ``craft_items[i - 1]``). Keys left
    out of a dict count as not pressed. ``action_format="vpt"``:
    ``MultiDiscrete([8641, 121])``, the joint button class and joint camera
    class of the VPT discretisation the datasets record.

    Observation: ``obs="rgb"``, the (H, W, 3) uint8 first-person view drawn
    at ``render_size``; ``obs="dict"``: ``pov``, ``inventory`` (count per
    item of ``items``), ``equipped`` (0 = empty hand, i = ``items[i - 1]``),
    ``life_stats`` (health, food), ``location`` (x, y, z, yaw, pitch), and
    with ``depth=True`` / ``segmentation=True`` the pick buffer: distance in
    blocks to what each pixel shows (sky = 40, HUD = 0) and its class id
    (names in ``segmentation_classes``: sky, hud, item, mob, then
    ``block:<name>`` by block id).

    Reward: ``"progress"`` (default) the task progress gained (the episode's
    rewards sum to its best progress, 0..1); ``"items"`` the target items
    obtained in the step (Optimus-2's atomic measure); ``"sparse"`` 1 on the
    step that completes the task.
    """

    metadata = {"render_modes": ["rgb_array"], "render_fps": 20}

    def __init__(
        self,
        game_task: str = "openworld+atomic_logs",
        render_size: tuple[int, int] | None = (64, 64),
        obs: str = "rgb",
        action_format: str = "dict",
        reward: str = "progress",
        depth: bool = False,
        segmentation: bool = False,
        render_mode: str | None = None,
        info_state: bool = False,
        end_on_fail: bool = False,
        registry: str | None = None,
    ):
        super().__init__()
        self.obs_kind = _check_choice("obs", obs, OBS_KINDS)
        self.action_format = _check_choice("action_format", action_format, ACTION_FORMATS)
        self.reward_kind = _check_choice("reward", reward, REWARDS)
        if render_mode is not None:
            _check_choice("render_mode", render_mode, tuple(self.metadata["render_modes"]))
        if (depth or segmentation) and obs != "dict":
            raise ValueError("depth=True and segmentation=True are parts of obs=\"dict\"; pass obs=\"dict\"")
        self.render_mode = render_mode
        self.info_state = bool(info_state)
        self.depth = bool(depth)
        self.segmentation = bool(segmentation)
        self._rust = _core.Env(game_task, "generalist", _render_size(render_size), bool(end_on_fail), registry)
        tables = self._rust.ow_tables
        if tables is None:
            raise ValueError(f"{game_task!r} is not an open-world task; use gameworld.make for the other games")
        self.items, self.craft_items, self.smelt_items, self.segmentation_classes = (list(t) for t in tables)
        self.game_task = game_task
        self.task = dict(self._rust.info)
        self.viewport = tuple(self._rust.viewport)
        self.render_size = tuple(self._rust.render_size)
        w, h = self.render_size
        pov = spaces.Box(0, 255, shape=(h, w, 3), dtype=np.uint8)
        if obs == "rgb":
            self.observation_space = pov
        else:
            n = len(self.items)
            big = np.float32(1e7)
            parts = {
                "pov": pov,
                "inventory": spaces.Box(0, MAX_COUNT, shape=(n,), dtype=np.int32),
                "equipped": spaces.Discrete(n + 1),
                "life_stats": spaces.Box(0.0, 20.0, shape=(2,), dtype=np.float32),
                "location": spaces.Box(
                    np.array([-big, -big, -big, -big, -90.0], dtype=np.float32),
                    np.array([big, big, big, big, 90.0], dtype=np.float32),
                    dtype=np.float32,
                ),
            }
            if self.depth:
                parts["depth"] = spaces.Box(0.0, VIEW_DISTANCE, shape=(h, w), dtype=np.float32)
            if self.segmentation:
                parts["segmentation"] = spaces.Box(
                    0, len(self.segmentation_classes) - 1, shape=(h, w), dtype=np.int32
                )
            self.observation_space = spaces.Dict(parts)
        if action_format == "vpt":
            self.action_space = spaces.MultiDiscrete([VPT_BUTTONS, VPT_CAMERA])
        else:
            a = {b: spaces.Discrete(2) for b in BUTTONS}
            a["hotbar"] = spaces.Discrete(10)
            a["camera"] = spaces.Box(-CAMERA_MAX, CAMERA_MAX, shape=(2,), dtype=np.float32)
            a["craft"] = spaces.Discrete(len(self.craft_items) + 1)
            a["smelt"] = spaces.Discrete(len(self.smelt_items) + 1)
            self.action_space = spaces.Dict(a)
        self._started = False
        self._obtained = 0

    # -- actions -------------------------------------------------------------
    def noop(self):
        """The action that presses nothing (a dict, or VPT's null classes)."""
        if self.action_format == "vpt":
            return np.array([0, 60], dtype=np.int64)
        a = {b: 0 for b in BUTTONS}
        a.update(hotbar=0, camera=np.zeros(2, dtype=np.float32), craft=0, smelt=0)
        return a

    def _dict_row(self, action) -> list[float]:
        if not isinstance(action, dict):
            raise ValueError(f"an open-world action is a dict (see action_space), not {type(action).__name__}")
        unknown = set(action) - set(BUTTONS) - {"hotbar", "camera", "craft", "smelt"}
        if unknown:
            raise ValueError(f"unknown action field(s) {sorted(unknown)}; fields: {', '.join(BUTTONS)}, hotbar, camera, craft, smelt")
        row = [_flag(b, action[b]) if b in action else 0.0 for b in BUTTONS]
        row.append(_number("hotbar", action["hotbar"]) if "hotbar" in action else 0.0)
        if "camera" in action:
            cam = np.asarray(action["camera"])
            if cam.shape != (2,) or cam.dtype.kind not in "biuf":
                raise ValueError(f"action field 'camera' must be (pitch, yaw) degrees, shape (2,), got {action['camera']!r}")
            row.extend(float(v) for v in cam)
        else:
            row.extend((0.0, 0.0))
        row.append(_number("craft", action["craft"]) if "craft" in action else 0.0)
        row.append(_number("smelt", action["smelt"]) if "smelt" in action else 0.0)
        return row

    # -- observations --------------------------------------------------------
    def _observe(self):
        w, h = self.render_size
        pov = np.empty((h, w, 3), dtype=np.uint8)
        self._rust.observe(pov)
        if self.obs_kind == "rgb":
            return pov
        inv, equipped, life, loc, _ = self._rust.ow_vitals()
        out = {
            "pov": pov,
            "inventory": np.asarray(inv, dtype=np.int32),
            "equipped": int(equipped),
            "life_stats": np.asarray(life, dtype=np.float32),
            "location": np.asarray(loc, dtype=np.float32),
        }
        if self.depth or self.segmentation:
            depth = np.empty((h, w), dtype=np.float32) if self.depth else None
            seg = np.empty((h, w), dtype=np.int32) if self.segmentation else None
            self._rust.ow_pick(depth, seg)
            if self.depth:
                out["depth"] = depth
            if self.segmentation:
                out["segmentation"] = seg
        return out

    def _info(self, out, vitals) -> dict[str, Any]:
        (_, _, _, score, progress, best, invalid, stop, game_reset, step, board) = out
        inv, _, _, loc, obtained = vitals
        info = {
            "position": {"x": float(loc[0]), "y": float(loc[1]), "z": float(loc[2])},
            "inventory": {self.items[i]: int(c) for i, c in enumerate(inv) if c},
            "score": score,
            "progress": progress,
            "best_progress": best,
            "obtained": obtained,
            "task": self.task["task_id"],
            "instruction": self.task["instruction"],
            "invalid": invalid,
            "stop_reason": stop,
            "game_reset": game_reset,
            "step": step,
            "board": board,
        }
        if self.info_state:
            info["state"] = json.loads(self._rust.state())
        return info

    # -- gymnasium API -------------------------------------------------------
    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None):
        super().reset(seed=seed)
        if seed is None:
            seed = int(self.np_random.integers(0, 2**63 - 1))
        self._rust.reset(check_seed(seed))
        self._started = True
        vitals = self._rust.ow_vitals()
        self._obtained = vitals[4]
        return self._observe(), self._info(self._rust.current(), vitals)

    def step(self, action):
        if not self._started:
            raise gym.error.ResetNeeded("call reset() before step()")
        if self.action_format == "vpt":
            a = np.asarray(action)
            if a.shape != (2,) or a.dtype.kind not in "biuf" or not np.all(np.isfinite(a)) or np.any(a != np.trunc(a)):
                raise ValueError(f"a VPT action is two whole numbers (buttons in 0..{VPT_BUTTONS}, camera in 0..{VPT_CAMERA}), got {action!r}")
            out = self._rust.ow_step_vpt(int(a[0]), int(a[1]))
        else:
            out = self._rust.ow_step(self._dict_row(action))
        vitals = self._rust.ow_vitals()
        obtained = vitals[4]
        if self.reward_kind == "progress":
            reward = float(out[0])
        elif self.reward_kind == "items":
            # A new board (reset-on-fail) starts its count again.
            reward = float(max(0, obtained - self._obtained)) if not out[8] else 0.0
        else:
            reward = 1.0 if out[7] == "target_reached" else 0.0
        self._obtained = obtained
        return self._observe(), reward, bool(out[1]), bool(out[2]), self._info(out, vitals)

    def render(self):
        if self.render_mode == "rgb_array":
            return self._rust.frame()
        return None

    def state(self) -> dict[str, Any]:
        """The current gameAPI state (what the evaluator reads)."""
        return json.loads(self._rust.state())
