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
}

impl Server {
    /// Starts `gamut serve --port 0` with `extra` options and reads the URL
    /// it prints.
    pub fn start(extra: &[&str]) -> Server {
        let mut child = crate::common::gamut_command()
            .args(["serve", "--port", "0"])
            .args(extra)
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
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
        Server { child, addr }
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

const GAMES: [&str; 7] = [
    "aporia",
    "apart",
    "empedocles",
    "spokes",
    "spokes4",
    "spokes2v2",
    "epaminondas",
];

#[test]
fn the_page_and_its_files_ask_nothing_of_other_sites() {
    let server = Server::start(&[]);
    for (path, kind) in [
        ("/", "text/html"),
        ("/app.js", "text/javascript"),
        ("/style.css", "text/css"),
    ] {
        let a = get(&server.addr, path);
        assert_eq!(a.status, 200, "{path}");
        assert!(a.headers.contains(kind), "{path}: {}", a.headers);
        assert!(!a.body.contains("://"), "{path} names another site");
    }
    let page = get(&server.addr, "/").body;
    assert!(page.contains("<script src=\"/app.js\">"));
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
        // The fitted win-probability scale (docs/serve.md), in the
        // evaluation's unit of 100 a home stone.
        assert_eq!(v["scale"], 146.0, "{game}");
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
            if v["node"] == "terminal" || moves.len() == 5 {
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
                let labelled = match e["mover"].as_u64() {
                    Some(0) => Value::from(0),
                    Some(side) if game == "spokes2v2" => Value::from(side),
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

#[test]
fn records_open_from_their_folder_only() {
    let dir = crate::common::scratch_dir("serve-records");
    let records = dir.join("t.jsonl");
    // A real record: the server checks every record it opens.
    let stored = include_str!("data/tournament-apart-main.jsonl");
    let line = stored.lines().next().unwrap();
    std::fs::write(&records, format!("{line}\n")).unwrap();
    let first: Value = serde_json::from_str(line).unwrap();
    let server = Server::start(&["--records-dir", dir.to_str().unwrap()]);
    assert_eq!(get(&server.addr, "/api/records").json()[0], "t.jsonl");
    let games = get(&server.addr, "/api/record?file=t.jsonl").json();
    assert_eq!(games[0]["moves"][0], first["moves"][0]);
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
    // Absent, or not a table: no verdict, and no error.
    for path in [dir.join("absent.table"), fake] {
        let server = Server::start(&["--table", path.to_str().unwrap()]);
        let a = get(&server.addr, "/api/table?game=aporia&moves=b2-a3");
        assert_eq!(a.status, 200, "{}", a.body);
        assert!(a.json()["value"].is_null(), "{}", a.body);
        assert!(get(&server.addr, "/api/table?game=apart").json()["value"].is_null());
        assert_eq!(get(&server.addr, "/api/position?game=aporia").status, 200);
    }
    // A real table (where `gamut solve aporia` has written one): the
    // verdict `show --table` prints.
    let Some(real) = gamut::tablebase::default_path("aporia").filter(|p| p.is_file()) else {
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
