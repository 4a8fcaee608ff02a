"""Cooperative play as a PettingZoo ParallelEnv: the API test, each role's
action moving its own character, shared rewards and episode end."""

import numpy as np
import pytest

pytest.importorskip("pettingzoo")
from pettingzoo.test import parallel_api_test  # noqa: E402

from gameworld.pettingzoo import parallel_env  # noqa: E402

FBWG = "12_fireboy-and-watergirl+12_01"


def test_parallel_api_test_passes():
    env = parallel_env(FBWG, render_size=(32, 24))
    assert env.possible_agents == ["watergirl", "fireboy"]
    parallel_api_test(env, num_cycles=300)
    # The Gymnasium id works too.
    assert parallel_env("GameWorld/fireboy-and-watergirl-12_01-v0").possible_agents == env.possible_agents


def test_each_role_moves_its_own_character():
    env = parallel_env(FBWG, render_size=(16, 16), info_state=True)
    obs, infos = env.reset(seed=1)
    assert set(obs) == set(env.agents) and obs["fireboy"].shape == (16, 16, 3)
    start = infos["watergirl"]["state"]["game_state"]
    right = env.action_names["watergirl"].index("move_right")
    wait = env.action_names["fireboy"].index("wait")
    for _ in range(5):
        obs, rewards, terms, truncs, infos = env.step({"watergirl": right, "fireboy": wait})
    now = infos["fireboy"]["state"]["game_state"]
    assert now["watergirl"]["x"] > start["watergirl"]["x"]
    assert now["fireboy"]["x"] == start["fireboy"]["x"]
    assert rewards["watergirl"] == rewards["fireboy"]
    assert infos["watergirl"]["invalid"] is None
    left = env.action_names["fireboy"].index("move_left")
    for _ in range(5):
        obs, *_, infos = env.step({"watergirl": wait, "fireboy": left})
    later = infos["fireboy"]["state"]["game_state"]
    assert later["fireboy"]["x"] < now["fireboy"]["x"]
    assert later["watergirl"]["x"] == pytest.approx(now["watergirl"]["x"], abs=0.5)


def test_episode_ends_for_everyone_and_bad_actions_are_refused():
    env = parallel_env(FBWG, render_size=(8, 8))
    env.reset(seed=2)
    with pytest.raises(ValueError, match="fireboy"):
        env.step({"watergirl": 0})
    with pytest.raises(ValueError, match="outside Discrete"):
        env.step({"watergirl": 0, "fireboy": 99})
    with pytest.raises(ValueError, match="whole number"):
        env.step({"watergirl": 0.5, "fireboy": 0})
    rng = np.random.default_rng(0)
    steps = 0
    while env.agents:
        _, rewards, terms, truncs, _ = env.step({a: int(rng.integers(0, 5)) for a in env.agents})
        steps += 1
        assert len(set(terms.values())) == 1 and len(set(truncs.values())) == 1
    assert steps <= int(env.task["max_steps"])
    with pytest.raises(RuntimeError, match="reset"):
        env.step({"watergirl": 0, "fireboy": 0})
