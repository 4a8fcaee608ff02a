"""A `backend: browser` game from Python through `registry=DIR`: it plays
when Chromium is installed, and says how to get Chromium when it is not."""

import shutil

import numpy as np
import pytest

import gameworld
from conftest import REPO

BROWSER = str(REPO / "examples" / "browser")
ORB = "web_orb_catch+catch_3"


def test_without_chromium_the_error_says_how_to_get_it(monkeypatch):
    monkeypatch.setenv("GAMEWORLD_CHROMIUM", "/nonexistent/chromium")
    with pytest.raises(ValueError) as e:
        gameworld.make(ORB, registry=BROWSER)
    text = str(e.value)
    assert "web_orb_catch" in text and "needs Chromium" in text
    assert "apt-get install chromium" in text and "GAMEWORLD_CHROMIUM" in text


def has_chromium():
    return any(shutil.which(n) for n in ("chromium", "chromium-browser", "google-chrome"))


@pytest.mark.skipif(not has_chromium(), reason="Chromium is not installed (apt-get install chromium)")
def test_browser_game_plays_through_the_gymnasium_api():
    env = gameworld.make(ORB, registry=BROWSER, render_size=(40, 30), info_state=True)
    assert env.viewport == (800, 600)
    assert env.action_names[:3] == ["move_left", "move_right", "wait"]
    obs, info = env.reset(seed=4)
    assert obs.shape == (30, 40, 3) and obs.dtype == np.uint8 and obs.any()
    x0 = env.state()["game_state"]["player"]["x"]
    right = env.action_names.index("move_right")
    for _ in range(3):
        obs, reward, terminated, truncated, info = env.step(right)
        assert info["invalid"] is None and "state" in info
    assert env.observation_space.contains(obs)
    assert env.state()["game_state"]["player"]["x"] > x0
    # A second reset reuses the browser: same seed, same start.
    _, again = env.reset(seed=4)
    assert again["score"] == 0
