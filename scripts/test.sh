#!/usr/bin/env bash
# The project's test command (README "Run the test suite", called by .ci/run):
# the Rust workspace's tests, then the Python package's tests (crates/gw-python:
# a dev-profile wheel built with maturin in a virtual environment under the
# target folder, installed with gymnasium, numpy, pytest, pyarrow, pyyaml and
# pettingzoo from PyPI).
# GW_SKIP_PYTHON=1 runs the Rust tests only.
set -euo pipefail
cd "$(dirname "$0")/.."
# No module import cycle inside the crates that #38 laid out in layers.
python3 scripts/module-cycles.py --check gw-agents gw-runtime >/dev/null \
  || { python3 scripts/module-cycles.py gw-agents gw-runtime; echo "error: a module import cycle (see above); move the shared helper down a layer" >&2; exit 1; }
cargo test --workspace --locked

if [ "${GW_SKIP_PYTHON:-0}" = 1 ]; then
  echo "note: GW_SKIP_PYTHON=1: the Python package's tests were not run"
  exit 0
fi
PY="${PYTHON:-python3}"
if ! "$PY" -c 'import sys, venv; assert sys.version_info >= (3, 9)' 2>/dev/null; then
  echo "error: the Python tests need CPython >= 3.9 with venv ($PY); install it, set PYTHON=..., or set GW_SKIP_PYTHON=1" >&2
  exit 1
fi
TARGET="$(cd "${CARGO_TARGET_DIR:-target}" && pwd)"
VENV="$TARGET/pyenv"
start=$(date +%s)
[ -x "$VENV/bin/python" ] || "$PY" -m venv "$VENV"
"$VENV/bin/python" -m pip install -q --disable-pip-version-check maturin gymnasium numpy pytest pyarrow pyyaml pettingzoo
rm -rf "$VENV/wheels"
# The wheel build reuses the test build's crates only where both resolve the same
# features (the pins in crates/gw-python/Cargo.toml); say so when they drift.
scripts/feature-pins.sh >/dev/null || echo "note: scripts/feature-pins.sh: feature sets differ; the wheel build recompiles shared crates (slower, still correct)"
"$VENV/bin/maturin" build --quiet --profile dev --locked -m crates/gw-python/Cargo.toml \
  -i "$VENV/bin/python" -o "$VENV/wheels"
"$VENV/bin/python" -m pip install -q --disable-pip-version-check --force-reinstall --no-deps "$VENV"/wheels/*.whl
# GAMEWORLD_BIN: the CLI built by cargo test, for the test that replays a CLI run.
GAMEWORLD_BIN="$TARGET/debug/gameworld" "$VENV/bin/python" -m pytest -q -p no:cacheprovider crates/gw-python/tests
# `gameworld mcp` with the official MCP Python SDK (from PyPI; needs Python >= 3.10) as its client.
if ! "$VENV/bin/python" -c 'import sys; assert sys.version_info >= (3, 10)' 2>/dev/null; then
  echo "error: the MCP tests (crates/gw-mcp/tests) need CPython >= 3.10 for the MCP SDK; set PYTHON=... to a newer one, or GW_SKIP_PYTHON=1" >&2
  exit 1
fi
"$VENV/bin/python" -m pip install -q --disable-pip-version-check "mcp>=2.3,<3"
GAMEWORLD_BIN="$TARGET/debug/gameworld" "$VENV/bin/python" -m pytest -q -p no:cacheprovider crates/gw-mcp/tests
echo "python package: built, installed and tested in $(( $(date +%s) - start )) s"
