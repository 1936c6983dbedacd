//! `gamut analyze` as a person watches it: lines arrive as they are known,
//! the time budget is used, an interruption still gives a best move, and
//! `--moves` reaches positions by their moves. Timings are checked on the
//! child's output as it arrives, with the margins the command promises.

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// A running `gamut` with its stdout lines and their arrival times.
struct Running {
    child: Child,
    lines: mpsc::Receiver<(Duration, String)>,
    started: Instant,
}

fn spawn(args: &[&str]) -> Running {
    let started = Instant::now();
    let mut child = crate::common::gamut_command()
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("gamut starts");
    let stdout = child.stdout.take().expect("piped stdout");
    let (tx, lines) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            let Ok(line) = line else { break };
            if tx.send((started.elapsed(), line)).is_err() {
                break;
            }
        }
    });
    Running {
        child,
        lines,
        started,
    }
}

impl Running {
    /// Every line until stdout closes, with arrival times.
    fn rest(&self) -> Vec<(Duration, String)> {
        self.lines.iter().collect()
    }

    /// Sends `signal` (a `kill` name such as `INT`) to the child.
    fn signal(&self, signal: &str) {
        let ok = Command::new("kill")
            .args([&format!("-{signal}"), &self.child.id().to_string()])
            .status()
            .expect("kill runs")
            .success();
        assert!(ok, "kill -{signal} failed");
    }
}

fn secs(d: Duration) -> f64 {
    d.as_secs_f64()
}

#[test]
fn iterations_stream_and_the_time_budget_is_used() {
    let mut run = spawn(&["analyze", "epaminondas", "--time", "3000"]);
    let lines = run.rest();
    let status = run.child.wait().unwrap();
    assert!(status.success());
    let (first_at, first) = &lines[0];
    assert!(first.starts_with("depth 1 "), "{first}");
    assert!(secs(*first_at) < 1.0, "first iteration at {first_at:?}");
    let (last_at, last) = lines.last().unwrap();
    assert!(last.starts_with("bestmove "), "{last}");
    // Used, not cut short; and not much past it (the margin is for a
    // loaded machine, where a node count between clock reads takes longer).
    assert!(
        (2.7..=3.6).contains(&secs(*last_at)),
        "bestmove at {last_at:?}"
    );
    // Iterations came one by one, not all at the end.
    let iterations: Vec<&Duration> = lines
        .iter()
        .filter(|(_, l)| l.starts_with("depth "))
        .map(|(t, _)| t)
        .collect();
    assert!(iterations.len() >= 3, "{lines:?}");
    assert!(secs(*iterations[0]) + 0.2 < secs(*last_at));
}

#[test]
fn an_interrupted_analysis_still_names_its_best_move() {
    for (signal, status) in [("INT", 130), ("TERM", 143)] {
        let mut run = spawn(&["analyze", "epaminondas", "--infinite"]);
        let first = run.lines.recv_timeout(Duration::from_secs(5)).unwrap();
        assert!(first.1.starts_with("depth 1 "), "{first:?}");
        std::thread::sleep(Duration::from_secs(2).saturating_sub(run.started.elapsed()));
        let sent = run.started.elapsed();
        run.signal(signal);
        let lines = run.rest();
        let code = run.child.wait().unwrap().code();
        let (at, last) = lines.last().expect("a best move after the signal");
        assert!(last.starts_with("bestmove "), "{signal}: {lines:?}");
        assert!(
            secs(*at) - secs(sent) < 0.5,
            "{signal}: bestmove {:?} after the signal",
            *at - sent
        );
        assert_eq!(code, Some(status), "{signal}");
    }
}

#[test]
fn perft_divide_lines_arrive_before_the_count_ends() {
    // Depth 4 from the Epaminondas start takes seconds: the first child's
    // line comes in a fraction of that, and an interruption keeps it.
    let mut run = spawn(&["perft", "epaminondas", "--depth", "4", "--divide"]);
    let (at, first) = run
        .lines
        .recv_timeout(Duration::from_secs(30))
        .expect("a first divide line");
    let (child, count) = first.split_once(": ").expect("<child>: <count>");
    assert!(!child.is_empty() && count.parse::<u64>().unwrap() > 0);
    run.signal("INT");
    let rest = run.rest();
    let status = run.child.wait().unwrap();
    assert!(!status.success());
    assert!(
        rest.iter().all(|(_, l)| l.contains(": ")),
        "only whole divide lines, no total: {rest:?}"
    );
    assert!(secs(at) < 30.0);
}

/// `show`'s position line after `--moves`.
fn position_after(game: &str, fen: Option<&str>, moves: &str) -> String {
    let mut args = vec!["show", game, "--moves", moves];
    if let Some(f) = fen {
        args.extend(["--fen", f]);
    }
    let o = crate::common::gamut_command().args(&args).output().unwrap();
    assert!(o.status.success(), "{game} {moves}: {:?}", o);
    let text = String::from_utf8(o.stdout).unwrap();
    text.lines()
        .find_map(|l| l.strip_prefix("position "))
        .expect("a position line")
        .to_string()
}

#[test]
fn moves_reach_the_positions_the_rules_give() {
    // Aporia: white b2 to a3 (the start has white on b2; the move is then
    // the last move, which the position text remembers).
    let after = position_after("aporia", None, "b2-a3");
    assert!(after.ends_with(" 2 b2-a3 -"), "{after}");
    // Apart: the piece on b1 steps to a2; Black to move.
    let apart = position_after("apart", None, "b1-a2");
    assert!(
        apart.starts_with("1BBBBBB1/1BBBBBB1/8/8/8/8/WWWWWWW1/2WWWWW1 b "),
        "{apart}"
    );
    // Empedocles: the six setup placements, then the die is to be rolled.
    let emp = position_after("empedocles", None, "@a1; @b1; @c1; @h8; @g8; @f8");
    assert_eq!(emp, "5eee/8/8/8/8/8/8/FFF5 1 r:fire,earth");
    // Epaminondas: the stone on a2 steps to a3; Black to move.
    let epa = position_after("epaminondas", None, "a2-a3");
    let row = "B".repeat(14);
    let white = "W".repeat(14);
    let empty = ["14"; 7].join("/");
    assert_eq!(
        epa,
        format!("{row}/{row}/{empty}/W13/1{}/{white} b", "W".repeat(13))
    );
    // Spokes: both players place on A, a block; its resolution is that block.
    let spokes = position_after("spokes", None, "wA,bA; X/4/8/16/16");
    assert_eq!(spokes, "X/4/8/16/16 2");
}

#[test]
fn an_illegal_move_names_itself_and_its_place() {
    for (game, moves, index) in [
        ("aporia", "b2-a3; b2-a3", "2"),
        ("epaminondas", "a1-a9", "1"),
        ("spokes", "wA,bA; nonsense", "2"),
        ("empedocles", "@a1;;@b1", "2"),
    ] {
        let o = crate::common::gamut_command()
            .args(["moves", game, "--moves", moves])
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(2), "{game} {moves}");
        assert!(o.stdout.is_empty());
        let err = String::from_utf8(o.stderr).unwrap();
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.starts_with(&format!("error: move {index} ")), "{err}");
    }
}

#[test]
fn hash_sizes_never_abort() {
    for mib in ["65536", "32768"] {
        let o = crate::common::gamut_command()
            .args(["analyze", "aporia", "--depth", "1", "--hash", mib])
            .output()
            .unwrap();
        // Either the machine has the memory (granted lazily) or it says so.
        match o.status.code() {
            Some(0) => assert!(String::from_utf8_lossy(&o.stdout).contains("bestmove")),
            Some(2) => assert_eq!(
                String::from_utf8_lossy(&o.stderr).trim(),
                format!("error: cannot allocate {mib} MiB for the hash table")
            ),
            other => panic!("--hash {mib}: status {other:?}"),
        }
    }
}

#[test]
fn scores_at_consecutive_depths_stay_within_a_stone() {
    // One stone (or piece) is worth 100 in every game's evaluation unit
    // that has material; Aporia and Apart have no captures that matter at
    // the start, and are held to the same bound.
    for (game, depth) in [
        ("aporia", "8"),
        ("apart", "4"),
        ("empedocles", "4"),
        ("epaminondas", "4"),
    ] {
        let o = crate::common::gamut_command()
            .args(["analyze", game, "--depth", depth])
            .output()
            .unwrap();
        let text = String::from_utf8(o.stdout).unwrap();
        let scores: Vec<i32> = text
            .lines()
            .filter_map(|l| l.strip_prefix("depth "))
            .map(|l| {
                let f: Vec<&str> = l.split(' ').collect();
                f[2].parse().expect("a numeric score at the start")
            })
            .collect();
        assert!(scores.len() >= 3, "{game}: {text}");
        for w in scores.windows(2) {
            assert!((w[0] - w[1]).abs() < 100, "{game}: {scores:?}");
        }
    }
}

#[test]
fn chance_roots_report_expected_values_in_evaluation_units() {
    // After the setup the die is to be rolled: depth and time limits give
    // the same kind of number, never an average of win scores.
    let fen = "5eee/8/8/8/8/8/8/FFF5 1 r:fire,earth";
    for limit in [["--depth", "3"], ["--time", "700"]] {
        let o = crate::common::gamut_command()
            .args(["analyze", "empedocles", "--fen", fen])
            .args(limit)
            .output()
            .unwrap();
        assert!(o.status.success());
        let text = String::from_utf8(o.stdout).unwrap();
        let expected = text
            .lines()
            .find_map(|l| l.strip_prefix("expected "))
            .expect("an expected line");
        let v: i32 = expected.parse().expect("a number, not a proven result");
        assert!(v.abs() <= 10_000, "{limit:?}: {v}");
        assert!(text.lines().any(|l| l.starts_with("depth 1 expected ")));
        assert_eq!(
            text.lines().filter(|l| l.starts_with("outcome ")).count(),
            3
        );
    }
}

/// The JSON objects `analyze` prints for iterations, by depth.
fn iterations_by_depth(text: &str) -> Vec<Vec<serde_json::Value>> {
    let mut by_depth: Vec<Vec<serde_json::Value>> = Vec::new();
    for line in text.lines() {
        let v: serde_json::Value = serde_json::from_str(line).expect("one JSON object a line");
        let Some(depth) = v["depth"].as_u64() else {
            continue;
        };
        if v.get("bestmove").is_some() {
            continue;
        }
        let depth = depth as usize;
        if by_depth.len() < depth {
            by_depth.resize(depth, Vec::new());
        }
        by_depth[depth - 1].push(v);
    }
    by_depth
}

#[test]
fn multipv_prints_each_iterations_best_lines_by_rank() {
    let empedocles = "5eee/8/8/8/8/8/8/FFF5 1 a2:fire,earth";
    for (game, fen, depth, moves) in [
        ("aporia", None, "3", 16),
        ("apart", None, "3", 40),
        ("epaminondas", None, "3", 114),
        ("empedocles", Some(empedocles), "3", 10),
    ] {
        for n in [3usize, 256] {
            let mut args = vec!["analyze", game, "--no-table", "--depth", depth, "--json"];
            if let Some(fen) = fen {
                args.extend(["--fen", fen]);
            }
            let count = n.to_string();
            args.extend(["--multipv", &count]);
            let text = crate::common::ok(&args);
            let by_depth = iterations_by_depth(&text);
            assert!(!by_depth.is_empty(), "{game}: {text}");
            let want = n.min(moves);
            for (d, lines) in by_depth.iter().enumerate() {
                assert_eq!(lines.len(), want, "{game} depth {}: {text}", d + 1);
                let mut firsts = std::collections::HashSet::new();
                for (k, l) in lines.iter().enumerate() {
                    assert_eq!(l["multipv"].as_u64(), Some(k as u64 + 1), "{l}");
                    assert!(firsts.insert(l["pv"][0].as_str().unwrap().to_string()));
                }
                let scores: Vec<i64> = lines.iter().map(|l| l["score"].as_i64().unwrap()).collect();
                assert!(
                    scores.windows(2).all(|w| w[0] >= w[1]),
                    "{game}: {scores:?}"
                );
            }
            let last: serde_json::Value =
                serde_json::from_str(text.lines().last().unwrap()).unwrap();
            let first_line = &by_depth.last().unwrap()[0];
            assert_eq!(last["bestmove"], first_line["pv"][0], "{game}");
            assert_eq!(last["score"], first_line["score"], "{game}");
        }
    }
}

#[test]
fn multipv_text_lines_carry_their_rank_and_one_line_has_none() {
    let three = crate::common::ok(&["analyze", "epaminondas", "--depth", "2", "--multipv", "3"]);
    let ranks: Vec<&str> = three
        .lines()
        .filter(|l| l.starts_with("depth 2 "))
        .map(|l| l.split(' ').nth(3).unwrap())
        .collect();
    assert_eq!(ranks, ["1", "2", "3"], "{three}");
    assert!(three
        .lines()
        .filter(|l| l.starts_with("depth "))
        .all(|l| l.contains(" multipv ")));
    let one = crate::common::ok(&["analyze", "epaminondas", "--depth", "2"]);
    assert!(!one.contains("multipv"), "{one}");
    assert_eq!(one.lines().filter(|l| l.starts_with("depth ")).count(), 2);
}

#[test]
fn multipv_at_a_chance_root_says_it_reports_one_line() {
    let fen = "5eee/8/8/8/8/8/8/FFF5 1 r:fire,earth";
    let o = crate::common::gamut(&[
        "analyze",
        "empedocles",
        "--fen",
        fen,
        "--depth",
        "2",
        "--multipv",
        "3",
    ]);
    assert!(o.status.success());
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("chance root reports one line"), "{err}");
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(
        out.lines().any(|l| l.starts_with("depth 2 expected ")),
        "{out}"
    );
    assert!(!out.contains("multipv"), "{out}");
}

#[test]
fn multipv_out_of_range_is_refused() {
    for n in ["0", "257", "x"] {
        crate::common::rejected(&["analyze", "aporia", "--depth", "1", "--multipv", n]);
    }
}
