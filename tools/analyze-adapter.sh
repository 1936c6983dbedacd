#!/bin/sh
# usage: tools/analyze-adapter.sh <gamut binary>
#
# Speaks the engine protocol (docs/protocol.md) for a gamut build that has
# no `gamut engine`: each `go` runs `<binary> analyze <game> --fen <text>`
# with the limit asked for and answers its `bestmove`. Enough for
# tournaments of alternating-move games (`position fen`, `go movetime |
# depth | nodes`); it has no `stop`, no `moves` and no simultaneous nodes.
set -u
bin=$1
game=
fen=
hash=16
while IFS= read -r line; do
    case "$line" in
        gamut) echo "id name $bin (analyze adapter)"; echo gamutok ;;
        isready) echo readyok ;;
        "game "*) game=${line#game } ;;
        "setoption name hash value "*) hash=${line#setoption name hash value } ;;
        setoption*) ;;
        "position fen "*) fen=${line#position fen } ;;
        "go"*)
            limit=
            set -- ${line#go}
            while [ $# -ge 2 ]; do
                case $1 in
                    movetime) limit="--time $2" ;;
                    depth) limit="--depth $2" ;;
                    nodes) limit="--nodes $2" ;;
                esac
                shift 2
            done
            # shellcheck disable=SC2086 # $limit is an option and its value
            answer=$("$bin" analyze "$game" --fen "$fen" $limit --hash "$hash" 2>/dev/null | grep '^bestmove ' | tail -n 1)
            if [ -n "$answer" ]; then
                echo "$answer"
            else
                echo "info string error: analyze gave no bestmove"
            fi
            ;;
        quit) exit 0 ;;
        *) echo "info string error: not handled by the adapter: $line" ;;
    esac
done
