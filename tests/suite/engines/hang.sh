#!/bin/sh
# A broken engine for the tests: answers the handshake, then never answers
# a go (it becomes a long sleep, which the tournament must kill).
while read -r line; do
    case "$line" in
        gamut) echo "id name hang"; echo gamutok ;;
        isready) echo readyok ;;
        go*) exec sleep 120 ;;
        quit) exit 0 ;;
    esac
done
