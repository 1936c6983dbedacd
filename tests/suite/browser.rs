//! `gamut serve`'s page in Debian's headless chromium, driven through
//! chromedriver's WebDriver protocol (plain HTTP and JSON on loopback):
//! moves clicked on the board in every game, the analysis updating, a
//! step back, a whole Spokes round chosen by a person, a record opened.
//! Skipped where chromium or chromedriver is missing, except under CI. A
//! long check: a browser beside the other tests on two cores can take
//! minutes to load a page, so it runs with the other long checks.
//! With `GAMUT_SCREENSHOTS=<folder>` it saves pictures of the page there
//! (how docs/pictures/serve-*.png are made: each game id at 1280×800 and
//! 390×844 by
//! `long_every_game_fits_and_shows_its_readouts_while_analysed_in_chromium`).

use crate::serve::{get, request, Server};
use rand::rngs::SmallRng;
use rand::SeedableRng;
use serde_json::{json, Value};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// A chromedriver child and one browser session, both ended when dropped.
pub(crate) struct Browser {
    driver: Child,
    addr: String,
    session: String,
}

impl Browser {
    /// Starts chromedriver on a free loopback port and a headless chromium
    /// session in a fresh profile.
    pub(crate) fn start(profile: &std::path::Path) -> Browser {
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
        // Downloads go to the profile's `downloads` folder, unasked.
        let downloads = profile.join("downloads");
        let caps = json!({"capabilities": {"alwaysMatch": {
            "browserName": "chrome",
            "goog:loggingPrefs": {"browser": "ALL"},
            "goog:chromeOptions": {"binary": chromium().unwrap(), "args": args,
                "prefs": {"download.default_directory": downloads.to_str().unwrap(),
                          "download.prompt_for_download": false}}
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

    pub(crate) fn goto(&self, url: &str) {
        self.call("POST", "/url", json!({ "url": url }));
    }

    /// Runs `script` (a function body) in the page and returns its value.
    pub(crate) fn run(&self, script: &str) -> Value {
        self.call(
            "POST",
            "/execute/sync",
            json!({"script": script, "args": []}),
        )
    }

    /// Waits up to `secs` seconds for `script` to return `true`.
    pub(crate) fn wait(&self, script: &str, secs: u64, what: &str) {
        let start = Instant::now();
        while self.run(script) != json!(true) {
            assert!(
                start.elapsed() < Duration::from_secs(secs),
                "timed out: {what}"
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    /// Clicks the board at `square` as a person does: the pointer pressed
    /// and let go at the middle of the square's hit area.
    pub(crate) fn click_square(&self, square: &str) {
        // Scrolled into view first (a long list of outcomes pressed
        // before may have scrolled the board away).
        let at = self.run(&format!(
            "let r = squareRect({square:?}); if (!r) return null; \
             if (r.top < 0 || r.bottom > innerHeight || r.left < 0 || r.right > innerWidth) {{ \
               scrollBy({{left: r.left + r.width / 2 - innerWidth / 2, top: r.top + r.height / 2 - innerHeight / 2, behavior: 'instant'}}); \
               r = squareRect({square:?}); }} \
             return [Math.round(r.left + r.width / 2), Math.round(r.top + r.height / 2)];"
        ));
        let at = at
            .as_array()
            .unwrap_or_else(|| panic!("no square {square} on the board"));
        self.pointer(&[(at[0].as_i64().unwrap(), at[1].as_i64().unwrap())]);
    }

    /// Presses and lets go the mouse at each point (in the page's
    /// viewport) in turn: one WebDriver action sequence.
    pub(crate) fn pointer(&self, clicks: &[(i64, i64)]) {
        let mut steps = Vec::with_capacity(3 * clicks.len());
        for &(x, y) in clicks {
            steps.push(
                json!({"type": "pointerMove", "duration": 0, "x": x, "y": y, "origin": "viewport"}),
            );
            steps.push(json!({"type": "pointerDown", "button": 0}));
            steps.push(json!({"type": "pointerUp", "button": 0}));
        }
        self.actions(steps);
    }

    /// Performs a sequence of mouse actions.
    fn actions(&self, steps: Vec<Value>) {
        self.call(
            "POST",
            "/actions",
            json!({"actions": [{"type": "pointer", "id": "mouse",
                "parameters": {"pointerType": "mouse"}, "actions": steps}]}),
        );
        self.call("DELETE", "/actions", Value::Null);
    }

    /// Presses and lets go each key in turn (WebDriver's key values:
    /// `\u{E012}` is Left), on whatever has the focus.
    fn keys(&self, keys: &[&str]) {
        let mut steps = Vec::with_capacity(2 * keys.len());
        for k in keys {
            steps.push(json!({"type": "keyDown", "value": k}));
            steps.push(json!({"type": "keyUp", "value": k}));
        }
        self.call(
            "POST",
            "/actions",
            json!({"actions": [{"type": "key", "id": "keyboard", "actions": steps}]}),
        );
        self.call("DELETE", "/actions", Value::Null);
    }

    /// The browser's console since the last call: each entry's level and
    /// message.
    pub(crate) fn console(&self) -> Vec<(String, String)> {
        let log = self.call("POST", "/se/log", json!({"type": "browser"}));
        log.as_array()
            .expect("a log")
            .iter()
            .map(|e| {
                (
                    e["level"].as_str().unwrap_or("").to_string(),
                    e["message"].as_str().unwrap_or("").to_string(),
                )
            })
            .collect()
    }

    /// The WebDriver id of the element `selector` finds.
    fn element(&self, selector: &str) -> String {
        let el = self.call(
            "POST",
            "/element",
            json!({"using": "css selector", "value": selector}),
        );
        el.as_object()
            .and_then(|o| o.values().next())
            .and_then(Value::as_str)
            .unwrap_or_else(|| panic!("no element {selector}"))
            .to_string()
    }

    /// Clicks the element `selector` finds.
    pub(crate) fn click(&self, selector: &str) {
        let id = self.element(selector);
        self.call("POST", &format!("/element/{id}/click"), json!({}));
    }

    /// The page's picture as PNG bytes.
    fn screenshot(&self) -> Vec<u8> {
        let b64 = self.call("GET", "/screenshot", Value::Null);
        base64_decode(b64.as_str().expect("base64 text"))
    }

    /// Saves the page's picture, scrolled to its top, as `<name>.png` in
    /// the folder `GAMUT_SCREENSHOTS` names, if it names one, after
    /// `settle` (for what the page draws last).
    fn save_shot(&self, name: &str, settle: Duration) {
        if let Some(folder) = std::env::var_os("GAMUT_SCREENSHOTS") {
            std::thread::sleep(settle);
            // The page from its top, as it opens (a click may have
            // scrolled it).
            self.run("scrollTo({left: 0, top: 0, behavior: 'instant'}); return 0");
            let path = std::path::Path::new(&folder).join(format!("{name}.png"));
            std::fs::write(path, self.screenshot()).unwrap();
        }
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
pub(crate) fn browser_here() -> bool {
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

/// The server options of most checks: one search thread, 16 MiB of
/// tables.
const ONE_THREAD: &[&str] = &["--threads", "1", "--hash", "16"];

/// A page to test: `gamut serve` started with `extra` (`DIR` in it stands
/// for the test's scratch folder, `name`) and a headless chromium in a
/// fresh profile in that folder, with the folder; `None` where chromium
/// or chromedriver is missing (outside CI).
fn page(name: &str, extra: &[&str]) -> Option<(Server, Browser, std::path::PathBuf)> {
    if !browser_here() {
        return None;
    }
    let dir = crate::common::scratch_dir(name);
    let folder = dir.to_str().unwrap();
    let args: Vec<&str> = extra
        .iter()
        .map(|a| if *a == "DIR" { folder } else { a })
        .collect();
    let server = Server::start(&args);
    let browser = Browser::start(&dir.join("profile"));
    Some((server, browser, dir))
}

/// Resolves the Spokes round shown: the resolution is played by itself
/// where it is forced, else one outcome is chosen among those offered.
fn resolve(browser: &Browser) {
    browser.wait(
        "return S.shown === S.token && (document.querySelectorAll('#moves .move').length === 2 || document.querySelectorAll('#choices button[data-move]').length > 1)",
        20,
        "the outcomes or the forced one played",
    );
    if browser.move_count() == 1 {
        browser.click("#choices button[data-move]");
    }
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
    let Some((server, browser, dir)) = page(
        "browser",
        &["--threads", "2", "--hash", "16", "--records-dir", "DIR"],
    ) else {
        return;
    };
    // A record of two moves, as the server exports it (records are
    // replayed before they are served).
    let (first, _) = first_move_squares(&server, "apart", "");
    let after = crate::serve::enc(&first);
    let (second, _) = first_move_squares(&server, "apart", &after);
    let record = crate::serve::exported(&server.addr, "apart", &format!("{first};{second}"));
    std::fs::write(dir.join("games.jsonl"), format!("{record}\n")).unwrap();
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
                        "return !!document.querySelector('#chooser button[data-move=\"{text}\"]')"
                    ),
                    10,
                    "the colour choice at the node",
                );
                browser.click(&format!("#chooser button[data-move=\"{text}\"]"));
            }
            browser.wait(
                "return document.querySelectorAll('#moves .move').length >= 1",
                20,
                "the joint placement",
            );
            resolve(&browser);
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
    let Some((server, browser, _dir)) = page("browser4", ONE_THREAD) else {
        return;
    };
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
        browser.click("#analyse");
        // Each player's placement clicked on its node, then its colour.
        let v = get(&server.addr, &format!("/api/position?game={game}")).json();
        for player in 0..4 {
            let first = &v["actions"][player][0];
            let text = first["text"].as_str().expect("an action").to_string();
            browser.click_square(first["squares"][0].as_str().expect("its node"));
            let button = format!("#chooser button[data-move=\"{text}\"]");
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
            "the round's placements",
        );
        resolve(&browser);
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
                        "return document.getElementById('choices').textContent.trim().startsWith('player {} chooses in secret ({player} of 4 chosen)')",
                        player + 1
                    ),
                    60,
                    "the engine's placement",
                );
            }
            let first = &v["actions"][player][0];
            let text = first["text"].as_str().expect("an action").to_string();
            browser.click_square(first["squares"][0].as_str().expect("its node"));
            let button = format!("#chooser button[data-move=\"{text}\"]");
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
        } else if after["moves"].as_array().unwrap().len() > 1 {
            // The person's resolution: offered, and the engine not moving.
            browser.wait(
                "return document.querySelectorAll('#choices button[data-move]').length > 0",
                20,
                "the outcomes",
            );
            let idle = browser
                .run("return !S.busy && document.querySelectorAll('#moves .move').length === 1");
            assert_eq!(idle, json!(true), "{game}: {after}");
        } else {
            // A forced resolution is played by itself.
            browser.wait(
                "return document.querySelectorAll('#moves .move').length === 2",
                20,
                "the forced resolution",
            );
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

/// The page's script that checks and plans, from the page's own targets,
/// the clicks of every move to choose now (at a simultaneous node, the
/// actions of the player choosing next): for each move the squares are
/// clicked in order through the page's click handling, each square after
/// the first must be drawn as a target of the squares before it, and the
/// move is finished on the chooser that appears at the square or by
/// clicking the last square again where the move could go on. It returns
/// each move's clicks in viewport coordinates (moves not made on the board
/// are listed as buttons, with the point to press where the button is in
/// view), the problems found, and the smallest hit
/// area's side in pixels. The page's `choose` is replaced by one that
/// records the move chosen and stays at the position, so that every move
/// can be entered one after another, and its preview of an outcome by
/// nothing; [`RESTORE`] puts both back.
/// Puts back the page's own `choose` and outcome preview after [`PLAN`].
const RESTORE: &str =
    "window.choose = window.__choose; delete window.__choose; window.previewOutcome = window.__preview; delete window.__preview;";

const PLAN: &str = r#"
if (!window.__choose) {
  window.__choose = choose;
  // Redrawn only where squares were clicked or the chooser opened: a
  // button pressed leaves the buttons as they were (thousands of them at
  // a four-player resolution).
  window.choose = (t) => {
    __entered.push(t);
    if (S.selection.length || $('chooser').style.display === 'block') { hideChooser(); S.selection = []; drawChoices(); }
  };
  // No outcome previewed as the mouse passes over the buttons (the
  // preview has its own check).
  window.__preview = previewOutcome;
  window.previewOutcome = () => {};
}
window.__entered = [];
const centre = (r) => [Math.round(r.left + r.width / 2), Math.round(r.top + r.height / 2)];
const targets = () => new Set([...document.querySelectorAll('#board .mark.target')].map((e) => e.getAttribute('data-square')));
const reset = () => { S.selection = []; hideChooser(); drawChoices(); window.__entered = []; };
const plans = [], problems = [];
for (const m of choosable()) {
  if (!m.squares.length) { plans.push({ text: m.text, button: true }); continue; }
  reset();
  const clicks = [];
  m.squares.forEach((sq, k) => {
    if (k > 0 && !targets().has(sq)) problems.push(`${m.text}: ${sq} is not a target`);
    const r = squareRect(sq);
    if (!r) { problems.push(`${m.text}: no hit area at ${sq}`); return; }
    clicks.push(centre(r));
    clickSquare(sq);
  });
  if (__entered.length === 0) {
    const b = [...document.querySelectorAll('#chooser button')].find((b) => b.dataset.move === m.text);
    if (b) { clicks.push(centre(b.getBoundingClientRect())); b.click(); }
    else if (document.querySelector('#board .mark.stop')) {
      const last = m.squares[m.squares.length - 1];
      clicks.push(centre(squareRect(last)));
      clickSquare(last);
    }
  }
  if (__entered.length !== 1 || __entered[0] !== m.text) problems.push(`${m.text}: the clicks gave ${JSON.stringify(__entered)}`);
  plans.push({ text: m.text, clicks });
}
reset();
// Where each button is in view (not scrolled out of its list), the point
// to press it.
const buttons = new Map([...document.querySelectorAll('#choices button[data-move]')].map((b) => [b.dataset.move, b]));
for (const p of plans.filter((p) => p.button)) {
  const b = buttons.get(p.text);
  if (!b) { problems.push(`${p.text}: no button`); continue; }
  const [x, y] = centre(b.getBoundingClientRect());
  if (x >= 0 && y >= 0 && x < innerWidth && y < innerHeight && document.elementFromPoint(x, y) === b) p.at = [x, y];
}
const hits = [...document.querySelectorAll('#board .hit')].map((e) => e.getBoundingClientRect());
return { plans, problems, min_hit: Math.min(...hits.map((r) => Math.min(r.width, r.height))) };
"#;

/// A random line of `game` through the server: up to `plies` + 1 moves (a
/// simultaneous round is a random action of each player), stopping at the
/// game's end. Returns each non-terminal position's text, and the moves.
fn random_line(
    server: &Server,
    game: &str,
    plies: usize,
    rng: &mut SmallRng,
) -> (Vec<String>, Vec<String>) {
    let mut moves: Vec<String> = Vec::new();
    let mut seen = Vec::new();
    for _ in 0..=plies {
        let v = get(
            &server.addr,
            &format!(
                "/api/position?game={game}&moves={}",
                crate::serve::enc(&moves.join(";"))
            ),
        )
        .json();
        if v["node"] == "terminal" {
            break;
        }
        let next = crate::serve::random_step(&server.addr, game, &moves, &v, rng);
        seen.push(v["text"].as_str().unwrap().to_string());
        moves.push(next);
    }
    (seen, moves)
}

/// Positions of `game` to enter moves in: the start, then positions spread
/// over random games from their opening to their last position.
fn sample_positions(server: &Server, game: &str, count: usize, seed: u64) -> Vec<String> {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut out = vec![random_line(server, game, 0, &mut rng).0[0].clone()];
    while out.len() < count {
        let (line, _) = random_line(server, game, 240, &mut rng);
        let take = 7.min(count - out.len());
        for k in 1..=take {
            let i = (line.len() - 1) * k / take;
            out.push(line[i].clone());
        }
    }
    out
}

/// Every move of `game` at `fen`, entered by pointer on the page: each
/// player in turn at a simultaneous node. Returns how many moves went
/// through more than two clicks (multi-hop jumps, stops, choosers), how
/// many were captures (an `x` in their text) and how many were entered.
/// The page opens at the position's address.
fn enter_every_move(
    browser: &Browser,
    server: &Server,
    game: &str,
    fen: &str,
) -> (usize, usize, usize) {
    browser.goto(&format!(
        "{}?game={game}&fen={}",
        server.url(),
        crate::serve::enc(fen)
    ));
    // The page's errors, kept for the messages of a failure.
    browser.run(
        "window.__errors = []; \
         addEventListener('error', (e) => __errors.push(e.message)); \
         addEventListener('unhandledrejection', (e) => __errors.push(String(e.reason))); return true",
    );
    browser.wait(
        &format!(
            "return !!S.view && S.view.text === {fen:?} && !!document.querySelector('#board .hit') && outcomesReady()"
        ),
        // A page of thousands of outcomes (a four-player resolution) is
        // slow to draw on a loaded machine.
        120,
        "the position",
    );
    let v = browser.run("return S.view");
    let players = if v["node"] == "simultaneous" {
        v["players"].as_u64().unwrap() as usize
    } else {
        1
    };
    let (mut long, mut captures) = (0, 0);
    let mut entered_all = Vec::new();
    for player in 0..players {
        if v["node"] == "simultaneous" {
            browser.run(&format!(
                "S.pending = S.view.actions.slice(0, {player}).map((a) => a[0].text); drawChoices(); return true"
            ));
        }
        let plan = browser.run(PLAN);
        assert_eq!(
            plan["problems"],
            json!([]),
            "{game} at {fen}: moves without a click path"
        );
        if browser.run("return paged()") == json!(true) {
            // Too many outcomes to list: chosen on the board.
            let mut want = Vec::new();
            browser.run("window.__entered = []; return true");
            enter_by_narrowing(browser, &mut want);
            let entered = browser.run("return __entered");
            assert_eq!(
                entered,
                json!(want),
                "{game} at {fen}: the outcomes entered on the board"
            );
            entered_all.extend(want);
            continue;
        }
        let min_hit = plan["min_hit"].as_f64().unwrap();
        assert!(
            min_hit >= 24.0,
            "{game} at {fen}: a hit area of {min_hit} px"
        );
        let plans = plan["plans"].as_array().unwrap();
        // The moves made on the board, all in one sequence of pointer
        // presses, then the others' buttons clicked one by one.
        let mut clicks = Vec::new();
        let mut want = Vec::new();
        for p in plans.iter().filter(|p| p["button"] != json!(true)) {
            let list = p["clicks"].as_array().unwrap();
            if list.len() > 2 {
                long += 1;
            }
            if p["text"].as_str().unwrap().contains('x') {
                captures += 1;
            }
            for c in list {
                clicks.push((c[0].as_i64().unwrap(), c[1].as_i64().unwrap()));
            }
            want.push(p["text"].clone());
        }
        // The buttons in view are pressed by the mouse too, at the
        // points the plan found them; the others (beyond the list's
        // height) after, a page of them at a time.
        let mut hidden = Vec::new();
        for p in plans.iter().filter(|p| p["button"] == json!(true)) {
            match p["at"].as_array() {
                Some(at) => {
                    clicks.push((at[0].as_i64().unwrap(), at[1].as_i64().unwrap()));
                    want.push(p["text"].clone());
                }
                None => hidden.push(p["text"].clone()),
            }
        }
        for chunk in clicks.chunks(600) {
            browser.pointer(chunk);
        }
        if !hidden.is_empty() {
            // The outcomes' list at its full height, and scrolled through:
            // at each step the buttons then in view are pressed.
            browser.run("const l = document.getElementById('outcome-list'); if (l) l.style.maxHeight = 'none'; return true");
            while !hidden.is_empty() {
                let found = browser.run(&format!(
                    "const left = {}; \
                     const buttons = new Map([...document.querySelectorAll('#choices button[data-move]')].map((b) => [b.dataset.move, b])); \
                     buttons.get(left[0]).scrollIntoView({{block: 'start'}}); \
                     const out = []; \
                     for (const t of left) {{ \
                       const b = buttons.get(t), r = b.getBoundingClientRect(); \
                       const x = Math.round(r.left + r.width / 2), y = Math.round(r.top + r.height / 2); \
                       if (x >= 0 && y >= 0 && x < innerWidth && y < innerHeight && document.elementFromPoint(x, y) === b) out.push([t, x, y]); \
                     }} \
                     return out",
                    Value::Array(hidden.clone())
                ));
                let found = found.as_array().unwrap();
                assert!(
                    !found.is_empty(),
                    "{game} at {fen}: {} not in view",
                    hidden[0]
                );
                let points: Vec<(i64, i64)> = found
                    .iter()
                    .map(|f| (f[1].as_i64().unwrap(), f[2].as_i64().unwrap()))
                    .collect();
                for chunk in points.chunks(600) {
                    browser.pointer(chunk);
                }
                let pressed: std::collections::HashSet<&str> =
                    found.iter().map(|f| f[0].as_str().unwrap()).collect();
                for f in found {
                    want.push(f[0].clone());
                }
                hidden.retain(|t| !pressed.contains(t.as_str().unwrap()));
            }
            browser.run("window.scrollTo(0, 0); const l = document.getElementById('outcome-list'); if (l) l.style.maxHeight = ''; return true");
        }
        let entered = browser.run("return __entered");
        assert_eq!(
            entered,
            json!(want),
            "{game} at {fen}: the moves entered by pointer"
        );
        entered_all.extend(want);
    }
    // Every legal move, as the command line lists them (at a simultaneous
    // node, each player's actions as the server lists them).
    let mut entered: Vec<String> = entered_all
        .iter()
        .map(|t| t.as_str().unwrap().to_string())
        .collect();
    entered.sort();
    let mut legal: Vec<String> = if v["node"] == "simultaneous" {
        v["actions"]
            .as_array()
            .unwrap()
            .iter()
            .flat_map(|a| a.as_array().unwrap().iter())
            .map(|m| m["text"].as_str().unwrap().to_string())
            .collect()
    } else {
        crate::common::ok(&["moves", game, "--fen", fen])
            .lines()
            .map(str::to_string)
            .collect()
    };
    legal.sort();
    assert_eq!(entered, legal, "{game} at {fen}: entered against legal");
    (long, captures, entered.len())
}

/// Presses the element `selector` finds with the mouse, scrolled into
/// view.
fn press(browser: &Browser, selector: &str) {
    let at = browser.run(&format!(
        "const e = document.querySelector({selector:?}); if (!e) return null; \
         e.scrollIntoView({{block: 'center'}}); const r = e.getBoundingClientRect(); \
         const x = Math.round(r.left + r.width / 2), y = Math.round(r.top + r.height / 2); \
         return document.elementFromPoint(x, y) === e ? [x, y] : null"
    ));
    let at = at
        .as_array()
        .unwrap_or_else(|| panic!("{selector} is not there to press"));
    browser.pointer(&[(at[0].as_i64().unwrap(), at[1].as_i64().unwrap())]);
}

/// Waits for the outcomes the page asked for.
fn outcomes_in(browser: &Browser) {
    browser.wait("return outcomesReady()", 120, "the outcomes listed");
}

/// Every outcome of a resolution too large to list with its position,
/// entered by pointer as a person chooses one: a ringed node of the board
/// pressed and one of the contents its chooser offers pressed (the
/// outcomes left narrow down), again until one page lists all those
/// left, whose buttons are pressed; then that choice dropped (its button
/// pressed) and the node's next content taken. `want` gets the outcomes
/// pressed, in order.
fn enter_by_narrowing(browser: &Browser, want: &mut Vec<Value>) {
    outcomes_in(browser);
    let st = browser.run(
        "const d = S.outcomes.data; \
         return {count: d.count, listed: d.moves.length, \
                 squares: d.squares.map((e) => [e.square, e.contents.map((c) => c.content)])}",
    );
    let squares = st["squares"].as_array().unwrap();
    if st["count"] == st["listed"] || squares.is_empty() {
        loop {
            press_listed(browser, want);
            if browser.run(
                "const l = document.getElementById('outcome-later'); return !!l && !l.disabled",
            ) != json!(true)
            {
                break;
            }
            press(browser, "#outcome-later");
            outcomes_in(browser);
        }
        return;
    }
    let square = squares[0][0].as_str().unwrap().to_string();
    for content in squares[0][1].as_array().unwrap() {
        let content = content.as_str().unwrap();
        browser.click_square(&square);
        let button = format!("#chooser button.content[data-content={content:?}]");
        browser.wait(
            &format!("return !!document.querySelector({button:?})"),
            10,
            "the node's contents",
        );
        press(browser, &button);
        outcomes_in(browser);
        enter_by_narrowing(browser, want);
        press(
            browser,
            &format!("#narrowing button.unfix[data-square={square:?}]"),
        );
        outcomes_in(browser);
    }
}

/// Presses every outcome button listed (the list at its full height, a
/// screenful at a time).
fn press_listed(browser: &Browser, want: &mut Vec<Value>) {
    let mut left: Vec<Value> = browser
        .run("return [...document.querySelectorAll('#outcome-list button[data-move]')].map((b) => b.dataset.move)")
        .as_array()
        .unwrap()
        .clone();
    browser.run("document.getElementById('outcome-list').style.maxHeight = 'none'; return true");
    while !left.is_empty() {
        let found = browser.run(&format!(
            "const left = {}; \
             const buttons = new Map([...document.querySelectorAll('#outcome-list button[data-move]')].map((b) => [b.dataset.move, b])); \
             buttons.get(left[0]).scrollIntoView({{block: 'start'}}); \
             const out = []; \
             for (const t of left) {{ \
               const b = buttons.get(t), r = b.getBoundingClientRect(); \
               const x = Math.round(r.left + r.width / 2), y = Math.round(r.top + r.height / 2); \
               if (x >= 0 && y >= 0 && x < innerWidth && y < innerHeight && document.elementFromPoint(x, y) === b) out.push([t, x, y]); \
             }} \
             return out",
            Value::Array(left.clone())
        ));
        let found = found.as_array().unwrap();
        assert!(!found.is_empty(), "{} not in view", left[0]);
        let points: Vec<(i64, i64)> = found
            .iter()
            .map(|f| (f[1].as_i64().unwrap(), f[2].as_i64().unwrap()))
            .collect();
        browser.pointer(&points);
        let pressed: std::collections::HashSet<&str> =
            found.iter().map(|f| f[0].as_str().unwrap()).collect();
        want.extend(found.iter().map(|f| f[0].clone()));
        left.retain(|t| !pressed.contains(t.as_str().unwrap()));
    }
    browser.run("window.scrollTo(0, 0); document.getElementById('outcome-list').style.maxHeight = ''; return true");
}

/// Plays one move of the position shown for real, by pointer (at a
/// simultaneous node an action of each player), and compares the position
/// the page then shows with `gamut show --moves` of the page's line.
fn play_one_for_real(browser: &Browser, game: &str, fen: &str, pick: usize) {
    // The actions the check put in place to plan the later players' moves
    // are dropped first: each player chooses in turn from none chosen.
    let players = browser.run(
        "S.pending = []; S.selection = []; drawChoices(); \
         return S.view.node === 'simultaneous' ? S.view.players : 1",
    );
    for player in 0..players.as_u64().unwrap() {
        browser.wait(
            &format!("return S.current === 0 && S.pending.length === {player} && outcomesReady()"),
            20,
            "the player's turn to choose",
        );
        // The clicks of a move, planned by the page's targets; then the
        // page's own `choose` back in place, and the move made.
        let plan = browser.run(&format!(
            "const p = (() => {{ {PLAN} }})(); {RESTORE} \
             const board = p.plans.filter((x) => !x.button); \
             return board.length ? board[{pick} % board.length] : p.plans[{pick} % p.plans.length]"
        ));
        if plan["button"] == json!(true) {
            let text = plan["text"].as_str().unwrap();
            browser.click(&format!("#choices button[data-move={text:?}]"));
        } else {
            let clicks: Vec<(i64, i64)> = plan["clicks"]
                .as_array()
                .unwrap()
                .iter()
                .map(|c| (c[0].as_i64().unwrap(), c[1].as_i64().unwrap()))
                .collect();
            browser.pointer(&clicks);
        }
        browser.wait(
            &format!("return S.current > 0 || S.pending.length > {player}"),
            20,
            "the move chosen",
        );
    }
    let start = Instant::now();
    while browser.run("return S.current > 0 && S.shown === S.token") != json!(true) {
        let state = browser.run(
            "return {current: S.current, shown: S.shown, token: S.token, errors: window.__errors || [], \
             line: lineTo(S.current).join(';')}",
        );
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "{game} at {fen}: the move not played: {state}"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    let line = browser.run("return [lineTo(S.current).join(';'), S.view.text]");
    let moves = line[0].as_str().unwrap();
    let shown = line[1].as_str().unwrap();
    let out = crate::common::ok(&["show", game, "--fen", fen, "--moves", moves]);
    let want = out
        .lines()
        .find_map(|l| l.strip_prefix("position "))
        .expect("a position line");
    assert_eq!(shown, want, "{game} at {fen} after {moves}");
}

/// Every legal move of at least 50 positions per game id (the start,
/// then positions spread over random games: midgames, endgames, captures
/// and Apart's multi-hop jumps among them) entered by pointer alone:
/// each move's clicks derived from the page's own targets, pressed with
/// the mouse, and checked against the command line's moves; one move per
/// position played for real and the page's position compared with
/// `gamut show --moves`. `GAMUT_BOARD_POSITIONS` sets the number of
/// positions per game (3 by default, 1 in the four-player games, to fit
/// CI's time; the full check is `GAMUT_BOARD_POSITIONS=50`, run a game at
/// a time, times in docs/results.md: every pointer move waits for a frame
/// of chromium's, about 17 ms, so a position takes about 17 ms a click),
/// `GAMUT_BOARD_GAMES` (ids joined by `,`) the games (all by default).
/// Each game's count of positions, moves, captures and moves of more than
/// two clicks, and its time, are printed.
#[test]
#[ignore = "long check"]
fn long_every_move_is_entered_by_pointer_in_every_game_in_chromium() {
    let Some((server, browser, _dir)) = page("browser-moves", ONE_THREAD) else {
        return;
    };
    let asked: Option<usize> = std::env::var("GAMUT_BOARD_POSITIONS")
        .ok()
        .and_then(|n| n.parse().ok());
    let only = std::env::var("GAMUT_BOARD_GAMES").unwrap_or_default();
    for (g, game) in crate::serve::GAMES.iter().enumerate() {
        if !only.is_empty() && !only.split(',').any(|x| x == *game) {
            continue;
        }
        // By default 3 positions a game, and 1 in the four-player games,
        // whose rounds of placements take minutes each to enter.
        let four_players = matches!(*game, "spokes4" | "spokes2v2");
        let count = asked.unwrap_or(if four_players { 1 } else { 3 });
        let positions = sample_positions(&server, game, count, 45 + g as u64);
        assert!(positions.len() >= count);
        let (mut long, mut captures, mut entered) = (0, 0, 0);
        let started = Instant::now();
        for (k, fen) in positions.iter().enumerate() {
            eprintln!("{game} {k}: {fen}");
            let (l, c, n) = enter_every_move(&browser, &server, game, fen);
            entered += n;
            long += l;
            captures += c;
            play_one_for_real(&browser, game, fen, k);
        }
        eprintln!(
            "{game}: {} positions, {entered} moves entered by pointer ({captures} captures, \
             {long} of more than two clicks), {:.0} s",
            positions.len(),
            started.elapsed().as_secs_f64()
        );
        if count >= 20 && matches!(*game, "apart" | "epaminondas") {
            assert!(captures > 0, "{game}: no capture entered");
        }
        if count >= 20 && *game == "apart" {
            assert!(long > 0, "apart: no multi-hop jump entered");
        }
    }
}

/// A four-player round whose resolution has 85,052 outcomes (more than
/// any list of buttons can offer) chosen on the board as a person does:
/// the position comes without its outcomes, a ringed node is pressed and
/// one of the contents its chooser offers taken, each choice keeping
/// fewer outcomes (the count the page shows is checked against the
/// server's), until one page lists all those left; the first is played,
/// and the page's position is the one `gamut show` gives after it. With
/// `GAMUT_SCREENSHOTS` the steps are saved as
/// `serve-spokes4-narrowing-<n>.png`.
#[test]
#[ignore = "long check"]
fn long_a_resolution_of_85052_outcomes_is_chosen_on_the_board_in_chromium() {
    let Some((server, browser, _dir)) = page("browser-narrowing", ONE_THREAD) else {
        return;
    };
    // The window its pictures show, where the page fits without scrolling.
    viewport(&browser, 1280, 800, false);
    let shot = |n: usize| {
        browser.save_shot(
            &format!("serve-spokes4-narrowing-{n}"),
            Duration::from_millis(400),
        )
    };
    let (fen, round) = ("1/1X2/w1w1w1w1/2w3w9/16 3", "wA,wA,wA,wA");
    browser.goto(&format!(
        "{}?game=spokes4&fen={}&moves={}",
        server.url(),
        crate::serve::enc(fen),
        crate::serve::enc(round)
    ));
    browser.wait(
        "return !!S.view && S.current === 1 && S.shown === S.token && paged()",
        120,
        "the resolution",
    );
    outcomes_in(&browser);
    let count = |b: &Browser| b.run("return S.outcomes.data.count").as_u64().unwrap();
    assert_eq!(count(&browser), 85_052, "all the outcomes at first");
    shot(1);
    let mut steps = 0;
    while browser.run("return S.outcomes.data.count > S.outcomes.data.moves.length") == json!(true)
    {
        let before = count(&browser);
        let square = browser.run("return S.outcomes.data.squares[0].square");
        let square = square.as_str().unwrap().to_string();
        browser.click_square(&square);
        let button = "#chooser button.content";
        browser.wait(
            &format!("return !!document.querySelector({button:?})"),
            10,
            "the node's contents",
        );
        if steps == 0 {
            shot(2);
        }
        press(&browser, button);
        outcomes_in(&browser);
        let after = count(&browser);
        assert!(
            after < before,
            "a choice at {square} kept {after} of {before}"
        );
        // The count shown is the server's for the choices made.
        let fix = browser.run("return S.outcomes.fix.map(([s, c]) => s + ':' + c).join(',')");
        let answer = get(
            &server.addr,
            &format!(
                "/api/outcomes?game=spokes4&fen={}&moves={}&fix={}",
                crate::serve::enc(fen),
                crate::serve::enc(round),
                crate::serve::enc(fix.as_str().unwrap())
            ),
        )
        .json();
        assert_eq!(
            answer["count"].as_u64().unwrap(),
            after,
            "the count for {fix}"
        );
        steps += 1;
        assert!(steps <= 40, "no end to the narrowing");
    }
    shot(3);
    let first = browser.run("return S.outcomes.data.moves[0].text");
    let first = first.as_str().unwrap().to_string();
    press(
        &browser,
        &format!("#outcome-list button[data-move={first:?}]"),
    );
    browser.wait(
        "return S.current === 2 && S.shown === S.token",
        60,
        "the outcome played",
    );
    shot(4);
    let shown = browser.run("return S.view.text");
    let out = crate::common::ok(&[
        "show",
        "spokes4",
        "--fen",
        fen,
        "--moves",
        &format!("{round};{first}"),
    ]);
    let want = out
        .lines()
        .find_map(|l| l.strip_prefix("position "))
        .expect("a position line");
    assert_eq!(shown, json!(want), "the position after the outcome");
}

/// A Spokes round whose resolution is not forced, played through the
/// preview: both placements clicked on the board (each colour chosen at
/// its node), then the outcomes named by their short forms (as `gamut
/// moves --short` writes them), stepped through on the board, and the
/// second played. With `GAMUT_SCREENSHOTS` the steps are saved as
/// `serve-spokes-round-<n>.png`.
#[test]
#[ignore = "long check"]
fn long_a_spokes_round_is_resolved_through_the_preview_in_chromium() {
    let Some((server, browser, _dir)) = page("browser-preview", ONE_THREAD) else {
        return;
    };
    // The window its pictures show, where the page fits without scrolling.
    viewport(&browser, 1280, 800, false);
    let shot = |n: usize| {
        browser.save_shot(
            &format!("serve-spokes-round-{n}"),
            Duration::from_millis(400),
        )
    };
    browser.goto(&format!("{}?game=spokes", server.url()));
    browser.wait("return !!S.view && S.shown === S.token", 30, "the board");
    // Two single stones of opposite colours side by side: one pulls the
    // other, either way round.
    for (node, text) in [("C1", "wC1"), ("C2", "bC2")] {
        browser.click_square(node);
        let button = format!("#chooser button[data-move=\"{text}\"]");
        browser.wait(
            &format!("return !!document.querySelector('{button}')"),
            10,
            "the colour chooser at the node",
        );
        if text == "wC1" {
            shot(1);
        }
        browser.click(&button);
    }
    browser.wait(
        "return S.current === 1 && S.shown === S.token && S.view.node === 'decision'",
        20,
        "the resolution",
    );
    let offered = browser.run(
        "return [...document.querySelectorAll('#outcome-list button')].map((b) => [b.dataset.move, b.textContent])",
    );
    let offered = offered.as_array().unwrap();
    assert!(offered.len() > 1, "a forced resolution: {offered:?}");
    let short = crate::common::ok(&["moves", "spokes", "--moves", "wC1,bC2", "--short"]);
    let mut named: Vec<&str> = offered.iter().map(|o| o[1].as_str().unwrap()).collect();
    named.sort();
    let mut want: Vec<&str> = short.lines().collect();
    want.sort();
    assert_eq!(named, want, "the outcomes by their short forms");
    shot(2);
    // Stepping through: each outcome's board in turn, named under it.
    let before = browser.run("return document.querySelector('#board svg').outerHTML");
    let mut previews = Vec::new();
    for (k, outcome) in offered.iter().take(2).enumerate() {
        browser.click("#outcome-next");
        browser.wait(
            &format!("return S.preview === {k} && document.getElementById('preview-caption').textContent.includes({:?})", outcome[1].as_str().unwrap()),
            10,
            "the preview",
        );
        let svg = browser.run("return document.querySelector('#board svg').outerHTML");
        assert_ne!(svg, before, "the preview shows the board after the outcome");
        previews.push(svg);
        shot(3 + k);
    }
    assert_ne!(previews[0], previews[1], "two outcomes, two boards");
    // The pointer on an outcome's button previews it too.
    let first = offered[0][0].as_str().unwrap();
    let el = browser.call(
        "POST",
        "/element",
        json!({"using": "css selector", "value": format!("#outcome-list button[data-move={first:?}]")}),
    );
    browser.actions(vec![
        json!({"type": "pointerMove", "duration": 0, "origin": el, "x": 0, "y": 0}),
    ]);
    browser.wait(
        "return S.preview === 0",
        10,
        "the preview under the pointer",
    );
    browser.click("#outcome-next");
    browser.wait("return S.preview === 1", 10, "the second outcome");
    browser.click("#outcome-play");
    browser.wait(
        "return S.current === 2 && S.shown === S.token",
        20,
        "the outcome played",
    );
    let played = browser.run("return [S.nodes[2].move, S.view.text, document.querySelector('#moves .move.current').textContent]");
    assert_eq!(
        played[0], offered[1][0],
        "the outcome previewed is the one played"
    );
    assert!(
        played[2]
            .as_str()
            .unwrap()
            .contains(offered[1][1].as_str().unwrap()),
        "the move list names it by its short form: {played}"
    );
    let moves = format!("wC1,bC2;{}", offered[1][0].as_str().unwrap());
    let out = crate::common::ok(&["show", "spokes", "--moves", &moves]);
    let want = out
        .lines()
        .find_map(|l| l.strip_prefix("position "))
        .unwrap();
    assert_eq!(played[1], json!(want));
    shot(5);
}

/// Makes the `k`-th move made on the board of the position shown (the
/// first where there are fewer), or its first move by button, as a person
/// does, and waits for the page to take it.
fn play_first(browser: &Browser, k: usize) {
    settled(browser);
    let before = browser.run("return [S.token, S.pending.length]");
    let plan = browser.run(&format!(
        "const p = (() => {{ {PLAN} }})(); {RESTORE} \
         const board = p.plans.filter((x) => !x.button); \
         return board.length ? board[{k}] || board[0] : p.plans[0]"
    ));
    if plan["button"] == json!(true) {
        let text = plan["text"].as_str().unwrap();
        browser.click(&format!("#choices button[data-move={text:?}]"));
    } else {
        let clicks: Vec<(i64, i64)> = plan["clicks"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| (c[0].as_i64().unwrap(), c[1].as_i64().unwrap()))
            .collect();
        browser.pointer(&clicks);
    }
    browser.wait(
        &format!(
            "return S.token !== {} || S.pending.length !== {}",
            before[0], before[1]
        ),
        20,
        "the move taken",
    );
}

/// Waits for the page's position to be drawn and its answers in.
fn settled(browser: &Browser) {
    browser.wait(
        "return !!S.view && S.shown === S.token && !!document.querySelector('#board .hit')",
        30,
        "the position",
    );
}

/// The page's address keeps the game, its start, the moves and the move
/// shown as a person plays and steps back: opened afresh, the address
/// gives the same board, the same moves and the same move shown, in a
/// game of two sides from a position given (`fen=`), in Empedocles from
/// its setup (`setup=`) and in Spokes (rounds and their resolutions).
#[test]
#[ignore = "long check"]
fn long_the_address_reopens_the_same_board_in_chromium() {
    let Some((server, browser, _dir)) = page("browser-address", ONE_THREAD) else {
        return;
    };
    // Epaminondas' start, given as a position text.
    let fen =
        "BBBBBBBBBBBBBB/BBBBBBBBBBBBBB/14/14/14/14/14/14/14/14/WWWWWWWWWWWWWW/WWWWWWWWWWWWWW w";
    for (game, start) in [
        ("epaminondas", format!("fen={}", crate::serve::enc(fen))),
        ("empedocles", "setup=water%2Cair".to_string()),
        ("spokes", String::new()),
    ] {
        browser.goto(&format!("{}?game={game}&{start}", server.url()));
        settled(&browser);
        // Five choices, each the page's first move made on the board
        // (clicked) or else its first outcome or roll (its button); at a
        // round of secret choices, each player's.
        for k in 0..5 {
            play_first(&browser, k);
        }
        browser.click("#back");
        browser.wait(
            "return S.shown === S.token && S.nodes[S.current].children.length === 1",
            20,
            "the step back",
        );
        let state = "const q = new URLSearchParams(location.search); \
                     return [location.href, S.view.text, lineTo(S.current).join(';'), \
                     gameThrough(S.current).slice(1).map((id) => S.nodes[id].move).join(';'), \
                     document.querySelectorAll('#moves .move').length, \
                     q.get('game'), q.get('fen'), q.get('setup'), q.get('moves')]";
        let before = browser.run(state);
        let href = before[0].as_str().unwrap().to_string();
        assert_eq!(before[5], json!(game), "{href}");
        assert_eq!(before[8], before[3], "{href}: the moves");
        match game {
            "epaminondas" => assert_eq!(before[6], json!(fen), "{href}"),
            "empedocles" => assert_eq!(before[7], json!("water,air"), "{href}"),
            _ => assert_eq!(
                [&before[6], &before[7]],
                [&Value::Null, &Value::Null],
                "{href}"
            ),
        }
        // A fresh page at the address: the same board, line and moves.
        browser.goto("about:blank");
        browser.goto(&href);
        settled(&browser);
        browser.wait(
            &format!(
                "return document.querySelectorAll('#moves .move').length === {}",
                before[4]
            ),
            20,
            "the moves listed",
        );
        let after = browser.run(state);
        assert_eq!(
            after, before,
            "{game}: the address {href} opened another board"
        );
        // The address names the position the command line reaches.
        let moves = before[2].as_str().unwrap();
        let mut args = vec!["show", game, "--moves", moves];
        if game == "epaminondas" {
            args.extend(["--fen", fen]);
        }
        if game == "empedocles" {
            args.extend(["--setup", "water,air"]);
        }
        let out = crate::common::ok(&args);
        let want = out
            .lines()
            .find_map(|l| l.strip_prefix("position "))
            .unwrap();
        assert_eq!(before[1], json!(want), "{game}");
    }
}

/// Export downloads the game as a `.jsonl` record that `gamut replay`
/// reads to the position the page shows; the copy button holds the same
/// record; and the record opens again by the file picker and by a drop on
/// the page, its moves in the list and its last position on the board.
#[test]
#[ignore = "long check"]
fn long_an_exported_record_replays_and_opens_again_in_chromium() {
    let Some((server, browser, dir)) = page("browser-export", ONE_THREAD) else {
        return;
    };
    let profile = dir.join("profile");
    let downloads = profile.join("downloads");
    for (game, count) in [("empedocles", 14), ("apart", 6), ("spokes", 6)] {
        let mut rng = SmallRng::seed_from_u64(7);
        // A line of random moves (die rolls and rounds included), opened
        // by its address.
        let (_, moves) = random_line(&server, game, count - 1, &mut rng);
        let line = moves.join(";");
        browser.goto(&format!(
            "{}?game={game}&moves={}",
            server.url(),
            crate::serve::enc(&line)
        ));
        settled(&browser);
        let shown = browser.run("return S.view.text");
        let _ = std::fs::remove_dir_all(&downloads);
        browser.click("#io summary");
        browser.click("#export");
        let file = downloads.join(format!("{game}-game.jsonl"));
        let start = Instant::now();
        while !file.exists() {
            assert!(
                start.elapsed() < Duration::from_secs(20),
                "{game}: no download in {downloads:?}"
            );
            std::thread::sleep(Duration::from_millis(100));
        }
        std::thread::sleep(Duration::from_millis(300));
        let record = std::fs::read_to_string(&file).unwrap();
        assert_eq!(record.lines().count(), 1, "{record}");
        let copied = browser.run("return [S.record, document.getElementById('copy').disabled]");
        assert_eq!(
            copied,
            json!([record, false]),
            "{game}: the copy button's record"
        );
        // `gamut replay` reads it to the position on the page.
        let out = crate::common::ok(&["replay", file.to_str().unwrap(), "--game", "1"]);
        let last = out
            .lines()
            .filter_map(|l| l.strip_prefix("position "))
            .next_back()
            .unwrap();
        assert_eq!(shown, json!(last), "{game}: replayed");
        // Opened again: by the file picker, on a fresh page ...
        for how in ["picker", "drop"] {
            browser.goto(&format!("{}?game=aporia", server.url()));
            settled(&browser);
            if how == "picker" {
                browser.click("#io summary");
                let input = browser.element("#record-file");
                browser.call(
                    "POST",
                    &format!("/element/{input}/value"),
                    json!({"text": file.to_str().unwrap()}),
                );
            } else {
                // ... and dropped on the page (a drop of the file's bytes).
                browser.run(&format!(
                    "const dt = new DataTransfer(); \
                     dt.items.add(new File([{}], 'dropped.jsonl')); \
                     document.getElementById('moves').dispatchEvent(new DragEvent('drop', {{dataTransfer: dt, bubbles: true, cancelable: true}})); \
                     return true",
                    json!(record)
                ));
            }
            browser.wait(
                &format!(
                    "return S.game === {game:?} && S.shown === S.token && S.view.text === {shown} && \
                     document.querySelectorAll('#moves .move').length === {}",
                    moves.len()
                ),
                20,
                "the record opened",
            );
            let opened = browser.run("return lineTo(S.current).join(';')");
            assert_eq!(opened, json!(line), "{game} by {how}");
        }
    }
}

/// A tournament page's game link (its viewer sits below the tables)
/// brings the game it opens into view, and so does opening the page at a
/// game's address.
#[test]
#[ignore = "long check"]
fn long_a_tournament_page_scrolls_to_the_game_it_opens_in_chromium() {
    if !browser_here() {
        return;
    }
    let dir = crate::common::scratch_dir("browser-tournament");
    let page = dir.join("t.html");
    crate::common::ok(&[
        "tournament",
        "aporia",
        "--engine",
        "name=d2,depth=2",
        "--engine",
        "name=d1,depth=1",
        "--games",
        "40",
        "--ply-limit",
        "8",
        "--records",
        dir.join("t.jsonl").to_str().unwrap(),
        "--html",
        page.to_str().unwrap(),
        "--quiet",
    ]);
    let browser = Browser::start(&dir.join("profile"));
    let url = format!("file://{}", page.display());
    let viewer = "const r = document.getElementById('viewer').getBoundingClientRect(); \
                  return [r.top, innerHeight, document.getElementById('game-title').textContent]";
    browser.goto(&url);
    browser.wait(
        "return !!document.querySelector('a[href=\"#game=31\"]')",
        20,
        "the page",
    );
    let before = browser.run(viewer);
    assert!(
        before[0].as_f64().unwrap() > before[1].as_f64().unwrap(),
        "the viewer is not below the fold here: {before}"
    );
    browser.click("a[href=\"#game=31\"]");
    browser.wait(
        "return document.getElementById('game-title').textContent.endsWith('game 31')",
        10,
        "the game opened",
    );
    let after = browser.run(viewer);
    let (top, height) = (after[0].as_f64().unwrap(), after[1].as_f64().unwrap());
    assert!(
        (-1.0..height / 2.0).contains(&top),
        "the game opened out of view: {after}"
    );
    // Opened at a game's address, the page shows that game in view.
    browser.goto("about:blank");
    browser.goto(&format!("{url}#game=12&move=3"));
    browser.wait(
        "return document.getElementById('game-title').textContent.endsWith('game 12')",
        10,
        "the game opened",
    );
    let direct = browser.run(viewer);
    let top = direct[0].as_f64().unwrap();
    assert!(
        (-1.0..height / 2.0).contains(&top),
        "the game opened out of view: {direct}"
    );
}

/// The move list fits the game: in Empedocles a row per turn number with
/// a column per side, each side's setup placements together in its cell
/// and a die roll an annotation at the head of the turn it opens; in Apart
/// a variation is written as in chess after the move it is an alternative
/// to (`1… x 2. y`, `2. z`), and the main line takes up again with `2 …`;
/// in Spokes a row per round (placements, then the resolution).
#[test]
#[ignore = "long check"]
fn long_the_move_list_numbers_turns_and_variations_in_chromium() {
    let Some((server, browser, _dir)) = page("browser-list", ONE_THREAD) else {
        return;
    };
    // Each row as its number and its cells, each cell the ids of its
    // moves (`roll` for a die roll) and `…` where it takes up a turn;
    // each variation as its numbers and move ids.
    let rows = "return [...document.querySelectorAll('#moves > .row, #moves > .variations > .variation')].map((r) => \
                r.classList.contains('row') \
                  ? [r.querySelector('.num').textContent, ...[...r.querySelectorAll('.cell')].map((c) => \
                      [...c.children].map((e) => e.classList.contains('num') ? e.textContent \
                        : (e.classList.contains('die') ? 'roll ' : '') + e.dataset.node))] \
                  : ['variation', ...[...r.children].map((e) => e.classList.contains('num') ? e.textContent : e.dataset.node)])";
    let line = "@b3;@f5;@a8;@f7;@c7;@e1;N;b3-a3;N;f7-f6;N;f5-g6";
    browser.goto(&format!(
        "{}?game=empedocles&moves={}",
        server.url(),
        crate::serve::enc(line)
    ));
    settled(&browser);
    browser.wait(
        "return S.nodes.every((n, i) => i === 0 || n.kind !== undefined) && document.querySelectorAll('#moves .row').length === 3",
        20,
        "the moves described",
    );
    assert_eq!(
        browser.run(rows),
        json!([
            ["1", ["1", "2", "3"], ["4", "5", "6"]],
            ["2", ["roll 7", "8"], ["roll 9", "10"]],
            ["3", ["roll 11", "12"], []],
        ]),
        "empedocles"
    );
    let roll = browser.run("return document.querySelector('#moves .move.die').textContent");
    assert_eq!(roll, json!("roll N"));
    // Apart: four moves, then an alternative to Black's first move with
    // a reply, and one to White's second.
    browser.goto(&format!("{}?game=apart", server.url()));
    settled(&browser);
    let play = |i: usize| {
        browser.run(&format!("choose(S.view.moves[{i}].text); return true"));
        settled(&browser);
    };
    for i in [0, 0, 0, 0] {
        play(i);
    }
    browser.run("go(1); return true");
    settled(&browser);
    play(3);
    play(3);
    browser.run("go(2); return true");
    settled(&browser);
    play(5);
    assert_eq!(
        browser.run(rows),
        json!([
            ["1", ["1"], ["2"]],
            ["variation", "1…", "5", "2.", "6"],
            ["2", ["3"], []],
            ["variation", "2.", "7"],
            ["2", ["…"], ["4"]],
        ]),
        "apart"
    );
    // Spokes: a row per round, its placements then its resolution.
    browser.goto(&format!("{}?game=spokes", server.url()));
    settled(&browser);
    for _ in 0..2 {
        browser.run("choose(S.view.actions[0][0].text); return true");
        browser.run("choose(S.view.actions[1][1].text); return true");
        // The resolution, played by itself where it is forced.
        browser.wait(
            "return S.shown === S.token && S.current > 0 && S.pending.length === 0",
            20,
            "the round placed",
        );
        if browser.run("return S.view.node") == json!("decision") {
            browser.run("choose(S.view.moves[0].text); return true");
            browser.wait(
                "return S.shown === S.token && S.view.node === 'simultaneous'",
                20,
                "the round resolved",
            );
        }
    }
    let spokes = browser.run(rows);
    let spokes = spokes.as_array().unwrap();
    assert_eq!(spokes.len(), 2, "{spokes:?}");
    for (k, row) in spokes.iter().enumerate() {
        assert_eq!(row[0], json!(format!("{}.", k + 1)), "{spokes:?}");
        let cell: Vec<u64> = row[1]
            .as_array()
            .unwrap()
            .iter()
            .map(|id| id.as_str().unwrap().parse().unwrap())
            .collect();
        assert_eq!(cell, [2 * k as u64 + 1, 2 * k as u64 + 2], "{spokes:?}");
    }
}

/// The moves of a line of `game` from its start to its first chance node
/// (Empedocles' die), each the first listed.
fn line_to_chance(server: &Server, game: &str) -> Vec<String> {
    let mut moves: Vec<String> = Vec::new();
    for _ in 0..200 {
        let v = get(
            &server.addr,
            &format!(
                "/api/position?game={game}&moves={}",
                crate::serve::enc(&moves.join(";"))
            ),
        )
        .json();
        match v["node"].as_str().unwrap() {
            "chance" => return moves,
            "terminal" => break,
            _ => moves.push(v["moves"][0]["text"].as_str().unwrap().to_string()),
        }
    }
    panic!("no chance node in {game}'s first line");
}

/// Waits for `script` to return `true`, polling often, and checks that
/// it did within `limit` of `start` (when the person acted); returns how
/// long it took.
fn effect_within(
    browser: &Browser,
    script: &str,
    start: Instant,
    limit: Duration,
    what: &str,
) -> Duration {
    while browser.run(script) != json!(true) {
        assert!(start.elapsed() < Duration::from_secs(20), "never: {what}");
        std::thread::sleep(Duration::from_millis(10));
    }
    let took = start.elapsed();
    eprintln!("{what}: {} ms", took.as_millis());
    assert!(took <= limit, "{what} took {took:?}, over {limit:?}");
    took
}

/// With one search thread on the server, a page analysing and a second
/// page analysing too (a forgotten tab), each thing a person does in the
/// first shows its effect within a second: a die roll, a move, an engine
/// move and the start of a game's scoring. The analysis of the first page
/// goes on after each.
#[test]
#[ignore = "long check"]
fn long_one_search_thread_never_stalls_a_page_in_chromium() {
    let Some((server, browser, dir)) = page("browser-stall", ONE_THREAD) else {
        return;
    };
    // The forgotten page: analysing Epaminondas' start, in a browser of its
    // own (so that it is not a hidden tab, which would give its thread up).
    let other = Browser::start(&dir.join("other"));
    other.goto(&format!("{}?game=epaminondas", server.url()));
    other.wait("return !!S.view", 30, "the other page");
    other.click("#analyse");
    other.wait(
        "return S.lastIteration !== null",
        30,
        "the other page's analysis",
    );
    let analysing = |b: &Browser| {
        b.click("#analyse");
        b.wait(
            "return S.analysis !== null && !S.analysis.closed",
            30,
            "the analysis asked for",
        );
    };
    let second = Duration::from_secs(1);
    // A die roll.
    let moves = line_to_chance(&server, "empedocles");
    browser.goto(&format!(
        "{}?game=empedocles&moves={}",
        server.url(),
        crate::serve::enc(&moves.join(";"))
    ));
    browser.wait(
        "return S.shown === S.token && S.view && S.view.node === 'chance'",
        30,
        "the die roll's position",
    );
    analysing(&browser);
    std::thread::sleep(Duration::from_millis(1500));
    let before = browser.move_count();
    let acted = Instant::now();
    browser.click("#choices button:not([data-move])");
    effect_within(
        &browser,
        &format!(
            "return document.querySelectorAll('#moves .move').length === {}",
            before + 1
        ),
        acted,
        second,
        "a die roll",
    );
    // A move on the board.
    browser.goto(&format!("{}?game=epaminondas", server.url()));
    browser.wait("return S.shown === S.token && !!S.view", 30, "the board");
    analysing(&browser);
    std::thread::sleep(Duration::from_millis(1500));
    let (_, squares) = first_move_squares(&server, "epaminondas", "");
    let acted = Instant::now();
    for sq in &squares {
        browser.click_square(sq);
    }
    effect_within(
        &browser,
        "return document.querySelectorAll('#moves .move').length === 1",
        acted,
        second,
        "a move",
    );
    // The analysis of the new position follows.
    browser.wait(
        "return S.lastIteration !== null",
        10,
        "the analysis after the move",
    );
    // An engine move: the engine plays the side to move (side 2 now).
    browser.run("document.getElementById('limit').value = '300'; return true");
    std::thread::sleep(Duration::from_millis(1500));
    let acted = Instant::now();
    browser.click("#engine-seats option[value='1']");
    effect_within(
        &browser,
        "return document.querySelectorAll('#moves .move').length === 2",
        acted,
        second,
        "an engine move",
    );
    browser.click("#engine-seats option[value='']");
    // The game's scoring: its first position's score.
    browser.wait("return S.shown === S.token", 10, "the position");
    std::thread::sleep(Duration::from_millis(1500));
    let acted = Instant::now();
    browser.click("#score-game");
    effect_within(
        &browser,
        "return S.nodes[0].score !== null && S.nodes[0].score !== undefined && !!document.querySelector('#graph polyline[points*=\",\"]')",
        acted,
        second,
        "a graph scoring",
    );
    browser.wait(
        "return document.getElementById('graph-info').textContent.startsWith('scored')",
        20,
        "the whole scoring",
    );
    // Both pages analyse again once it is done.
    browser.wait(
        "return S.lastIteration !== null && !document.getElementById('info').textContent.includes('paused')",
        20,
        "this page's analysis after the scoring",
    );
    // The other page's analysis waits for its turn (round robin) rather
    // than ending: its stream is still open.
    assert_eq!(
        other.run("return S.analysis !== null && !S.analysis.closed"),
        json!(true)
    );
}

/// The evaluation graph's background scoring (60 ms a move, after each
/// move or a line loaded) labels no move: its losses are as often noise as
/// mistakes. A line of random moves of Apart scored in the background
/// shows no `?!`, `?` or `??` in the move list or the graph though the
/// scoring's events named some, and `score the game` then marks every
/// move its refined scores label.
#[test]
#[ignore = "long check"]
fn long_moves_are_labelled_only_once_the_game_is_scored_in_chromium() {
    let Some((server, browser, _dir)) = page("browser-labels", ONE_THREAD) else {
        return;
    };
    let mut rng = SmallRng::seed_from_u64(11);
    let marked = "return {given: S.nodes.filter((n) => n.label).length, \
                  marked: document.querySelectorAll('#moves .move.blunder, #moves .move.mistake, #moves .move.inaccuracy').length, \
                  dots: document.querySelectorAll('#graph circle').length, \
                  text: [...document.querySelectorAll('#moves .move')].filter((m) => m.textContent.includes('?')).length}";
    for _ in 0..4 {
        let (_, moves) = random_line(&server, "apart", 20, &mut rng);
        browser.goto(&format!(
            "{}?game=apart&moves={}",
            server.url(),
            crate::serve::enc(&moves.join(";"))
        ));
        settled(&browser);
        browser.wait(
            "return document.getElementById('graph-info').textContent.startsWith('scored at 60 ms')",
            120,
            "the background scoring",
        );
        let low = browser.run(marked);
        assert_eq!(
            (&low["marked"], &low["dots"], &low["text"]),
            (&json!(0), &json!(0), &json!(0)),
            "a label from the background scoring: {low}"
        );
        if low["given"] == json!(0) {
            // This line's background scoring named no label: the check
            // needs one it hides.
            continue;
        }
        browser.click("#score-game");
        browser.wait(
            "return document.getElementById('graph-info').textContent === 'scored'",
            120,
            "the game scored",
        );
        let refined = browser.run(marked);
        assert!(
            refined["given"].as_u64().unwrap() > 0,
            "random moves without a mistake: {refined}"
        );
        assert_eq!(
            (&refined["marked"], &refined["dots"], &refined["text"]),
            (&refined["given"], &refined["given"], &refined["given"]),
            "the refined labels marked: {refined}"
        );
        return;
    }
    panic!("no line's background scoring named a label");
}

/// An analysis stopped and started again on the same position (the page
/// hidden, then shown) keeps its lines: the depth shown never falls back,
/// the lines stay, and the new search's iterations show once deeper than
/// them.
#[test]
#[ignore = "long check"]
fn long_a_resumed_analysis_keeps_its_lines_until_it_passes_them_in_chromium() {
    let Some((server, browser, _dir)) = page("browser-resume", ONE_THREAD) else {
        return;
    };
    browser.goto(&format!("{}?game=epaminondas", server.url()));
    settled(&browser);
    browser.click("#analyse");
    let depth = "const m = /^depth (\\d+)/.exec(document.getElementById('info').textContent); return m ? +m[1] : 0";
    browser.wait(
        &depth.replace("return m ? +m[1] : 0", "return !!m && +m[1] >= 4"),
        120,
        "depth 4",
    );
    let visibility = |hidden: bool| {
        browser.run(&format!(
            "Object.defineProperty(document, 'hidden', {{configurable: true, get: () => {hidden}}}); \
             document.dispatchEvent(new Event('visibilitychange')); return true"
        ));
    };
    visibility(true);
    let kept = browser.run(depth).as_u64().unwrap();
    let lines = browser.run("return document.getElementById('lines').innerHTML");
    assert!(
        browser
            .run("return document.getElementById('info').textContent")
            .as_str()
            .unwrap()
            .contains("paused while the page is hidden"),
        "the pause said"
    );
    assert_eq!(browser.run("return S.analysis"), Value::Null, "stopped");
    visibility(false);
    // Until the new search passes depth `kept`, the same lines and depth.
    let start = Instant::now();
    // The depth and the lines read at once: the page may show the next
    // depth between two separate reads.
    let both =
        format!("return [(() => {{ {depth} }})(), document.getElementById('lines').innerHTML]");
    loop {
        let seen = browser.run(&both);
        let now = seen[0].as_u64().unwrap();
        assert!(now >= kept, "the depth fell back from {kept} to {now}");
        if now > kept {
            break;
        }
        assert_eq!(seen[1], lines, "the lines kept");
        assert!(
            start.elapsed() < Duration::from_secs(120),
            "the resumed search never passed depth {kept}"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// What the page shows now, for a person choosing as fast as it lets
/// them: the line, the node, whether the engine searches, the player
/// the prompt names (-1: none) with that player's actions made on the
/// board (text and node), and the outcome buttons offered.
const SEAT_STATE: &str = r#"
const v = S.view;
if (!v || S.shown !== S.token) return { loading: true };
const text = document.getElementById('choices').textContent.trim();
const names = [...Array(v.players || 2).keys()].map((i) => (v.players > 2 ? 'player ' + (i + 1) : v.sides[i]));
let k = -1;
const m = text.match(/^(.*?) chooses in secret \(/);
if (v.node === 'simultaneous' && m) k = names.indexOf(m[1]);
return {
  loading: false, line: lineTo(S.current), node: v.node, busy: !!S.busy, text,
  k, actions: k >= 0 ? v.actions[k].filter((a) => a.squares.length === 1).map((a) => [a.text, a.squares[0]]) : [],
  buttons: [...document.querySelectorAll('#choices button[data-move]')].map((b) => b.dataset.move),
  sides: v.player_sides, over: v.node === 'terminal',
};
"#;

/// Plays `rounds` rounds of `game` in the page with the engine on `seat`
/// (a side: a player, or a team of `spokes2v2`) at `limit` ms a search,
/// the person choosing for the other players as soon as the prompt names
/// one (a random action, its node clicked, then its colour) and resolving
/// with the first outcome offered; each round's joint action must give
/// each person's choice to the player the prompt named, and while the
/// engine chooses the page must say so.
fn play_rounds_against_a_seat(
    browser: &Browser,
    url: &str,
    game: &str,
    seat: usize,
    rounds: usize,
    rng: &mut SmallRng,
) {
    use rand::Rng;
    let open = || {
        browser.goto(&format!("{url}?game={game}"));
        browser.wait(
            "return !!S.view && S.shown === S.token && document.getElementById('engine-seats').dataset.game !== undefined",
            30,
            "the board",
        );
        browser.run(&format!(
            "$('auto-score').checked = false; $('limit-kind').value = 'time'; $('limit').value = '150'; \
             const m = $('engine-seats'); m.value = '{seat}'; m.dispatchEvent(new Event('change')); return m.value"
        ));
    };
    open();
    let mut done = 0;
    let mut chosen: std::collections::BTreeMap<usize, String> = Default::default();
    let mut last_line: Vec<Value> = Vec::new();
    let mut progress = Instant::now();
    while done < rounds {
        assert!(
            progress.elapsed() < Duration::from_secs(60),
            "{game}, engine on {seat}: no progress: {}",
            browser.run(SEAT_STATE)
        );
        let st = browser.run(SEAT_STATE);
        if st["loading"] == json!(true) {
            continue;
        }
        let line = st["line"].as_array().unwrap().clone();
        if line.len() > last_line.len() {
            progress = Instant::now();
            // A round was placed: each person's choice went to the player
            // the prompt named when it was clicked.
            let new = line.last().unwrap().as_str().unwrap();
            if new.contains(',') && line.len() == last_line.len() + 1 {
                let parts: Vec<&str> = new.split(',').collect();
                for (&p, text) in &chosen {
                    assert_eq!(
                        parts[p],
                        text,
                        "{game}, engine on {seat}: player {} chose {text}, the round was {new}",
                        p + 1
                    );
                }
                for p in 0..parts.len() {
                    if st["sides"][p].as_u64() == Some(seat as u64) {
                        assert!(
                            !chosen.contains_key(&p),
                            "{game}: a person chose for the engine's player {}",
                            p + 1
                        );
                    }
                }
                chosen.clear();
                done += 1;
            }
            last_line = line.clone();
        } else if line.len() < last_line.len() {
            last_line = line.clone();
        }
        if st["over"] == json!(true) {
            open();
            last_line.clear();
            chosen.clear();
            continue;
        }
        if st["busy"] == json!(true) {
            if st["node"] == "simultaneous" {
                assert!(
                    st["text"]
                        .as_str()
                        .unwrap()
                        .starts_with("engine choosing for player"),
                    "{game}: the engine chooses unsaid: {}",
                    st["text"]
                );
            }
            continue;
        }
        let k = st["k"].as_i64().unwrap();
        if k >= 0 {
            let k = k as usize;
            let actions = st["actions"].as_array().unwrap();
            if actions.is_empty() {
                continue;
            }
            let pick = &actions[rng.gen_range(0..actions.len())];
            let (text, node) = (pick[0].as_str().unwrap(), pick[1].as_str().unwrap());
            browser.click_square(node);
            let button = format!("#chooser button[data-move=\"{text}\"]");
            let there = browser.run(&format!("return !!document.querySelector('{button}')"));
            if there == json!(true) {
                browser.click(&button);
            } else {
                browser.run("hideChooser(); S.selection = []; drawChoices(); return 0");
                continue;
            }
            chosen.insert(k, text.to_string());
            continue;
        }
        if st["node"] == "decision" {
            if let Some(b) = st["buttons"].as_array().unwrap().first() {
                let b = b.as_str().unwrap();
                browser.click(&format!("#choices button[data-move=\"{b}\"]"));
            }
        }
    }
}

/// A person's choice at a simultaneous node goes to the player the prompt
/// names, in every Spokes variant with the engine on each seat, the person
/// clicking as soon as the page names one of theirs; while an engine seat
/// chooses the page says so and takes no click.
#[test]
#[ignore = "long check"]
fn long_a_person_s_choice_goes_to_the_seat_the_prompt_names_in_chromium() {
    let Some((server, browser, _dir)) = page("browser-seats", ONE_THREAD) else {
        return;
    };
    let rounds: usize = std::env::var("GAMUT_SEAT_ROUNDS")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(20);
    let mut rng = SmallRng::seed_from_u64(61);
    for (game, seats) in [("spokes4", 4), ("spokes2v2", 2), ("spokes", 2)] {
        for seat in 0..seats {
            play_rounds_against_a_seat(&browser, &server.url(), game, seat, rounds, &mut rng);
        }
    }
}

/// WebDriver's key values.
const LEFT: &str = "\u{E012}";
const UP: &str = "\u{E013}";
const END: &str = "\u{E010}";

/// The keys act on the game whatever control was used last: after
/// ticking `analyse` and playing on the board, Left steps back, `f`
/// flips and space has the engine move (`analyse` stays ticked); after
/// choosing 4 lines Left steps back and the lines stay 4; only a text
/// being edited (the limit's field) keeps its keys, and a click on the
/// board gives them back to the game.
#[test]
#[ignore = "long check"]
fn long_the_keys_act_on_the_game_whatever_control_was_used_in_chromium() {
    let Some((server, browser, _dir)) = page("browser-keys", ONE_THREAD) else {
        return;
    };
    browser.goto(&format!("{}?game=apart", server.url()));
    settled(&browser);
    browser.run("$('limit-kind').value = 'depth'; $('limit').value = '1'; return 0");
    browser.click("#analyse");
    play_first(&browser, 0);
    settled(&browser);
    let current = || browser.run("return S.current").as_u64().unwrap();
    assert_eq!(current(), 1);
    browser.keys(&[LEFT]);
    browser.wait("return S.current === 0", 10, "Left steps back");
    browser.keys(&[END]);
    browser.wait("return S.current === 1", 10, "End goes to the end");
    browser.keys(&["f"]);
    browser.wait(
        "return document.getElementById('board').classList.contains('flipped')",
        10,
        "f flips",
    );
    browser.keys(&[" "]);
    browser.wait(
        "return S.nodes.length === 3 && S.current === 2",
        20,
        "space: the engine's move",
    );
    assert_eq!(
        browser.run("return $('analyse').checked"),
        json!(true),
        "space unticked analyse"
    );
    // Four lines chosen in the menu; Left then steps back.
    browser.click("#multipv option:nth-child(4)");
    browser.wait("return $('multipv').value === '4'", 10, "four lines");
    settled(&browser);
    browser.keys(&[LEFT]);
    browser.wait("return S.current === 1", 10, "Left after the lines' menu");
    assert_eq!(
        browser.run("return $('multipv').value"),
        json!("4"),
        "Left changed the lines"
    );
    // The limit's field is being edited: Up is its own.
    browser.click("#limit");
    browser.keys(&[UP]);
    assert_eq!(
        browser.run("return [$('limit').value, S.current]"),
        json!(["2", 1])
    );
    // A click on the board gives the keys back to the game.
    settled(&browser);
    browser.click_square(
        browser
            .run("return S.view.moves.find((m) => m.squares.length).squares[0]")
            .as_str()
            .unwrap(),
    );
    assert_eq!(
        browser.run("return document.activeElement === $('board')"),
        json!(true)
    );
    browser.run("hideChooser(); S.selection = []; drawChoices(); return 0");
    browser.keys(&[LEFT]);
    browser.wait(
        "return S.current === 0",
        10,
        "Left after a click on the board",
    );
}

/// Nothing in the right column moves while a game is played, analysed
/// and scored on one search thread (the analysis' line saying it is
/// paused for the scoring, the lines filling, the move list growing):
/// every block's place on the page stays the same.
#[test]
#[ignore = "long check"]
fn long_the_right_column_never_moves_in_chromium() {
    let Some((server, browser, _dir)) = page("browser-still", ONE_THREAD) else {
        return;
    };
    browser.goto(&format!("{}?game=apart", server.url()));
    settled(&browser);
    browser.click("#analyse");
    browser.run(
        "window.__tops = []; \
         const ids = ['bar', 'lines', 'play', 'moves', 'score-game', 'graph', 'accuracy', 'io']; \
         const at = () => ids.map((id) => Math.round($(id).getBoundingClientRect().top + scrollY)); \
         window.__first = at(); \
         window.__rec = setInterval(() => { const t = at(); \
           if (t.some((y, i) => y !== __first[i])) __tops.push([document.getElementById('info').textContent, t]); }, 20); \
         return __first",
    );
    let mut paused = false;
    for k in 0..12 {
        play_first(&browser, k % 3);
        settled(&browser);
        let start = Instant::now();
        while start.elapsed() < Duration::from_millis(700) {
            let info = browser.run("return $('info').textContent + $('graph-info').textContent");
            paused |= info.as_str().unwrap().contains("paused");
            std::thread::sleep(Duration::from_millis(50));
        }
    }
    browser.click("#score-game");
    browser.wait(
        "return $('graph-info').textContent === 'scored'",
        60,
        "the scored game",
    );
    let moved = browser.run("clearInterval(__rec); return [__first, __tops.slice(0, 5)]");
    assert_eq!(moved[1], json!([]), "the column moved (from {})", moved[0]);
    assert!(paused, "no pause was shown: the check did not check it");
}

/// The graph draws a ply not scored yet as a gap, not as the second
/// side's, and the accuracy counts only `score the game`'s scores (as the
/// labels do): none after the background's 60 ms scores, each side's
/// once the game is scored.
#[test]
#[ignore = "long check"]
fn long_the_graph_leaves_gaps_and_accuracy_counts_refined_scores_in_chromium() {
    let Some((server, browser, _dir)) = page("browser-graph", ONE_THREAD) else {
        return;
    };
    browser.goto(&format!("{}?game=apart", server.url()));
    settled(&browser);
    for k in 0..4 {
        play_first(&browser, k);
    }
    browser.wait(
        "return $('graph-info').textContent.startsWith('scored at 60 ms') && S.nodes.every((n) => n.score !== null)",
        60,
        "the background's scores",
    );
    let accuracy = "return [...document.querySelectorAll('#accuracy .side-accuracy')].map((s) => s.dataset.accuracy || null)";
    assert_eq!(
        browser.run(accuracy),
        json!([null, null]),
        "the accuracy counts the background's scores"
    );
    browser.click("#score-game");
    browser.wait(
        "return $('graph-info').textContent === 'scored'",
        60,
        "the scored game",
    );
    let shown = browser.run(accuracy);
    assert!(
        shown.as_array().unwrap().iter().all(|a| a.is_string()),
        "{shown}"
    );
    // Two more moves, not scored.
    browser.click("#auto-score");
    play_first(&browser, 0);
    play_first(&browser, 0);
    settled(&browser);
    let fills = browser.run(
        "$('graph-svg').scrollIntoView({block: 'center'}); \
         const svg = $('graph-svg'), r = svg.getBoundingClientRect(), n = gameThrough(S.current).length; \
         const at = (i, p) => { const x = 34 + (600 - 34 - 18) * i / (n - 1), y = 8 + (140 - 18 - 8) * (1 - p); \
           const e = document.elementFromPoint(r.left + r.width * x / 600, r.top + r.height * y / 140); \
           return e ? (e.getAttribute('fill') || e.tagName) : null; }; \
         return [n, at(1.5, 0.97), at(n - 1.5, 0.03)]",
    );
    assert_eq!(fills[0], json!(7), "{fills}");
    assert_ne!(
        fills[1], fills[2],
        "an unscored ply is drawn as the second side's: {fills}"
    );
}

/// A session that opens every game, plays a few moves in each (on the
/// board and by the engine), analyses, opens the records' panel on a
/// server without a records folder and opens a record file leaves the
/// browser's console empty of warnings and errors (no missing icon, no
/// refused request of the page's own); an illegal move is numbered one
/// way.
#[test]
#[ignore = "long check"]
fn long_a_session_leaves_the_console_clean_in_chromium() {
    let Some((server, browser, dir)) = page("browser-console", ONE_THREAD) else {
        return;
    };
    let games = get(&server.addr, "/api/games").json();
    for g in games.as_array().unwrap() {
        let game = g["id"].as_str().unwrap();
        browser.goto(&format!("{}?game={game}", server.url()));
        settled(&browser);
        browser.run("$('limit-kind').value = 'depth'; $('limit').value = '1'; return 0");
        browser.click("#analyse");
        if browser.run("return S.view.node !== 'simultaneous'") == json!(true) {
            play_first(&browser, 0);
        }
        for _ in 0..3 {
            settled(&browser);
            let before = browser.run("return S.nodes.length");
            if browser.run("return S.view.node === 'terminal'") == json!(true) {
                break;
            }
            browser.click("#engine-move");
            browser.wait(
                &format!("return S.nodes.length !== {before} || S.pending.length > 0"),
                30,
                "the engine's move",
            );
        }
        browser.click("#analyse");
    }
    // The records' panel, and a record file opened.
    let (first, _) = first_move_squares(&server, "apart", "");
    let record = crate::serve::exported(&server.addr, "apart", &first);
    let file = dir.join("one.jsonl");
    std::fs::write(&file, format!("{record}\n")).unwrap();
    browser.goto(&format!("{}?game=apart", server.url()));
    settled(&browser);
    browser.click("#io summary");
    browser.wait(
        "return $('records').textContent.length > 0",
        10,
        "the records' list",
    );
    let input = browser.element("#record-file");
    browser.call(
        "POST",
        &format!("/element/{input}/value"),
        json!({"text": file.to_str().unwrap()}),
    );
    browser.wait(
        "return S.nodes.length === 2 && S.shown === S.token",
        20,
        "the record",
    );
    std::thread::sleep(Duration::from_millis(1500));
    let noise: Vec<_> = browser
        .console()
        .into_iter()
        .filter(|(level, _)| level == "WARNING" || level == "SEVERE")
        .collect();
    assert!(noise.is_empty(), "the console: {noise:?}");
    // One numbering: the second move of a line is move 2.
    let a = get(
        &server.addr,
        &format!(
            "/api/position?game=apart&moves={}%3Bzz",
            crate::serve::enc(&first)
        ),
    );
    let msg = a.json()["error"].as_str().unwrap().to_string();
    assert!(
        msg.starts_with("move 2 'zz'") && !msg.contains("ply"),
        "{msg}"
    );
}

/// The page's colour cues are the pictures': no swatch where the sides
/// own no colour (Aporia), Empedocles' swatches its players' elements (the
/// pairing's legend in the picture), Spokes' bar in its sides' colours
/// (the server's `side_colours`), and the bar's text on a ground of its
/// own.
#[test]
#[ignore = "long check"]
fn long_the_colour_cues_are_the_pictures_in_chromium() {
    let Some((server, browser, _dir)) = page("browser-colours", ONE_THREAD) else {
        return;
    };
    let norm = "const norm = (c) => { const d = document.createElement('div'); d.style.color = c; \
                document.body.append(d); const r = getComputedStyle(d).color; d.remove(); return r; };";
    browser.goto(&format!("{}?game=aporia", server.url()));
    settled(&browser);
    assert_eq!(
        browser.run("return document.querySelectorAll('.swatch').length"),
        json!(0),
        "aporia's players own no colour"
    );
    browser.goto(&format!("{}?game=empedocles", server.url()));
    settled(&browser);
    let colours = browser.run(&format!(
        "{norm} return [[...document.querySelectorAll('#board svg circle.legend')].map((c) => norm(c.getAttribute('fill'))), \
         [...document.querySelectorAll('#accuracy .swatch')].map((s) => getComputedStyle(s).backgroundColor)]"
    ));
    assert_eq!(colours[0].as_array().unwrap().len(), 2, "{colours}");
    assert_eq!(colours[0], colours[1], "empedocles' swatches");
    browser.goto(&format!("{}?game=spokes", server.url()));
    settled(&browser);
    browser.click("#analyse");
    browser.wait(
        "return !$('bar').classList.contains('empty')",
        60,
        "the bar",
    );
    let bar = browser.run(&format!(
        "{norm} const c = S.view.side_colours.map(norm); \
         return [c, [getComputedStyle($('bar-fill')).backgroundColor, getComputedStyle($('bar')).backgroundColor], \
                 getComputedStyle($('bar-text')).backgroundColor]"
    ));
    assert_eq!(bar[0], bar[1], "spokes' bar: {bar}");
    let ground = bar[2].as_str().unwrap();
    assert!(
        ground.starts_with("rgb(255, 255, 255") || ground.starts_with("rgba(255, 255, 255, 0.8"),
        "the bar's text has no ground of its own: {bar}"
    );
}

/// Sets the page's viewport to `width`×`height` CSS pixels (`mobile`: as
/// a phone does, with touch).
fn viewport(browser: &Browser, width: u32, height: u32, mobile: bool) {
    browser.call(
        "POST",
        "/goog/cdp/execute",
        json!({"cmd": "Emulation.setDeviceMetricsOverride", "params": {
            "width": width, "height": height, "deviceScaleFactor": 1, "mobile": mobile}}),
    );
    browser.call(
        "POST",
        "/goog/cdp/execute",
        json!({"cmd": "Emulation.setTouchEmulationEnabled", "params": {"enabled": mobile}}),
    );
}

/// The moves of a random line of `game` (from `seed`) to its first
/// position with a choice of moves not made on the board (a die roll, a
/// resolution's outcomes), if it reaches one within 300 plies.
fn line_to_buttons(server: &Server, game: &str, seed: u64) -> Option<Vec<String>> {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut moves: Vec<String> = Vec::new();
    for _ in 0..300 {
        let v = get(
            &server.addr,
            &format!(
                "/api/position?game={game}&moves={}",
                crate::serve::enc(&moves.join(";"))
            ),
        )
        .json();
        let off_board = v["moves"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|m| m["squares"].as_array().unwrap().is_empty())
            .count()
            > 1;
        match v["node"].as_str().unwrap() {
            "terminal" => return None,
            "chance" => return Some(moves),
            "decision"
                if off_board
                    || (v["outcome_count"].as_u64().unwrap() > 0
                        && v["moves"].as_array().unwrap().is_empty()) =>
            {
                return Some(moves)
            }
            _ => {}
        }
        moves.push(crate::serve::random_step(
            &server.addr,
            game,
            &moves,
            &v,
            &mut rng,
        ));
    }
    None
}

/// Where the board, the buttons under or beside it and the move
/// navigation are on the page shown: each one's box outside the viewport
/// (or the page scrolled) is a problem; an outcome list that scrolls in
/// its own box counts by that box.
const FITS: &str = r#"
const vw = innerWidth, vh = innerHeight, bad = [];
const inside = (el, what) => {
  const r = el.getBoundingClientRect();
  if (r.left < -0.5 || r.top < -0.5 || r.right > vw + 0.5 || r.bottom > vh + 0.5 || r.width < 1 || r.height < 1)
    bad.push(`${what} at ${Math.round(r.left)},${Math.round(r.top)} to ${Math.round(r.right)},${Math.round(r.bottom)}`);
};
if (scrollX || scrollY || document.documentElement.scrollWidth > vw) bad.push('the page scrolls sideways or is scrolled');
inside(document.querySelector('#board svg'), 'the board');
document.querySelectorAll('#nav button').forEach((b) => inside(b, '#' + b.id));
const list = $('outcome-list');
if (list) {
  inside(list, 'the outcome list');
  if (list.getBoundingClientRect().height < 20) bad.push('the outcome list has no room');
}
const buttons = [...document.querySelectorAll('#choices button')];
buttons.forEach((b) => { if (!list || !list.contains(b)) inside(b, 'the button ' + b.textContent); });
const board = $('board').getBoundingClientRect(), nav = $('nav').getBoundingClientRect();
return { bad, buttons: buttons.length, board: [board.left, board.top, board.right, board.bottom], nav: [nav.left, nav.top] };
"#;

/// At 1280×800, 1920×1080 and 390×844 (a phone), for every game id, at
/// its start and at a position with buttons (Empedocles' die, a Spokes
/// resolution's outcomes), the board, those buttons and the move
/// navigation are inside the viewport without scrolling; the board fills
/// the height of a wide window (not a fixed 560 px) with the controls
/// beside it, and on the phone they are under it.
#[test]
#[ignore = "long check"]
fn long_the_board_and_its_controls_fit_the_window_in_chromium() {
    let Some((server, browser, _dir)) = page("browser-fit", ONE_THREAD) else {
        return;
    };
    let games = get(&server.addr, "/api/games").json();
    // Each game's start, and a position with buttons where a line of the
    // first ten reaches one; the README's resolution of 85,052 outcomes.
    let mut pages = Vec::new();
    for g in games.as_array().unwrap() {
        let game = g["id"].as_str().unwrap().to_string();
        pages.push((game.clone(), String::new(), String::new()));
        if let Some(moves) = (0..10).find_map(|seed| line_to_buttons(&server, &game, seed)) {
            pages.push((game, String::new(), moves.join(";")));
        }
    }
    pages.push((
        "spokes4".into(),
        "1/1X2/w1w1w1w1/2w3w9/16 3".into(),
        "wA,wA,wA,wA".into(),
    ));
    let mut problems = Vec::new();
    let mut with_buttons = 0;
    for (width, height, mobile) in [(1280, 800, false), (1920, 1080, false), (390, 844, true)] {
        viewport(&browser, width, height, mobile);
        for (game, fen, moves) in &pages {
            let mut url = format!("{}?game={game}", server.url());
            if !fen.is_empty() {
                url.push_str(&format!("&fen={}", crate::serve::enc(fen)));
            }
            if !moves.is_empty() {
                url.push_str(&format!("&moves={}", crate::serve::enc(moves)));
            }
            browser.goto(&url);
            settled(&browser);
            browser.wait(
                "return outcomesReady() && document.fonts.status === 'loaded'",
                60,
                "the outcomes",
            );
            std::thread::sleep(Duration::from_millis(300));
            let at = browser.run(FITS);
            let what = format!(
                "{width}×{height} {game} after {} move(s)",
                moves.split(';').filter(|m| !m.is_empty()).count()
            );
            for b in at["bad"].as_array().unwrap() {
                problems.push(format!("{what}: {}", b.as_str().unwrap()));
            }
            if at["buttons"].as_u64().unwrap() > 0 {
                with_buttons += 1;
            }
            let f = |v: &Value, i: usize| v.as_array().unwrap()[i].as_f64().unwrap();
            let (board, nav) = (&at["board"], &at["nav"]);
            if width > 700 {
                if f(nav, 0) < f(board, 2) - 1.0 {
                    problems.push(format!("{what}: the navigation is not beside the board"));
                }
                let side = (f(board, 2) - f(board, 0)).max(f(board, 3) - f(board, 1));
                if height == 1080 && side < 800.0 {
                    problems.push(format!(
                        "{what}: the board is {side:.0} px in a window 1080 px high"
                    ));
                }
            } else if f(nav, 1) < f(board, 3) - 1.0 {
                problems.push(format!("{what}: the navigation is not under the board"));
            }
        }
    }
    assert!(
        problems.is_empty(),
        "{} problems:\n{}",
        problems.len(),
        problems.join("\n")
    );
    // Empedocles' die and the three Spokes' resolutions, and the
    // README's, at each size.
    assert!(
        with_buttons >= 15,
        "only {with_buttons} pages with buttons were measured"
    );
}

/// A Spokes outcome has one name on the page, the short form `gamut moves
/// --short` prints: in every variant, at a resolution of a few outcomes,
/// the outcome buttons, the analysis' lines (no canonical text, which
/// holds a `/`, in them) and the engine's outcome in the move list; and a
/// line loaded through a resolution too large to come with its position
/// (the README's 85,052 outcomes) names the outcome played so too.
#[test]
#[ignore = "long check"]
fn long_a_spokes_outcome_has_one_name_everywhere_in_chromium() {
    let Some((server, browser, _dir)) = page("browser-names", ONE_THREAD) else {
        return;
    };
    for game in ["spokes", "spokes4", "spokes2v2"] {
        let line = (0..40)
            .filter_map(|seed| line_to_buttons(&server, game, seed))
            .map(|moves| moves.join(";"))
            .find(|line| {
                let v = get(
                    &server.addr,
                    &format!(
                        "/api/position?game={game}&moves={}",
                        crate::serve::enc(line)
                    ),
                )
                .json();
                (3..=60).contains(&v["moves"].as_array().unwrap().len())
            })
            .expect("a resolution of a few outcomes");
        let listed = |short: bool| -> Vec<String> {
            let mut args = vec!["moves", game, "--moves", &line, "--quiet"];
            if short {
                args.push("--short");
            }
            let mut v: Vec<String> = crate::common::ok(&args).lines().map(String::from).collect();
            v.sort();
            v
        };
        let short = listed(true);
        browser.goto(&format!(
            "{}?game={game}&moves={}",
            server.url(),
            crate::serve::enc(&line)
        ));
        settled(&browser);
        browser.run("$('limit-kind').value = 'depth'; $('limit').value = '1'; return 0");
        let mut buttons: Vec<String> = serde_json::from_value(browser.run(
            "return [...document.querySelectorAll('#choices .outcome')].map((b) => b.textContent)",
        ))
        .unwrap();
        buttons.sort();
        assert_eq!(buttons, short, "{game}: the outcome buttons");
        browser.click("#analyse");
        browser.wait(
            "return document.querySelectorAll('#lines li').length > 0",
            60,
            "the analysis' lines",
        );
        let lines: Vec<String> =
            serde_json::from_value(browser.run(
                "return [...document.querySelectorAll('#lines li')].map((l) => l.textContent)",
            ))
            .unwrap();
        browser.click("#analyse");
        for l in &lines {
            assert!(
                !l.contains('/') && short.iter().any(|s| l.split(' ').any(|w| w == s)),
                "{game}: the line '{l}' names no outcome as {short:?}"
            );
        }
        let before = browser.run("return S.nodes.length");
        browser.click("#engine-move");
        browser.wait(
            &format!("return S.nodes.length === {before} + 1 && S.shown === S.token"),
            60,
            "the engine's outcome",
        );
        let played =
            browser.run("return document.querySelector('#moves .move.current').textContent");
        assert!(
            short.iter().any(|s| json!(s) == played),
            "{game}: the move list says {played}, not one of {short:?}"
        );
    }
    // A line through a resolution of 85,052 outcomes, loaded.
    let fen = "1/1X2/w1w1w1w1/2w3w9/16 3";
    let page = get(
        &server.addr,
        &format!(
            "/api/outcomes?game=spokes4&fen={}&moves={}&from=0",
            crate::serve::enc(fen),
            crate::serve::enc("wA,wA,wA,wA")
        ),
    )
    .json();
    let outcome = &page["moves"][5];
    let (text, short) = (outcome["text"].as_str().unwrap(), &outcome["short"]);
    assert!(short.is_string(), "{outcome}");
    browser.goto(&format!(
        "{}?game=spokes4&fen={}&moves={}",
        server.url(),
        crate::serve::enc(fen),
        crate::serve::enc(&format!("wA,wA,wA,wA;{text}"))
    ));
    settled(&browser);
    browser.wait(
        &format!("return document.querySelector('#moves .move.current').textContent === {short}"),
        60,
        "the loaded outcome named by its short form",
    );
}

/// An Epaminondas phalanx is entered from any of its stones, not only its
/// rear one: `a2` then `a4` plays `a1-a4`, `b2` then `d4` plays `a1-d4`;
/// and the dots marking where a move can go are large (at least a third
/// of a square across).
#[test]
#[ignore = "long check"]
fn long_a_phalanx_is_entered_from_any_of_its_stones_in_chromium() {
    let Some((server, browser, _dir)) = page("browser-phalanx", ONE_THREAD) else {
        return;
    };
    for (clicks, want) in [(["a2", "a4"], "a1-a4"), (["b2", "d4"], "a1-d4")] {
        browser.goto(&format!("{}?game=epaminondas", server.url()));
        settled(&browser);
        browser.click_square(clicks[0]);
        let dots = browser.run(
            "const w = squareRect('c5').width; \
             return [...document.querySelectorAll('#board .mark.target')].map((d) => d.getBoundingClientRect().width / w)",
        );
        let dots = dots.as_array().unwrap();
        assert!(!dots.is_empty(), "no target after {}", clicks[0]);
        for d in dots {
            assert!(
                d.as_f64().unwrap() >= 0.35,
                "a target dot {d} of a square across"
            );
        }
        browser.click_square(clicks[1]);
        browser.wait(
            "return S.nodes.length === 2 && S.shown === S.token",
            10,
            &format!("{} then {} plays {want}", clicks[0], clicks[1]),
        );
        assert_eq!(browser.run("return S.nodes[1].move"), json!(want));
    }
}

/// The address keeps the whole tree and the export the main line: after
/// a variation, the copied address opens the main line and the
/// variation (with the move shown and the analysis on, as it was), and
/// the exported record (which `gamut replay` reads) holds the main line,
/// not the variation shown, the variation's line written after it.
#[test]
#[ignore = "long check"]
fn long_the_address_and_the_export_keep_the_whole_tree_in_chromium() {
    let Some((server, browser, dir)) = page("browser-tree", ONE_THREAD) else {
        return;
    };
    let profile = dir.join("profile");
    browser.goto(&format!("{}?game=apart", server.url()));
    settled(&browser);
    for _ in 0..3 {
        play_first(&browser, 0);
    }
    settled(&browser);
    let main = browser.run("return lineTo(S.current).join('; ')");
    let main_end = browser.run("return S.view.text");
    browser.click("#back");
    browser.click("#back");
    browser.wait(
        "return S.current === 1 && S.shown === S.token",
        10,
        "two steps back",
    );
    play_first(&browser, 1);
    settled(&browser);
    browser.click("#analyse");
    let tree = "return [S.nodes.length, S.nodes.map((n) => n.children.length).join(','), lineTo(S.current).join(';')]";
    let before = browser.run(tree);
    assert_eq!(before[0], json!(5), "{before}");
    let variation = browser.run("return lineTo(S.current).join('; ')");
    let url = browser.run("return location.href");
    browser.goto(url.as_str().unwrap());
    settled(&browser);
    assert_eq!(browser.run(tree), before, "the address opened another tree");
    assert_eq!(
        browser.run("return $('analyse').checked"),
        json!(true),
        "the address dropped the analysis"
    );
    // Exported: the main line, then the variation's command.
    let downloads = profile.join("downloads");
    browser.click("#io summary");
    browser.click("#export");
    let file = downloads.join("apart-game.jsonl");
    let start = Instant::now();
    while !file.exists() {
        assert!(start.elapsed() < Duration::from_secs(20), "no download");
        std::thread::sleep(Duration::from_millis(100));
    }
    std::thread::sleep(Duration::from_millis(300));
    let record = std::fs::read_to_string(&file).unwrap();
    let out = crate::common::ok(&["replay", file.to_str().unwrap(), "--game", "1"]);
    let last = out
        .lines()
        .filter_map(|l| l.strip_prefix("position "))
        .next_back()
        .unwrap();
    assert_eq!(main_end, json!(last), "the record is not the main line");
    assert_eq!(browser.run("return S.record"), json!(record));
    let shown = browser.run("return $('export-text').textContent");
    let shown = shown.as_str().unwrap();
    for line in [&main, &variation] {
        assert!(
            shown.contains(&format!("--moves \"{}\"", line.as_str().unwrap())),
            "the export says nothing of {line}: {shown}"
        );
    }
}

/// Flip turns the board round, not what is written around it: the file
/// and rank names stay below and beside the board (each beside its file
/// or rank, now where it went), Empedocles' legend stays under the board
/// and Spokes' node names go round with their nodes.
#[test]
#[ignore = "long check"]
fn long_flip_turns_the_board_not_its_labels_in_chromium() {
    let Some((server, browser, _dir)) = page("browser-flip", ONE_THREAD) else {
        return;
    };
    // Each writing's side of the squares' extent, where file `a` and rank
    // `1` are against square a1, and where the legend is.
    let sides = r#"
      const hits = [...document.querySelectorAll('#board .hit')];
      const names = new Set(hits.map((h) => h.getAttribute('data-square')));
      const rs = hits.map((h) => h.getBoundingClientRect());
      const L = Math.min(...rs.map((r) => r.left)), R = Math.max(...rs.map((r) => r.right));
      const T = Math.min(...rs.map((r) => r.top)), B = Math.max(...rs.map((r) => r.bottom));
      const mid = (r) => [(r.left + r.right) / 2, (r.top + r.bottom) / 2];
      const side = (r) => { const [x, y] = mid(r); return x < L ? 'left' : x > R ? 'right' : y < T ? 'top' : y > B ? 'bottom' : 'in'; };
      const labels = [...document.querySelectorAll('#board svg text.coordinate')]
        .filter((t) => !names.has(t.textContent.trim()))
        .map((t) => t.textContent.trim() + ' ' + side(t.getBoundingClientRect()));
      const a1 = squareRect('a1');
      const label = (name) => [...document.querySelectorAll('#board svg text.coordinate')].find((t) => t.textContent.trim() === name);
      const along = a1 && label('a') && label('1')
        ? Math.abs(mid(label('a').getBoundingClientRect())[0] - mid(a1)[0]) < a1.width / 2 &&
          Math.abs(mid(label('1').getBoundingClientRect())[1] - mid(a1)[1]) < a1.height / 2
        : null;
      const legend = [...document.querySelectorAll('#board svg .legend')].map((l) => side(l.getBoundingClientRect()));
      const node = names.has('H1') ? side(label('H1').getBoundingClientRect()) + ' ' + (mid(label('H1').getBoundingClientRect())[1] < (T + B) / 2) : null;
      return { labels, along, legend, a1: a1 ? mid(a1)[0] < (L + R) / 2 : null, node };
    "#;
    for game in ["apart", "empedocles", "spokes"] {
        browser.goto(&format!("{}?game={game}", server.url()));
        settled(&browser);
        let before = browser.run(sides);
        browser.click("#flip");
        settled(&browser);
        let after = browser.run(sides);
        assert_eq!(after["labels"], before["labels"], "{game}: the names moved");
        assert_eq!(
            after["legend"], before["legend"],
            "{game}: the legend moved"
        );
        if game != "spokes" {
            assert_eq!(before["along"], json!(true), "{game}: {before}");
            assert_eq!(
                after["along"],
                json!(true),
                "{game}: the names left their rows"
            );
            assert_ne!(after["a1"], before["a1"], "{game}: the board did not turn");
        } else {
            assert_ne!(after["node"], before["node"], "spokes: H1's name stayed");
        }
    }
}

/// A wait longer than half a second says so: the README's resolution of
/// 85,052 outcomes, opened on a fresh server (its position comes only
/// once they are listed), shows a progress text (`…`) from 1 s on until
/// the outcomes are in, and its analysis on one thread says for how long
/// it has searched before its first depth ends.
#[test]
#[ignore = "long check"]
fn long_a_long_wait_shows_its_progress_in_chromium() {
    let Some((server, browser, _dir)) = page("browser-progress", ONE_THREAD) else {
        return;
    };
    browser.goto(&format!("{}?game=apart", server.url()));
    settled(&browser);
    browser.goto(&format!(
        "{}?game=spokes4&fen={}&moves={}",
        server.url(),
        crate::serve::enc("1/1X2/w1w1w1w1/2w3w9/16 3"),
        crate::serve::enc("wA,wA,wA,wA")
    ));
    let start = Instant::now();
    let mut silent = Vec::new();
    let mut waited = Duration::ZERO;
    loop {
        let at = browser.run(
            "return typeof S === 'undefined' ? [false, ''] : \
             [!!S.view && S.shown === S.token && outcomesReady(), $('state').textContent + ' ' + $('choices').textContent]",
        );
        if at[0] == json!(true) {
            break;
        }
        waited = start.elapsed();
        assert!(waited < Duration::from_secs(60), "the outcomes never came");
        if waited > Duration::from_millis(1000) && !at[1].as_str().unwrap().contains('…') {
            silent.push(format!(
                "{} ms: '{}'",
                waited.as_millis(),
                at[1].as_str().unwrap()
            ));
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    assert!(
        waited > Duration::from_millis(1500),
        "the wait took {waited:?}: the check did not check it"
    );
    assert!(
        silent.is_empty(),
        "no sign of the wait: {:?}",
        &silent[..silent.len().min(5)]
    );
    browser.click("#analyse");
    browser.wait(
        "return /searching on 1 thread\\(s\\), [1-9][0-9]* s so far/.test($('info').textContent) || S.shownDepth > 0",
        20,
        "the seconds searched",
    );
    assert_eq!(
        browser.run("return S.shownDepth"),
        json!(0),
        "a depth finished first: the check did not check it"
    );
}

/// The bar says in its tooltip what it shows: whose chance of winning,
/// the unit of the score it is read from and what 50% means.
#[test]
#[ignore = "long check"]
fn long_the_bar_explains_its_reading_in_chromium() {
    let Some((server, browser, _dir)) = page("browser-bar", ONE_THREAD) else {
        return;
    };
    for game in ["apart", "spokes4"] {
        browser.goto(&format!("{}?game={game}", server.url()));
        settled(&browser);
        browser.click("#analyse");
        browser.wait(
            "return !$('bar').classList.contains('empty')",
            60,
            "the bar",
        );
        let said = browser.run("return [$('bar').title, S.view.unit || '', String(S.view.scale)]");
        let title = said[0].as_str().unwrap();
        for part in [
            "chance of winning",
            "50%",
            said[1].as_str().unwrap(),
            said[2].as_str().unwrap(),
        ] {
            assert!(
                title.contains(part),
                "{game}: the bar's tooltip '{title}' says nothing of '{part}'"
            );
        }
        browser.click("#analyse");
    }
}

/// On a phone (390×844) the board's names are at least 10 px high on the
/// page (Spokes' node names were about 5), and the chooser of a node's
/// colours opens beside the node, level with it, not over it.
#[test]
#[ignore = "long check"]
fn long_a_phone_reads_the_names_and_the_chooser_sits_beside_its_node_in_chromium() {
    let Some((server, browser, _dir)) = page("browser-phone", ONE_THREAD) else {
        return;
    };
    viewport(&browser, 390, 844, false);
    for game in ["spokes", "spokes4", "epaminondas", "apart"] {
        browser.goto(&format!("{}?game={game}", server.url()));
        settled(&browser);
        let smallest = browser.run(
            "const svg = document.querySelector('#board svg'), m = svg.getScreenCTM(), s = Math.hypot(m.a, m.b); \
             return Math.min(...[...svg.querySelectorAll('text.coordinate')].map((t) => parseFloat(getComputedStyle(t).fontSize) * s))",
        );
        assert!(
            smallest.as_f64().unwrap() >= 9.9,
            "{game}: a name {smallest} px high on a phone"
        );
    }
    browser.goto(&format!("{}?game=spokes", server.url()));
    settled(&browser);
    let (text, squares) = first_move_squares(&server, "spokes", "");
    browser.click_square(&squares[0]);
    browser.wait(
        &format!("return !!document.querySelector('#chooser button[data-move=\"{text}\"]')"),
        10,
        "the chooser",
    );
    let at = browser.run(&format!(
        "const c = $('chooser').getBoundingClientRect(); \
         const n = document.querySelector('#board svg .square[data-square=\"{}\"]').getBoundingClientRect(); \
         const cy = (n.top + n.bottom) / 2; \
         return [c.left >= n.right || c.right <= n.left, c.top <= cy && cy <= c.bottom]",
        squares[0]
    ));
    assert_eq!(
        at,
        json!([true, true]),
        "the chooser is not beside its node, level with it"
    );
}

/// Empedocles' die: each outcome is named as the rules name it
/// (`transmutation, then one action (1–2)`, not `T (33.3%)`) with a
/// tooltip saying what it does; after a transmutation the page says
/// which pieces died (the fire on d5, with five neighbours), after
/// another roll what it gives; and where an action may be a placement,
/// the squares a piece may be placed on are marked before any click.
#[test]
#[ignore = "long check"]
fn long_empedocles_die_is_named_and_what_it_did_is_said_in_chromium() {
    let Some((server, browser, _dir)) = page("browser-die", ONE_THREAD) else {
        return;
    };
    let fen = "8/8/3ee3/3Fe3/3FF3/8/8/8 1 r:fire,earth";
    browser.goto(&format!(
        "{}?game=empedocles&fen={}",
        server.url(),
        crate::serve::enc(fen)
    ));
    settled(&browser);
    let buttons = browser.run(
        "return [...document.querySelectorAll('#choices button[data-move]')].map((b) => [b.dataset.move, b.textContent, b.title])",
    );
    for (text, name, does) in [
        (
            "T",
            "transmutation, then one action (1–2), 33.3%",
            "neighbour count",
        ),
        ("N", "one action (3–5), 50.0%", "3, 4 or 5"),
        (
            "D",
            "two actions (6), 16.7%",
            "two actions, one after the other",
        ),
    ] {
        let b = buttons
            .as_array()
            .unwrap()
            .iter()
            .find(|b| b[0] == json!(text))
            .unwrap_or_else(|| panic!("no button for {text}: {buttons}"));
        assert_eq!(b[1], json!(name), "{buttons}");
        assert!(
            b[2].as_str().unwrap().contains(does),
            "{text}'s tooltip says nothing of '{does}': {buttons}"
        );
    }
    for (roll, said) in [
        ("T", "1 piece died, fire on d5"),
        ("N", "rolled one action (3–5)"),
    ] {
        browser.click(&format!("#choices button[data-move=\"{roll}\"]"));
        browser.wait(
            "return S.nodes.length >= 2 && S.current !== 0 && S.shown === S.token",
            20,
            "the roll",
        );
        let shown = browser.run("return $('choices').textContent");
        assert!(
            shown.as_str().unwrap().contains(said),
            "after {roll} the page says: {shown}"
        );
        // The placements of the action now to play, marked before any
        // click: exactly the squares of the moves made on one square.
        let v = get(
            &server.addr,
            &format!(
                "/api/position?game=empedocles&fen={}&moves={roll}",
                crate::serve::enc(fen)
            ),
        )
        .json();
        let mut want: Vec<String> = v["moves"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|m| m["squares"].as_array().unwrap().len() == 1)
            .map(|m| m["squares"][0].as_str().unwrap().to_string())
            .collect();
        want.sort();
        assert!(!want.is_empty(), "{roll}: no placement to mark");
        let marked = browser.run(
            "return [...document.querySelectorAll('#board .mark.placement')].map((m) => m.dataset.square).sort()",
        );
        assert_eq!(marked, json!(want), "after {roll}");
        browser.click("#back");
        settled(&browser);
    }
}

/// The analysis' mixed strategy of the player choosing next, as
/// `[action, weight]` pairs sorted (weights of at least 0.5%, to four
/// decimals), and the weights written on the board with whether each
/// stands on its node, read at once.
const WEIGHTS: &str = r#"
const d = S.lastIteration, p = S.pending.length;
const list = d.strategies ? d.strategies[p] : (d.sides.find((s) => s.side === S.view.player_sides[p]) || {}).strategy || [];
const want = list.filter((a) => a.probability >= 0.005).map((a) => [a.text, a.probability.toFixed(4)]).sort();
const marks = [...document.querySelectorAll('#board .weights text.weight')];
const got = marks.map((t) => [t.dataset.move, t.dataset.weight]).sort();
const placed = marks.every((t) => {
  const a = choosable().find((x) => x.text === t.dataset.move), r = squareRect(a.squares[0]), b = t.getBoundingClientRect();
  const x = (b.left + b.right) / 2, y = (b.top + b.bottom) / 2;
  return x > r.left && x < r.right && y > r.top && y < r.bottom;
});
return { want, got, placed };
"#;

/// A mixed strategy is drawn on the board: at a Spokes round start the
/// analysis' strategy of the player choosing next is written on the
/// nodes, each placement's weight on its node (`w 40%`), the weights
/// the analysis gives; once player 1 has chosen, player 2's; in
/// `spokes4` player 1's (its side's search).
#[test]
#[ignore = "long check"]
fn long_a_mixed_strategy_is_drawn_on_the_board_in_chromium() {
    let Some((server, browser, _dir)) = page("browser-weights", ONE_THREAD) else {
        return;
    };
    let check = |what: &str| {
        browser.wait(
            "return !!S.lastIteration && (!!S.lastIteration.strategies || !!S.lastIteration.sides)",
            90,
            "a strategy",
        );
        let at = browser.run(WEIGHTS);
        assert!(
            !at["want"].as_array().unwrap().is_empty(),
            "{what}: no strategy"
        );
        assert_eq!(at["got"], at["want"], "{what}: the board's weights");
        assert_eq!(at["placed"], json!(true), "{what}: a weight off its node");
    };
    for game in ["spokes", "spokes4"] {
        browser.goto(&format!("{}?game={game}", server.url()));
        settled(&browser);
        browser.click("#analyse");
        check(&format!("{game}, player 1"));
        if game == "spokes" {
            let (text, squares) = first_move_squares(&server, game, "");
            browser.click_square(&squares[0]);
            let button = format!("#chooser button[data-move=\"{text}\"]");
            browser.wait(
                &format!("return !!document.querySelector('{button}')"),
                10,
                "the chooser",
            );
            browser.click(&button);
            browser.wait("return S.pending.length === 1", 10, "player 1's choice");
            check("spokes, player 2");
        }
        browser.click("#analyse");
    }
}

/// Where the solved table's verdict or the flat-scale note stands, and
/// what it says: its text, whether it is right under the bar (its top
/// within two lines of the bar's bottom, in the bar's column).
const VERDICT: &str = r#"
const b = $('bar').getBoundingClientRect(), t = $('table-verdict').getBoundingClientRect();
return [$('table-verdict').textContent, t.top >= b.bottom - 1 && t.top < b.bottom + 40 && Math.abs(t.left - b.left) < 20];
"#;

/// Aporia's bar says why it stays near 50%: without a solved table, next
/// to the bar, that its search's scale is flat (71,500 a score of 75%);
/// with one (`--table`, where `gamut solve aporia` has written one), the
/// table's verdict (`win in N`, `draw`, `loss in N`) there instead; either
/// stays while the analysis runs. A game without a solver says neither.
#[test]
#[ignore = "long check"]
fn long_aporia_s_bar_says_its_scale_is_flat_or_the_table_s_verdict_in_chromium() {
    let Some((server, browser, _dir)) = page("browser-verdict", ONE_THREAD) else {
        return;
    };
    browser.goto(&format!("{}?game=aporia&moves=b2-a3", server.url()));
    settled(&browser);
    browser.wait(
        "return $('table-verdict').textContent.length > 0",
        10,
        "the note",
    );
    let at = browser.run(VERDICT);
    let said = at[0].as_str().unwrap();
    assert!(
        said.contains("flat") && said.contains("71,500"),
        "the note says: {said}"
    );
    assert_eq!(at[1], json!(true), "the note is not next to the bar");
    // It stays while the analysis runs.
    browser.click("#analyse");
    browser.wait(
        "return /depth [1-9]/.test($('info').textContent)",
        30,
        "the analysis",
    );
    assert_eq!(browser.run(VERDICT), at, "the note went with the analysis");
    browser.click("#analyse");
    browser.goto(&format!("{}?game=apart", server.url()));
    settled(&browser);
    std::thread::sleep(Duration::from_millis(500));
    assert_eq!(browser.run(VERDICT)[0], json!(""), "apart has no solver");
    drop(server);
    let Some(real) = gamut_core::tablebase::default_path("aporia").filter(|p| p.is_file()) else {
        eprintln!("no Aporia table at the default path: the verdict itself is not checked");
        return;
    };
    let server = Server::start(&["--threads", "1", "--table", real.to_str().unwrap()]);
    for moves in ["b2-a3", ""] {
        let value = get(
            &server.addr,
            &format!("/api/table?game=aporia&moves={moves}"),
        )
        .json()["value"]
            .as_str()
            .unwrap()
            .to_string();
        browser.goto(&format!("{}?game=aporia&moves={moves}", server.url()));
        settled(&browser);
        browser.wait(
            "return $('table-verdict').textContent.length > 0",
            10,
            "the verdict",
        );
        let at = browser.run(VERDICT);
        let said = at[0].as_str().unwrap();
        assert!(
            said.starts_with(&format!("solved table: {value} for player")),
            "the verdict says: {said}"
        );
        assert_eq!(at[1], json!(true), "the verdict is not next to the bar");
    }
}

/// Waits up to 20 s for the file `path` (a download) to be written
/// whole, and reads it.
fn downloaded(path: &std::path::Path) -> String {
    let start = Instant::now();
    while !path.exists() {
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "no download {}",
            path.display()
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    std::thread::sleep(Duration::from_millis(300));
    std::fs::read_to_string(path).unwrap()
}

/// The export carries the whole tree: beside the record of the main line
/// (which `gamut replay` reads, as before) a file of the main line and
/// every variation, which `open a record` reads back into the same tree,
/// variations included.
#[test]
#[ignore = "long check"]
fn long_the_exported_tree_opens_again_with_its_variations_in_chromium() {
    let Some((server, browser, dir)) = page("browser-tree-file", ONE_THREAD) else {
        return;
    };
    browser.goto(&format!("{}?game=apart", server.url()));
    settled(&browser);
    for _ in 0..3 {
        play_first(&browser, 0);
    }
    browser.click("#back");
    browser.click("#back");
    browser.wait(
        "return S.current === 1 && S.shown === S.token",
        10,
        "two steps back",
    );
    play_first(&browser, 1);
    play_first(&browser, 0);
    settled(&browser);
    let tree = "return [S.nodes.length, treeItems(0).join(';')]";
    let before = browser.run(tree);
    assert_eq!(before[0], json!(6), "{before}");
    browser.click("#io summary");
    browser.click("#export");
    let downloads = dir.join("profile").join("downloads");
    let record = downloads.join("apart-game.jsonl");
    downloaded(&record);
    crate::common::ok(&["replay", record.to_str().unwrap(), "--game", "1"]);
    browser.wait(
        "return !!$('export-tree')",
        10,
        "the link to the whole tree",
    );
    browser.click("#export-tree");
    let file = downloads.join("apart-tree.json");
    let text = downloaded(&file);
    let v: Value = serde_json::from_str(text.trim()).expect("one JSON object");
    assert_eq!(v["game"], json!("apart"), "{text}");
    // Opened afresh, from the file.
    browser.goto(&format!("{}?game=aporia", server.url()));
    settled(&browser);
    browser.click("#io summary");
    let input = browser.element("#record-file");
    browser.call(
        "POST",
        &format!("/element/{input}/value"),
        json!({"text": file.to_str().unwrap()}),
    );
    browser.wait(
        "return S.game === 'apart' && S.nodes.length === 6 && S.shown === S.token",
        20,
        "the tree opened",
    );
    assert_eq!(browser.run(tree), before, "another tree came back");
    assert_eq!(
        browser.run("return lineTo(S.current).length"),
        json!(3),
        "the main line's end is not shown"
    );
}

/// Every game id, a few moves played and its analysis running, at
/// 1280×800 and on a phone at 390×844: the board, its buttons and the
/// navigation stay in view without scrolling while the analysis fills
/// the column, and each game's own readout is there: Spokes' mixed
/// strategy on the board at a round start, Empedocles' die outcomes
/// named at its first roll, Aporia's note that its search scale is
/// flat. With `GAMUT_SCREENSHOTS` each is pictured,
/// `serve-<game>-1280x800.png` and `serve-<game>-390x844.png`.
#[test]
#[ignore = "long check"]
fn long_every_game_fits_and_shows_its_readouts_while_analysed_in_chromium() {
    let Some((server, browser, _dir)) = page("browser-pictures", ONE_THREAD) else {
        return;
    };
    let games = get(&server.addr, "/api/games").json();
    let mut problems = Vec::new();
    for (width, height, mobile) in [(1280, 800, false), (390, 844, true)] {
        viewport(&browser, width, height, mobile);
        for g in games.as_array().unwrap() {
            let game = g["id"].as_str().unwrap();
            browser.goto(&format!("{}?game={game}", server.url()));
            settled(&browser);
            let plies = match game {
                "empedocles" => 6,
                g if g.starts_with("spokes") => 0,
                _ => 4,
            };
            for k in 0..plies {
                play_first(&browser, k % 3);
            }
            settled(&browser);
            browser.click("#analyse");
            browser.wait(
                "return /depth ([3-9]|[1-9][0-9])/.test($('info').textContent) || \
                 (!!S.lastIteration && !!S.lastIteration.sides && S.lastIteration.sides.length === S.view.sides.length)",
                120,
                "the analysis",
            );
            std::thread::sleep(Duration::from_millis(1000));
            let at = browser.run(FITS);
            for b in at["bad"].as_array().unwrap() {
                problems.push(format!("{width}×{height} {game}: {}", b.as_str().unwrap()));
            }
            let readout = match game {
                g if g.starts_with("spokes") => {
                    "return document.querySelectorAll('#board .weights').length > 0"
                }
                "empedocles" => {
                    "return [...document.querySelectorAll('#choices button[data-move]')].some((b) => b.textContent.startsWith('transmutation'))"
                }
                "aporia" => "return $('table-verdict').textContent.includes('flat')",
                _ => "return true",
            };
            if browser.run(readout) != json!(true) {
                problems.push(format!("{width}×{height} {game}: its readout is missing"));
            }
            browser.save_shot(&format!("serve-{game}-{width}x{height}"), Duration::ZERO);
            browser.click("#analyse");
        }
    }
    assert!(problems.is_empty(), "{problems:#?}");
}
