#!/bin/sh
# usage: tools/regression.sh <commit> <game> [tournament options ...]
#
# A regression match: builds <commit> into a temporary folder (a git
# worktree and its own target dir, both removed afterwards), builds the
# current tree, and plays a tournament of the current build ("new")
# against the earlier one ("old"), both as programs speaking the engine
# protocol with the same time per move. A build without `gamut engine` is
# driven through tools/analyze-adapter.sh, and then so is the current one,
# so that both sides pay the same start-up cost per move.
#
# Environment: TIME (ms per move, default 100), NODES (nodes per move
# instead of a time: the same search effort for both, whatever the
# start-up cost of a process per move), GAMES (default 40), KEEP=1
# keeps the temporary folder, CACHE=<dir> builds <commit> in <dir>/<commit>
# instead, keeps it and reuses it the next time (one build of the earlier
# commit for matches in several games), FAST=1 builds both trees without fat LTO (in
# parallel codegen units, as the test profile does: minutes less to build,
# a few per cent slower to run, the same for both sides). Any other option goes to `gamut tournament`
# (e.g. --records match.jsonl --sprt elo0=0,elo1=5,alpha=0.05,beta=0.05
# --concurrency 2).
set -eu
if [ $# -lt 2 ]; then
    echo "usage: tools/regression.sh <commit> <game> [tournament options ...]" >&2
    exit 2
fi
commit=$1
game=$2
shift 2
limit="time=${TIME:-100}"
[ -n "${NODES:-}" ] && limit="nodes=$NODES"
games=${GAMES:-40}
root=$(git rev-parse --show-toplevel)
tools="$root/tools"
if [ -n "${CACHE:-}" ]; then
    tmp="$CACHE/$commit"
    KEEP=1
    mkdir -p "$tmp"
else
    tmp=$(mktemp -d "${TMPDIR:-/tmp}/gamut-regression.XXXXXX")
fi
cleanup() {
    if [ "${KEEP:-0}" != 1 ]; then
        git -C "$root" worktree remove --force "$tmp/src" >/dev/null 2>&1 || true
        rm -rf "$tmp"
    fi
}
trap cleanup EXIT
if [ ! -d "$tmp/src" ]; then
    git -C "$root" worktree add --quiet --detach "$tmp/src" "$commit"
fi
echo "building $commit in $tmp" >&2
# The profile is defined on the command line, so that a commit from before
# the test profile builds with the same settings as the current tree.
if [ "${FAST:-0}" = 1 ]; then
    profile=regression
    build() {
        cargo build --quiet --profile regression \
            --config 'profile.regression.inherits="release"' \
            --config 'profile.regression.lto=false' \
            --config 'profile.regression.codegen-units=16'
    }
else
    profile=release
    build() { cargo build --quiet --release; }
fi
(cd "$tmp/src" && CARGO_TARGET_DIR="$tmp/target" build)
old="$tmp/target/$profile/gamut"
echo "building the current tree" >&2
(cd "$root" && build)
new="${CARGO_TARGET_DIR:-$root/target}/$profile/gamut"
if "$old" engine --help >/dev/null 2>&1; then
    new_cmd="$new engine"
    old_cmd="$old engine"
else
    new_cmd="$tools/analyze-adapter.sh $new"
    old_cmd="$tools/analyze-adapter.sh $old"
fi
"$new" tournament "$game" \
    --engine "name=new,cmd=$new_cmd,$limit" \
    --engine "name=old,cmd=$old_cmd,$limit" \
    --games "$games" "$@"
