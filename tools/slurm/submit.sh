#!/usr/bin/env bash
# usage: tools/slurm/submit.sh tournament|balance|learn DIR N GAMUT OPTIONS...
#
# Submits a tournament, a balance run or learning generations to Slurm as
# a job array of N tasks, one share each, and a job depending on it
# (afterok) that joins the shares (tournament, balance) or trains, gates
# and promotes (learn). DIR is a folder on a file system every node sees
# (made if missing), N the array's size, GAMUT gamut's path on the nodes;
# these are the only settings. OPTIONS are what to play:
#
#   tournament  gamut tournament's options (game, engines, --games,
#               --seed, openings…), without --shard, --records, --json
#   balance     gamut balance's options, the same way
#   learn       the game and the run's settings (docs/learn.md), without
#               --dir and --shards (N); --generations G chains one array
#               and one training job per generation until G generations
#               are complete in DIR. gamut runs once here to make DIR (or
#               check its settings) and count its generations.
#
# Prints the jobs' ids, the dependent job's last. Logs go to DIR/logs.
# sbatch's own settings come from its environment (SBATCH_PARTITION,
# SBATCH_TIMELIMIT, SBATCH_ACCOUNT…).
set -euo pipefail
if [ $# -lt 5 ]; then
    echo "usage: $0 tournament|balance|learn DIR N GAMUT OPTIONS..." >&2
    exit 2
fi
kind=$1 dir=$2 n=$3 gamut=$4
shift 4
case $kind in tournament | balance | learn) ;; *)
    echo "error: unknown kind '$kind' (tournament, balance or learn)" >&2
    exit 2
    ;;
esac
if ! [[ $n =~ ^[1-9][0-9]*$ ]]; then
    echo "error: N must be a positive number of shares, not '$n'" >&2
    exit 2
fi
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$dir/logs"
dir=$(cd "$dir" && pwd)
case $gamut in */*) gamut=$(cd "$(dirname "$gamut")" && pwd)/$(basename "$gamut") ;; esac
array=(sbatch --parsable --array="1-$n" --output="$dir/logs/%x-%A_%a.out")
step=(sbatch --parsable --output="$dir/logs/%x-%j.out")

if [ "$kind" != learn ]; then
    id=$("${array[@]}" "$here/$kind.sbatch" "$dir" "$n" "$gamut" "$@")
    echo "$id"
    "${step[@]}" --dependency="afterany:$id" "$here/$kind-merge.sbatch" "$dir" "$n" "$gamut"
    exit 0
fi

game=$1
shift
settings=() generations=1
while [ $# -gt 0 ]; do
    case $1 in
    --generations) generations=${2:?--generations needs a number}; shift 2 ;;
    --generations=*) generations=${1#*=}; shift ;;
    *) settings+=("$1"); shift ;;
    esac
done
done_line=$("$gamut" --quiet learn "$game" --dir "$dir" --shards "$n" "${settings[@]}" --generations 0)
complete=${done_line%% generations complete*}
# Each generation's array and training job start once the training job
# before them has ended well; if it failed, they are cancelled.
last=
for ((g = complete + 1; g <= generations; g++)); do
    after=() before=
    if [ -n "$last" ]; then
        after=(--dependency="afterok:$last" --kill-on-invalid-dep=yes)
        before=",afterok:$last"
    fi
    id=$("${array[@]}" "${after[@]}" "$here/learn.sbatch" "$dir" "$n" "$gamut" "$game")
    echo "$id"
    last=$("${step[@]}" --dependency="afterany:$id$before" --kill-on-invalid-dep=yes \
        "$here/learn-step.sbatch" "$dir" "$n" "$gamut" "$game" "$g")
    echo "$last"
done
if [ -z "$last" ]; then
    echo "$done_line: nothing to submit" >&2
fi
