#!/bin/sh
# usage: tools/parallel-check.sh [<gamut binary>]
#
# Checks the GNU parallel recipe of tools/distributed.md on this machine:
# a small tournament played unsharded and as 3 shards run by `parallel`,
# whose merged reports must be identical. Prints both and exits 1 if they
# differ.
set -eu
bin=${1:-gamut}
dir=$(mktemp -d "${TMPDIR:-/tmp}/gamut-parallel.XXXXXX")
trap 'rm -rf "$dir"' EXIT
opts="aporia --engine name=d2,depth=2 --engine name=rnd,random --games 12 --seed 5 --concurrency 1"
# shellcheck disable=SC2086 # $opts is a list of options
"$bin" tournament $opts --records "$dir/whole.jsonl" --json >/dev/null
N=3
seq 1 $N | parallel -j 3 --halt now,fail=1 \
    "$bin tournament $opts --shard {}/$N --records $dir/shard-{}.jsonl --json > /dev/null"
"$bin" tournament merge "$dir/whole.jsonl" --json >"$dir/whole.json"
"$bin" tournament merge "$dir"/shard-*.jsonl --json >"$dir/shards.json"
cat "$dir/whole.json" "$dir/shards.json"
if cmp -s "$dir/whole.json" "$dir/shards.json"; then
    echo "same report: $N shards under GNU parallel = one unsharded run"
else
    echo "the reports differ" >&2
    exit 1
fi
