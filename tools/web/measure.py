#!/usr/bin/env python3
"""Measures the static site in headless chromium against the native build.

    tools/web/measure.py SITE GAMUT [--runs N] [--games id,id,...]

SITE is the folder tools/web/build.sh wrote, GAMUT a native gamut binary
(`cargo build --profile dist`). For every game it prints, as one line of
JSON each:

- the time from opening `?game=<id>&analyse=1` to the first analysis line
  on the board (ms after the navigation started; `--runs` opens);
- for the games of two players, nodes/s of the same search in the
  engine's Web Worker and natively on one thread: the board's analysis of
  the start to a fixed depth, in the worker and from `gamut serve
  --threads 1 --hash 32` (the same code, table size and evaluation), the
  deepest line's nodes and nodes/s, `--runs` of each in turn (medians and
  their ratio);
- the module's size and the whole site's, gzipped (`gzip -9`).

It needs python3, chromium and chromedriver. The site is served by
`python3 -m http.server`; the native `gamut serve` answers only the
native half of each comparison, never the page.
"""
import argparse
import gzip
import io
import json
import os
import socket
import statistics
import subprocess
import tarfile
import tempfile
import time
import urllib.request

# A depth per game whose search takes a few seconds natively, so that the
# browser's compiling of the module (first fast, then optimised) counts
# little. The games of more than two players: the time to their first
# line only.
DEPTHS = {
    "aporia": 13,
    "apart": 6,
    "empedocles": 7,
    "spokes": 3,
    "epaminondas": 9,
}
GAMES = ["aporia", "apart", "empedocles", "spokes", "spokes4", "spokes2v2", "epaminondas"]
TABLE_MIB = 32


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


class Chromium:
    """A headless chromium session through chromedriver's WebDriver API."""

    def __init__(self, profile):
        self.port = free_port()
        self.driver = subprocess.Popen(
            ["chromedriver", f"--port={self.port}"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        for _ in range(100):
            try:
                self.call("GET", "/status")
                break
            except OSError:
                time.sleep(0.1)
        args = ["--headless", "--no-sandbox", "--disable-gpu", f"--user-data-dir={profile}"]
        caps = {"capabilities": {"alwaysMatch": {"browserName": "chrome",
                                                 "goog:chromeOptions": {"binary": "/usr/bin/chromium", "args": args}}}}
        self.session = self.call("POST", "/session", caps)["sessionId"]

    def call(self, method, path, body=None):
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(f"http://127.0.0.1:{self.port}{path}", method=method, data=data,
                                     headers={"Content-Type": "application/json"})
        return json.load(urllib.request.urlopen(req, timeout=600))["value"]

    def open(self, url):
        self.call("POST", f"/session/{self.session}/url", {"url": url})

    def run(self, script):
        return self.call("POST", f"/session/{self.session}/execute/sync", {"script": script, "args": []})

    def until(self, script, secs, what):
        end = time.time() + secs
        while time.time() < end:
            v = self.run(script)
            if v is not None:
                return v
            time.sleep(0.02)
        raise SystemExit(f"{what}: nothing in {secs} s")

    def close(self):
        try:
            self.call("DELETE", f"/session/{self.session}")
        finally:
            self.driver.kill()


def first_line(browser, base, game, run):
    browser.open(f"{base}/?game={game}&analyse=1&run={run}")
    return browser.until("return typeof S !== 'undefined' && S.lastIteration ? performance.now() : null", 60,
                         f"{game}: the first analysis line")


# Runs an analysis to `depth` in a new worker of the page and answers the
# deepest line's event.
WORKER_SEARCH = """
window.M = null;
const w = new Worker('worker.js', {type: 'module'});
let last = null;
w.onmessage = (m) => {
  if (m.data.event && m.data.event.nodes !== undefined) last = m.data.event;
  if ('result' in m.data || 'error' in m.data) { window.M = m.data.error ? {error: m.data.error} : last; w.terminate(); }
};
w.postMessage({id: 1, route: '/api/analysis', query: 'game=%s&depth=%d'});
return 0;
"""


def worker_search(browser, game, depth):
    browser.run(WORKER_SEARCH % (game, depth))
    m = browser.until("return window.M;", 600, f"{game}: the worker's analysis")
    if "error" in m:
        raise SystemExit(f"{game}: {m['error']}")
    return m["nodes"], m["nps"]


class NativeBoard:
    """`gamut serve` on one thread with the site's table: the same board
    code (gamut-board) answering the same routes, natively."""

    def __init__(self, gamut):
        self.server = subprocess.Popen([gamut, "serve", "--port", "0", "--threads", "1", "--hash", str(TABLE_MIB)],
                                       stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        self.url = self.server.stdout.readline().split()[1]

    def search(self, game, depth):
        last = None
        with urllib.request.urlopen(f"{self.url}api/analysis?game={game}&depth={depth}", timeout=600) as r:
            for raw in r:
                line = raw.decode().strip()
                if not line.startswith("data: "):
                    continue
                event = json.loads(line[6:])
                if event.get("nodes") is not None:
                    last = event
                if event.get("done"):
                    break
        return last["nodes"], last["nps"]

    def close(self):
        self.server.kill()


def gzipped(data):
    return len(gzip.compress(data, 9))


def site_size(site):
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w") as tar:
        tar.add(site, arcname="site")
    wasm = open(os.path.join(site, "gamut_web_bg.wasm"), "rb").read()
    return {"wasm_bytes": len(wasm), "wasm_gzip": gzipped(wasm), "site_gzip": gzipped(buf.getvalue())}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("site")
    ap.add_argument("gamut")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--games", default=",".join(GAMES))
    a = ap.parse_args()
    print(json.dumps(site_size(a.site)), flush=True)
    port = free_port()
    http = subprocess.Popen(["python3", "-m", "http.server", str(port), "--bind", "127.0.0.1"], cwd=a.site,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    with tempfile.TemporaryDirectory() as profile:
        browser = Chromium(profile)
        native_board = NativeBoard(a.gamut)
        try:
            time.sleep(0.5)
            for game in a.games.split(","):
                firsts = [first_line(browser, base, game, r) for r in range(a.runs)]
                if game not in DEPTHS:
                    print(json.dumps({"game": game, "first_line_ms": [round(f) for f in firsts]}), flush=True)
                    continue
                depth = DEPTHS[game]
                web, native = [], []
                for _ in range(a.runs):
                    web.append(worker_search(browser, game, depth))
                    native.append(native_board.search(game, depth))
                web_nps = statistics.median(n for _, n in web)
                native_nps = statistics.median(n for _, n in native)
                print(json.dumps({
                    "game": game, "first_line_ms": [round(f) for f in firsts], "depth": depth,
                    "nodes_web": web[0][0], "nodes_native": native[0][0],
                    "nps_web": [n for _, n in web], "nps_native": [n for _, n in native],
                    "ratio": round(web_nps / native_nps, 3),
                }), flush=True)
        finally:
            native_board.close()
            browser.close()
            http.kill()


if __name__ == "__main__":
    main()
