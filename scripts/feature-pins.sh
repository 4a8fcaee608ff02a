#!/usr/bin/env bash
# Prints the crates whose features differ between the two builds scripts/test.sh
# makes: `cargo test --workspace` (features unified over every member, dev-
# dependencies included) and `maturin build` of crates/gw-python (gw-python
# resolved alone). Each difference makes the wheel build compile that crate, and
# everything above it, a second time. Fix one by naming the crate with the
# workspace's features among the feature pins in crates/gw-python/Cargo.toml.
# Exit 0 when the two agree, 1 (with the list) when they do not.
set -euo pipefail
cd "$(dirname "$0")/.."
tree() { cargo tree --locked --prefix none --no-dedupe -f '{p}|{f}' "$@" | sed 's/ (\*)$//' | sort -u; }
py=$(tree -p gw-python -e normal,build)
ws=$(tree --workspace -e normal,build,dev)
diff=$(join -t'|' <(echo "$py") <(echo "$ws") | awk -F'|' '$2 != $3 { printf "%s\n    wheel:     [%s]\n    workspace: [%s]\n", $1, $2, $3 }')
if [ -n "$diff" ]; then
  echo "features differ between the wheel build and the workspace build:"
  echo "$diff"
  exit 1
fi
echo "feature pins: the wheel build reuses the workspace build's crates"
