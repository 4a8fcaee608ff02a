"""The vector environment: batched spaces, preallocated buffers, next-step
auto-reset, and agreement with single environments."""

import json

import numpy as np
import pytest
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv

import gameworld


def test_spaces_buffers_and_metadata():
    venv = gameworld.vector.make("GameWorld/2048-01_01-v0", num_envs=4, threads=2, render_size=(32, 24))
    assert isinstance(venv, VectorEnv)
    assert venv.metadata["autoreset_mode"] == AutoresetMode.NEXT_STEP
    assert venv.threads == 2
    assert venv.observation_space.shape == (4, 24, 32, 3)
    assert venv.action_space == spaces.MultiDiscrete([5] * 4)
    obs, infos = venv.reset(seed=10)
    assert obs.shape == (4, 24, 32, 3) and obs.dtype == np.uint8 and obs.flags.c_contiguous
    buffer = obs
    obs2, rewards, term, trunc, infos = venv.step(np.array([1, 2, 3, 4]))
    # The same preallocated arrays every step: nothing is reallocated.
    assert obs2 is buffer
    _, rewards2, _, _, infos = venv.step(np.array([1, 1, 1, 1]))
    assert rewards2 is rewards
    assert rewards.dtype == np.float64 and term.dtype == np.bool_ and trunc.dtype == np.bool_
    assert infos["step"].tolist() == [2, 2, 2, 2] and infos["_step"].all()
    assert venv.observation_space.contains(obs2)


def test_copy_mode_returns_fresh_arrays():
    venv = gameworld.vector.make("01_2048+01_01", num_envs=2, render_size=(8, 8), copy=True)
    obs, _ = venv.reset(seed=1)
    obs2 = venv.step(np.array([1, 2]))[0]
    assert obs2 is not obs and not np.array_equal(obs, obs2)


def test_each_env_matches_a_single_env_with_its_seed():
    actions = np.random.default_rng(3).integers(0, 5, size=(12, 3))
    venv = gameworld.vector.make("01_2048+01_01", num_envs=3, threads=3, render_size=(40, 30))
    vobs, _ = venv.reset(seed=100)
    vframes, vrewards = [vobs.copy()], []
    for a in actions:
        obs, r, _, _, _ = venv.step(a)
        vframes.append(obs.copy())
        vrewards.append(r.copy())
    for i in range(3):
        env = gameworld.make("01_2048+01_01", render_size=(40, 30))
        obs, _ = env.reset(seed=100 + i)
        assert np.array_equal(obs, vframes[0][i])
        for t, a in enumerate(actions):
            obs, r, _, _, _ = env.step(int(a[i]))
            assert np.array_equal(obs, vframes[t + 1][i])
            assert r == vrewards[t][i]


def test_thread_count_does_not_change_results():
    def rollout(threads):
        venv = gameworld.vector.make("13_flappy-bird+13_01", num_envs=4, threads=threads, render_size=(16, 16))
        venv.reset(seed=5)
        rng = np.random.default_rng(1)
        out = []
        for _ in range(20):
            obs, r, term, trunc, info = venv.step(rng.integers(0, venv.single_action_space.n, size=4))
            out.append((obs.copy(), r.copy(), term.copy(), trunc.copy(), info["score"].copy()))
        return out

    a, b = rollout(1), rollout(4)
    for x, y in zip(a, b):
        for u, v in zip(x, y):
            assert np.array_equal(u, v)


def test_next_step_autoreset(short_registry):
    venv = gameworld.vector.make("01_2048+01_01", num_envs=2, render_size=(16, 16), obs="both",
                                 registry=short_registry)
    obs, infos = venv.reset(seed=1)
    first = [json.loads(s) for s in obs["state"]]
    for _ in range(2):
        obs, r, term, trunc, infos = venv.step(np.array([1, 3]))
        assert not trunc.any()
    obs, r, term, trunc, infos = venv.step(np.array([2, 4]))
    assert trunc.all() and not term.any()
    assert list(infos["stop_reason"]) == ["max_steps_exhausted"] * 2
    # The next step resets instead of stepping: reward 0, flags down, step 0.
    obs, r, term, trunc, infos = venv.step(np.array([1, 1]))
    assert r.tolist() == [0.0, 0.0] and not term.any() and not trunc.any()
    assert infos["step"].tolist() == [0, 0]
    new = [json.loads(s) for s in obs["state"]]
    assert all(s["terminal"]["isTerminal"] is False for s in new)
    assert new != first  # a new seed, drawn from the first
    # Then the new episodes step normally.
    obs, r, term, trunc, infos = venv.step(np.array([1, 1]))
    assert infos["step"].tolist() == [1, 1]
    # Auto-reset seeds derive from the reset seed: a second run repeats it.
    again = gameworld.vector.make("01_2048+01_01", num_envs=2, render_size=(16, 16), obs="both",
                                  registry=short_registry)
    again.reset(seed=1)
    for a in ([1, 3], [1, 3], [2, 4], [1, 1]):
        o2 = again.step(np.array(a))[0]
    assert [json.loads(s) for s in o2["state"]] == new


def test_computer_use_vector():
    venv = gameworld.vector.make("19_minesweeper+19_01", num_envs=2, interface="computer-use",
                                 render_size=(16, 16), obs="state")
    assert isinstance(venv.single_action_space, spaces.Dict)
    states, _ = venv.reset(seed=3)
    assert isinstance(states, tuple) and len(states) == 2
    actions = venv.action_space.sample()
    actions["type"][:] = 0  # click
    actions["button"][:] = 0
    actions["point"][:] = [[640, 380], [5, 5]]  # a cell; the margin
    states2, r, term, trunc, infos = venv.step(actions)
    assert infos["invalid"].tolist() == [0, 0]
    assert json.loads(states2[0])["game_state"] != json.loads(states[0])["game_state"]
    assert json.loads(states2[1])["game_state"] == json.loads(states[1])["game_state"]


def test_bad_vector_arguments():
    with pytest.raises(ValueError, match="num_envs"):
        gameworld.vector.make("01_2048+01_01", num_envs=0)
    venv = gameworld.vector.make("01_2048+01_01", num_envs=2, render_size=(8, 8))
    venv.reset(seed=1)
    with pytest.raises(ValueError):
        venv.step(np.array([1, 2, 3]))


def test_gymnasium_make_vec_uses_the_rust_batch():
    import gymnasium as gym

    venv = gym.make_vec("GameWorld/2048-01_01-v0", num_envs=3, render_size=(8, 8))
    assert isinstance(venv.unwrapped, gameworld.vector.GameWorldVectorEnv)
    obs, _ = venv.reset(seed=1)
    assert obs.shape == (3, 8, 8, 3)


def test_hostile_vector_arguments_raise_clear_python_errors():
    for n, err in [(10**12, ValueError), (-1, ValueError), ("3", TypeError)]:
        with pytest.raises(err, match="num_envs"):
            gameworld.vector.make("01_2048+01_01", num_envs=n, render_size=(8, 8))
    with pytest.raises(ValueError, match="threads"):
        gameworld.vector.make("01_2048+01_01", num_envs=2, threads=0)
    venv = gameworld.vector.make("01_2048+01_01", num_envs=3, render_size=(8, 8))
    for seed in [2**65, [1, -2, 3]]:
        with pytest.raises(ValueError, match="seed"):
            venv.reset(seed=seed)
    venv.reset(seed=1)
    with pytest.raises(ValueError, match="whole number"):
        venv.step(np.array([0.5, 1.0, 2.0]))
    with pytest.raises(TypeError, match="integers"):
        venv.step(np.array(["a", "b", "c"]))
    venv.step(np.array([0.0, 1.0, 2.0]))
    venv.close()
    with pytest.raises(RuntimeError, match="closed"):
        venv.step(np.array([0, 1, 2]))
