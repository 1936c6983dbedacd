#!/usr/bin/env bash
# usage: tools/slurm/test.sh GAMUT [--break drop|double]
#
# Runs the job scripts of tools/slurm/ through a real Slurm: starts a
# one-node cluster from Debian's packages (slurm-wlm, munge; installed if
# missing) in a temporary folder, submits a tournament, a balance run and
# a learning run of two generations as job arrays of 3 tasks with their
# dependent jobs, and checks that
#
#   - the merged tournament report and the merged balance report equal
#     the reports of the same runs unsharded (the JSON, but for `ended`:
#     `merged` against `complete`, the one field that differs);
#   - the learning generation's data shares, played by the array, hold
#     the games of the same generation played unsharded in one process,
#     game for game and byte for byte; with a GAMUT built with the trainer
#     (--features learn), the two generations' ledger is that of the same
#     run in one process (times aside), and without it the first training
#     job refuses, as it must, and the second generation's jobs are
#     cancelled;
#   - a task cancelled part way through its share (scancel) and requeued
#     (scontrol requeue) resumes its records (--resume): the games it kept
#     stay as they were, none is played twice, and the merge is exact;
#     the tournament submitted again plays nothing.
#
# --break drop|double deletes or duplicates the last game of share 2 of
# each run after the arrays end, before the dependent jobs and the
# comparisons: the test must then fail. Runs as root (it starts munged
# and the Slurm daemons); the daemons are stopped at the end, on failure
# too (the folder is then kept, with the logs). Under a minute on two
# cores without the trainer.
set -euo pipefail
if [ $# -lt 1 ]; then
    echo "usage: $0 GAMUT [--break drop|double]" >&2
    exit 2
fi
if [ ! -f "$1" ] || [ ! -x "$1" ]; then
    echo "error: $1 is not an executable gamut" >&2
    exit 2
fi
gamut=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
broken=
if [ $# -ge 2 ]; then
    if [ $# = 3 ] && [ "$2" = --break ] && { [ "$3" = drop ] || [ "$3" = double ]; }; then
        broken=$3
    else
        echo "error: unknown option '${*:2}' (--break drop or --break double)" >&2
        exit 2
    fi
fi
if [ "$(id -u)" != 0 ]; then
    echo "error: run as root (it starts munged and the Slurm daemons)" >&2
    exit 2
fi
slurm=$(cd "$(dirname "$0")" && pwd)

say() { printf '== %s\n' "$*"; }
fail() { printf 'FAIL: %s\n' "$*" >&2; exit 1; }

tmp=$(mktemp -d "${TMPDIR:-/tmp}/gamut-slurm.XXXXXX")
chmod 755 "$tmp"
cluster='' whole=''
stop() {
    status=$?
    set +e
    if [ -n "$cluster" ]; then "$slurm/cluster.sh" stop "$tmp/cluster"; fi
    if [ -n "${whole:-}" ]; then
        # shellcheck disable=SC2046 # the pids are separate arguments
        kill $(pgrep -P "$whole") "$whole" 2>/dev/null
    fi
    if [ $status -ne 0 ]; then
        echo "the cluster's logs and the runs are kept in $tmp" >&2
    else
        rm -rf "$tmp"
    fi
    exit $status
}
trap stop EXIT
trap 'exit 130' INT TERM

# A one-node cluster in $tmp/cluster (tools/slurm/cluster.sh).
say "starting a one-node cluster ($tmp/cluster)"
cluster=1
"$slurm/cluster.sh" start "$tmp/cluster" >/dev/null || fail "the cluster did not start"
export SLURM_CONF=$tmp/cluster/slurm.conf
sinfo


# The states of job $1's tasks (one line each) as scontrol shows them.
states() { scontrol -o show job "$1" 2>/dev/null | sed -n 's/.*JobState=\([A-Z_]*\).*/\1/p'; }
# Waits until every task of job $1 has ended (5 minutes at most); prints
# their states.
wait_ended() {
    local s
    for _ in $(seq 1500); do
        s=$(states "$1")
        if [ -n "$s" ] && ! grep -qE 'PENDING|RUNNING|REQUEUE|CONFIGURING|COMPLETING|SUSPENDED|RESIZING|STAGE_OUT' <<<"$s"; then
            echo "$s"
            return
        fi
        sleep 0.2
    done
    fail "job $1 has not ended after 5 minutes: $(scontrol -o show job "$1")"
}
failures=0
bad() {
    printf 'FAIL: %s\n' "$*" >&2
    failures=$((failures + 1))
}
# A JSON report with `ended` as an unsharded run that played every game
# says it: the one field a merged report gives otherwise.
unmerged() { sed 's/"ended":"merged"/"ended":"complete"/' "$1"; }
# Splits the data file $1 (docs/datagen.md) into one file a game in
# folder $2, the first numbered $3 and the next each $4 more.
split_games() {
    local size off len i=$3
    size=$(stat -c %s "$1")
    off=$((11 + $(od -An -tu1 -j10 -N1 "$1" | tr -d ' ')))
    while [ "$off" -lt "$size" ]; do
        len=$(od -An -tu4 --endian=little -j"$off" -N4 "$1" | tr -d ' ')
        head -c $((off + 12 + len)) "$1" | tail -c $((12 + len)) >"$2/$(printf %05d "$i")"
        off=$((off + 12 + len)) i=$((i + $4))
    done
}
# Drops or doubles ($broken) a game of the records file $1.
break_records() {
    if [ "$broken" = drop ]; then
        sed -i '$d' "$1"
    else
        tail -n 1 "$1" >"$tmp/line"
        cat "$tmp/line" >>"$1"
    fi
    echo "--break $broken: $1 has $(wc -l <"$1") games now"
}
run=$tmp/runs
mkdir -p "$run"
N=3

# shellcheck disable=SC2054 # commas inside engine specs
tournament=(epaminondas --engine name=d2,depth=2 --engine name=d1,depth=1 --games 24 --seed 5 --random-plies 2)
# shellcheck disable=SC2054
balance=(apart --ladder depth=1,2 --games 24 --random-plies 2 --seed 3)
# shellcheck disable=SC2054
# The tiny Aporia run of tests/suite/learn.rs, with 6 games of data.
learn=(aporia --games 6 --nodes 100 --epochs 2 --validation 0.3 --gate depth=1 --gate-games 12
    --sprt elo0=-300,elo1=-200,alpha=0.2,beta=0.2 --start classic --classic-games 4)

say "submitting: a tournament (24 games), a balance run (2 rungs of 24 games) and a learning run of 2 generations (6 games of data each), $N shares each"
mapfile -t ids < <("$slurm/submit.sh" tournament "$run/tournament" "$N" "$gamut" "${tournament[@]}")
t_array=${ids[0]} t_merge=${ids[1]}
scontrol hold "$t_merge"
mapfile -t ids < <("$slurm/submit.sh" balance "$run/balance" "$N" "$gamut" "${balance[@]}")
b_array=${ids[0]} b_merge=${ids[1]}
mapfile -t ids < <("$slurm/submit.sh" learn "$run/learn" "$N" "$gamut" "${learn[@]}" --generations 2)
l_array=${ids[0]} l_step=${ids[1]} l_array2=${ids[2]} l_step2=${ids[3]}
if [ -n "$broken" ]; then
    scontrol hold "$b_merge"
    scontrol hold "$l_step"
fi
echo "tournament: array $t_array, merge $t_merge; balance: array $b_array, merge $b_merge; learn: arrays $l_array and $l_array2, training $l_step and $l_step2"

# The same runs unsharded, each in one process, meanwhile.
(
    "$gamut" --quiet tournament "${tournament[@]}" --records "$run/tournament-whole.jsonl" --json >"$run/tournament-whole.json"
    "$gamut" --quiet balance "${balance[@]}" --records "$run/balance-whole" --json >"$run/balance-whole.json"
    "$gamut" --quiet learn "${learn[@]}" --dir "$run/learn-whole" --shard 1/1 >/dev/null
    if "$gamut" --quiet learn "${learn[@]}" --dir "$run/learn-one" --shards "$N" --generations 2 >"$run/learn-one.out" 2>&1; then
        echo trainer >"$run/trainer"
    elif ! grep -q 'built without the trainer' "$run/learn-one.out"; then
        cat "$run/learn-one.out" >&2
        exit 1
    fi
) &
whole=$!

say "cancelling task 2 of the tournament part way through its share, then requeueing it"
shard2=$run/tournament/shard-2.jsonl
for _ in $(seq 1500); do
    [ -s "$shard2" ] && break
    sleep 0.1
done
[ -s "$shard2" ] || fail "task 2 wrote no game"
scancel "${t_array}_2"
for _ in $(seq 100); do
    [ "$(states "${t_array}_2")" = CANCELLED ] && break
    sleep 0.1
done
[ "$(states "${t_array}_2")" = CANCELLED ] || fail "task 2 is $(states "${t_array}_2"), not cancelled"
kept=$(wc -l <"$shard2")
[ "$kept" -lt 8 ] || fail "task 2 finished its share before it was cancelled"
echo "task 2 cancelled with $kept of its 8 games recorded"
head -n "$kept" "$shard2" >"$run/shard-2-cancelled.jsonl"
scontrol requeue "${t_array}_2"
scontrol update JobId="${t_array}_2" StartTime=now
if [ -z "$broken" ]; then scontrol release "$t_merge"; fi

if [ -n "$broken" ]; then
    wait_ended "$t_array" >/dev/null
    wait_ended "$b_array" >/dev/null
    wait_ended "$l_array" >/dev/null
    break_records "$shard2"
    break_records "$run/balance/shard-2/depth=1.jsonl"
    share=$run/learn/gen-001/data-2-of-$N.dat
    split_games "$share" "$tmp" 0 1
    last=$(find "$tmp" -maxdepth 1 -name '0000*' | sort | tail -n 1)
    if [ "$broken" = drop ]; then
        head -c -"$(stat -c %s "$last")" "$share" >"$tmp/share" && mv "$tmp/share" "$share"
    else
        cat "$last" >>"$share"
    fi
    echo "--break $broken: $share has lost or gained its last game"
    for job in "$t_merge" "$b_merge" "$l_step"; do scontrol release "$job"; done
fi

say "waiting for the jobs"
for job in "$t_merge" "$b_merge" "$l_step" "$l_step2"; do
    wait_ended "$job" >/dev/null
done
status=0
wait "$whole" || status=$?
whole=
[ "$status" = 0 ] || fail "the unsharded runs failed"
echo "tasks: tournament $(states "$t_array" | sort | uniq -c | xargs), balance $(states "$b_array" | sort | uniq -c | xargs), learn $(states "$l_array" | sort | uniq -c | xargs)"

say "tournament"
files=("$run/tournament/shard-1.jsonl" "$run/tournament/shard-2.jsonl" "$run/tournament/shard-3.jsonl")
if "$gamut" --quiet tournament merge "${files[@]}" --json >"$run/tournament-shards.json"; then
    if unmerged "$run/tournament-shards.json" | cmp -s - "$run/tournament-whole.json"; then
        echo "the shards' records merged give the unsharded report"
    else
        bad "the shards' records merged do not give the unsharded report"
    fi
else
    bad "gamut tournament merge refuses the shards' records"
fi
s=$(states "$t_merge")
if [ "$s" = COMPLETED ] && unmerged "$run/tournament/report.json" | cmp -s - "$run/tournament-whole.json"; then
    echo "the merge job's report.json is the unsharded report"
else
    bad "the merge job ended $s without the unsharded report: $(tail -n 3 "$run/tournament/logs/gamut-merge-$t_merge.out")"
fi
if [ "$(head -n "$kept" "$shard2")" = "$(cat "$run/shard-2-cancelled.jsonl")" ] && [ "$(wc -l <"$shard2")" = 8 ]; then
    echo "share 2, resumed after the requeue, kept the games it had recorded ($kept of 8) as they were and added the other $((8 - kept))"
else
    bad "share 2 did not keep the games it had recorded ($kept of 8) and add the rest: it has $(wc -l <"$shard2") games"
fi

say "balance"
if "$gamut" --quiet balance merge "$run"/balance/shard-{1,2,3} --json >"$run/balance-shards.json"; then
    if unmerged "$run/balance-shards.json" | cmp -s - "$run/balance-whole.json"; then
        echo "the shards' records merged give the unsharded report"
    else
        bad "the shards' records merged do not give the unsharded report"
    fi
else
    bad "gamut balance merge refuses the shards' records"
fi
s=$(states "$b_merge")
if [ "$s" = COMPLETED ] && unmerged "$run/balance/report.json" | cmp -s - "$run/balance-whole.json"; then
    echo "the merge job's report.json is the unsharded report"
else
    bad "the merge job ended $s without the unsharded report: $(tail -n 3 "$run/balance/logs/gamut-merge-$b_merge.out")"
fi

say "learning generation"
mkdir -p "$tmp/games-whole" "$tmp/games-shards"
split_games "$run/learn-whole/gen-001/data-1-of-1.dat" "$tmp/games-whole" 0 1
for k in $(seq "$N"); do
    split_games "$run/learn/gen-001/data-$k-of-$N.dat" "$tmp/games-shards" $((k - 1)) "$N"
done
if diff -r -q "$tmp/games-whole" "$tmp/games-shards" >/dev/null; then
    echo "the array's $N data shares hold the $(find "$tmp/games-whole" -type f | wc -l) games played unsharded in one process, byte for byte"
else
    bad "the array's data shares are not the games played unsharded: $(diff -r -q "$tmp/games-whole" "$tmp/games-shards" | head -n 3)"
fi
s="$(states "$l_step") $(states "$l_array2" | sort -u | xargs) $(states "$l_step2")"
if [ -f "$run/trainer" ]; then
    untimed() { sed -e 's/"seconds":[0-9.e+-]*,\{0,1\}//' -e 's/,\{0,1\}"time":[0-9]*//' "$1"; }
    if [ "$s" = "COMPLETED COMPLETED COMPLETED" ] && [ "$(untimed "$run/learn/ledger.jsonl")" = "$(untimed "$run/learn-one/ledger.jsonl")" ]; then
        echo "the two generations' ledger is that of the same generations run in one process (times aside)"
    else
        bad "the training jobs and the second array ended $s, or their ledger differs from the one-process run's"
    fi
elif [ "$s" = "FAILED CANCELLED CANCELLED" ] && grep -q 'built without the trainer' "$run/learn/logs/gamut-learn-step-$l_step.out"; then
    echo "not tested: training, gating and promoting (this gamut has no trainer: the training job refused, as it must, and the second generation's jobs were cancelled)"
else
    bad "the training job, the second array and its training job ended $s: $(tail -n 3 "$run/learn/logs/gamut-learn-step-$l_step.out")"
fi

say "the tournament submitted again: every share resumes to nothing"
before=$(cat "$run"/tournament/shard-{1,2,3}.jsonl | cksum)
mapfile -t ids < <("$slurm/submit.sh" tournament "$run/tournament" "$N" "$gamut" "${tournament[@]}")
wait_ended "${ids[1]}" >/dev/null
s=$(states "${ids[1]}")
if [ "$(cat "$run"/tournament/shard-{1,2,3}.jsonl | cksum)" != "$before" ]; then
    bad "the shares' records changed when submitted again"
elif [ "$s" = COMPLETED ] && unmerged "$run/tournament/report.json" | cmp -s - "$run/tournament-whole.json"; then
    echo "no game played again; the merge job's report is still the unsharded report"
else
    bad "the merge job submitted again ended $s without the unsharded report"
fi

if [ "$failures" -gt 0 ]; then
    echo "$failures checks failed" >&2
    exit 1
fi
say "all checks passed"
