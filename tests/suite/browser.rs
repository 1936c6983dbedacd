//! `gamut serve`'s page in Debian's headless chromium, driven through
//! chromedriver's WebDriver protocol (plain HTTP and JSON on loopback):
//! moves clicked on the board in every game, the analysis updating, a
//! step back, a whole Spokes round chosen by a person, a record opened.
//! Skipped where chromium or chromedriver is missing, except under CI. A
//! long check: a browser beside the other tests on two cores can take
//! minutes to load a page, so it runs with the other long checks.
//! With `GAMUT_SCREENSHOTS=<folder>` it saves a picture of each game there
//! (how docs/pictures/serve-<game>.png are made).

use crate::serve::{get, request, Server};
use serde_json::{json, Value};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// A chromedriver child and one browser session, both ended when dropped.
struct Browser {
    driver: Child,
    addr: String,
    session: String,
}

impl Browser {
    /// Starts chromedriver on a free loopback port and a headless chromium
    /// session in a fresh profile.
    fn start(profile: &std::path::Path) -> Browser {
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let driver = Command::new("chromedriver")
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("chromedriver starts");
        let addr = format!("127.0.0.1:{port}");
        let start = Instant::now();
        while std::net::TcpStream::connect(&addr).is_err() {
            assert!(
                start.elapsed() < Duration::from_secs(20),
                "chromedriver did not listen"
            );
            std::thread::sleep(Duration::from_millis(100));
        }
        let args = [
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--disable-component-update",
            "--no-first-run",
            "--window-size=1200,900",
        ];
        let mut args: Vec<String> = args.iter().map(|s| s.to_string()).collect();
        args.push(format!("--user-data-dir={}", profile.display()));
        let caps = json!({"capabilities": {"alwaysMatch": {
            "browserName": "chrome",
            "goog:chromeOptions": {"binary": chromium().unwrap(), "args": args}
        }}});
        let a = request(&addr, "POST", "/session", Some(&caps.to_string()));
        let v = a.json();
        let session = v["value"]["sessionId"]
            .as_str()
            .unwrap_or_else(|| panic!("no session: {}", a.body))
            .to_string();
        Browser {
            driver,
            addr,
            session,
        }
    }

    /// A WebDriver command on the session.
    fn call(&self, method: &str, path: &str, body: Value) -> Value {
        let target = format!("/session/{}{path}", self.session);
        let body = (!body.is_null()).then(|| body.to_string());
        let a = request(&self.addr, method, &target, body.as_deref());
        let v = a.json();
        assert_eq!(a.status, 200, "{method} {path}: {}", a.body);
        v["value"].clone()
    }

    fn goto(&self, url: &str) {
        self.call("POST", "/url", json!({ "url": url }));
    }

    /// Runs `script` (a function body) in the page and returns its value.
    fn run(&self, script: &str) -> Value {
        self.call(
            "POST",
            "/execute/sync",
            json!({"script": script, "args": []}),
        )
    }

    /// Waits up to `secs` seconds for `script` to return `true`.
    fn wait(&self, script: &str, secs: u64, what: &str) {
        let start = Instant::now();
        while self.run(script) != json!(true) {
            assert!(
                start.elapsed() < Duration::from_secs(secs),
                "timed out: {what}"
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    /// Clicks the board at `square` as a person does (on its stone if it
    /// has one).
    fn click_square(&self, square: &str) {
        let found = self.run(&format!(
            "const els = document.querySelectorAll('#board [data-square=\"{square}\"]');\
             if (!els.length) return false;\
             els[els.length - 1].dispatchEvent(new MouseEvent('click', {{bubbles: true}}));\
             return true;"
        ));
        assert_eq!(found, json!(true), "no square {square} on the board");
    }

    /// Clicks the element `selector` finds.
    fn click(&self, selector: &str) {
        let el = self.call(
            "POST",
            "/element",
            json!({"using": "css selector", "value": selector}),
        );
        let id = el
            .as_object()
            .and_then(|o| o.values().next())
            .and_then(Value::as_str)
            .unwrap_or_else(|| panic!("no element {selector}"))
            .to_string();
        self.call("POST", &format!("/element/{id}/click"), json!({}));
    }

    /// The page's picture as PNG bytes.
    fn screenshot(&self) -> Vec<u8> {
        let b64 = self.call("GET", "/screenshot", Value::Null);
        base64_decode(b64.as_str().expect("base64 text"))
    }

    /// How many moves the page's move list holds.
    fn move_count(&self) -> u64 {
        self.run("return document.querySelectorAll('#moves .move').length")
            .as_u64()
            .unwrap()
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        let _ = request(
            &self.addr,
            "DELETE",
            &format!("/session/{}", self.session),
            None,
        );
        let _ = self.driver.kill();
        let _ = self.driver.wait();
    }
}

/// Decodes standard base64 (WebDriver's screenshots).
fn base64_decode(text: &str) -> Vec<u8> {
    let value = |c: u8| match c {
        b'A'..=b'Z' => c - b'A',
        b'a'..=b'z' => c - b'a' + 26,
        b'0'..=b'9' => c - b'0' + 52,
        b'+' => 62,
        _ => 63,
    };
    let digits: Vec<u8> = text
        .bytes()
        .filter(|c| c.is_ascii_alphanumeric() || *c == b'+' || *c == b'/')
        .map(value)
        .collect();
    let mut out = Vec::with_capacity(digits.len() * 3 / 4);
    for chunk in digits.chunks(4) {
        let mut n = 0u32;
        for (i, d) in chunk.iter().enumerate() {
            n |= u32::from(*d) << (18 - 6 * i);
        }
        for i in 0..chunk.len().saturating_sub(1) {
            out.push((n >> (16 - 8 * i)) as u8);
        }
    }
    out
}

/// The chromium binary, if one is installed.
fn chromium() -> Option<String> {
    ["chromium", "chromium-browser"].iter().find_map(|name| {
        let o = Command::new("which").arg(name).output().ok()?;
        o.status
            .success()
            .then(|| String::from_utf8_lossy(&o.stdout).trim().to_string())
    })
}

/// Whether chromium and chromedriver are both here (under CI they must be).
fn browser_here() -> bool {
    let driver = Command::new("chromedriver")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    crate::common::tool_here(
        chromium().is_some() && driver,
        "chromium and chromium-driver",
        "the browser tests",
    )
}

/// The first move of `game`'s start position that is made on the board:
/// its squares.
fn first_move_squares(server: &Server, game: &str, moves: &str) -> (String, Vec<String>) {
    let v = get(
        &server.addr,
        &format!("/api/position?game={game}&moves={moves}"),
    )
    .json();
    let list = if v["node"] == "simultaneous" {
        v["actions"][0].clone()
    } else {
        v["moves"].clone()
    };
    let m = list
        .as_array()
        .unwrap()
        .iter()
        .find(|m| !m["squares"].as_array().unwrap().is_empty())
        .expect("a move made on the board")
        .clone();
    let squares = m["squares"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_str().unwrap().to_string())
        .collect();
    (m["text"].as_str().unwrap().to_string(), squares)
}

#[test]
#[ignore = "long check"]
fn long_a_person_plays_analyses_and_steps_back_in_every_game_in_chromium() {
    if !browser_here() {
        return;
    }
    let dir = crate::common::scratch_dir("browser");
    let server = Server::start(&[
        "--threads",
        "2",
        "--hash",
        "16",
        "--records-dir",
        dir.to_str().unwrap(),
    ]);
    // A record of two moves, as the server exports it (records are
    // replayed before they are served).
    let (first, _) = first_move_squares(&server, "apart", "");
    let after = crate::serve::enc(&first);
    let (second, _) = first_move_squares(&server, "apart", &after);
    let record = crate::serve::exported(&server.addr, "apart", &format!("{first};{second}"));
    std::fs::write(dir.join("games.jsonl"), format!("{record}\n")).unwrap();
    let browser = Browser::start(&dir.join("profile"));
    let shots = std::env::var_os("GAMUT_SCREENSHOTS").map(std::path::PathBuf::from);
    for game in ["aporia", "apart", "empedocles", "epaminondas", "spokes"] {
        browser.goto(&format!("{}?game={game}", server.url()));
        browser.wait(
            "return !!document.querySelector('#board svg') && document.getElementById('state').textContent.length > 0",
            20,
            "the board",
        );
        assert_eq!(browser.move_count(), 0);
        if game == "spokes" {
            // A whole round as a person: each player's placement clicked,
            // then the resolution chosen among the reachable outcomes.
            for player in 0..2 {
                let (text, squares) = first_move_squares(&server, game, "");
                let text = if player == 0 {
                    text
                } else {
                    text.replacen('w', "b", 1)
                };
                browser.click_square(&squares[0]);
                browser.wait(
                    &format!(
                        "return !!document.querySelector('#choices button[data-move=\"{text}\"]')"
                    ),
                    10,
                    "the colour choice",
                );
                browser.click(&format!("#choices button[data-move=\"{text}\"]"));
            }
            browser.wait(
                "return document.querySelectorAll('#moves .move').length === 1",
                20,
                "the joint placement",
            );
            browser.wait(
                "return document.querySelectorAll('#choices button[data-move]').length > 0",
                20,
                "the outcomes",
            );
            browser.click("#choices button[data-move]");
            browser.wait(
                "return document.querySelectorAll('#moves .move').length === 2",
                20,
                "the resolution",
            );
        } else {
            let (_, squares) = first_move_squares(&server, game, "");
            for sq in &squares {
                browser.click_square(sq);
            }
            browser.wait(
                "return document.querySelectorAll('#moves .move').length === 1",
                20,
                "the clicked move",
            );
        }
        // The analysis of the position now shown updates as it deepens.
        browser.click("#analyse");
        browser.wait(
            "return /depth [1-9]/.test(document.getElementById('info').textContent)",
            30,
            "the analysis",
        );
        browser.wait("return document.querySelectorAll('#lines li').length > 0 || document.getElementById('info').textContent.includes('value')", 30, "a line");
        // ... and updates as it deepens: a later iteration replaces the
        // first.
        browser.wait(
            "return /depth ([2-9]|[1-9][0-9])/.test(document.getElementById('info').textContent)",
            60,
            "a deeper iteration",
        );
        if let Some(folder) = &shots {
            std::thread::sleep(Duration::from_millis(1500));
            std::fs::write(
                folder.join(format!("serve-{game}.png")),
                browser.screenshot(),
            )
            .unwrap();
        }
        browser.click("#analyse");
        // A step back leaves the move in the list, no longer current.
        browser.click("#back");
        browser.wait("return document.querySelectorAll('#moves .move.current').length === 0 || document.querySelectorAll('#moves .move').length > 1", 10, "the step back");
        assert!(
            browser.move_count() >= 1,
            "{game}: the move list lost its move"
        );
    }
    // A record from the records folder opens on the board.
    browser.goto(&format!("{}?game=apart", server.url()));
    browser.wait(
        "return !!document.querySelector('#board svg')",
        20,
        "the board",
    );
    browser.click("#io summary");
    browser.wait(
        "return !!document.querySelector('.record-file')",
        10,
        "the records list",
    );
    browser.click(".record-file");
    browser.wait(
        "return !!document.querySelector('.record-game')",
        10,
        "the record's games",
    );
    browser.click(".record-game");
    browser.wait(
        "return document.querySelectorAll('#moves .move').length === 2",
        20,
        "the record's moves",
    );
}

/// Four-player Spokes in the browser: the analysis at a round start lists
/// every side (player or team) with its value and strategy, and a whole
/// round is placed by clicking, one player after another, then resolved.
#[test]
#[ignore = "long check"]
fn long_four_player_spokes_analyses_every_side_and_plays_a_round_in_chromium() {
    if !browser_here() {
        return;
    }
    let dir = crate::common::scratch_dir("browser4");
    let server = Server::start(&["--threads", "1", "--hash", "16"]);
    let browser = Browser::start(&dir.join("profile"));
    let shots = std::env::var_os("GAMUT_SCREENSHOTS").map(std::path::PathBuf::from);
    for (game, names) in [
        (
            "spokes4",
            &["player 1", "player 2", "player 3", "player 4"][..],
        ),
        ("spokes2v2", &["team 1", "team 2"][..]),
    ] {
        browser.goto(&format!("{}?game={game}", server.url()));
        browser.wait(
            "return !!document.querySelector('#board svg') && document.getElementById('state').textContent.length > 0",
            20,
            "the board",
        );
        browser.click("#analyse");
        browser.wait(
            &format!(
                "return document.querySelectorAll('#lines li.side').length === {}",
                names.len()
            ),
            120,
            "every side's analysis",
        );
        let shown = browser.run(
            "return Array.from(document.querySelectorAll('#lines li.side')).map(l => l.textContent)",
        );
        for (line, name) in shown.as_array().unwrap().iter().zip(names) {
            let line = line.as_str().unwrap();
            assert!(
                line.starts_with(&format!("{name} (depth ")) && line.contains(" value "),
                "{game}: {line}"
            );
            assert!(line.contains('%'), "{game}: no strategy in {line}");
        }
        if let Some(folder) = &shots {
            std::fs::write(
                folder.join(format!("serve-{game}.png")),
                browser.screenshot(),
            )
            .unwrap();
        }
        browser.click("#analyse");
        // Each player's placement clicked on its node, then its colour.
        let v = get(&server.addr, &format!("/api/position?game={game}")).json();
        for player in 0..4 {
            let first = &v["actions"][player][0];
            let text = first["text"].as_str().expect("an action").to_string();
            browser.click_square(first["squares"][0].as_str().expect("its node"));
            let button = format!("#choices button[data-move=\"{text}\"]");
            browser.wait(
                &format!("return !!document.querySelector('{button}')"),
                10,
                "the colour choice",
            );
            browser.click(&button);
        }
        browser.wait(
            "return document.querySelectorAll('#moves .move').length === 1",
            60,
            "the round's placements",
        );
        browser.wait(
            "return document.querySelectorAll('#choices button[data-move]').length > 0",
            20,
            "the outcomes",
        );
        browser.click("#choices button[data-move]");
        browser.wait(
            "return document.querySelectorAll('#moves .move').length === 2",
            20,
            "the resolution",
        );
        // The engine's seats: each side or all of them; the engine takes
        // the chosen side's players only, the people the others.
        browser.goto(&format!("{}?game={game}", server.url()));
        browser.wait(
            "return !!document.querySelector('#board svg') && document.getElementById('engine-seats').dataset.game !== undefined",
            20,
            "the board",
        );
        let offered = browser.run(
            "return Array.from(document.querySelectorAll('#engine-seats option')).map(o => o.textContent)",
        );
        let mut want = vec!["nobody"];
        want.extend(names);
        want.push(if names.len() == 2 {
            "both (watch)"
        } else {
            "all (watch)"
        });
        assert_eq!(offered, json!(want), "{game}");
        // Player 3, or team 1: people choose before and after the engine.
        let seat: usize = if game == "spokes4" { 2 } else { 0 };
        browser.run(&format!(
            "const m = document.getElementById('engine-seats'); m.value = '{seat}'; \
             m.dispatchEvent(new Event('change')); return m.value"
        ));
        let people: Vec<usize> = (0..4)
            .filter(|&p| v["player_sides"][p].as_u64() != Some(seat as u64))
            .collect();
        for (k, &player) in people.iter().enumerate() {
            let next = if k == 0 { 0 } else { people[k - 1] + 1 };
            if player != next {
                // The engine chose for the players in between, and no more.
                browser.wait(
                    &format!(
                        "return document.getElementById('choices').textContent.startsWith('player {} chooses in secret ({player} of 4 chosen)')",
                        player + 1
                    ),
                    60,
                    "the engine's placement",
                );
            }
            let first = &v["actions"][player][0];
            let text = first["text"].as_str().expect("an action").to_string();
            browser.click_square(first["squares"][0].as_str().expect("its node"));
            let button = format!("#choices button[data-move=\"{text}\"]");
            browser.wait(
                &format!("return !!document.querySelector('{button}')"),
                10,
                "the colour choice",
            );
            browser.click(&button);
        }
        browser.wait(
            "return document.querySelectorAll('#moves .move').length >= 1",
            60,
            "the round with the engine's placements",
        );
        let round = browser.run("return S.nodes[1].move");
        let round = round.as_str().unwrap();
        let parts: Vec<&str> = round.split(',').collect();
        for &p in &people {
            let mine = v["actions"][p][0]["text"].as_str().unwrap();
            assert_eq!(parts[p], mine, "{game}: {round}");
        }
        let after = get(
            &server.addr,
            &format!(
                "/api/position?game={game}&moves={}",
                crate::serve::enc(round)
            ),
        )
        .json();
        if after["mover"].as_u64() == Some(seat as u64) {
            browser.wait(
                "return document.querySelectorAll('#moves .move').length === 2",
                60,
                "the engine's resolution",
            );
        } else {
            // The person's resolution: offered, and the engine not moving.
            browser.wait(
                "return document.querySelectorAll('#choices button[data-move]').length > 0",
                20,
                "the outcomes",
            );
            let idle = browser
                .run("return !S.busy && document.querySelectorAll('#moves .move').length === 1");
            assert_eq!(idle, json!(true), "{game}: {after}");
        }
        // The graph names whose value it draws.
        browser.click("#score-game");
        browser.wait(
            &format!(
                "return document.getElementById('graph-info').textContent === 'scored ({} against all the others)'",
                names[0]
            ),
            60,
            "the scored game",
        );
    }
}
