"""Package metadata: the version and the type information ship."""

import pathlib
import re

import gameworld
from conftest import REPO


def test_version_is_the_workspace_version():
    cargo = (REPO / "Cargo.toml").read_text()
    version = re.search(r'^version = "([^"]+)"', cargo, re.M).group(1)
    assert gameworld.__version__ == version
    assert "__version__" in gameworld.__all__


def test_type_information_ships():
    pkg = pathlib.Path(gameworld.__file__).parent
    assert (pkg / "py.typed").is_file()
    stub = (pkg / "_core.pyi").read_text()
    for name in ("class Env", "class VecEnv", "def ow_step", "def step_joint", "__version__"):
        assert name in stub
