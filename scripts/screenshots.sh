#!/usr/bin/env bash
# The guide's screenshots (README.md, docs/web-app.md): the play page, the run viewer, the suite dashboard and
# report.html, taken by headless Chromium at 1400 px from a small suite run
# here (no network, no API key). Writes docs/img/{play,viewer,dashboard,report}.png.
#
#   scripts/screenshots.sh            # builds target/debug/gameworld first
#   GAMEWORLD=path/to/gameworld CHROMIUM=/usr/bin/chromium scripts/screenshots.sh
#
# Needs chromium (apt-get install -y chromium) and curl.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT="$(pwd)"
CHROMIUM="${CHROMIUM:-$(command -v chromium || command -v chromium-browser || true)}"
if [ -z "$CHROMIUM" ]; then
  echo "error: chromium not found; install it (apt-get install -y chromium) or set CHROMIUM=" >&2
  exit 1
fi
if [ -z "${GAMEWORLD:-}" ]; then
  cargo build --locked -q -p gameworld
  GAMEWORLD="$ROOT/target/debug/gameworld"
fi
OUT="$ROOT/docs/img"
mkdir -p "$OUT"
WORK="$(mktemp -d)"
SERVER=""
cleanup() {
  if [ -n "$SERVER" ]; then kill "$SERVER" 2>/dev/null || true; fi
  rm -rf "$WORK"
}
trap cleanup EXIT
export GAMEWORLD_REGISTRY="$ROOT/registry"

# A small suite: three games, the expert and the random agent, two seeds.
cat > "$WORK/shots.yaml" <<'YAML'
name: shots
description: a small suite for the guide's screenshots
cases:
  - games: ["23_pacman", "05_breakout", "13_flappy-bird", "29_tetris", "01_2048"]
    tasks: all
    models: [scripted, random, noop]
seeds: [1, 2]
max_steps: 40
frames: sparse
YAML
"$GAMEWORLD" suite "$WORK/shots.yaml" --out "$WORK/runs/shots" --plain --max-parallel 2 2> "$WORK/suite.log"

PORT="${PORT:-18731}"
"$GAMEWORLD" serve --port "$PORT" --runs "$WORK/runs" > "$WORK/serve.log" 2>&1 &
SERVER=$!
BASE="http://127.0.0.1:$PORT"
for _ in $(seq 1 100); do
  curl -sf "$BASE/api/tasks" > /dev/null && break
  sleep 0.1
done

shot() { # name url [height]
  local name="$1" url="$2" height="${3:-900}"
  local profile="$WORK/profile-$name"
  timeout 120 "$CHROMIUM" --headless --no-sandbox --disable-gpu --no-first-run \
    --disable-background-networking --disable-component-update --disable-sync \
    --hide-scrollbars --user-data-dir="$profile" --window-size="1400,$height" \
    --virtual-time-budget=4000 --screenshot="$OUT/$name.png" "$url" > /dev/null 2>&1
  echo "wrote docs/img/$name.png"
}

# The play page: a Pac-Man play a few steps in (step mode).
PLAY=$(curl -sf -H 'content-type: application/json' \
  -d '{"preset": "23_pacman+23_01", "seed": 1, "name": "readme"}' "$BASE/api/play")
ID=$(printf '%s' "$PLAY" | sed -n 's/.*"id":"\([^"]*\)".*/\1/p')
for key in ArrowLeft ArrowLeft ArrowUp ArrowUp ArrowLeft; do
  curl -sf -H 'content-type: application/json' \
    -d "{\"action\": {\"action\": \"press_key\", \"key\": \"$key\"}}" "$BASE/api/play/$ID/input" > /dev/null
done
shot play "$BASE/#/play/$ID"

# The viewer: the Pac-Man expert's run, a few steps in.
RUN=$(cd "$WORK/runs" && find shots -path '*23_pacman+23_01+scripted*' -name result.json | sort | head -n 1 | xargs dirname)
shot viewer "$BASE/#/run?root=0&path=${RUN//+/%2B}&step=12"
shot dashboard "$BASE/#/suite?root=0&path=shots"
shot report "$BASE/report/shots/report.html?root=0" 2400
curl -sf -X DELETE "$BASE/api/play/$ID" > /dev/null || true
