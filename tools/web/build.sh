#!/usr/bin/env bash
# Builds gamut's static site: the board's page of `gamut serve` (its
# scripts, transport and style), the engine's Web Worker and the engine's
# WebAssembly module, as plain files that any static host serves
# (docs/serve.md, "The static site").
#
#   tools/web/build.sh [folder]        (default: target/web/site)
#
# It needs the Rust target wasm32-unknown-unknown (rustup's, or else
# Debian's rustc-web, rust-web-src, libstd-rust-web-dev and lld-16, which
# build the standard library for it) and wasm-bindgen-cli of the exact
# version in Cargo.lock.
set -euo pipefail
cd "$(dirname "$0")/../.."
out="${1:-target/web/site}"

version=$(awk '$0 == "name = \"wasm-bindgen\"" { getline; gsub(/"/, "", $3); print $3 }' Cargo.lock)
if ! command -v wasm-bindgen >/dev/null 2>&1 || [ "$(wasm-bindgen --version)" != "wasm-bindgen $version" ]; then
  echo "wasm-bindgen $version is needed: cargo install wasm-bindgen-cli --version $version" >&2
  exit 2
fi

# WebAssembly's 128-bit SIMD (every current browser has it), which the
# compiler uses in the networks' inner loops: 2.2 times the nodes per
# second of a module without it at the Epaminondas bench. In a target folder of its own, so that the
# flag does not rebuild the workspace's other WebAssembly checks.
export CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUSTFLAGS="-C target-feature=+simd128"
build=(build --profile web --target wasm32-unknown-unknown -p gamut-web)
if rustup target list --installed 2>/dev/null | grep -qx wasm32-unknown-unknown; then
  target=target/wasm-simd
  CARGO_TARGET_DIR=$target cargo "${build[@]}"
elif [ -x /usr/bin/rustc ] && dpkg -s rust-web-src >/dev/null 2>&1; then
  target=target/wasm-debian-simd
  RUSTC=/usr/bin/rustc RUSTDOC=/usr/bin/rustdoc RUSTC_BOOTSTRAP=1 CARGO_TARGET_DIR=$target \
    CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_LINKER=/usr/lib/llvm-16/bin/wasm-ld \
    cargo "${build[@]}" -Zbuild-std=std,panic_abort
else
  echo "no Rust target wasm32-unknown-unknown: rustup target add wasm32-unknown-unknown, or apt-get install rustc-web rust-web-src libstd-rust-web-dev lld-16" >&2
  exit 2
fi

mkdir -p "$out"
wasm-bindgen --target web --no-typescript --out-dir "$out" \
  "$target/wasm32-unknown-unknown/web/gamut_web.wasm"
# The board's page, the one `gamut serve` serves, told to ask the engine's
# Web Workers instead of a server (transport.js), and the worker.
cp src/serve/assets/*.js src/serve/assets/style.css src/serve/assets/favicon.svg \
  tools/web/worker.js "$out/"
sed 's/^<html lang="en">$/<html lang="en" data-transport="worker">/' src/serve/assets/index.html >"$out/index.html"
grep -q 'data-transport="worker"' "$out/index.html" || { echo "index.html: no <html lang=\"en\"> line to mark" >&2; exit 2; }
echo "$out"
