//! The static site (tools/web/build.sh) in Debian's headless chromium,
//! served by a plain file server (`python3 -m http.server`), with no
//! server of gamut's: for every game id the page shows the position and
//! its moves from the engine's Web Worker, plays a move by pointer,
//! streams an analysis and plays an engine move. Skipped where chromium,
//! chromedriver, python3 or wasm-bindgen is missing, except under CI. A
//! long check: it builds the WebAssembly module.

use crate::browser::{browser_here, Browser};
use crate::common::{scratch_dir, tool_here};
use serde_json::{json, Value};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// A `python3 -m http.server` child serving one folder on loopback, its
/// request log in a file; ended when dropped.
struct FileServer {
    child: Child,
    port: u16,
}

impl FileServer {
    fn start(folder: &std::path::Path, log: &std::path::Path) -> FileServer {
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let child = Command::new("python3")
            .args([
                "-m",
                "http.server",
                &port.to_string(),
                "--bind",
                "127.0.0.1",
            ])
            .current_dir(folder)
            .stdout(Stdio::null())
            .stderr(std::fs::File::create(log).unwrap())
            .spawn()
            .expect("python3 starts");
        let start = Instant::now();
        while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(
                start.elapsed() < Duration::from_secs(20),
                "the file server did not listen"
            );
            std::thread::sleep(Duration::from_millis(100));
        }
        FileServer { child, port }
    }
}

impl Drop for FileServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Whether `program --version` runs.
fn runs(program: &str) -> bool {
    Command::new(program)
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
}

/// Waits up to `secs` seconds for the page's value of `script` (an
/// expression) to be other than `null`, and returns it.
fn value_of(browser: &Browser, script: &str, secs: u64, what: &str) -> Value {
    let start = Instant::now();
    loop {
        let v = browser.run(&format!("return {script};"));
        if !v.is_null() {
            return v;
        }
        assert!(
            start.elapsed() < Duration::from_secs(secs),
            "timed out: {what}; page error: {}",
            browser.run("return document.getElementById('error').textContent;")
        );
        std::thread::sleep(Duration::from_millis(100));
    }
}

#[test]
#[ignore = "long: builds the WebAssembly module and drives chromium"]
fn long_the_static_site_plays_and_analyses_every_game_from_its_worker_in_chromium() {
    if !browser_here()
        || !tool_here(runs("python3"), "python3", "the static site's check")
        || !tool_here(
            runs("wasm-bindgen"),
            "wasm-bindgen-cli (the version in Cargo.lock)",
            "the static site's check",
        )
    {
        return;
    }
    let dir = scratch_dir("web-site");
    let site = dir.join("site");
    let root = env!("CARGO_MANIFEST_DIR");
    let built = Command::new(format!("{root}/tools/web/build.sh"))
        .arg(&site)
        .status()
        .expect("the build script runs");
    assert!(built.success(), "tools/web/build.sh failed");
    let log = dir.join("requests.log");
    let files = FileServer::start(&site, &log);
    let browser = Browser::start(&dir.join("profile"));
    let ids: Vec<&str> = gamut_games::GameId::ALL.iter().map(|g| g.name()).collect();
    for id in &ids {
        let opened = Instant::now();
        browser.goto(&format!("http://127.0.0.1:{}/?game={id}", files.port));
        // The page opens analysing the start: lines stream, then a verdict.
        let game = value_of(
            &browser,
            "window.gamut && gamut.S.pos && gamut.S.pos.game",
            120,
            "the position",
        );
        assert_eq!(game, json!(id));
        value_of(
            &browser,
            "document.querySelector('#lines .verdict')",
            120,
            "the first analysis",
        );
        let first_line = browser.run("return gamut.S.firstLine - gamut.S.opened;");
        let lines = browser.run("return document.querySelectorAll('#lines .line').length;");
        assert!(lines.as_u64().unwrap() > 0, "{id}: no analysis line");
        eprintln!(
            "{id}: page open to first analysis line {:.0} ms ({:.1} s to the verdict)",
            first_line.as_f64().unwrap(),
            opened.elapsed().as_secs_f64()
        );
        // A move by pointer: the squares of the first move with squares
        // clicked in turn, else its button (a die's outcome, a choice of
        // actions at a simultaneous node).
        let pos = browser.run("return gamut.S.pos;");
        let squares: Vec<String> = pos["moves"]
            .as_array()
            .unwrap()
            .iter()
            .find_map(|m| {
                let s = m["squares"].as_array()?;
                (!s.is_empty()).then(|| s.iter().map(|q| q.as_str().unwrap().to_string()).collect())
            })
            .unwrap_or_default();
        if !squares.is_empty() {
            for sq in &squares {
                if browser.run("return gamut.S.moves.length;") != json!(0) {
                    break;
                }
                // The middle of the square's cell (a stone on it takes
                // the click as well).
                let at = browser.run(&format!(
                    "const el = document.querySelector('#board [data-square=\"{sq}\"]'); \
                     el.scrollIntoView({{block: 'center', behavior: 'instant'}}); \
                     const r = el.getBoundingClientRect(); \
                     return [Math.round(r.left + r.width / 2), Math.round(r.top + r.height / 2)];"
                ));
                browser.pointer(&[(at[0].as_i64().unwrap(), at[1].as_i64().unwrap())]);
                // A click that completes a move plays it in the worker.
                value_of(&browser, "!gamut.S.busy || null", 60, "the click answered");
            }
            // Squares shared by several moves leave a choice of buttons.
            if browser.run("return gamut.S.moves.length;") == json!(0) {
                browser.click("#choices .move");
            }
        } else if pos["node"] == json!("simultaneous") {
            browser.click("#choices .joint");
        } else {
            browser.click("#choices .move");
        }
        value_of(
            &browser,
            "gamut.S.moves.length === 1 && !gamut.S.busy || null",
            60,
            "the move played",
        );
        // The engine's move, searched 300 ms in the worker.
        browser.run("document.getElementById('movetime').value = 300; return 0;");
        browser.click("#engine-move");
        value_of(
            &browser,
            "gamut.S.moves.length === 2 && !gamut.S.busy || null",
            120,
            &format!("{id}: the engine's move"),
        );
        let errors = browser.run("return document.getElementById('error').textContent;");
        assert_eq!(errors, json!(""), "{id}");
        let severe: Vec<_> = browser
            .console()
            .into_iter()
            .filter(|(level, _)| level == "SEVERE")
            .collect();
        assert!(severe.is_empty(), "{id}: {severe:?}");
    }
    // Every request went to the file server, for one of the site's files.
    let requests = std::fs::read_to_string(&log).unwrap();
    let names: Vec<String> = std::fs::read_dir(&site)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    let mut asked = 0;
    for line in requests.lines().filter(|l| l.contains("\"GET ")) {
        asked += 1;
        let path = line
            .split("\"GET ")
            .nth(1)
            .unwrap()
            .split(' ')
            .next()
            .unwrap();
        let file = path.trim_start_matches('/').split('?').next().unwrap();
        assert!(
            file.is_empty() || names.iter().any(|n| n == file),
            "a request for something not in the site: {line}"
        );
        assert!(
            line.contains("\" 200 ") || line.contains("\" 304 "),
            "{line}"
        );
    }
    assert!(
        asked >= 6,
        "the file server saw the site's files asked for: {requests}"
    );
}
