#!/bin/sh
# A broken engine for the tests: answers the handshake, then names a move
# no game has.
while read -r line; do
    case "$line" in
        gamut) echo "id name illegal"; echo gamutok ;;
        isready) echo readyok ;;
        go*) echo "info depth 1"; echo "bestmove z99-z98" ;;
        quit) exit 0 ;;
    esac
done
