import pathlib
import shutil

import pytest

REPO = pathlib.Path(__file__).resolve().parents[3]


@pytest.fixture
def short_registry(tmp_path):
    """A copy of the project's game and task registry in which 01_2048+01_01
    has a budget of 3 steps, for truncation and auto-reset tests."""
    root = tmp_path / "registry"
    shutil.copytree(REPO / "registry" / "games", root / "games")
    shutil.copytree(REPO / "registry" / "tasks", root / "tasks")
    task = root / "tasks" / "01_2048" / "01_01.yaml"
    text = task.read_text()
    assert "max_steps: 100" in text
    task.write_text(text.replace("max_steps: 100", "max_steps: 3"))
    return str(root)
