#!/usr/bin/env bash
# Reproduces a game's shipped network from scratch: self-play data made by
# this build's `gamut datagen`, then `gamut-train` (tools/train), writing
# the network file and a log of every command, count, seed and time.
#
#   tools/train.sh <game>
#
# Settings (environment; defaults are those of the shipped network, see
# docs/results.md):
#   PARTS   seed:games of each data file, made in parallel ("1:2000 2:1000");
#           seed:games:K/N makes only shard K of N of those games (the
#           games numbered K-1 modulo N), as `datagen --shard` does;
#           seed:games:K/N:net (or seed:games::net) is a later generation's
#           part: played with the network trained first on the parts
#           without the mark (the same trainer settings, but FIRST_LAMBDA),
#           then trained on with them all
#   FIRST_LAMBDA   λ of that first generation's network (default: LAMBDA)
#   NODES   search nodes per move in self-play
#   RANDOM_PLIES   random plies at the start of each self-play game
#   EPOCHS, HIDDEN, LAMBDA, LR, SCALE, TRAIN_SEED   the trainer's options
#   ON_CLASSIC   if set, train the network on the classic evaluation
#           (gamut-train --on-classic)
#   MAX_POSITIONS   train on at most this many positions, the first ones
#           (whole games; mirror images count)
#   INIT    a network file to train from instead of new weights
#           (gamut-train --init): a generation trained on from the last;
#           with later parts, the first generation starts from INIT and
#           the last from the first
#   BUCKETS output buckets by the count of active features (gamut-train
#           --buckets)
#   DATA    where the data and the log go (never inside the repository)
#   DATAGEN_BIN   the gamut binary that plays the self-play games (default:
#           this build's); a later generation's data is played by the build
#           whose built-in network is the generation before
#   DATAGEN_EVAL  the self-play search's evaluation, classic or net
#           (default: the game's own); net with that build's built-in
#           network plays a later generation's data
#   DATAGEN_NET   a network file the self-play search evaluates with
#           (datagen --eval net --net FILE): the generation before, when
#           it is no longer the build's built-in network
#   OUT     the network file to write (default: src/games/<game>/<game>.net)
set -euo pipefail
cd "$(dirname "$0")/.."

game=${1:?usage: tools/train.sh <game>}
# Empedocles' shipped network: one data file of seed 6 (see docs/results.md).
if [ "$game" = empedocles ]; then
  PARTS=${PARTS:-"6:40000"}
  EPOCHS=${EPOCHS:-12}
fi
# Apart's shipped network (third generation): the second generation's data
# (seed 1) and 40,000 games played by the build whose built-in network was
# the second generation (seed 21, DATAGEN_BIN), the first 1,169,742
# positions of them (see docs/nnue.md).
if [ "$game" = apart ]; then
  PARTS=${PARTS:-"1:25540 21:40000"}
  EPOCHS=${EPOCHS:-3}
  MAX_POSITIONS=${MAX_POSITIONS:-1169742}
fi
# Epaminondas' shipped network (fourth generation): the second
# generation (tools/train/nets/epaminondas-second.net, made by this script
# with PARTS="3:40000:1/2 3:20182:2/2 31:15744:1/2:net 31:18066:2/2:net"
# FIRST_LAMBDA=0.3 and none of INIT, BUCKETS, DATAGEN_NET) trained with
# four output buckets on 15,424 games of seed 71 and 2,449 of seed 73
# that it played itself (the third generation), then that one trained on
# those and on 17,597 games of seed 75 and 6,514 of seed 76 that the
# third played; 2 epochs, λ 0.2 each time (see docs/nnue.md).
if [ "$game" = epaminondas ]; then
  PARTS=${PARTS:-"71:15424 73:2449 75:17597::net 76:6514::net"}
  EPOCHS=${EPOCHS:-2}
  LAMBDA=${LAMBDA:-0.2}
  if [ "$PARTS" = "71:15424 73:2449 75:17597::net 76:6514::net" ]; then
    INIT=${INIT:-tools/train/nets/epaminondas-second.net}
    BUCKETS=${BUCKETS:-4}
    DATAGEN_NET=${DATAGEN_NET:-tools/train/nets/epaminondas-second.net}
  fi
fi

# Spokes' shipped network: 986 games of seed 7 and 6,000 of seed 8,
# 2 epochs, λ 0.3, at Spokes' own win-probability scale (150, not 400).
if [ "$game" = spokes ]; then
  PARTS=${PARTS:-"7:986 8:6000"}
  EPOCHS=${EPOCHS:-2}
  SCALE=${SCALE:-150}
fi
PARTS=${PARTS:-"1:1372 2:781"}
NODES=${NODES:-4000}
RANDOM_PLIES=${RANDOM_PLIES:-6}
EPOCHS=${EPOCHS:-6}
HIDDEN=${HIDDEN:-128}
LAMBDA=${LAMBDA:-0.3}
LR=${LR:-0.001}
SCALE=${SCALE:-400}
TRAIN_SEED=${TRAIN_SEED:-1}
DATA=${DATA:-${XDG_DATA_HOME:-$HOME/.local/share}/gamut/train/$game}
OUT=${OUT:-src/games/$game/$game.net}

mkdir -p "$DATA"
log="$DATA/train.log"
note() { echo "$(date -u +%FT%TZ) $*" | tee -a "$log"; }

cargo build --profile test-release -p gamut -p gamut-train
bin=target/test-release
datagen_bin=${DATAGEN_BIN:-$bin/gamut}
evaluation=()
if [ -n "${DATAGEN_EVAL:-}" ]; then evaluation=(--eval "$DATAGEN_EVAL"); fi
if [ -n "${DATAGEN_NET:-}" ]; then evaluation=(--eval net --net "$DATAGEN_NET"); fi
note "commit $(git rev-parse --short HEAD) game $game parts '$PARTS' nodes $NODES random plies $RANDOM_PLIES datagen $datagen_bin ${evaluation[*]}"

# Plays the parts given (seed:games[:K/N[:net]]) in parallel, their
# files added to `files`; the evaluation is the one in `evaluation`.
files=()
datagen() {
  local pids=() part seed games shard mark file sharding
  for part in "$@"; do
    # `mark` takes the `net` field, which only chose the list this part is in.
    IFS=: read -r seed games shard mark <<<"$part"
    file="$DATA/$game-seed$seed.dat"
    sharding=()
    if [ -n "$shard" ]; then
      file="$DATA/$game-seed$seed-shard${shard/\//-of-}.dat"
      sharding=(--shard "$shard")
    fi
    files+=("$file")
    note "datagen seed $seed games $games ${sharding[*]} ${evaluation[*]} -> $file"
    nice -n 19 "$datagen_bin" datagen "$game" --out "$file" --games "$games" "${sharding[@]}" \
      --nodes "$NODES" --random-plies "$RANDOM_PLIES" --seed "$seed" "${evaluation[@]}" --resume --quiet >>"$log" &
    pids+=($!)
  done
  for pid in "${pids[@]}"; do wait "$pid"; done
  note "datagen done"
}

options=()
if [ -n "${MAX_POSITIONS:-}" ]; then options=(--max-positions "$MAX_POSITIONS"); fi
if [ -n "${ON_CLASSIC:-}" ]; then options+=(--on-classic); fi
if [ -n "${BUCKETS:-}" ]; then options+=(--buckets "$BUCKETS"); fi
init=()
if [ -n "${INIT:-}" ]; then init=(--init "$INIT"); fi
# Trains on every file in `files` into the network file $1 with λ $2,
# from the network in `init` if any.
train() {
  note "train epochs $EPOCHS hidden $HIDDEN lambda $2 lr $LR scale $SCALE seed $TRAIN_SEED ${options[*]} ${init[*]} -> $1"
  nice -n 19 "$bin/gamut-train" "$game" --data "${files[@]}" --out "$1" "${options[@]}" "${init[@]}" \
    --epochs "$EPOCHS" --hidden "$HIDDEN" --lambda "$2" --lr "$LR" --scale "$SCALE" \
    --seed "$TRAIN_SEED" --curve "$DATA/curve-$(basename "$1" .net).csv" | tee -a "$log"
}

first=()
later=()
for part in $PARTS; do
  if [ "${part##*:}" = net ]; then later+=("$part"); else first+=("$part"); fi
done
datagen "${first[@]}"
if [ ${#later[@]} -gt 0 ]; then
  train "$DATA/generation-1.net" "${FIRST_LAMBDA:-$LAMBDA}"
  evaluation=(--eval net --net "$DATA/generation-1.net")
  if [ -n "${INIT:-}" ]; then init=(--init "$DATA/generation-1.net"); fi
  datagen "${later[@]}"
fi

train "$OUT" "$LAMBDA"
note "wrote $OUT ($(wc -c <"$OUT") bytes); curves in $DATA/curve-*.csv"
