#!/usr/bin/env bash
# Time to a depth with one and with more threads at every position of a
# bench file: the time `gamut analyze` reports for the last depth line (the
# engine's own clock, from the start of the search), median of RUNS runs.
# Prints one row per position and the median speed-up.
#
#   tools/threads-bench.sh GAMUT GAME DEPTH [THREADS] [RUNS] [EXTRA ANALYZE OPTIONS...]
#   tools/threads-bench.sh target/dist/gamut epaminondas 7 2 3   (after cargo build --profile dist)
#
# Positions come from positions/GAME.bench (`<position> ; comment`).
set -euo pipefail
if [ $# -lt 3 ]; then
    echo "usage: $0 GAMUT GAME DEPTH [THREADS] [RUNS] [ANALYZE OPTIONS...]" >&2
    exit 2
fi
gamut=$1 game=$2 depth=$3 threads=${4:-2} runs=${5:-3}
shift $(( $# < 5 ? $# : 5 ))
bench="$(dirname "$0")/../positions/$game.bench"
[ -r "$bench" ] || { echo "$0: no bench file $bench" >&2; exit 2; }

# The reported time (ms) of the last depth line of one search.
time_to_depth() {
    "$gamut" analyze "$game" --fen "$1" --depth "$depth" --threads "$2" "${@:3}" \
        | awk -v d="$depth" '$1 == "depth" && $2 == d { for (i = 1; i < NF; i++) if ($i == "time") t = $(i + 1) }
            END { if (t == "") { print "no line for depth " d > "/dev/stderr"; exit 1 } print t }'
}
median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

printf '%-60s %10s %10s %8s\n' position "1 thread" "$threads thr" speed-up
ratios=()
while IFS= read -r line; do
    case $line in '#'* | '') continue ;; esac
    pos=${line%%;*}
    pos=${pos% }
    one=() many=()
    for _ in $(seq "$runs"); do
        one+=("$(time_to_depth "$pos" 1 "$@")")
        many+=("$(time_to_depth "$pos" "$threads" "$@")")
    done
    a=$(printf '%s\n' "${one[@]}" | median)
    b=$(printf '%s\n' "${many[@]}" | median)
    r=$(awk -v a="$a" -v b="$b" 'BEGIN { printf "%.2f", a / (b > 0 ? b : 1) }')
    ratios+=("$r")
    printf '%-60s %8s ms %8s ms %7sx\n' "${pos:0:60}" "$a" "$b" "$r"
done < "$bench"
printf 'median speed-up %sx over %d positions\n' "$(printf '%s\n' "${ratios[@]}" | median)" "${#ratios[@]}"
