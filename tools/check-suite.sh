#!/usr/bin/env bash
# Checks a perft suite with the gamut binary: every count up to a leaf
# budget is recounted and compared.
#
#   tools/check-suite.sh <game> [suite file] [max leaves]
#
# Default suite: positions/<game>.perft; default budget: 10,000,000 leaves.
# Prints one line per mismatch and a closing "N passed, N failed" line;
# exits 1 if any count differs.
set -euo pipefail
cd "$(dirname "$0")/.."
game=${1:?usage: tools/check-suite.sh <game> [suite file] [max leaves]}
suite=${2:-positions/$game.perft}
budget=${3:-10000000}
cargo build --release --quiet
bin=target/release/gamut
passed=0
failed=0
while IFS= read -r line; do
  case "$line" in ''|'#'*) continue ;; esac
  fen=$(printf '%s' "${line%%;*}" | sed 's/[[:space:]]*$//')
  rest=${line#*;}
  IFS=';' read -ra fields <<< "$rest"
  for f in "${fields[@]}"; do
    read -r d n <<< "${f#*D}"
    [ "$n" -le "$budget" ] || continue
    got=$("$bin" perft "$game" --fen "$fen" --depth "$d" 2>/dev/null | tail -n 1)
    if [ "$got" = "nodes $n" ]; then
      passed=$((passed + 1))
    else
      failed=$((failed + 1))
      echo "MISMATCH depth $d: expected $n, got '${got}' for: $fen"
    fi
  done
done < "$suite"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
