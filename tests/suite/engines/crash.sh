#!/bin/sh
# A broken engine for the tests: answers the handshake, then exits with
# status 3 when asked for a move.
while read -r line; do
    case "$line" in
        gamut) echo "id name crash"; echo gamutok ;;
        isready) echo readyok ;;
        go*) exit 3 ;;
        quit) exit 0 ;;
    esac
done
