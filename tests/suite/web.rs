//! The static site (tools/web/build.sh) in Debian's headless chromium,
//! served by a plain file server (`python3 -m http.server`), with no
//! server of gamut's: the page is `gamut serve`'s, its questions answered
//! by the engine's Web Workers. For every game id it enters a move by
//! pointer on the board, streams an analysis of two lines (MultiPV 2)
//! with their arrows, plays an engine move, scores the game for the graph
//! and exports it; every request goes to the file server, for one of the
//! site's files. Skipped where chromium, chromedriver, python3 or
//! wasm-bindgen is missing, except under CI. A long check: it builds the
//! WebAssembly module.

use crate::browser::{browser_here, Browser};
use crate::common::{scratch_dir, tool_here};
use serde_json::Value;
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

/// A round of Spokes from the start whose placements meet: a resolution
/// of several outcomes follows.
const RESOLVED: &str = "wA,wB1";

/// The page has drawn the position of its latest answer and waits for
/// no engine move.
const SETTLED: &str = "S.view && S.shown === S.token && !S.busy || null";

/// How many moves the move list holds, and actions chosen at the
/// simultaneous node shown.
fn entered(browser: &Browser) -> (u64, u64) {
    let v =
        browser.run("return [document.querySelectorAll('#moves .move').length, S.pending.length];");
    (v[0].as_u64().unwrap(), v[1].as_u64().unwrap())
}

/// Clicks the button of move `text` in `box_` (`#chooser`, `#choices`)
/// if it is there.
fn press_move(browser: &Browser, box_: &str, text: &str) -> bool {
    let selector = format!("{box_} button[data-move={}]", Value::from(text));
    let here = browser.run(&format!(
        "return !!document.querySelector({});",
        Value::from(selector.as_str())
    ));
    if here == Value::Bool(true) {
        browser.click(&selector);
    }
    here == Value::Bool(true)
}

/// Enters one step by pointer, as a person does: the first move (or at
/// a simultaneous node the next player's first action) that is made on
/// the board, its squares clicked in turn (the last again where a longer
/// move goes on from it), then its button in the chooser where several
/// end there; a step made off the board (a die's outcome, a resolution's)
/// by its button.
fn enter_step(browser: &Browser) {
    let before = entered(browser);
    let m = browser.run(
        "const c = choosable(); \
         return c.find((m) => m.squares.length) || c[0] || null;",
    );
    let text = m["text"].as_str().expect("a step to choose").to_string();
    let squares: Vec<String> = m["squares"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_str().unwrap().to_string())
        .collect();
    if squares.is_empty() {
        assert!(
            press_move(browser, "#choices", &text),
            "no button for {text}"
        );
    } else {
        for sq in &squares {
            browser.click_square(sq);
        }
        if entered(browser) == before && !press_move(browser, "#chooser", &text) {
            browser.click_square(squares.last().unwrap());
            press_move(browser, "#chooser", &text);
        }
    }
    value_of(browser, SETTLED, 60, &format!("the step {text} entered"));
    assert_ne!(entered(browser), before, "{text} was not entered");
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
        value_of(&browser, SETTLED, 120, &format!("{id}: the board"));
        assert_eq!(browser.run("return S.game;"), Value::from(*id));
        eprintln!("{id}: the board in {:.1} s", opened.elapsed().as_secs_f64());
        // A move by pointer (at a simultaneous node every player's action,
        // then a resolution where one follows).
        while entered(&browser).0 == 0 {
            enter_step(&browser);
        }
        // The analysis of two lines, with an arrow for each line's move.
        browser.run(
            "$('multipv').value = '2'; $('multipv').dispatchEvent(new Event('change')); return 0;",
        );
        browser.click("#analyse");
        let started = Instant::now();
        value_of(
            &browser,
            "S.lastIteration",
            120,
            &format!("{id}: the analysis"),
        );
        // Two lines where the game allows (a decision of two players with
        // a choice), with arrows where the best move is made on the board.
        let view = browser.run("return [S.view.node, S.view.players, S.view.moves.length];");
        if view[0] == "decision" && view[1] == 2 && view[2].as_u64().unwrap() > 1 {
            value_of(
                &browser,
                "S.lastIteration.lines.length === 2 || null",
                120,
                &format!("{id}: MultiPV 2"),
            );
            let arrows = browser.run(
                "const best = S.view.moves.find((m) => m.text === S.lastIteration.lines[0].pv[0]); \
                 return [best ? best.squares.length : 0, \
                         $('board').querySelectorAll('svg .arrows > *').length];",
            );
            if arrows[0].as_u64().unwrap() > 0 {
                assert!(arrows[1].as_u64().unwrap() > 0, "{id}: no arrow");
            }
        }
        eprintln!(
            "{id}: the analysis in {:.1} s: {}",
            started.elapsed().as_secs_f64(),
            browser.run("return $('info').textContent;")
        );
        browser.click("#analyse");
        // The engine's move, searched 300 ms in a worker (at a simultaneous
        // node each player's action in turn).
        browser.run("$('limit').value = 300; return 0;");
        let moves = entered(&browser).0;
        while entered(&browser).0 == moves {
            browser.click("#engine-move");
            value_of(&browser, SETTLED, 120, &format!("{id}: the engine's move"));
        }
        // The game scored for the graph, then exported as a record.
        browser.click("#score-game");
        value_of(
            &browser,
            "/^scored( \\(|$)/.test($('graph-info').textContent) || null",
            120,
            &format!("{id}: the game scored"),
        );
        let scored = browser.run(
            "return gameThrough(S.current).every((n) => typeof S.nodes[n].score === 'number') \
             && !!$('graph').querySelector('polyline');",
        );
        assert_eq!(
            scored,
            Value::Bool(true),
            "{id}: every position scored and drawn"
        );
        browser.click("#io summary");
        browser.click("#export");
        let record = value_of(&browser, "S.record", 60, &format!("{id}: the export"));
        let record: Value = serde_json::from_str(record.as_str().unwrap()).unwrap();
        assert_eq!(record["game"], Value::from(*id));
        assert!(
            record["moves"].as_array().unwrap().len() >= 2,
            "{id}: {record}"
        );
        // The page's address opens the same board: its line, move for move.
        let shown = entered(&browser).0;
        let address = browser.run("return location.href;");
        browser.goto(address.as_str().unwrap());
        value_of(&browser, SETTLED, 120, &format!("{id}: the board again"));
        assert_eq!(entered(&browser).0, shown, "{id}: {address}");
        let errors = browser.run("return $('error').textContent;");
        assert_eq!(errors, Value::from(""), "{id}");
        let severe: Vec<_> = browser
            .console()
            .into_iter()
            .filter(|(level, _)| level == "SEVERE")
            .collect();
        assert!(severe.is_empty(), "{id}: {severe:?}");
    }
    // A Spokes round's resolution, opened by its address: its outcomes
    // previewed on the board one after another, as on `gamut serve`.
    browser.goto(&format!(
        "http://127.0.0.1:{}/?game=spokes&moves={RESOLVED}",
        files.port
    ));
    value_of(&browser, SETTLED, 120, "spokes: the resolution");
    let outcomes = value_of(
        &browser,
        "document.querySelectorAll('#outcome-list button').length || null",
        60,
        "spokes: the outcomes listed",
    );
    assert!(outcomes.as_u64().unwrap() > 1, "spokes: {outcomes}");
    for i in 0..2 {
        browser.click("#outcome-next");
        value_of(
            &browser,
            &format!(
                "S.preview === {i} && $('board').classList.contains('previewing') \
                 && $('preview-caption').textContent || null"
            ),
            60,
            &format!("spokes: outcome {i} previewed"),
        );
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
