#!/bin/sh
# Renders a recorded game's web page in headless chromium: a screenshot at
# the opening and one at the last step.
#
#   tools/screenshot-record.sh <records> <game> <out-dir>
#
# writes <out-dir>/<game id>-game-<N>.html, <out-dir>/<game id>-game-<N>-start.png
# and <out-dir>/<game id>-game-<N>-end.png. Without a chromium on the PATH it
# says so and exits 0, so CI can run it anywhere. GAMUT names the binary
# (default: gamut on the PATH, else target/release/gamut).
set -eu
if [ $# -ne 3 ]; then
    echo "usage: $0 <records> <game number> <out-dir>" >&2
    exit 2
fi
records=$1 game=$2 out=$3
browser=
for b in chromium chromium-browser google-chrome; do
    if command -v "$b" >/dev/null 2>&1; then browser=$b; break; fi
done
if [ -z "$browser" ]; then
    echo "no chromium installed: skipping the screenshots"
    exit 0
fi
gamut=${GAMUT:-$(command -v gamut || echo target/release/gamut)}
mkdir -p "$out"
id=$(sed -n "s/.*\"game\":\"\([a-z0-9]*\)\",\"number\":$game,.*/\1/p" "$records" | head -n 1)
if [ -z "$id" ]; then
    echo "error: no game $game in $records" >&2
    exit 2
fi
page="$out/$id-game-$game.html"
"$gamut" replay "$records" --game "$game" --html "$page"
last=$("$gamut" replay "$records" --game "$game" | grep -c '^step ' || true)
dir=$(cd "$out" && pwd)
shoot() {
    # A throwaway profile, so no state is shared with another browser run.
    profile=$(mktemp -d)
    "$browser" --headless --no-sandbox --disable-gpu --disable-background-networking \
        --disable-component-update --disable-sync --no-first-run --user-data-dir="$profile" \
        --hide-scrollbars --screenshot="$2" --window-size=900,900 \
        "file://$dir/$id-game-$game.html#move=$1" >/dev/null 2>&1
    rm -rf "$profile"
    test -s "$2" || { echo "error: $browser wrote no $2" >&2; exit 1; }
    echo "wrote $2 (step $1)"
}
shoot 0 "$dir/$id-game-$game-start.png"
shoot "$last" "$dir/$id-game-$game-end.png"
