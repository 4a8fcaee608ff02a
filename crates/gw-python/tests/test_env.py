"""The single environment: spaces, reset/step, rewards, determinism, and the
Gymnasium checker over every game."""

import json

import gymnasium as gym
import numpy as np
import pytest
from gymnasium import spaces
from gymnasium.utils.env_checker import check_env

import gameworld
from gameworld import _core

# The native 2D/3D games (the open world has its own env class and tests).
GAMES = sorted({g for g, _t, _n in _core.task_ids() if g != "openworld"})


def first_task(game_id):
    return next(t for g, t, _n in _core.task_ids() if g == game_id)


def test_every_task_is_registered_with_gymnasium():
    ids = gameworld.env_ids()
    assert len(ids) == len(_core.task_ids()) >= 5 * len(GAMES)
    assert "GameWorld/2048-01_01-v0" in ids
    assert "GameWorld/worlds-hardest-game-2-34_01-v0" in ids or any(
        i.startswith("GameWorld/worlds-hardest-game-2-") for i in ids
    )
    env = gym.make("GameWorld/2048-01_01-v0", render_size=(32, 24))
    obs, info = env.reset(seed=3)
    assert obs.shape == (24, 32, 3) and obs.dtype == np.uint8
    assert env.unwrapped.task["game_id"] == "01_2048"
    assert env.unwrapped.task["task_id"] == "01_01"


def test_reset_step_five_tuple_and_info():
    env = gameworld.make("01_2048+01_01", render_size=(64, 64))
    obs, info = env.reset(seed=1)
    assert env.observation_space.contains(obs)
    # The first board's highest tile counts: progress starts above 0.
    assert info["step"] == 0 and info["best_progress"] == info["progress"] == info["score"] / 32 > 0
    up = env.action_names.index("move_up")
    obs, reward, terminated, truncated, info = env.step(up)
    assert env.observation_space.contains(obs)
    assert isinstance(reward, float) and not terminated and not truncated
    assert info["step"] == 1 and info["invalid"] is None and info["stop_reason"] is None
    assert set(info) >= {"score", "progress", "best_progress", "invalid", "stop_reason", "game_reset"}
    assert "state" not in info


def test_reward_is_best_progress_gained():
    env = gameworld.make("01_2048+01_01", render_size=(8, 8))
    _, info = env.reset(seed=2)
    rng = np.random.default_rng(0)
    total, best = 0.0, info["best_progress"]
    start = best
    for _ in range(100):
        obs, reward, terminated, truncated, info = env.step(int(rng.integers(1, 5)))
        assert reward >= 0.0
        assert reward == pytest.approx(info["best_progress"] - best)
        best = info["best_progress"]
        total += reward
        if terminated or truncated:
            break
    assert total == pytest.approx(best - start) and total > 0.0
    # 100 moves is the task's budget: the run ended on a stop reason.
    assert terminated or truncated
    assert info["stop_reason"] in ("target_reached", "max_steps_exhausted")
    assert truncated == (info["stop_reason"] == "max_steps_exhausted")
    with pytest.raises(RuntimeError, match="episode has ended"):
        env.step(0)


def test_truncation_at_the_task_budget(short_registry):
    env = gameworld.make("01_2048+01_01", registry=short_registry, render_size=(8, 8))
    env.reset(seed=1)
    flags = [env.step(1)[2:4] for _ in range(3)]
    assert flags == [(False, False), (False, False), (False, True)]


def run(env, seed, actions):
    obs, _ = env.reset(seed=seed)
    frames, rewards, states = [obs.copy()], [], [env.unwrapped.state()]
    for a in actions:
        obs, r, term, trunc, _ = env.step(a)
        frames.append(obs.copy())
        rewards.append(r)
        states.append(env.unwrapped.state())
        if term or trunc:
            break
    return frames, rewards, states


@pytest.mark.parametrize("game", ["01_2048", "13_flappy-bird", "29_tetris"])
def test_same_seed_and_actions_give_the_same_episode(game):
    env = gameworld.make(f"{game}+{first_task(game)}", render_size=(48, 32))
    actions = list(np.random.default_rng(5).integers(0, env.action_space.n, size=30))
    f1, r1, s1 = run(env, 7, actions)
    f2, r2, s2 = run(gameworld.make(f"{game}+{first_task(game)}", render_size=(48, 32)), 7, actions)
    assert r1 == r2 and s1 == s2
    assert all(np.array_equal(a, b) for a, b in zip(f1, f2))


def test_different_seeds_deal_different_games():
    env = gameworld.make("01_2048+01_01", obs="state")
    a = json.loads(env.reset(seed=1)[0])
    b = json.loads(env.reset(seed=2)[0])
    assert a["game_state"] != b["game_state"]


def test_state_and_both_observations():
    env = gameworld.make("01_2048+01_01", obs="state", info_state=True)
    obs, info = env.reset(seed=4)
    assert isinstance(obs, str) and env.observation_space.contains(obs)
    state = json.loads(obs)
    assert state == info["state"] == env.unwrapped.state()
    assert state["terminal"]["isTerminal"] is False
    env = gameworld.make("01_2048+01_01", obs="both", render_size=(16, 16))
    obs, _ = env.reset(seed=4)
    assert set(obs) == {"rgb", "state"} and obs["rgb"].shape == (16, 16, 3)
    assert json.loads(obs["state"]) == state


def test_small_frames_are_drawn_at_their_size_close_to_the_shrunk_viewport():
    """2048 draws a small observation directly (the draw kit's scale): the
    same layout as the viewport frame shrunk, within a tolerance, and the
    same pixels every time; model frames (render()) stay at the viewport."""
    full = gameworld.make("01_2048+01_01", render_size=None, render_mode="rgb_array")
    small = gameworld.make("01_2048+01_01", render_size=(64, 40))
    obs_full, _ = full.reset(seed=9)
    obs_small, _ = small.reset(seed=9)
    boxes = obs_full.reshape(40, 18, 64, 20, 3).astype(np.float64).mean(axis=(1, 3))
    assert np.abs(obs_small.astype(np.float64) - boxes).mean() < 12
    assert obs_small.std() > 5
    again = gameworld.make("01_2048+01_01", render_size=(64, 40))
    assert np.array_equal(again.reset(seed=9)[0], obs_small)
    # Drawing small never changes the viewport frame drawn after it.
    assert np.array_equal(full.render(), obs_full)


def test_frames_are_the_viewport_frame_averaged():
    """A game that draws only at its viewport (Wolfenstein 3D's ray caster)
    is drawn there and box-averaged."""
    full = gameworld.make("31_wolf3d+31_01", render_size=None, render_mode="rgb_array")
    small = gameworld.make("31_wolf3d+31_01", render_size=(64, 40))
    obs_full, _ = full.reset(seed=9)
    obs_small, _ = small.reset(seed=9)
    assert obs_full.shape == (720, 1280, 3)
    assert np.array_equal(full.render(), obs_full)
    # 1280x720 -> 64x40: boxes of 20x18 source pixels, rounded mean.
    boxes = obs_full.reshape(40, 18, 64, 20, 3).astype(np.uint32).sum(axis=(1, 3))
    expected = ((boxes + 180) // 360).astype(np.uint8)
    assert np.array_equal(obs_small, expected)
    assert obs_small.std() > 5  # a real picture, not a flat fill


def test_generalist_action_spaces():
    env = gameworld.make("01_2048+01_01")
    assert isinstance(env.action_space, spaces.Discrete)
    assert env.action_names == ["wait", "move_up", "move_down", "move_left", "move_right"]
    mines = gameworld.make("19_minesweeper+" + first_task("19_minesweeper"))
    assert mines.action_space.n == 1 + 81 + 81
    assert mines.action_names[1] == "reveal_cell:a1" and mines.action_names[-1] == "flag_cell:i9"
    wordle = gameworld.make("32_wordle+" + first_task("32_wordle"), obs="state")
    assert wordle.action_names[1:] == [f"type_text:{c}" for c in "abcdefghijklmnopqrstuvwxyz"]
    wordle.reset(seed=1)
    for letter in "crane":
        wordle.step(wordle.action_names.index(f"type_text:{letter}"))
    guesses = json.dumps(wordle.unwrapped.state()).lower()
    assert "crane" in guesses
    with pytest.raises(RuntimeError, match="outside Discrete"):
        env.reset(seed=1)
        env.step(99)


def test_computer_use_action_space():
    env = gameworld.make("19_minesweeper+" + first_task("19_minesweeper"), interface="computer-use", obs="state")
    space = env.action_space
    assert isinstance(space, spaces.Dict)
    assert set(space) == {"type", "key", "button", "point", "to", "duration"}
    assert env.action_types == ["click", "drag", "wait"]  # minesweeper has no keys
    assert list(space["point"].nvec) == [1280, 720]
    env.reset(seed=1)
    click = {"type": 0, "key": 0, "button": 0, "point": np.array([640, 380]), "to": np.array([0, 0]),
             "duration": np.array([0.0], dtype=np.float32)}
    _, _, _, _, info = env.step(click)
    assert info["invalid"] is None
    assert json.loads(env.unwrapped._core.rust.state())["game_state"] != json.loads(env.reset(seed=1)[0])["game_state"]

    keys_only = gameworld.make("13_flappy-bird+" + first_task("13_flappy-bird"), interface="computer-use")
    assert keys_only.action_types == ["key", "wait"] and keys_only.keys
    keys_only.reset(seed=1)
    # A key outside the role's keys cannot be expressed; a bad type index is refused.
    with pytest.raises(RuntimeError, match="outside Discrete"):
        keys_only.step({"type": 5, "duration": [0.1]})
    _, _, _, _, info = keys_only.step({"type": 1, "duration": np.array([20.0])})
    assert info["invalid"] == "out_of_space"  # a 20 s wait is outside 0..10 s


def test_raw_payloads_go_through_the_action_layer():
    env = gameworld.make("01_2048+01_01", obs="state")
    env.reset(seed=1)
    assert env.step({"action": "MOVE-UP"})[4]["invalid"] is None  # alias normalization
    assert env.step({"action": "fly"})[4]["invalid"] == "out_of_space"
    assert env.step({"thought": "hmm"})[4]["invalid"] == "no_tool_call"


def test_clear_errors():
    with pytest.raises(ValueError, match="unknown game"):
        gameworld.make("99_nope+01_01")
    with pytest.raises(ValueError, match="must be <game_id>\\+<task_id>"):
        gameworld.make("01_2048")
    with pytest.raises(ValueError, match="interface"):
        gameworld.make("01_2048+01_01", interface="mouse")
    with pytest.raises(ValueError, match="obs"):
        gameworld.make("01_2048+01_01", obs="pixels")
    with pytest.raises(ValueError, match="registry"):
        gameworld.make("01_2048+01_01", registry="/nonexistent")
    with pytest.raises(gym.error.ResetNeeded):
        gameworld.make("01_2048+01_01").step(0)


@pytest.mark.parametrize("game", GAMES)
def test_check_env_passes_for_every_game(game):
    task = first_task(game)
    check_env(gameworld.make(f"{game}+{task}", render_size=(32, 32), render_mode="rgb_array"), skip_render_check=False)
    check_env(gameworld.make(f"{game}+{task}", interface="computer-use", obs="both", render_size=(16, 16)))


def test_replays_a_cli_run_exactly(tmp_path):
    """`gameworld run <preset> --seed s` and the Python env on seed s, fed
    the run's actions, see the same states, scores and progress."""
    import os
    import subprocess

    cli = os.environ.get("GAMEWORLD_BIN")
    if not cli:
        pytest.skip("set GAMEWORLD_BIN to the gameworld binary (scripts/test.sh does)")
    for preset, seed in (("01_2048+01_01", 3), ("13_flappy-bird+13_01", 2)):
        out = tmp_path / preset
        subprocess.run([cli, "run", f"{preset}+scripted", "--seed", str(seed), "--out", str(out), "--no-frames"],
                       check=True, capture_output=True)
        rows = [json.loads(line) for line in (out / "trajectory.jsonl").read_text().splitlines()]
        assert len(rows) > 5
        env = gameworld.make(preset, interface="computer-use", obs="state")
        obs, info = env.reset(seed=seed)
        best = info["best_progress"]
        for row in rows:
            assert row["valid"], row
            obs, reward, terminated, truncated, info = env.step(row["action"])
            assert info["invalid"] is None
            assert info["score"] == row["score"] and info["progress"] == row["progress"]
            assert info["best_progress"] == row["best_progress"]
            assert reward == pytest.approx(row["best_progress"] - best)
            best = row["best_progress"]
            if not info["game_reset"]:
                state = json.loads(obs)
                for s in (state, row["state"]):
                    s.pop("timestampMs", None)
                assert state == row["state"]
        assert terminated or truncated
        result = json.loads((out / "result.json").read_text())
        assert info["stop_reason"] == result["stop_reason"]


def test_hostile_actions_seeds_and_arguments_raise_clear_python_errors():
    env = gameworld.make("01_2048+01_01", render_size=(8, 8))
    env.reset(seed=1)
    # Not an index at all, or not a whole one: refused before the game.
    for bad, err, text in [
        (2**70, ValueError, "outside Discrete"),
        (1.5, ValueError, "whole number"),
        (float("nan"), ValueError, "whole number"),
        (np.array([1, 2]), ValueError, "one integer"),
        (None, TypeError, "integer"),
    ]:
        with pytest.raises(err, match=text):
            env.step(bad)
    assert env.step(np.int8(1))[4]["invalid"] is None
    for seed, err in [(-1, Exception), (2**64, ValueError), (2**200, ValueError), (1.5, Exception)]:
        with pytest.raises(err):
            env.reset(seed=seed)
    env.reset(seed=2**64 - 1)
    for size in [(2**40, 1), (0, 5), (100000, 100000)]:
        with pytest.raises(ValueError, match="render_size"):
            gameworld.make("01_2048+01_01", render_size=size)
    with pytest.raises(TypeError, match="env_id"):
        gameworld.make(None)
    # Computer-use indices that are NaN or fractions would silently become
    # another action on the Rust side.
    cu = gameworld.make("19_minesweeper+19_01", interface="computer-use", render_size=(8, 8))
    cu.reset(seed=1)
    for action in [{"type": float("nan")}, {"type": 0, "button": 0.5}, {"type": float("inf")}]:
        with pytest.raises(ValueError, match="whole number"):
            cu.step(action)
    # NaN coordinates are the game's business: an out-of-space no-op.
    _, _, _, _, info = cu.step({"type": 0, "point": [float("nan"), 5]})
    assert info["invalid"] == "out_of_space"
