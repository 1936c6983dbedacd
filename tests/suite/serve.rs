//! `gamut serve` over loopback (127.0.0.1 only): the page and its API for
//! every game, fuzzed bad requests, searches that stop when their page
//! closes, and many pages at once. Requests are written by hand on a TCP
//! stream, so that malformed ones reach the server as they are.

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use serde_json::Value;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Stdio};
use std::time::{Duration, Instant};

/// A `gamut serve` child on a free loopback port, killed when dropped.
pub struct Server {
    child: Child,
    /// `127.0.0.1:<port>`.
    pub addr: String,
    /// Where the server's standard error goes, read when it stops: a
    /// panic there (one request's thread, which the server outlives)
    /// fails the test.
    stderr: std::path::PathBuf,
}

impl Server {
    /// Starts `gamut serve --port 0` with `extra` options and reads the URL
    /// it prints.
    pub fn start(extra: &[&str]) -> Server {
        Server::spawn(
            crate::common::gamut_command()
                .args(["serve", "--port", "0"])
                .args(extra),
        )
    }

    /// Starts `command` (a `gamut serve --port 0` command) and reads the
    /// URL it prints.
    pub fn spawn(command: &mut std::process::Command) -> Server {
        static NEXT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let stderr = crate::common::scratch_dir("serve-stderr").join(format!("{n}.txt"));
        let mut child = command
            .stdout(Stdio::piped())
            .stderr(std::fs::File::create(&stderr).expect("a file for stderr"))
            .spawn()
            .expect("gamut serve starts");
        let mut line = String::new();
        BufReader::new(child.stdout.take().expect("stdout"))
            .read_line(&mut line)
            .expect("the URL line");
        let addr = line
            .trim()
            .strip_prefix("serving http://")
            .unwrap_or_else(|| panic!("not a URL line: {line:?}"))
            .trim_end_matches('/')
            .to_string();
        assert!(addr.starts_with("127.0.0.1:"), "{addr}");
        Server {
            child,
            addr,
            stderr,
        }
    }

    /// The page's URL.
    pub fn url(&self) -> String {
        format!("http://{}/", self.addr)
    }

    /// Whether the server process is still running.
    pub fn alive(&mut self) -> bool {
        self.child.try_wait().expect("the child's status").is_none()
    }

    /// The server's process id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let said = std::fs::read_to_string(&self.stderr).unwrap_or_default();
        let _ = std::fs::remove_file(&self.stderr);
        if !std::thread::panicking() {
            assert!(!said.contains("panicked"), "the server panicked:\n{said}");
        }
    }
}

/// An HTTP/1.1 answer: status, headers (lower-case names) and body.
pub struct Answer {
    pub status: u16,
    pub headers: String,
    pub body: String,
}

impl Answer {
    /// The body as JSON.
    pub fn json(&self) -> Value {
        serde_json::from_str(&self.body)
            .unwrap_or_else(|e| panic!("not JSON ({e}): {:?}", self.body))
    }
}

/// Sends `request` as it is to `addr` and reads the whole answer (the
/// request should say `Connection: close`); chunked bodies are joined.
pub fn exchange(addr: &str, request: &[u8]) -> Answer {
    let mut s = TcpStream::connect(addr).expect("connect");
    s.set_read_timeout(Some(Duration::from_secs(300))).unwrap();
    s.write_all(request).expect("send");
    // Read to the end, or to the length the head gives (a server may keep
    // the connection open).
    let mut raw = Vec::new();
    let mut chunk = [0u8; 65536];
    loop {
        match s.read(&mut chunk) {
            Ok(0) | Err(_) => break,
            Ok(n) => raw.extend_from_slice(&chunk[..n]),
        }
        let text = String::from_utf8_lossy(&raw);
        if let Some(end) = text.find("\r\n\r\n") {
            let head = text[..end].to_ascii_lowercase();
            let length = head
                .lines()
                .find_map(|l| l.strip_prefix("content-length:"))
                .and_then(|n| n.trim().parse::<usize>().ok());
            if length.is_some_and(|n| raw.len() >= end + 4 + n) {
                break;
            }
        }
    }
    let text = String::from_utf8_lossy(&raw).to_string();
    let (head, rest) = text
        .split_once("\r\n\r\n")
        .unwrap_or_else(|| panic!("no answer head: {text:?}"));
    let status = head
        .split(' ')
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or_else(|| panic!("no status: {head:?}"));
    let headers = head.to_ascii_lowercase();
    let body = if headers.contains("transfer-encoding: chunked") {
        let mut body = String::new();
        let mut rest = rest;
        while let Some((size, after)) = rest.split_once("\r\n") {
            let n = usize::from_str_radix(size.trim(), 16).unwrap_or(0);
            if n == 0 || after.len() < n {
                break;
            }
            body.push_str(&after[..n]);
            rest = after[n..].trim_start_matches("\r\n");
        }
        body
    } else {
        rest.to_string()
    };
    Answer {
        status,
        headers,
        body,
    }
}

/// A request with `method`, `target` and an optional JSON body.
pub fn request(addr: &str, method: &str, target: &str, body: Option<&str>) -> Answer {
    let body = body.unwrap_or("");
    let req = format!(
        "{method} {target} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\
         Content-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    exchange(addr, req.as_bytes())
}

/// `GET target`.
pub fn get(addr: &str, target: &str) -> Answer {
    request(addr, "GET", target, None)
}

/// `text` percent-encoded for a query.
pub fn enc(text: &str) -> String {
    let mut s = String::new();
    for b in text.bytes() {
        if b.is_ascii_alphanumeric() || b"-_.~".contains(&b) {
            s.push(b as char);
        } else {
            s.push_str(&format!("%{b:02X}"));
        }
    }
    s
}

/// An open stream of server-sent events.
pub struct Events {
    reader: BufReader<TcpStream>,
}

impl Events {
    /// Opens `target` as an event stream; panics unless it is one.
    pub fn open(addr: &str, target: &str) -> Events {
        let mut s = TcpStream::connect(addr).expect("connect");
        s.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
        write!(
            s,
            "GET {target} HTTP/1.1\r\nHost: {addr}\r\nAccept: text/event-stream\r\n\r\n"
        )
        .unwrap();
        let mut reader = BufReader::new(s);
        let mut head = String::new();
        loop {
            let mut line = String::new();
            reader.read_line(&mut line).expect("a head line");
            if line == "\r\n" || line.is_empty() {
                break;
            }
            head.push_str(&line);
        }
        assert!(head.starts_with("HTTP/1.1 200"), "{head}");
        assert!(
            head.to_ascii_lowercase().contains("text/event-stream"),
            "{head}"
        );
        Events { reader }
    }

    /// The next event's data as JSON (keep-alive comments skipped).
    pub fn next(&mut self) -> Value {
        loop {
            let mut line = String::new();
            let n = self.reader.read_line(&mut line).expect("an event line");
            assert!(n > 0, "the stream ended");
            // Chunk sizes and blank lines interleave with the events.
            if let Some(data) = line.trim().strip_prefix("data: ") {
                return serde_json::from_str(data).expect("an event's JSON");
            }
        }
    }
}

/// The number of searches the server runs now.
fn searches(addr: &str) -> u64 {
    get(addr, "/api/status").json()["searches"]
        .as_u64()
        .expect("a count")
}

/// Waits up to `limit` for the server to run no search.
fn wait_idle(addr: &str, limit: Duration) -> bool {
    let start = Instant::now();
    while start.elapsed() < limit {
        if searches(addr) == 0 {
            return true;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    false
}

/// Every game id the page offers.
pub const GAMES: [&str; 7] = [
    "aporia",
    "apart",
    "empedocles",
    "spokes",
    "spokes4",
    "spokes2v2",
    "epaminondas",
];

/// The scripts page `page` loads, in its order (its `<script src>` tags).
fn page_scripts(page: &str) -> Vec<String> {
    page.split("<script src=\"")
        .skip(1)
        .map(|s| s.split('"').next().unwrap().to_string())
        .collect()
}

/// The page loads every script of `src/serve/assets`, the transport first
/// and the one that wires the rest (`app.js`) last, and the server serves
/// each of them, none naming another site.
#[test]
fn the_page_and_its_files_ask_nothing_of_other_sites() {
    let server = Server::start(&[]);
    let page = get(&server.addr, "/").body;
    let scripts = page_scripts(&page);
    let mut files: Vec<String> =
        std::fs::read_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/src/serve/assets"))
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|name| name.ends_with(".js"))
            .collect();
    files.sort();
    let mut loaded = scripts.clone();
    loaded.sort();
    assert_eq!(loaded, files, "the page's scripts: {scripts:?}");
    assert_eq!(scripts.first().map(String::as_str), Some("transport.js"));
    assert_eq!(scripts.last().map(String::as_str), Some("app.js"));
    let mut paths: Vec<(String, &str)> =
        vec![("/".into(), "text/html"), ("/style.css".into(), "text/css")];
    paths.extend(scripts.iter().map(|s| (format!("/{s}"), "text/javascript")));
    for (path, kind) in &paths {
        let a = get(&server.addr, path);
        assert_eq!(a.status, 200, "{path}");
        assert!(a.headers.contains(kind), "{path}: {}", a.headers);
        assert!(!a.body.contains("://"), "{path} names another site");
    }
}

#[test]
fn every_game_lists_its_moves_with_their_squares_and_plays_one() {
    let server = Server::start(&[]);
    let games = get(&server.addr, "/api/games").json();
    let ids: Vec<&str> = games
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, GAMES);
    for game in GAMES {
        let v = get(&server.addr, &format!("/api/position?game={game}")).json();
        assert_eq!(v["game"], game);
        assert!(v["svg"].as_str().unwrap().contains("data-square"), "{game}");
        let first = match v["node"].as_str().unwrap() {
            "decision" => {
                let moves = v["moves"].as_array().unwrap();
                // Every square a move is clicked on is drawn on the board.
                for m in moves {
                    for sq in m["squares"].as_array().unwrap() {
                        let sq = sq.as_str().unwrap();
                        assert!(
                            v["svg"]
                                .as_str()
                                .unwrap()
                                .contains(&format!("data-square=\"{sq}\"")),
                            "{game}: {sq} of {} is not drawn",
                            m["text"]
                        );
                    }
                }
                assert!(
                    moves
                        .iter()
                        .all(|m| !m["squares"].as_array().unwrap().is_empty()),
                    "{game}: a first move without squares"
                );
                moves[0]["text"].as_str().unwrap().to_string()
            }
            "simultaneous" => {
                let actions = v["actions"].as_array().unwrap();
                assert_eq!(actions.len(), v["players"].as_u64().unwrap() as usize);
                let texts: Vec<&str> = actions
                    .iter()
                    .map(|a| a[0]["text"].as_str().unwrap())
                    .collect();
                // A placement is clicked on its node.
                assert_eq!(actions[0][0]["squares"].as_array().unwrap().len(), 1);
                texts.join(",")
            }
            other => panic!("{game} starts at a {other} node"),
        };
        let after = get(
            &server.addr,
            &format!("/api/position?game={game}&moves={}", enc(&first)),
        );
        assert_eq!(after.status, 200, "{game} {first}: {}", after.body);
        assert_ne!(
            after.json()["text"],
            v["text"],
            "{game}: {first} changed nothing"
        );
    }
}

#[test]
fn the_engine_answers_a_move_and_an_action_in_secret() {
    let server = Server::start(&[]);
    let v = get(&server.addr, "/api/engine?game=apart&depth=2").json();
    let m = v["move"].as_str().unwrap().to_string();
    let after = get(
        &server.addr,
        &format!("/api/position?game=apart&moves={}", enc(&m)),
    );
    assert_eq!(after.status, 200, "{}", after.body);
    let a = get(&server.addr, "/api/engine?game=spokes&depth=1&player=1").json();
    let action = a["move"].as_str().unwrap();
    let both = format!("wA,{action}");
    let after = get(
        &server.addr,
        &format!("/api/position?game=spokes&moves={}", enc(&both)),
    );
    assert_eq!(after.status, 200, "{both}: {}", after.body);
}

#[test]
fn the_engine_plays_every_seat_of_four_player_spokes() {
    let server = Server::start(&[]);
    for game in ["spokes4", "spokes2v2"] {
        let actions: Vec<String> = (0..4)
            .map(|player| {
                let v = get(
                    &server.addr,
                    &format!("/api/engine?game={game}&depth=1&player={player}"),
                )
                .json();
                v["move"]
                    .as_str()
                    .unwrap_or_else(|| panic!("{game}: {v}"))
                    .to_string()
            })
            .collect();
        let round = actions.join(",");
        let after = get(
            &server.addr,
            &format!("/api/position?game={game}&moves={}", enc(&round)),
        );
        assert_eq!(after.status, 200, "{game} {round}: {}", after.body);
    }
}

#[test]
fn analysis_streams_and_its_search_stops_when_the_page_closes() {
    let server = Server::start(&["--threads", "2", "--hash", "16"]);
    let mut events = Events::open(&server.addr, "/api/analysis?game=epaminondas");
    assert!(events.next()["queued"].is_number());
    let grant = events.next();
    assert_eq!(grant["threads"], 2, "{grant}");
    // Unless --eval says otherwise, each game's own evaluation.
    assert_eq!(grant["eval"], "game", "{grant}");
    let mut depth = 0;
    while depth < 3 {
        let it = events.next();
        let d = it["depth"].as_u64().expect("an iteration");
        assert!(d > depth, "depths rise: {it}");
        depth = d;
        assert!(it["lines"][0]["pv"]
            .as_array()
            .is_some_and(|pv| !pv.is_empty()));
        assert!(it["score"].is_number() && it["nps"].is_number());
    }
    assert_eq!(searches(&server.addr), 1);
    drop(events);
    assert!(
        wait_idle(&server.addr, Duration::from_secs(10)),
        "the search went on after its page closed"
    );
}

/// Four-player Spokes is analysed as `gamut analyze` does it: at a round
/// start every side's paranoid search, each event naming every side done
/// so far with its value and mixed strategy; at a resolution the mover's
/// side with its best lines. A closed page stops the search.
#[test]
fn four_player_analysis_streams_every_side_and_stops_when_the_page_closes() {
    let server = Server::start(&["--threads", "2", "--hash", "16"]);
    for (game, names) in [
        (
            "spokes4",
            &["player 1", "player 2", "player 3", "player 4"][..],
        ),
        ("spokes2v2", &["team 1", "team 2"][..]),
    ] {
        let v = get(&server.addr, &format!("/api/position?game={game}")).json();
        assert_eq!(v["analysable"], true, "{game}");
        // Two-player Spokes' fitted win-probability scale (docs/serve.md):
        // the same unit of 100 a home stone.
        let scale = <gamut_games::spokes::Spokes as gamut_core::game::Diagram>::SCORE_SCALE;
        assert_eq!(v["scale"], scale, "{game}");
        let mut events = Events::open(&server.addr, &format!("/api/analysis?game={game}&depth=1"));
        assert!(events.next()["queued"].is_number());
        let grant = events.next();
        // Searched on one thread, leaving the server's other one free.
        assert_eq!(grant["threads"], 1, "{grant}");
        let mut last = Value::Null;
        loop {
            let e = events.next();
            assert!(e["error"].is_null(), "{game}: {e}");
            if e["done"] == true {
                break;
            }
            assert_eq!(e["depth"], 1, "{game}: {e}");
            last = e;
        }
        let sides = last["sides"].as_array().expect("the sides");
        let shown: Vec<&str> = sides.iter().map(|s| s["name"].as_str().unwrap()).collect();
        assert_eq!(shown, names, "{game}: {last}");
        for s in sides {
            assert_eq!(s["depth"], 1, "{s}");
            assert!(s["value"].is_number(), "{s}");
            let strategy = s["strategy"].as_array().unwrap();
            assert!(!strategy.is_empty(), "{game}: no strategy: {s}");
            let total: f64 = strategy
                .iter()
                .map(|a| a["probability"].as_f64().unwrap())
                .sum();
            assert!((total - 1.0).abs() < 1e-6, "{s}");
            // Each action names a node of the board (teams: one per player).
            let parts = strategy[0]["text"].as_str().unwrap().split('+').count();
            assert_eq!(parts, if game == "spokes4" { 1 } else { 2 }, "{s}");
        }
    }
    // A resolution: only the resolver's side, with its best outcomes.
    let round = "wD1,wD6,wD10,wD14";
    let v = get(
        &server.addr,
        &format!("/api/position?game=spokes4&moves={}", enc(round)),
    )
    .json();
    assert_eq!(v["node"], "decision", "{v}");
    let mover = v["mover"].as_u64().unwrap();
    let mut events = Events::open(
        &server.addr,
        &format!("/api/analysis?game=spokes4&depth=1&moves={}", enc(round)),
    );
    let e = loop {
        let e = events.next();
        if e["sides"].is_array() {
            break e;
        }
    };
    let sides = e["sides"].as_array().unwrap();
    assert_eq!(sides.len(), 1, "{e}");
    assert_eq!(sides[0]["side"], mover, "{e}");
    let outcome = sides[0]["lines"][0]["pv"][0]
        .as_str()
        .expect("a best outcome");
    let after = get(
        &server.addr,
        &format!(
            "/api/position?game=spokes4&moves={}",
            enc(&format!("{round};{outcome}"))
        ),
    );
    assert_eq!(after.status, 200, "{outcome}: {}", after.body);
    // The evaluation graph: every position of a short game played by the
    // engine scored with the first side's paranoid value, the moves
    // labelled by the mover's loss where the mover's side is the first
    // side's opponent in a game of two teams, or the first side itself.
    for game in ["spokes4", "spokes2v2"] {
        let mut moves: Vec<String> = Vec::new();
        let mut movers = Vec::new();
        loop {
            let line = enc(&moves.join(";"));
            let v = get(
                &server.addr,
                &format!("/api/position?game={game}&moves={line}"),
            )
            .json();
            movers.push(v["mover"].clone());
            // Three steps: a round, its resolution and the next round
            // (later rounds of two teams take seconds to search).
            if v["node"] == "terminal" || moves.len() == 3 {
                break;
            }
            let players = if v["node"] == "simultaneous" { 4 } else { 1 };
            let step: Vec<String> = (0..players)
                .map(|player| {
                    let a = get(
                        &server.addr,
                        &format!("/api/engine?game={game}&depth=1&player={player}&moves={line}"),
                    )
                    .json();
                    a["move"]
                        .as_str()
                        .unwrap_or_else(|| panic!("{game}: {a}"))
                        .to_string()
                })
                .collect();
            moves.push(step.join(","));
        }
        let mut events = Events::open(
            &server.addr,
            &format!(
                "/api/scores?game={game}&depth=1&moves={}",
                enc(&moves.join(";"))
            ),
        );
        let mut scores = Vec::new();
        loop {
            let e = events.next();
            assert!(e["error"].is_null(), "{game}: {e}");
            if e["done"] == true {
                break;
            }
            if let Some(ply) = e["ply"].as_u64() {
                assert_eq!(ply as usize, scores.len(), "{game}: {e}");
                assert_eq!(e["mover"], movers[scores.len()], "{game}: {e}");
                // Team 1 is players 1 and 2 in `spokes2v2`; a forced move
                // has no label.
                let labelled = match e["mover"].as_u64() {
                    _ if e["forced"] == true => Value::Null,
                    Some(0) => Value::from(0),
                    Some(player) if game == "spokes2v2" => Value::from(player / 2),
                    _ => Value::Null,
                };
                assert_eq!(e["labelled"], labelled, "{game}: {e}");
                scores.push(e["score"].as_f64().expect("a score"));
            }
        }
        assert_eq!(scores.len(), moves.len() + 1, "{game}: {scores:?}");
        assert!(
            scores.iter().any(|&s| s != 0.0),
            "{game}: every score is 0: {scores:?}"
        );
    }
    // Without a limit the sides deepen until the page closes.
    let mut events = Events::open(&server.addr, "/api/analysis?game=spokes4");
    while !events.next()["sides"].is_array() {}
    assert_eq!(searches(&server.addr), 1);
    drop(events);
    assert!(
        wait_idle(&server.addr, Duration::from_secs(30)),
        "the search went on after its page closed"
    );
}

/// `serve --eval net`: every search evaluates with the game's network.
#[test]
fn serve_searches_with_the_evaluation_asked_for() {
    let server = Server::start(&["--eval", "net", "--hash", "16"]);
    let mut events = Events::open(&server.addr, "/api/analysis?game=epaminondas&depth=2");
    assert!(events.next()["queued"].is_number());
    let grant = events.next();
    assert_eq!(grant["eval"], "net", "{grant}");
}

/// One request that the server must refuse: a bad path, method, game,
/// position, move, limit or field, in random combinations and spellings.
fn bad_request(rng: &mut SmallRng) -> (String, String, Option<String>) {
    let junk = |rng: &mut SmallRng, n: usize| -> String {
        const CHARS: &[u8] = b"abcdefghXYZ0123456789-;,/.%+ @!#&=?\"'<>\\\x01\x7f";
        (0..rng.gen_range(0..n))
            .map(|_| CHARS[rng.gen_range(0..CHARS.len())] as char)
            .collect()
    };
    let game = GAMES[rng.gen_range(0..GAMES.len())];
    let api = ["position", "analysis", "scores", "engine"][rng.gen_range(0..4)];
    // The APIs that take search limits.
    let searching = ["analysis", "scores", "engine"][rng.gen_range(0..3)];
    let target = match rng.gen_range(0..12) {
        0 => format!("/{}", enc(&format!("x{}", junk(rng, 30)))),
        1 => format!("/api/{api}?game={}", enc(&format!("{}!", junk(rng, 12)))),
        2 => format!("/api/{api}"),
        3 => format!(
            "/api/{api}?game={game}&moves={}",
            enc(&format!("!{}", junk(rng, 40)))
        ),
        4 => format!(
            "/api/{api}?game={game}&fen={}",
            enc(&format!("{}!", junk(rng, 60)))
        ),
        5 => format!(
            "/api/{searching}?game={game}&depth={}",
            [0, 65, 1000, 4_000_000_000u64][rng.gen_range(0..4)]
        ),
        6 => format!(
            "/api/{searching}?game={game}&time={}",
            ["0", "-5", "x", "600001", "1e9"][rng.gen_range(0..5)]
        ),
        7 => format!("/api/{searching}?game={game}&depth=3&time=100"),
        8 => format!(
            "/api/{api}?game={game}&{}=1",
            ["colour", "side", "x", "moves[]"][rng.gen_range(0..4)]
        ),
        9 => format!("/api/{api}?game={game}&moves=%zz%{}", junk(rng, 5).len()),
        10 => format!(
            "/api/record?file={}",
            enc(["../Cargo.toml", "/etc/passwd", "..", ""][rng.gen_range(0..4)])
        ),
        _ => format!("/api/{api}?game={game}&fen=&moves=;;"),
    };
    let (method, body) = if rng.gen_bool(0.1) {
        (
            ["POST", "PUT", "DELETE", "PATCH"][rng.gen_range(0..4)].to_string(),
            Some(junk(rng, 200)),
        )
    } else {
        ("GET".to_string(), None)
    };
    (method, target, body)
}

#[test]
fn a_thousand_malformed_requests_are_each_refused_with_a_message() {
    let mut server = Server::start(&[]);
    let mut rng = SmallRng::seed_from_u64(31);
    for i in 0..1000 {
        let (method, target, body) = bad_request(&mut rng);
        let a = request(&server.addr, &method, &target, body.as_deref());
        assert!(
            (400..500).contains(&a.status),
            "request {i} {method} {target}: {} {:.300}",
            a.status,
            a.body
        );
        let msg = a.json()["error"].as_str().map(str::to_string);
        assert!(
            msg.is_some_and(|m| !m.is_empty() && !m.contains('\n')),
            "request {i} {method} {target}: no one-line message: {}",
            a.body
        );
    }
    assert!(server.alive(), "the server died");
    assert_eq!(get(&server.addr, "/api/games").status, 200);
    assert_eq!(searches(&server.addr), 0);
}

/// A record of a short game of `game` (its `moves`, separated by `;`) as
/// the server exports it: one JSON line that `gamut replay` reads, its
/// fields without the checksum (written back, a line of a file written
/// before records carried one).
pub fn exported(addr: &str, game: &str, moves: &str) -> Value {
    let a = get(
        addr,
        &format!("/api/export?game={game}&moves={}", enc(moves)),
    );
    assert_eq!(a.status, 200, "{}", a.body);
    crate::common::record_fields(a.json()["record"].as_str().unwrap())
}

#[test]
fn records_open_from_their_folder_only() {
    let dir = crate::common::scratch_dir("serve-records");
    let server = Server::start(&["--records-dir", dir.to_str().unwrap()]);
    let record = exported(&server.addr, "epaminondas", "a2-a3");
    std::fs::write(dir.join("t.jsonl"), format!("{record}\n")).unwrap();
    assert_eq!(get(&server.addr, "/api/records").json()[0], "t.jsonl");
    let games = get(&server.addr, "/api/record?file=t.jsonl").json();
    assert_eq!(games[0]["moves"][0], "a2-a3");
    for bad in [
        "../t.jsonl",
        "%2Fetc%2Fpasswd",
        "..%2F..%2Fetc%2Fpasswd",
        "missing",
    ] {
        let a = get(&server.addr, &format!("/api/record?file={bad}"));
        assert_eq!(a.status, 400, "{bad}: {}", a.body);
    }
}

/// The process's threads and CPU time in clock ticks, from /proc.
#[cfg(target_os = "linux")]
fn threads_and_cpu(pid: u32) -> (u64, u64) {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    let threads = status
        .lines()
        .find_map(|l| l.strip_prefix("Threads:"))
        .and_then(|n| n.trim().parse().ok())
        .unwrap();
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap();
    let fields: Vec<&str> = stat
        .rsplit_once(')')
        .unwrap()
        .1
        .split_whitespace()
        .collect();
    // utime and stime are fields 14 and 15, the 12th and 13th after ')'.
    let cpu = fields[11].parse::<u64>().unwrap() + fields[12].parse::<u64>().unwrap();
    (threads, cpu)
}

#[cfg(target_os = "linux")]
#[test]
#[ignore = "long check"]
fn long_fifty_pages_analysing_at_once_keep_answering_and_stop_when_closed() {
    let server = Server::start(&["--threads", "2", "--hash", "32"]);
    let (threads_before, _) = threads_and_cpu(server.pid());
    let mut pages = Vec::new();
    for i in 0..50 {
        let game = GAMES[i % GAMES.len()];
        let opened = Instant::now();
        let mut events = Events::open(&server.addr, &format!("/api/analysis?game={game}"));
        assert!(events.next()["queued"].is_number());
        assert!(
            opened.elapsed() < Duration::from_secs(1),
            "page {i} waited {:?} for its first answer",
            opened.elapsed()
        );
        pages.push(events);
    }
    // Two searches at most at once: the server's threads.
    assert!(searches(&server.addr) <= 2);
    for i in 0..20 {
        let asked = Instant::now();
        let a = get(&server.addr, "/api/position?game=epaminondas&moves=a2-a3");
        assert_eq!(a.status, 200);
        assert!(
            asked.elapsed() < Duration::from_secs(1),
            "request {i} took {:?} with 50 pages analysing",
            asked.elapsed()
        );
    }
    drop(pages);
    assert!(
        wait_idle(&server.addr, Duration::from_secs(15)),
        "searches went on after their pages closed"
    );
    // Idle: no CPU spent over a second, and the search threads gone.
    std::thread::sleep(Duration::from_secs(2));
    let (_, cpu0) = threads_and_cpu(server.pid());
    std::thread::sleep(Duration::from_secs(1));
    let (threads, cpu1) = threads_and_cpu(server.pid());
    assert!(
        cpu1 - cpu0 <= 5,
        "{} ticks of CPU in a second while idle",
        cpu1 - cpu0
    );
    std::thread::sleep(Duration::from_secs(10));
    let (threads_after, _) = threads_and_cpu(server.pid());
    assert!(
        threads_after <= threads_before + 2,
        "threads {threads_before} before, {threads} then {threads_after} after"
    );
}

#[test]
fn analysis_events_carry_the_best_lines_asked_for() {
    let server = Server::start(&["--hash", "16"]);
    for (query, want) in [("", 3), ("&multipv=5", 5), ("&multipv=1", 1)] {
        let mut events = Events::open(
            &server.addr,
            &format!("/api/analysis?game=epaminondas&depth=3{query}"),
        );
        let mut depths = 0;
        loop {
            let e = events.next();
            if e["done"] == true {
                break;
            }
            let Some(lines) = e["lines"].as_array() else {
                continue;
            };
            depths += 1;
            assert_eq!(lines.len(), want, "{query}: {e}");
            let firsts: std::collections::HashSet<&str> =
                lines.iter().map(|l| l["pv"][0].as_str().unwrap()).collect();
            assert_eq!(firsts.len(), want, "{e}");
            for (k, l) in lines.iter().enumerate() {
                assert_eq!(l["multipv"], k + 1, "{e}");
            }
            // White moves first: its scores are the first side's, best first.
            let scores: Vec<i64> = lines.iter().map(|l| l["score"].as_i64().unwrap()).collect();
            assert!(scores.windows(2).all(|w| w[0] >= w[1]), "{e}");
            assert_eq!(lines[0]["score"], e["score"], "{e}");
        }
        assert_eq!(depths, 3, "{query}");
    }
    for bad in ["0", "257", "x"] {
        let a = get(
            &server.addr,
            &format!("/api/analysis?game=aporia&multipv={bad}"),
        );
        assert_eq!(a.status, 400, "{bad}: {}", a.body);
    }
}

#[test]
fn an_exported_game_is_a_record_that_replays() {
    let server = Server::start(&[]);
    let dir = crate::common::scratch_dir("serve-export");
    // Spokes' resolution is given in its short form; the record keeps the
    // canonical text.
    for (game, moves) in [("epaminondas", "a2-a3; a11-a10"), ("spokes", "wA,bB1; XB1")] {
        let a = get(
            &server.addr,
            &format!("/api/export?game={game}&moves={}", enc(moves)),
        );
        assert_eq!(a.status, 200, "{}", a.body);
        let v = a.json();
        assert_eq!(v["file"], format!("{game}-game.jsonl"));
        let file = dir.join(format!("{game}.jsonl"));
        std::fs::write(&file, format!("{}\n", v["record"].as_str().unwrap())).unwrap();
        let out = crate::common::ok(&["replay", file.to_str().unwrap(), "--game", "1"]);
        assert!(out.contains("result * (unfinished), "), "{out}");
        let shown = crate::common::ok(&["show", game, "--moves", moves]);
        let last = shown.lines().find(|l| l.starts_with("position ")).unwrap();
        assert!(
            out.contains(last),
            "the replay ends where the moves do:\n{out}"
        );
    }
    // A line from a given position starts the record there.
    let fen = "2B1/B1B1/2WW/B1WW 1 b4-c3 d4-b4";
    let a = get(
        &server.addr,
        &format!("/api/export?game=aporia&fen={}", enc(fen)),
    );
    assert_eq!(a.status, 200, "{}", a.body);
    assert!(a.json()["record"]
        .as_str()
        .unwrap()
        .contains(&format!("\"opening\":\"{fen}\"")));
    let bad = get(&server.addr, "/api/export?game=apart&moves=z9-z8");
    assert_eq!(bad.status, 400);
    assert!(bad.json()["error"].is_string());
}

#[test]
fn aporia_s_table_verdict_shows_only_where_a_table_loads() {
    let dir = crate::common::scratch_dir("serve-table");
    let fake = dir.join("aporia.table");
    std::fs::write(&fake, b"not a table").unwrap();
    // Absent, or not a table: no verdict, and no error; but a bad line is
    // refused either way.
    for path in [dir.join("absent.table"), fake] {
        let server = Server::start(&["--table", path.to_str().unwrap()]);
        let a = get(&server.addr, "/api/table?game=aporia&moves=b2-a3");
        assert_eq!(a.status, 200, "{}", a.body);
        assert!(a.json()["value"].is_null(), "{}", a.body);
        assert!(get(&server.addr, "/api/table?game=apart").json()["value"].is_null());
        assert_eq!(get(&server.addr, "/api/position?game=aporia").status, 200);
        for bad in [
            "game=aporia&fen=garbage",
            "game=aporia&moves=z9-z8",
            "game=apart&fen=x",
        ] {
            let a = get(&server.addr, &format!("/api/table?{bad}"));
            assert_eq!(a.status, 400, "{bad}: {}", a.body);
            assert!(a.json()["error"].is_string(), "{bad}: {}", a.body);
        }
    }
    // A real table (where `gamut solve aporia` has written one): the
    // verdict `show --table` prints.
    let Some(real) = gamut_core::tablebase::default_path("aporia").filter(|p| p.is_file()) else {
        eprintln!("no Aporia table at the default path: the verdict itself is not checked");
        return;
    };
    let server = Server::start(&["--table", real.to_str().unwrap()]);
    let v = get(&server.addr, "/api/table?game=aporia&moves=b2-a3").json();
    let best: Vec<&str> = v["best"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b.as_str().unwrap())
        .collect();
    let shown = crate::common::ok(&[
        "show",
        "aporia",
        "--moves",
        "b2-a3",
        "--table",
        real.to_str().unwrap(),
    ]);
    let best = if best.is_empty() {
        "-".to_string()
    } else {
        best.join(" ")
    };
    let line = format!("value    {} (best: {best})", v["value"].as_str().unwrap());
    assert!(shown.contains(&line), "{line}\n{shown}");
}

/// The answer's error message, checking that it is a refusal with
/// `status` and one line of JSON, `{"error": …}`.
fn refused(a: &Answer, status: u16, what: &str) -> String {
    assert_eq!(a.status, status, "{what}: {} {:.300}", a.status, a.body);
    let msg = a.json()["error"]
        .as_str()
        .unwrap_or_else(|| panic!("{what}: no message: {}", a.body))
        .to_string();
    assert!(!msg.is_empty() && !msg.contains('\n'), "{what}: {msg:?}");
    msg
}

/// Whether the server closed `s` within `limit` (what it sent first is
/// returned, as text).
fn closed_within(s: &mut TcpStream, limit: Duration) -> Option<String> {
    s.set_read_timeout(Some(limit)).unwrap();
    let mut got = Vec::new();
    let mut chunk = [0u8; 4096];
    loop {
        match s.read(&mut chunk) {
            Ok(0) => return Some(String::from_utf8_lossy(&got).to_string()),
            Ok(n) => got.extend_from_slice(&chunk[..n]),
            Err(e) if e.kind() == std::io::ErrorKind::ConnectionReset => {
                return Some(String::from_utf8_lossy(&got).to_string())
            }
            Err(_) => return None,
        }
    }
}

/// Connections that send nothing, or their head a byte a second, are
/// closed when `--head-timeout` (3 s here; 10 by default) has passed since
/// they opened, with a 408 naming it, while the page goes on answering.
#[test]
fn idle_and_slow_connections_are_closed_after_the_head_timeout() {
    let server = Server::start(&["--head-timeout", "3"]);
    let opened = Instant::now();
    let mut idle: Vec<TcpStream> = (0..200)
        .map(|_| TcpStream::connect(&server.addr).unwrap())
        .collect();
    let mut slow: Vec<TcpStream> = (0..200)
        .map(|_| TcpStream::connect(&server.addr).unwrap())
        .collect();
    let head = format!(
        "GET /api/games HTTP/1.1\r\nHost: {}\r\nX-Slow: {}\r\n\r\n",
        server.addr,
        "x".repeat(40)
    );
    // A byte a second from each slow one, for 5 s unless closed first.
    let mut gone = vec![false; slow.len()];
    for k in 0..5 {
        for (s, gone) in slow.iter_mut().zip(&mut gone) {
            if !*gone && s.write_all(&head.as_bytes()[k..k + 1]).is_err() {
                *gone = true;
            }
        }
        let asked = Instant::now();
        assert_eq!(get(&server.addr, "/api/games").status, 200);
        assert!(
            asked.elapsed() < Duration::from_secs(1),
            "{:?}",
            asked.elapsed()
        );
        std::thread::sleep(Duration::from_secs(1).saturating_sub(asked.elapsed()));
    }
    for (i, s) in idle.iter_mut().chain(slow.iter_mut()).enumerate() {
        let left = Duration::from_secs(7).saturating_sub(opened.elapsed());
        let got = closed_within(s, left.max(Duration::from_millis(10)))
            .unwrap_or_else(|| panic!("connection {i} still open after {:?}", opened.elapsed()));
        if !got.is_empty() {
            assert!(got.starts_with("HTTP/1.1 408"), "{i}: {got}");
            assert!(got.contains("{\"error\":"), "{i}: {got}");
            assert!(got.contains("within 3 s of connecting"), "{i}: {got}");
        }
    }
    assert!(
        opened.elapsed() >= Duration::from_secs(3),
        "closed before its time"
    );
}

/// The server's open-file limit, raised to `want` where the hard limit
/// allows; `false` if it cannot be.
#[cfg(target_os = "linux")]
fn files_at_least(want: u64) -> bool {
    let mut lim = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit and setrlimit read and write only the struct given.
    unsafe {
        if libc::getrlimit(libc::RLIMIT_NOFILE, &mut lim) != 0 {
            return false;
        }
        if lim.rlim_cur >= want {
            return true;
        }
        if lim.rlim_max < want {
            return false;
        }
        lim.rlim_cur = want;
        libc::setrlimit(libc::RLIMIT_NOFILE, &lim) == 0
    }
}

/// 1,500 clients sending their heads a byte a second (more than the
/// default cap of 1,000 connections): the page and a position still
/// answer within a second throughout, and every slow client is closed
/// within the 10 s the head may take.
#[cfg(target_os = "linux")]
#[test]
#[ignore = "long check"]
fn long_fifteen_hundred_slow_clients_leave_the_page_answering() {
    if !files_at_least(4096) {
        eprintln!("the open-file limit cannot be raised to 4096: the check is skipped");
        return;
    }
    let server = Server::start(&[]);
    let opened = Instant::now();
    let mut slow: Vec<TcpStream> = (0..1500)
        .map(|_| TcpStream::connect(&server.addr).unwrap())
        .collect();
    let head = format!(
        "GET / HTTP/1.1\r\nHost: {}\r\nX-Slow: {}\r\n\r\n",
        server.addr,
        "x".repeat(40)
    );
    let mut gone = vec![false; slow.len()];
    for k in 0..15 {
        for (s, gone) in slow.iter_mut().zip(&mut gone) {
            if !*gone && s.write_all(&head.as_bytes()[k..k + 1]).is_err() {
                *gone = true;
            }
        }
        for target in ["/", "/api/position?game=epaminondas&moves=a2-a3"] {
            let asked = Instant::now();
            let a = get(&server.addr, target);
            assert_eq!(a.status, 200, "{target}: {}", a.body);
            assert!(
                asked.elapsed() < Duration::from_secs(1),
                "{target} took {:?} beside 1,500 slow clients",
                asked.elapsed()
            );
        }
        std::thread::sleep(Duration::from_millis(700));
    }
    for (i, s) in slow.iter_mut().enumerate() {
        let left = Duration::from_secs(20).saturating_sub(opened.elapsed());
        assert!(
            closed_within(s, left.max(Duration::from_millis(10))).is_some(),
            "slow client {i} still open after {:?}",
            opened.elapsed()
        );
    }
}

/// Under an open-file limit of 1,024, 1,100 idle connections do not keep
/// the server from answering: over the cap its limit leaves room for
/// (896), each new connection takes the place of the oldest idle one.
#[cfg(target_os = "linux")]
#[test]
fn idle_connections_beyond_the_open_file_limit_leave_the_server_answering() {
    use std::os::unix::process::CommandExt;
    if !files_at_least(2048) {
        eprintln!("the open-file limit cannot be raised to 2048: the check is skipped");
        return;
    }
    let mut command = crate::common::gamut_command();
    command.args(["serve", "--port", "0"]);
    // SAFETY: setrlimit is async-signal-safe and touches only the child.
    unsafe {
        command.pre_exec(|| {
            let lim = libc::rlimit {
                rlim_cur: 1024,
                rlim_max: 1024,
            };
            if libc::setrlimit(libc::RLIMIT_NOFILE, &lim) == 0 {
                Ok(())
            } else {
                Err(std::io::Error::last_os_error())
            }
        });
    }
    let server = Server::spawn(&mut command);
    let idle: Vec<TcpStream> = (0..1100)
        .map(|_| TcpStream::connect(&server.addr).unwrap())
        .collect();
    for i in 0..10 {
        let (tx, rx) = std::sync::mpsc::channel();
        let addr = server.addr.clone();
        std::thread::spawn(move || tx.send(get(&addr, "/api/games").status));
        let status = rx.recv_timeout(Duration::from_secs(1)).unwrap_or_else(|_| {
            panic!("request {i}: no answer within 1 s beside 1,100 idle connections")
        });
        assert_eq!(status, 200, "request {i}");
        std::thread::sleep(Duration::from_millis(300));
    }
    drop(idle);
}

/// Over `--max-connections`, the oldest connection still sending its
/// head is closed to make room; where every connection is busy with a
/// request (here event streams), a new one is answered 503 with a
/// message.
#[test]
fn connections_over_the_cap_make_room_or_are_answered_503() {
    let server = Server::start(&["--max-connections", "4", "--hash", "1"]);
    let idle = || -> Vec<TcpStream> {
        let conns = (0..4)
            .map(|_| TcpStream::connect(&server.addr).unwrap())
            .collect();
        std::thread::sleep(Duration::from_millis(300));
        conns
    };
    // Four idle connections, then four more: each new one takes the
    // place of the oldest, and a request that of the oldest left.
    let mut first = idle();
    let mut second = idle();
    assert_eq!(get(&server.addr, "/api/games").status, 200);
    for (i, s) in first.iter_mut().chain(&mut second[..1]).enumerate() {
        assert!(
            closed_within(s, Duration::from_secs(5)).is_some(),
            "idle connection {i} kept its place"
        );
    }
    for (i, s) in second[1..].iter_mut().enumerate() {
        assert!(
            closed_within(s, Duration::from_millis(300)).is_none(),
            "idle connection {} closed before its time",
            i + 5
        );
    }
    drop(second);
    let streams: Vec<Events> = (0..4)
        .map(|_| Events::open(&server.addr, "/api/analysis?game=aporia"))
        .collect();
    let msg = refused(&get(&server.addr, "/api/games"), 503, "a fifth connection");
    assert!(msg.contains("connection limit"), "{msg}");
    drop(streams);
    let start = Instant::now();
    while get(&server.addr, "/api/games").status != 200 {
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "no room after the streams closed"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// DNS rebinding and other sites' pages: a request must name this
/// server (`127.0.0.1:<port>` or `localhost:<port>`, or a name given with
/// `--allow-host`) as its Host and Origin.
#[test]
fn requests_naming_another_host_are_refused_403() {
    let server = Server::start(&["--allow-host", "box.lan"]);
    let port = server.addr.split(':').nth(1).unwrap().to_string();
    let ask = |headers: &str| {
        let req = format!("GET /api/records HTTP/1.1\r\n{headers}Connection: close\r\n\r\n");
        exchange(&server.addr, req.as_bytes())
    };
    let msg = refused(&ask("Host: evil.example\r\n"), 403, "Host: evil.example");
    assert!(msg.contains("evil.example"), "{msg}");
    for headers in [
        format!("Host: evil.example:{port}\r\n"),
        "Host: 127.0.0.1:1\r\n".to_string(),
        format!("Host: 127.0.0.1:{port}\r\nOrigin: http://evil.example\r\n"),
        format!("Host: 127.0.0.1:{port}\r\nOrigin: http://localhost:1\r\n"),
        format!("Host: 127.0.0.1:{port}\r\nOrigin: null\r\n"),
        format!("Host: 127.0.0.1:{port}\r\nSec-Fetch-Site: cross-site\r\n"),
    ] {
        refused(&ask(&headers), 403, &headers);
    }
    refused(&ask(""), 400, "no Host");
    // No --records-dir: the request reaches the route, which lists no
    // records files.
    for headers in [
        format!("Host: localhost:{port}\r\n"),
        format!("Host: 127.0.0.1:{port}\r\nOrigin: http://127.0.0.1:{port}\r\n"),
        "Host: box.lan\r\n".to_string(),
        "Host: BOX.lan:443\r\nOrigin: https://box.lan\r\n".to_string(),
    ] {
        let a = ask(&headers);
        assert_eq!(
            (a.status, a.json()),
            (200, serde_json::json!([])),
            "{headers}"
        );
    }
    let bad = crate::common::rejected(&["serve", "--port", "0", "--allow-host", "a/b"]);
    assert!(bad.contains("--allow-host"), "{bad}");
}

/// Every answer, the page's files, the API's and every refusal, the
/// server's own included, carries the security headers.
#[test]
fn every_answer_carries_the_security_headers() {
    let server = Server::start(&[]);
    let page = get(&server.addr, "/").body;
    let scripts = page_scripts(&page);
    let mut answers: Vec<(String, Answer)> = [
        "/",
        "/style.css",
        "/api/games",
        "/api/position?game=x",
        "/nothing",
    ]
    .iter()
    .map(|t| t.to_string())
    .chain(scripts.iter().map(|s| format!("/{s}")))
    .map(|t| {
        let a = get(&server.addr, &t);
        (t, a)
    })
    .collect();
    answers.push((
        "evil".into(),
        exchange(
            &server.addr,
            b"GET / HTTP/1.1\r\nHost: evil.example\r\n\r\n",
        ),
    ));
    answers.push((
        "malformed".into(),
        exchange(&server.addr, b"GET /\x01 HTTP/1.1\r\n\r\n"),
    ));
    let mut events = Events::open(&server.addr, "/api/analysis?game=aporia&depth=1");
    events.next();
    for (what, a) in &answers {
        for header in [
            "content-security-policy: default-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
            "x-content-type-options: nosniff",
            "x-frame-options: deny",
            "referrer-policy: no-referrer",
        ] {
            assert!(a.headers.contains(header), "{what}: no {header}: {}", a.headers);
        }
    }
    // The page keeps to that policy: no inline script, style or handler.
    for inline in ["<style", "style=", "onclick=", "onload=", "javascript:"] {
        assert!(!page.contains(inline), "the page has {inline}");
    }
    let mut rest = page.clone();
    for file in &scripts {
        rest = rest.replace(&format!("<script src=\"{file}\"></script>"), "");
    }
    assert!(!rest.contains("<script"), "{rest}");
    assert!(scripts.len() > 2, "{scripts:?}");
    for file in &scripts {
        let script = get(&server.addr, &format!("/{file}")).body;
        for inline in ["eval(", "new Function", "style=\"", "setAttribute(\"style"] {
            assert!(!script.contains(inline), "{file} uses {inline}");
        }
    }
}

/// What hyper refused itself with an empty body is refused by the server,
/// with a message: a target over 60,000 bytes (414), a malformed request
/// line or a NUL byte (400), a head over 64 KiB or with over 64 header
/// lines (431), a head cut off (400), a chunked or large body (400, 413).
#[test]
fn the_http_layer_s_refusals_carry_a_message() {
    let server = Server::start(&[]);
    let host = format!("Host: {}\r\n", server.addr);
    let long = format!(
        "GET /api/position?game=aporia&moves={} HTTP/1.1\r\n{host}\r\n",
        "a".repeat(70_000)
    );
    refused(
        &exchange(&server.addr, long.as_bytes()),
        414,
        "a long target",
    );
    for bad in [
        "GET\r\n\r\n".to_string(),
        "GET / HTTP/9.9\r\n\r\n".to_string(),
        "GET / HTTP/1.1 extra\r\n\r\n".to_string(),
        format!("GET /\0 HTTP/1.1\r\n{host}\r\n"),
        format!("GET / HTTP/1.1\r\n{host}X-A\0: 1\r\n\r\n"),
        format!("GET / HTTP/1.1\r\n{host}X-A: \0\r\n\r\n"),
        format!("GET http://evil.example/ HTTP/1.1\r\n{host}\r\n"),
        format!("POST / HTTP/1.1\r\n{host}Transfer-Encoding: chunked\r\n\r\n0\r\n\r\n"),
        format!("POST / HTTP/1.1\r\n{host}Content-Length: x\r\n\r\n"),
        "\u{1}\u{2}\u{3}\r\n\r\n".to_string(),
    ] {
        refused(
            &exchange(&server.addr, bad.as_bytes()),
            400,
            &bad.escape_debug().to_string(),
        );
    }
    let big = format!(
        "GET / HTTP/1.1\r\n{host}X-Big: {}\r\n\r\n",
        "b".repeat(70_000)
    );
    refused(
        &exchange(&server.addr, big.as_bytes()),
        431,
        "a large header",
    );
    let many: String = (0..100).map(|i| format!("X-{i}: 1\r\n")).collect();
    let req = format!("GET / HTTP/1.1\r\n{host}{many}\r\n");
    refused(&exchange(&server.addr, req.as_bytes()), 431, "100 headers");
    let req = format!("POST / HTTP/1.1\r\n{host}Content-Length: 100000000\r\n\r\n");
    refused(&exchange(&server.addr, req.as_bytes()), 413, "a large body");
    // A whole request, then the client closes its sending side: it is
    // answered.
    let mut s = TcpStream::connect(&server.addr).unwrap();
    write!(s, "GET /api/games HTTP/1.1\r\n{host}\r\n").unwrap();
    s.shutdown(std::net::Shutdown::Write).unwrap();
    let got = closed_within(&mut s, Duration::from_secs(5)).expect("closed");
    assert!(got.starts_with("HTTP/1.1 200"), "{got}");
    // A head cut off: the client says it has sent everything.
    let mut s = TcpStream::connect(&server.addr).unwrap();
    s.write_all(b"GET / HTTP/1.1\r\nHo").unwrap();
    s.shutdown(std::net::Shutdown::Write).unwrap();
    let got = closed_within(&mut s, Duration::from_secs(5)).expect("closed");
    assert!(got.starts_with("HTTP/1.1 400"), "{got}");
    assert!(got.contains("{\"error\":"), "{got}");
}

/// `depth`, `time` and `multipv` are checked on every route that reads
/// the query, not only the searching ones.
#[test]
fn search_limits_are_checked_on_every_route() {
    let server = Server::start(&[]);
    for route in [
        "position", "export", "table", "engine", "analysis", "scores",
    ] {
        for limit in [
            "depth=0",
            "depth=65",
            "time=0",
            "time=600001",
            "multipv=0",
            "multipv=257",
            "depth=2&time=5",
        ] {
            let target = format!("/api/{route}?game=aporia&{limit}");
            refused(&get(&server.addr, &target), 400, &target);
        }
    }
    assert_eq!(
        get(&server.addr, "/api/position?game=aporia&depth=64").status,
        200
    );
}

/// Tampered records are refused, not served: each record is replayed
/// first. The list names exactly the files that open: not hidden ones,
/// links out of the folder, folders, files over the cap or files whose
/// records do not replay.
#[test]
fn only_records_that_replay_are_listed_and_served() {
    let dir = crate::common::scratch_dir("serve-tampered");
    let outside = crate::common::scratch_dir("serve-outside");
    let server = Server::start(&["--records-dir", dir.to_str().unwrap()]);
    let first = get(&server.addr, "/api/position?game=apart").json()["moves"][0]["text"]
        .as_str()
        .unwrap()
        .to_string();
    let good = exported(&server.addr, "apart", &first);
    let tampered = |field: &str, value: Value| {
        let mut v = good.clone();
        v[field] = value;
        v
    };
    let files = [
        ("good.jsonl", good.clone(), true),
        ("game.jsonl", tampered("game", "nonexistent".into()), false),
        (
            "illegal.jsonl",
            tampered("moves", serde_json::json!(["z9-z8"])),
            false,
        ),
        ("result.jsonl", tampered("result", "7-7".into()), false),
        ("engines.jsonl", tampered("engines", "a".into()), false),
        (".hidden.jsonl", good.clone(), false),
    ];
    for (name, v, _) in &files {
        std::fs::write(dir.join(name), format!("{v}\n")).unwrap();
    }
    std::fs::write(outside.join("out.jsonl"), format!("{good}\n")).unwrap();
    std::os::unix::fs::symlink(outside.join("out.jsonl"), dir.join("link-out.jsonl")).unwrap();
    std::os::unix::fs::symlink(dir.join("good.jsonl"), dir.join("link-in.jsonl")).unwrap();
    std::fs::create_dir(dir.join("folder.jsonl")).unwrap();
    let big = std::fs::File::create(dir.join("big.jsonl")).unwrap();
    big.set_len(200 << 20).unwrap();
    let listed: Vec<String> = get(&server.addr, "/api/records")
        .json()
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n.as_str().unwrap().to_string())
        .collect();
    assert_eq!(listed, ["good.jsonl", "link-in.jsonl"]);
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    for name in &names {
        let a = get(&server.addr, &format!("/api/record?file={}", enc(name)));
        if listed.contains(name) {
            assert_eq!(a.status, 200, "{name}: {}", a.body);
            assert_eq!(a.json()[0]["moves"][0], first.as_str(), "{name}");
        } else {
            let msg = refused(&a, 400, name);
            if name == "big.jsonl" {
                assert!(msg.contains("larger than 16 MiB"), "{msg}");
            }
        }
    }
    for (name, _, ok) in &files {
        assert_eq!(listed.contains(&name.to_string()), *ok, "{name}");
    }
}

/// A file over the cap is refused without being read: the server's peak
/// memory stays where it was (it rose by the file's size when files were
/// read whole).
#[cfg(target_os = "linux")]
#[test]
fn a_records_file_over_the_cap_is_not_read() {
    let dir = crate::common::scratch_dir("serve-big");
    let server = Server::start(&["--records-dir", dir.to_str().unwrap()]);
    // Written, not sparse: a grown file of 200 MB of text.
    let line = "x".repeat(1 << 20);
    let mut f = std::fs::File::create(dir.join("big.jsonl")).unwrap();
    for _ in 0..200 {
        writeln!(f, "{line}").unwrap();
    }
    drop(f);
    let peak = |pid: u32| -> u64 {
        let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
        status
            .lines()
            .find_map(|l| l.strip_prefix("VmHWM:"))
            .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
            .unwrap()
    };
    get(&server.addr, "/api/games");
    let before = peak(server.pid());
    refused(
        &get(&server.addr, "/api/record?file=big.jsonl"),
        400,
        "a 200 MB file",
    );
    assert_eq!(
        get(&server.addr, "/api/records").json(),
        serde_json::json!([])
    );
    let after = peak(server.pid());
    assert!(
        after < before + 20_000,
        "peak memory rose from {before} kB to {after} kB"
    );
}

/// The server's peak resident memory in kB (VmHWM).
#[cfg(target_os = "linux")]
fn peak_kb(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap()
}

/// A records file just under the cap, of tens of thousands of finished
/// games, is checked record by record: listing it holds one line at a
/// time (the server's peak memory rises by far less than the file's 15
/// MiB, which reading it whole took), and it is served game by game.
#[cfg(target_os = "linux")]
#[test]
fn a_records_file_of_many_games_is_listed_a_line_at_a_time() {
    let dir = crate::common::scratch_dir("serve-many");
    let played = dir.join("played.jsonl.part");
    let _ = std::fs::remove_file(&played);
    crate::common::ok(&[
        "tournament",
        "epaminondas",
        "--engine",
        "name=a,random",
        "--engine",
        "name=b,random",
        "--games",
        "2",
        "--ply-limit",
        "6",
        "--records",
        played.to_str().unwrap(),
    ]);
    let two = std::fs::read_to_string(&played).unwrap();
    std::fs::remove_file(&played).unwrap();
    let copies = (15 << 20) / two.len();
    let mut f = std::io::BufWriter::new(std::fs::File::create(dir.join("many.jsonl")).unwrap());
    for _ in 0..copies {
        f.write_all(two.as_bytes()).unwrap();
    }
    drop(f);
    let server = Server::start(&["--records-dir", dir.to_str().unwrap()]);
    get(&server.addr, "/api/games");
    let before = peak_kb(server.pid());
    assert_eq!(
        get(&server.addr, "/api/records").json(),
        serde_json::json!(["many.jsonl"])
    );
    let after = peak_kb(server.pid());
    assert!(
        after < before + 6_000,
        "listing a 15 MiB file raised the peak memory from {before} kB to {after} kB"
    );
    let games = get(&server.addr, "/api/record?file=many.jsonl").json();
    assert_eq!(games.as_array().unwrap().len(), 2 * copies);
    assert_eq!(games[2 * copies - 1]["reason"], "ply limit");
    // Grown past the cap, it is refused, and no longer listed.
    let mut f = std::fs::OpenOptions::new()
        .append(true)
        .open(dir.join("many.jsonl"))
        .unwrap();
    let short = (16 << 20) - copies * two.len();
    f.write_all(two.repeat(short / two.len() + 1).as_bytes())
        .unwrap();
    drop(f);
    let msg = refused(
        &get(&server.addr, "/api/record?file=many.jsonl"),
        400,
        "a file over the cap",
    );
    assert!(msg.contains("larger than 16 MiB"), "{msg}");
    assert_eq!(
        get(&server.addr, "/api/records").json(),
        serde_json::json!([])
    );
}

/// A game of `game` played by a seeded random choice of each move (each
/// player's action at a simultaneous round), to its end or `plies` steps:
/// its moves, and each position's answer from `/api/position`.
fn seeded_game(addr: &str, game: &str, plies: usize, seed: u64) -> (Vec<String>, Vec<Value>) {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut moves: Vec<String> = Vec::new();
    let mut views = Vec::new();
    loop {
        let v = get(
            addr,
            &format!("/api/position?game={game}&moves={}", enc(&moves.join(";"))),
        )
        .json();
        let node = v["node"].as_str().unwrap().to_string();
        views.push(v.clone());
        if node == "terminal" || moves.len() == plies {
            return (moves, views);
        }
        let step = random_step(addr, game, &moves, &v, &mut rng);
        moves.push(step);
    }
}

/// A move drawn at random at position `v` (the answer of
/// `/api/position` for `moves` of `game`): a joint action of one random
/// action per player at a simultaneous node, else one of the moves; a
/// resolution of more outcomes than the position lists draws from all of
/// them, taking the one drawn from its page of `/api/outcomes` (which
/// pages them in the same order).
pub fn random_step(
    addr: &str,
    game: &str,
    moves: &[String],
    v: &Value,
    rng: &mut SmallRng,
) -> String {
    let mut pick = |list: &Value| {
        let list = list.as_array().unwrap();
        list[rng.gen_range(0..list.len())]["text"]
            .as_str()
            .unwrap()
            .to_string()
    };
    if v["node"] == "simultaneous" {
        let actions: Vec<String> = v["actions"]
            .as_array()
            .unwrap()
            .iter()
            .map(&mut pick)
            .collect();
        return actions.join(",");
    }
    if !v["moves"].as_array().unwrap().is_empty() {
        return pick(&v["moves"]);
    }
    let count = v["outcome_count"].as_u64().unwrap() as usize;
    let index = rng.gen_range(0..count);
    let from = index / 60 * 60;
    let page = get(
        addr,
        &format!(
            "/api/outcomes?game={game}&moves={}&from={from}",
            enc(&moves.join(";"))
        ),
    )
    .json();
    page["moves"][index - from]["text"]
        .as_str()
        .unwrap()
        .to_string()
}

/// The scores events of `moves` of `game` searched to `depth`.
fn scored(addr: &str, game: &str, moves: &[String], depth: u32) -> Vec<Value> {
    let mut events = Events::open(
        addr,
        &format!(
            "/api/scores?game={game}&depth={depth}&moves={}",
            enc(&moves.join(";"))
        ),
    );
    let mut out = Vec::new();
    loop {
        let e = events.next();
        assert!(e["error"].is_null(), "{game}: {e}");
        if e["done"] == true {
            return out;
        }
        if e["ply"].is_number() {
            out.push(e);
        }
    }
}

/// The evaluation graph's labels, on a game of each id: none on a forced
/// move (one legal move, every forced Spokes resolution), none on a move
/// the search values as the best (Empedocles' setup placements of equal
/// value among them), each the win probability the mover's side lost
/// against the best move at the same depth; a finished four-player game
/// ends at the winner's 100% and its last move is not labelled a loss
/// for the winner.
#[test]
#[ignore = "long check"]
fn long_moves_are_labelled_only_by_a_loss_of_win_probability() {
    let server = Server::start(&["--threads", "1", "--hash", "16"]);
    for (k, game) in GAMES.iter().enumerate() {
        let four = game.starts_with("spokes") && *game != "spokes";
        let (moves, views) = seeded_game(
            &server.addr,
            game,
            if four { 600 } else { 40 },
            7 + k as u64,
        );
        let depth = if four { 1 } else { 2 };
        let events = scored(&server.addr, game, &moves, depth);
        assert_eq!(events.len(), views.len(), "{game}");
        let mut labels = 0;
        for (ply, (e, v)) in events.iter().zip(&views).enumerate() {
            let label = &e["label"];
            let forced = v["node"] == "decision" && v["moves"].as_array().unwrap().len() == 1;
            assert_eq!(e["forced"], forced, "{game} ply {ply}: {e}");
            if forced || v["node"] != "decision" || ply == moves.len() {
                assert!(label.is_null(), "{game} ply {ply}: {e}");
                continue;
            }
            if !label.is_null() {
                labels += 1;
                assert!(e["loss"].as_f64().unwrap() >= 0.05, "{game} ply {ply}: {e}");
            }
            // The move played valued as the best by the search at this
            // depth (its line's score the best line's): no label.
            if !four && label.is_null() {
                continue;
            }
            if !four {
                let mut a = Events::open(
                    &server.addr,
                    &format!(
                        "/api/analysis?game={game}&depth={depth}&multipv=256&moves={}",
                        enc(&moves[..ply].join(";"))
                    ),
                );
                let mut last = Value::Null;
                loop {
                    let it = a.next();
                    if it["done"] == true {
                        break;
                    }
                    if it["depth"].is_number() {
                        last = it;
                    }
                }
                let lines = last["lines"].as_array().unwrap();
                let best = &lines[0]["score"];
                // A move beyond the 256 lines listed scores at most the
                // last line's.
                let Some(played) = lines.iter().find(|l| l["pv"][0] == moves[ply].as_str()) else {
                    let worst = lines.last().unwrap()["score"].as_f64().unwrap();
                    assert!(worst != best.as_f64().unwrap(), "{game} ply {ply}: {e}");
                    continue;
                };
                assert_ne!(
                    &played["score"], best,
                    "{game} ply {ply}: {} is labelled {label} but scores as the best: {e}",
                    moves[ply]
                );
            }
        }
        eprintln!("{game}: {} moves, {labels} labelled", moves.len());
        if four {
            let end = views.last().unwrap();
            assert_eq!(
                end["node"],
                "terminal",
                "{game}: unfinished after {} steps",
                moves.len()
            );
            let winner = end["winner"].as_u64().unwrap();
            let last = events.last().unwrap()["score"].as_f64().unwrap();
            // The graph is the first side's: the winner's 100% is its 100%
            // if it won, else its 0%.
            if winner == 0 {
                assert!(
                    last >= 29000.0,
                    "{game}: side {winner} won, graph ends at {last}"
                );
            } else {
                assert!(
                    last <= -29000.0,
                    "{game}: side {winner} won, graph ends at {last}"
                );
            }
            let before = &events[events.len() - 2];
            if before["labelled"].as_u64() == Some(winner) {
                assert!(
                    before["label"].is_null(),
                    "{game}: the winning move is labelled: {before}"
                );
            }
        }
    }
}

/// A Spokes board given as a resolution that reaches the rules' limit of
/// 5,000,000 boards before it ends (its one outcome is then the loop
/// removal): seconds of work and hundreds of MB for one request.
const HOSTILE_RESOLUTION: &str = "w/bwbw/wbwbwbwb/bwbwbwbwbwbwbwbw/wbwbwbwbwbwbwbwb 1 resolve";

/// The position request of [`HOSTILE_RESOLUTION`] at round `round`: a
/// position of its own, whose moves no other round's listing gives.
fn hostile_position(round: u32) -> String {
    let fen = HOSTILE_RESOLUTION.replace(" 1 ", &format!(" {round} "));
    format!("/api/position?game=spokes&fen={}", enc(&fen))
}

/// Sends `GET target` on a new connection and leaves it open, unread.
fn send_only(addr: &str, target: &str) -> TcpStream {
    let mut s = TcpStream::connect(addr).expect("connect");
    write!(
        s,
        "GET {target} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    s
}

/// Waits up to `limit` for the server to run `n` searches.
fn wait_searches(addr: &str, n: u64, limit: Duration) -> bool {
    let start = Instant::now();
    while start.elapsed() < limit {
        if searches(addr) == n {
            return true;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    false
}

/// A request answered within `limit` (its status).
fn answered_within(addr: &str, target: &str, limit: Duration) -> Option<u16> {
    let mut s = send_only(addr, target);
    let got = closed_within(&mut s, limit)?;
    got.split(' ').nth(1).and_then(|c| c.parse().ok())
}

/// How many threads of process `pid` are running or ready to run now.
#[cfg(target_os = "linux")]
fn runnable_threads(pid: u32) -> usize {
    let Ok(tasks) = std::fs::read_dir(format!("/proc/{pid}/task")) else {
        return 0;
    };
    tasks
        .filter_map(|t| std::fs::read_to_string(t.ok()?.path().join("stat")).ok())
        .filter(|stat| {
            stat.rsplit_once(')')
                .is_some_and(|(_, rest)| rest.trim_start().starts_with('R'))
        })
        .count()
}

/// An engine move searched to depth 64 and a resolution of 5,000,000
/// boards, each closed by its client part way: the server is idle (no
/// search held, no thread running) within a second, and the next engine move is answered
/// at once. Before, the search went on to its depth (an engine move of
/// depth 1 waited over 15 s behind it) and the resolution to its end.
#[cfg(target_os = "linux")]
#[test]
fn work_stops_within_a_second_of_its_client_closing() {
    let server = Server::start(&[]);
    let addr = &server.addr;
    let quick = "/api/engine?game=aporia&depth=1";
    // An engine move asked at a hostile resolution, its client gone while
    // the resolution is being listed: the search stops with the listing
    // (before, the emptied listing reached the search, which panicked).
    let engine_at_resolution = format!(
        "/api/engine?game=spokes&fen={}&time=600000",
        enc(&HOSTILE_RESOLUTION.replace(" 1 ", " 2 "))
    );
    for target in [
        "/api/engine?game=aporia&depth=64",
        &hostile_position(1),
        &engine_at_resolution,
    ] {
        let s = send_only(addr, target);
        // The search, or the resolution past its first boards, holds the
        // server's one thread.
        assert!(
            wait_searches(addr, 1, Duration::from_secs(10)),
            "{target}: no search thread held"
        );
        std::thread::sleep(Duration::from_millis(300));
        drop(s);
        assert!(
            wait_idle(addr, Duration::from_secs(1)),
            "{target}: still searching a second after its client closed"
        );
        // A search or resolution going on is runnable at nearly every
        // look, however loaded the machine.
        let busy = (0..10)
            .filter(|_| {
                std::thread::sleep(Duration::from_millis(100));
                runnable_threads(server.pid()) > 0
            })
            .count();
        assert!(
            busy <= 3,
            "{target}: a thread runnable at {busy} of 10 looks in a second"
        );
        assert_eq!(
            answered_within(addr, quick, Duration::from_secs(5)),
            Some(200),
            "{target}: the next engine move waited"
        );
    }
}

/// The server's resident memory now in kB (VmRSS).
#[cfg(target_os = "linux")]
fn rss_kb(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap()
}

/// Twenty hostile resolutions at once (each of its own round, so that no
/// two share a listing), ten closed as soon as sent and ten waited for: each takes the server's one search thread in turn past its
/// first boards, so the server peaks at one resolution's memory (under
/// 400 MB; about 250) however many come, where before every one ran at
/// once (1.45 GB and climbing with six). The closed ones stop at once;
/// when the first waited for is answered the rest are closed, and the
/// server is idle again.
#[cfg(target_os = "linux")]
#[test]
#[ignore = "long check"]
fn long_twenty_hostile_resolutions_keep_the_server_within_its_memory() {
    let server = Server::start(&[]);
    let addr = server.addr.clone();
    let mut waiting = Vec::new();
    for i in 0..20 {
        let s = send_only(&addr, &hostile_position(i + 1));
        if i % 2 == 0 {
            drop(s);
        } else {
            waiting.push(s);
        }
    }
    let limit_kb = 400 * 1024;
    let start = Instant::now();
    let mut answered = None;
    while answered.is_none() && start.elapsed() < Duration::from_secs(240) {
        assert!(
            peak_kb(server.pid()) < limit_kb,
            "peak {} kB (now {} kB) after {:?}",
            peak_kb(server.pid()),
            rss_kb(server.pid()),
            start.elapsed()
        );
        for s in &mut waiting {
            s.set_nonblocking(true).unwrap();
            let mut byte = [0u8; 1];
            if s.peek(&mut byte).is_ok_and(|n| n > 0) {
                answered = Some(start.elapsed());
            }
            s.set_nonblocking(false).unwrap();
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    assert!(answered.is_some(), "no resolution was answered in 240 s");
    let peak = peak_kb(server.pid());
    assert!(peak < limit_kb, "peak {peak} kB");
    eprintln!("peak {peak} kB; the first answer after {answered:?}");
    drop(waiting);
    assert!(
        wait_idle(&addr, Duration::from_secs(2)),
        "resolutions went on after their clients closed"
    );
    assert_eq!(
        answered_within(
            &addr,
            "/api/engine?game=aporia&depth=1",
            Duration::from_secs(5)
        ),
        Some(200)
    );
}

/// Empedocles' die outcomes come named as the rules name them, with what
/// each does, and the position after a roll says what it did: the
/// rules' example of a transmutation (the four edge fires, five
/// neighbours each, die together; the corner fires and the earth live),
/// one that removes nothing, and a roll without a transmutation.
#[test]
fn a_die_s_outcomes_are_named_and_what_a_roll_did_is_said() {
    let server = Server::start(&[]);
    let fen = "8/8/8/2FFF3/2FeF3/2FFF3/8/8 2 r:fire,earth";
    let at = |fen: &str, moves: &str| {
        let a = get(
            &server.addr,
            &format!(
                "/api/position?game=empedocles&fen={}&moves={moves}",
                enc(fen)
            ),
        );
        assert_eq!(a.status, 200, "{fen} {moves}: {}", a.body);
        a.json()
    };
    let v = at(fen, "");
    let names: Vec<(&str, &str)> = v["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| (m["text"].as_str().unwrap(), m["name"].as_str().unwrap()))
        .collect();
    assert_eq!(
        names,
        [
            ("T", "transmutation, then one action (1–2)"),
            ("N", "one action (3–5)"),
            ("D", "two actions (6)")
        ]
    );
    assert!(v["moves"][0]["does"]
        .as_str()
        .unwrap()
        .contains("outside its element's range"));
    assert!(v["rolled"].is_null(), "{}", v["rolled"]);
    assert_eq!(
        at(fen, "T")["rolled"],
        "rolled transmutation, then one action (1–2): 4 pieces died, fire on d5, c4, e4, d3"
    );
    assert_eq!(
        at("8/8/8/3FF3/3FF3/8/ee6/ee6 1 r:fire,earth", "T")["rolled"],
        "rolled transmutation, then one action (1–2): no piece died"
    );
    assert_eq!(at(fen, "D")["rolled"], "rolled two actions (6)");
    // Other games' moves have no such names; an action after a roll says
    // nothing of it.
    let after = at(fen, "N")["moves"][0]["text"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(at(fen, &format!("N;{}", enc(&after)))["rolled"].is_null());
    let apart = get(&server.addr, "/api/position?game=apart").json();
    assert!(apart["moves"][0]["name"].is_null() && apart["rolled"].is_null());
    // Which games have a solver, table or not.
    for (game, solver) in [("aporia", true), ("apart", false)] {
        let t = get(&server.addr, &format!("/api/table?game={game}")).json();
        assert_eq!(t["solver"], solver, "{game}: {t}");
    }
}
