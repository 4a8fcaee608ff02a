#!/usr/bin/env bash
# Run the guide's quick commands for real (docs/guide-check.md): every block
# marked <!-- guide-check: run --> in README.md and the pages of
# docs/SUMMARY.md, in that order, in one scratch folder; files marked
# <!-- guide-check: file PATH --> are written there first. Python blocks run
# when `import gameworld` works in $PYTHON, else they are skipped.
#
#   scripts/guide-check.sh [--keep] [PAGE.md ...]
#   GAMEWORLD=target/debug/gameworld scripts/guide-check.sh docs/run.md
#
# Without GAMEWORLD it builds the release binary (cargo build --release).
# The tests (crates/gameworld/tests/guide_commands.rs) parse every command;
# this script runs the ones marked quick. Exit 1 if any command failed.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT="$(pwd)"
KEEP=0
PAGES=()
for a in "$@"; do
  case "$a" in
    --keep) KEEP=1 ;;
    -h|--help) sed -n '2,13p' "$0"; exit 0 ;;
    *) PAGES+=("$a") ;;
  esac
done
if [ -z "${GAMEWORLD:-}" ]; then
  cargo build --release --locked -q -p gameworld
  GAMEWORLD="$ROOT/target/release/gameworld"
fi
GAMEWORLD="$(cd "$(dirname "$GAMEWORLD")" && pwd)/$(basename "$GAMEWORLD")"
[ -x "$GAMEWORLD" ] || { echo "error: $GAMEWORLD is not an executable; build it or set GAMEWORLD=" >&2; exit 2; }
PY="${PYTHON:-python3}"
command -v python3 >/dev/null || { echo "error: the script reads the Markdown with python3; install it" >&2; exit 2; }
if [ ${#PAGES[@]} -eq 0 ]; then
  PAGES=(README.md)
  while IFS= read -r p; do PAGES+=("docs/$p"); done < <(grep -o '](\([^)#]*\.md\))' docs/SUMMARY.md | sed 's/^](//; s/)$//')
fi

WORK="$(mktemp -d)"
cleanup() { if [ "$KEEP" = 1 ]; then echo "scratch folder kept: $WORK"; else rm -rf "$WORK"; fi; }
trap cleanup EXIT
mkdir -p "$WORK/bin" "$WORK/guide"
ln -s "$GAMEWORLD" "$WORK/bin/gameworld"
ln -s "$ROOT/registry" "$WORK/registry"
ln -s "$ROOT/examples" "$WORK/examples"

# Turn the marked blocks into numbered steps: guide/NNNN.{sh,py,file} with
# guide/NNNN.at (page:line) and, for files, guide/NNNN.path.
python3 - "$WORK/guide" "${PAGES[@]}" <<'PY'
import re, sys, pathlib
out = pathlib.Path(sys.argv[1]); n = 0
def step(kind, at, body, path=None):
    global n
    n += 1
    (out / f"{n:04d}.{kind}").write_text(body)
    (out / f"{n:04d}.at").write_text(at)
    if path: (out / f"{n:04d}.path").write_text(path)
for page in sys.argv[2:]:
    lines = pathlib.Path(page).read_text().splitlines()
    marker, i = None, 0
    while i < len(lines):
        line = lines[i]
        m = re.fullmatch(r"\s*<!--\s*guide-check:\s*(.*?)\s*-->\s*", line)
        if m:
            marker = m.group(1)
        elif line.lstrip().startswith("```"):
            lang, start = line.strip()[3:].strip(), i + 1
            body = []
            i += 1
            while i < len(lines) and not lines[i].lstrip().startswith("```"):
                body.append(lines[i]); i += 1
            if marker == "run" and lang == "sh":
                for k, cmd in enumerate(body):
                    if cmd.strip() and not cmd.strip().startswith("#"):
                        step("sh", f"{page}:{start + 1 + k}", cmd + "\n")
            elif marker == "run" and lang == "python":
                step("py", f"{page}:{start}", "\n".join(body) + "\n")
            elif marker and marker.startswith("file "):
                step("file", f"{page}:{start}", "\n".join(body) + "\n", marker[5:].strip())
            marker = None
        elif line.strip():
            marker = None
        i += 1
PY

export PATH="$WORK/bin:$PATH"
unset GAMEWORLD_REGISTRY
cd "$WORK"
ran=0; failed=0; skipped=0; failures=()
py_ok=0
if "$PY" -c 'import gameworld' >/dev/null 2>&1; then py_ok=1; fi
for f in guide/*.at; do
  base="${f%.at}"; at="$(cat "$f")"
  if [ -f "$base.file" ]; then
    path="$(cat "$base.path")"
    mkdir -p "$(dirname "$path")"
    cp "$base.file" "$path"
    echo "== $at: wrote $path"
    continue
  fi
  if [ -f "$base.py" ]; then
    if [ "$py_ok" = 0 ]; then
      echo "== $at: skipped (python block; \`import gameworld\` fails in $PY: pip install ./crates/gw-python)"
      skipped=$((skipped + 1)); continue
    fi
    cmd=("$PY" "$base.py"); shown="python block"
  else
    cmd=(bash -c "set -o pipefail; $(cat "$base.sh")"); shown="$(cat "$base.sh")"
  fi
  echo "== $at: $shown"
  t0=$(date +%s)
  set +e
  "${cmd[@]}" >"$base.log" 2>&1
  rc=$?
  set -e
  ran=$((ran + 1))
  echo "   exit $rc in $(( $(date +%s) - t0 )) s"
  if [ "$rc" != 0 ]; then
    failed=$((failed + 1)); failures+=("$at")
    tail -n 20 "$base.log" | sed 's/^/   | /'
  fi
done
echo "guide check: $ran run, $failed failed, $skipped skipped"
if [ "$failed" != 0 ]; then
  printf '  failed: %s\n' "${failures[@]}"
  exit 1
fi
