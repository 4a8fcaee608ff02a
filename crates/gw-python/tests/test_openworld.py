"""The open world as a Gymnasium env: spaces, the checker, walking, mining a
log in view, hostile actions."""

import math

import gymnasium as gym
import numpy as np
import pytest
from gymnasium import spaces
from gymnasium.utils.env_checker import check_env

import gameworld
from gameworld import _core
from gameworld.openworld import BUTTONS


def test_every_open_world_task_is_registered():
    tasks = [t for g, t, _n in _core.task_ids() if g == "openworld"]
    assert len(tasks) >= 100 and "atomic_logs" in tasks
    ids = gameworld.env_ids()
    for t in tasks:
        assert f"GameWorld/openworld-{t}-v0" in ids
    env = gym.make("GameWorld/openworld-atomic_logs-v0", render_size=(32, 24))
    obs, info = env.reset(seed=1)
    assert obs.shape == (24, 32, 3) and obs.dtype == np.uint8
    assert info["task"] == "atomic_logs" and set(info["position"]) == {"x", "y", "z"}
    assert isinstance(env.unwrapped, gameworld.OpenWorldEnv)
    assert isinstance(gameworld.make("openworld+atomic_logs"), gameworld.OpenWorldEnv)


def test_minerl_style_spaces():
    env = gameworld.make("openworld+atomic_logs", obs="dict", depth=True, segmentation=True)
    a = env.action_space
    assert isinstance(a, spaces.Dict)
    for b in BUTTONS:
        assert a[b] == spaces.Discrete(2)
    assert a["hotbar"] == spaces.Discrete(10)
    assert a["camera"].shape == (2,) and a["camera"].low.min() == -180 and a["camera"].high.max() == 180
    assert a["craft"].n == len(env.craft_items) + 1 and "stick" in env.craft_items
    assert a["smelt"].n == len(env.smelt_items) + 1 and "iron_ingot" in env.smelt_items
    o = env.observation_space
    assert set(o) == {"pov", "inventory", "equipped", "life_stats", "location", "depth", "segmentation"}
    assert o["inventory"].shape == (len(env.items),) and "oak_log" in env.items
    assert env.segmentation_classes[:4] == ["sky", "hud", "item", "mob"]
    obs, info = env.reset(seed=5)
    assert o.contains(obs)
    assert obs["life_stats"].tolist() == [20.0, 20.0]
    assert obs["location"][:3].tolist() == pytest.approx([info["position"][k] for k in "xyz"], abs=1e-3)
    # Sky pixels are at the view distance; the HUD at 0; blocks in between.
    seg, depth = obs["segmentation"], obs["depth"]
    assert (depth[seg == 0] == 40.0).all() and (depth[seg == 1] == 0.0).all()
    blocks = seg >= 4
    assert blocks.any() and (depth[blocks] > 0).all() and (depth[blocks] < 40).all()
    vpt = gameworld.make("openworld+atomic_logs", action_format="vpt")
    assert vpt.action_space == spaces.MultiDiscrete([8641, 121])


@pytest.mark.parametrize("obs", ["rgb", "dict"])
@pytest.mark.parametrize("fmt", ["dict", "vpt"])
def test_check_env_passes(obs, fmt):
    extra = {"depth": True, "segmentation": True} if obs == "dict" else {}
    env = gameworld.make("openworld+atomic_logs", obs=obs, action_format=fmt, render_size=(24, 16),
                         render_mode="rgb_array", **extra)
    check_env(env, skip_render_check=False)


def test_same_seed_same_trajectory():
    def run():
        env = gameworld.make("openworld+atomic_dirt", obs="dict", render_size=(16, 16))
        env.action_space.seed(3)
        obs, _ = env.reset(seed=9)
        out = [obs["pov"].copy()]
        for _ in range(30):
            obs, r, *_ = env.step(env.action_space.sample())
            out.append(obs["pov"].copy())
            out.append(obs["location"].copy())
        return out

    a, b = run(), run()
    assert all((x == y).all() for x, y in zip(a, b))


def horizontal(loc):
    return np.array([loc[0], loc[2]], dtype=np.float64)


def test_walking_forward_moves_the_player():
    env = gameworld.make("openworld+atomic_logs", obs="dict", render_size=(16, 16))
    obs, info = env.reset(seed=2)
    start = horizontal(obs["location"])
    yaw = math.radians(float(obs["location"][3]))
    for _ in range(40):
        # Jump over single steps of terrain on the way.
        obs, *_ = env.step({"forward": 1, "jump": 1})
    moved = horizontal(obs["location"]) - start
    assert np.hypot(*moved) > 2.0, moved
    # Yaw 0 faces +z, 90 faces -x: forward is (-sin yaw, cos yaw).
    facing = np.array([-math.sin(yaw), math.cos(yaw)])
    assert moved @ facing > 0.9 * np.hypot(*moved)
    # Released, the player slows to a stop within a block and then stays.
    here = horizontal(obs["location"])
    for _ in range(20):
        obs, *_ = env.step(env.noop())
    stopped = horizontal(obs["location"])
    assert np.hypot(*(stopped - here)) < 1.5
    for _ in range(20):
        obs, *_ = env.step(env.noop())
    assert np.hypot(*(horizontal(obs["location"]) - stopped)) < 0.05


def _log_classes(env):
    return [i for i, c in enumerate(env.segmentation_classes) if c.startswith("block:") and c.endswith("_log")]


def _aim(env, seg, classes):
    """Camera turn (pitch, yaw) towards the pixel of `classes` nearest the
    centre, or None when none is in view."""
    h, w = seg.shape
    ys, xs = np.nonzero(np.isin(seg, classes))
    if len(xs) == 0:
        return None
    k = np.argmin((xs + 0.5 - w / 2) ** 2 + (ys + 0.5 - h / 2) ** 2)
    tan_y = math.tan(math.radians(35.0))
    tan_x = tan_y * w / h
    sx = ((xs[k] + 0.5) / w * 2 - 1) * tan_x
    sy = (1 - (ys[k] + 0.5) / h * 2) * tan_y
    return np.array([-math.degrees(math.atan(sy)), math.degrees(math.atan(sx))], dtype=np.float32)


def test_attacking_a_log_in_view_collects_it():
    """Find a tree with the segmentation, aim at a log, walk up to it, hold
    attack until it breaks, walk onto the dropped log: the inventory (and
    the atomic score, and reward="items") count it."""
    env = gameworld.make("openworld+atomic_logs", obs="dict", segmentation=True, render_size=(96, 64),
                         reward="items")
    logs = _log_classes(env)
    obs, info = env.reset(seed=1)
    total = 0.0
    turns = 0
    for _ in range(3000):
        inv = info["inventory"]
        if any(k.endswith("_log") for k in inv):
            break
        seg = obs["segmentation"]
        state = env.state()["game_state"]["player"]
        target = state["target"]
        if target and target["block"].endswith("_log"):
            action = {"attack": 1}
        else:
            aim = _aim(env, seg, [2] if (seg == 2).any() else logs)
            if aim is None:
                # Look around, then wander.
                turns += 1
                action = {"camera": np.array([0, 30], dtype=np.float32)} if turns % 14 else {"forward": 1, "jump": 1}
                if turns % 14 == 0:
                    for _ in range(30):
                        obs, r, term, trunc, info = env.step({"forward": 1, "jump": 1})
                        total += r
                    continue
            else:
                action = {"camera": aim, "forward": 1, "jump": 1}
        obs, r, term, trunc, info = env.step(action)
        total += r
        assert not (term and not any(k.endswith("_log") for k in info["inventory"]))
    assert any(k.endswith("_log") for k in info["inventory"]), info["inventory"]
    assert info["score"] >= 1 and info["obtained"] >= 1
    assert total == info["obtained"] >= 1


def test_hostile_actions_raise_value_errors_naming_the_field():
    env = gameworld.make("openworld+atomic_logs", render_size=(8, 8))
    env.reset(seed=1)
    for action, field in [
        ({"camera": np.array([np.nan, 0], dtype=np.float32)}, "camera"),
        ({"camera": np.array([0, 400], dtype=np.float32)}, "camera"),
        ({"camera": [1, 2, 3]}, "camera"),
        ({"hotbar": 12}, "hotbar"),
        ({"hotbar": 1.5}, "hotbar"),
        ({"hotbar": -1}, "hotbar"),
        ({"craft": len(env.craft_items) + 1}, "craft"),
        ({"smelt": 10**6}, "smelt"),
        ({"forward": 2}, "forward"),
        ({"attack": float("nan")}, "attack"),
        ({"jump": "yes"}, "jump"),
        ({"fly": 1}, "fly"),
    ]:
        with pytest.raises(ValueError, match=field):
            env.step(action)
    with pytest.raises(ValueError, match="dict"):
        env.step(3)
    # The valid edges pass.
    env.step({"hotbar": 9, "camera": np.array([180, -180], dtype=np.float32), "craft": len(env.craft_items)})
    vpt = gameworld.make("openworld+atomic_logs", action_format="vpt", render_size=(8, 8))
    vpt.reset(seed=1)
    for action, field in [([8641, 0], "buttons"), ([0, 121], "camera"), ([-1, 0], "buttons")]:
        with pytest.raises(ValueError, match=field):
            vpt.step(np.array(action))
    with pytest.raises(ValueError, match="VPT"):
        vpt.step(np.array([0.5, 3.0]))
    for kw, name in [({"obs": "pixels"}, "obs"), ({"action_format": "minerl"}, "action_format"),
                     ({"reward": "dense"}, "reward"), ({"depth": True}, "depth")]:
        with pytest.raises(ValueError, match=name):
            gameworld.make("openworld+atomic_logs", **kw)


def test_crafting_by_index_and_vpt_hotbar():
    env = gameworld.make("openworld+lh_wood_wooden_pickaxe", obs="dict", render_size=(8, 8), reward="items")
    obs, info = env.reset(seed=3)
    planks = env.craft_items.index("oak_planks") + 1
    # Nothing to craft from: the step is valid and nothing changes.
    obs, r, *_ , info = env.step({"craft": planks})
    assert info["invalid"] is None and "oak_planks" not in info["inventory"]
    vpt = gameworld.make("openworld+atomic_logs", action_format="vpt", obs="dict", render_size=(8, 8))
    obs, _ = vpt.reset(seed=3)
    # Button class of hotbar slot 3 (hotbar is the most significant digit).
    buttons = 3 * 3 * 3 * 3 * 2 * 2 * 2 * 2 * 2
    obs, *_ = vpt.step(np.array([buttons, 60]))
    assert vpt.state()["game_state"]["player"]["selected_slot"] == 3
