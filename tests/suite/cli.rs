//! The command-line contract, checked on the built `gamut` binary.

use crate::common::{self, gamut, rejected as assert_rejected};
use std::process::Output;

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).expect("utf-8 output")
}

/// Each implemented game and its start position's number of children.
const GAMES: [(&str, u64); 5] = [
    ("aporia", 16),
    ("apart", 40),
    ("empedocles", 64),
    ("spokes", 4046),
    ("epaminondas", 114),
];

#[test]
fn perft_prints_the_count_last_and_divide_sums_to_it() {
    for (game, n) in GAMES {
        let o = gamut(&["perft", game, "--depth", "1"]);
        assert!(o.status.success());
        assert_eq!(stdout(&o), format!("nodes {n}\n"));
        // Spokes divides by joint placement (several outcomes each), at
        // depth 1 to stay quick.
        let depth = if game == "spokes" { "1" } else { "2" };
        let o = gamut(&["perft", game, "--depth", depth, "--divide"]);
        let text = stdout(&o);
        let lines: Vec<&str> = text.lines().collect();
        let (last, rows) = lines.split_last().unwrap();
        if game != "spokes" {
            assert_eq!(rows.len() as u64, n, "{game}: one divide line per child");
        }
        let mut sum = 0;
        let mut names = Vec::new();
        for row in rows {
            let (name, count) = row.rsplit_once(": ").expect("'<child>: <count>'");
            names.push(name.to_string());
            sum += count.parse::<u64>().unwrap();
        }
        let mut sorted = names.clone();
        sorted.sort();
        assert_eq!(names, sorted, "{game}: divide is sorted by child text");
        assert_eq!(*last, format!("nodes {sum}"));
        let threaded = gamut(&["perft", game, "--depth", depth, "--threads", "2"]);
        assert_eq!(stdout(&threaded), format!("nodes {sum}\n"));
    }
}

#[test]
fn moves_lists_every_child_sorted_once() {
    for (game, n) in GAMES {
        let text = stdout(&gamut(&["moves", game]));
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len() as u64, n, "{game}");
        let mut sorted = lines.clone();
        sorted.sort_by(|a, b| gamut_core::moves::natural_cmp(a, b));
        sorted.dedup();
        assert_eq!(lines, sorted, "{game}");
    }
}

#[test]
fn moves_sort_numbers_as_numbers() {
    let text = stdout(&gamut(&["moves", "spokes"]));
    let placements: Vec<&str> = text
        .lines()
        .filter_map(|l| l.strip_prefix("wA,"))
        .filter(|a| a.starts_with("wD"))
        .collect();
    let first: Vec<&str> = placements
        .iter()
        .map(|l| l.split(' ').next().unwrap())
        .collect();
    let mut nodes = first.clone();
    nodes.dedup();
    let expected: Vec<String> = (1..=16).map(|i| format!("wD{i}")).collect();
    assert_eq!(nodes, expected, "wD1, wD2 … wD10 in number order");
}

#[test]
fn show_prints_the_position_text_it_was_given() {
    let fen =
        "BBBBBBBBBBBBBB/BBBBBBBBBBBBBB/14/14/14/14/14/14/14/14/WWWWWWWWWWWWWW/WWWWWWWWWWWWWW w";
    let o = gamut(&["show", "epaminondas", "--fen", fen]);
    assert!(o.status.success());
    let text = stdout(&o);
    assert!(text.contains(&format!("position {fen}")), "{text}");
    assert!(text.contains("state    White to move"), "{text}");
}

#[test]
fn show_names_the_side_to_move_once_in_each_games_own_words() {
    for (game, fen, state) in [
        ("aporia", None, "player 1 to move"),
        ("apart", None, "White to move"),
        (
            "apart",
            Some("1BBBBBB1/1BBBBBB1/8/8/8/8/1WWWWWW1/1WWWWWW1 b -"),
            "Black to move",
        ),
        ("empedocles", None, "player 1 to move"),
        (
            "empedocles",
            Some("8/8/3ee3/3Fe3/3FF3/8/8/8 2 r:fire,earth"),
            "player 2 to roll",
        ),
        ("spokes", None, "player 1 and player 2 choose in secret"),
        (
            "spokes",
            Some("w/bb2/5b1b/4b2w5b2/16 4 resolve"),
            "player 2 to move",
        ),
        ("epaminondas", None, "White to move"),
    ] {
        let mut args = vec!["show", game];
        if let Some(f) = fen {
            args.extend(["--fen", f]);
        }
        let o = gamut(&args);
        assert!(o.status.success(), "{args:?}");
        let text = stdout(&o);
        assert!(text.contains(&format!("\nstate    {state}\n")), "{text}");
        let mentions = text.lines().filter(|l| l.contains(" to move")).count();
        assert_eq!(mentions, usize::from(state.ends_with("to move")), "{text}");
    }
}

#[test]
fn setup_chooses_the_start_position_and_elements_is_its_alias() {
    for flag in ["--setup", "--elements"] {
        let o = gamut(&["show", "empedocles", flag, "water,air"]);
        assert!(o.status.success(), "{flag}");
        assert!(
            stdout(&o).contains("position 8/8/8/8/8/8/8/8 1 s1:water,air\n"),
            "{flag}"
        );
        let o = gamut(&["perft", "empedocles", flag, "air,fire", "--depth", "1"]);
        assert_eq!(stdout(&o), "nodes 64\n", "{flag}");
    }
    assert_rejected(&["show", "empedocles", "--setup", "fire,fire"]);
    assert_rejected(&["show", "empedocles", "--setup", "fire"]);
    assert_rejected(&[
        "show",
        "empedocles",
        "--setup",
        "fire,water",
        "--fen",
        "8/8/8/8/8/8/8/8 1 s1:fire,earth",
    ]);
    for (game, _) in GAMES {
        if game != "empedocles" {
            assert_rejected(&["show", game, "--setup", "fire,water"]);
            assert_rejected(&["perft", game, "--setup", "", "--depth", "1"]);
        }
    }
    let o = gamut(&["show", "aporia", "--setup", "x"]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.starts_with("error: bad setup for aporia: "), "{err}");
    assert!(err.contains("no setup options"), "{err}");
}

#[test]
fn analyze_reports_each_depth_then_a_legal_best_move() {
    let o = gamut(&["analyze", "epaminondas", "--depth", "3"]);
    assert!(o.status.success());
    let text = stdout(&o);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 4, "{text}");
    for (i, l) in lines[..3].iter().enumerate() {
        assert!(l.starts_with(&format!("depth {} score ", i + 1)), "{l}");
        assert!(l.contains(" nodes ") && l.contains(" nps ") && l.contains(" pv "));
    }
    let best = lines[3].strip_prefix("bestmove ").expect("bestmove last");
    let moves = stdout(&gamut(&["moves", "epaminondas"]));
    assert!(moves.lines().any(|m| m == best), "{best}");
    let json = stdout(&gamut(&[
        "analyze",
        "epaminondas",
        "--depth",
        "2",
        "--json",
    ]));
    assert!(json.lines().all(|l| l.starts_with('{') && l.ends_with('}')));
    assert!(json.lines().last().unwrap().starts_with("{\"bestmove\":"));
}

#[test]
fn bad_input_exits_2_with_one_line() {
    assert_rejected(&["perft", "chess", "--depth", "1"]);
    assert_rejected(&["perft", "epaminondas"]);
    assert_rejected(&["perft", "epaminondas", "--depth", "x"]);
    assert_rejected(&["perft", "epaminondas", "--depth", "1", "--fen", "nonsense"]);
    assert_rejected(&["perft", "epaminondas", "--depth", "1", "--fen", "14 w"]);
    assert_rejected(&["perft", "epaminondas", "--depth", "1", "--bogus"]);
    assert_rejected(&["perft", "epaminondas", "--depth", "1", "--threads", "0"]);
    assert_rejected(&["moves", "epaminondas", "--elements", "fire,water"]);
    assert_rejected(&["analyze", "epaminondas", "--infinite", "--depth", "2"]);
    assert_rejected(&[
        "analyze",
        "epaminondas",
        "--depth",
        "2",
        "--eval-off",
        "nope",
    ]);
    assert_rejected(&["show", "epaminondas", "--svg", "/nonexistent/dir/x.svg"]);
    assert_rejected(&["frobnicate"]);
    // Alone, gamut prints a one-line usage and exits 2.
    let o = gamut(&[]);
    assert_eq!(o.status.code(), Some(2));
    assert!(o.stdout.is_empty());
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.starts_with("usage: gamut <"), "{err}");
}

/// The score of the last completed depth of `analyze <game> <position>`.
fn analyzed_score(game: &str, position: [&str; 2], depth: &str) -> i32 {
    let out = stdout(&gamut(&[
        "analyze",
        game,
        position[0],
        position[1],
        "--depth",
        depth,
        "--no-table",
    ]));
    let line = out.lines().rfind(|l| l.starts_with("depth ")).unwrap();
    line.split(' ').nth(3).unwrap().parse().unwrap()
}

#[test]
fn openings_writes_distinct_positions_kept_by_their_filter() {
    let book = |args: &[&str]| {
        let o = gamut(&[&["openings"], args].concat());
        assert!(o.status.success(), "{args:?}: {o:?}");
        stdout(&o)
    };
    // Random walks: the seed decides the book, and no position repeats.
    let walks = book(&["epaminondas", "--count", "6", "--plies", "3", "--seed", "2"]);
    assert_eq!(
        walks,
        book(&["epaminondas", "--count", "6", "--plies", "3", "--seed", "2"])
    );
    assert_ne!(
        walks,
        book(&["epaminondas", "--count", "6", "--plies", "3", "--seed", "3"])
    );
    let mut lines: Vec<&str> = walks.lines().collect();
    assert_eq!(lines.len(), 6);
    for line in &lines {
        assert!(
            gamut(&["show", "epaminondas", "--fen", line])
                .status
                .success(),
            "{line}"
        );
    }
    lines.sort();
    lines.dedup();
    assert_eq!(lines.len(), 6, "{walks}");
    // --max-score keeps positions whose search score is that near zero.
    let balanced = book(&[
        "apart",
        "--count",
        "3",
        "--plies",
        "2",
        "--max-score",
        "30",
        "--depth",
        "2",
    ]);
    for line in balanced.lines() {
        let (pos, note) = line.split_once(" ; ").unwrap();
        let score: i32 = note.split(' ').nth(1).unwrap().parse().unwrap();
        assert!(score.abs() <= 30, "{line}");
        assert_eq!(
            score,
            analyzed_score("apart", ["--fen", pos], "2"),
            "{line}"
        );
    }
    // --near-best 0 plays only moves of the best score: the child chosen
    // scores, for the mover, the best over all children.
    let moves = stdout(&gamut(&["moves", "aporia"]));
    let best = moves
        .lines()
        .map(|m| -analyzed_score("aporia", ["--moves", m], "1"))
        .max()
        .unwrap();
    let chosen = book(&[
        "aporia",
        "--count",
        "2",
        "--plies",
        "1",
        "--near-best",
        "0",
        "--depth",
        "2",
    ]);
    for line in chosen.lines() {
        assert_eq!(
            -analyzed_score("aporia", ["--fen", line], "1"),
            best,
            "{line}"
        );
    }
    assert_rejected(&["openings", "epaminondas", "--count", "0"]);
    assert_rejected(&[
        "openings",
        "aporia",
        "--keep",
        "win",
        "--table",
        "/nonexistent/t",
    ]);
    assert_rejected(&["openings", "apart", "--keep", "oops"]);
    let o = gamut(&["openings", "spokes", "--keep", "win"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("no solver for spokes"));
    // A filter nothing passes in the walks allowed is an error, not a short book.
    assert_rejected(&[
        "openings",
        "epaminondas",
        "--count",
        "50",
        "--max-score",
        "0",
        "--depth",
        "1",
        "--attempts",
        "5",
    ]);
}

#[test]
fn echoed_input_has_its_newlines_and_control_characters_escaped() {
    // Each echoes the bad text; `rejected` checks the error is one line.
    let cases: [&[&str]; 4] = [
        &["analyze", "aporia", "--moves", "x\ny\u{1b}[31m"],
        &["play", "apart", "--engine", "depth=1,bo\ngus=2"],
        &["perft", "ch\ness", "--depth", "1"],
        &["show", "apo\rria"],
    ];
    for args in cases {
        let err = assert_rejected(args);
        assert!(!err.contains('\u{1b}'), "{args:?}: {err:?}");
        assert!(!err.trim_end().contains(['\n', '\r']), "{args:?}: {err:?}");
    }
    let err = assert_rejected(cases[0]);
    assert!(err.contains(r"'x\ny\u{1b}[31m'"), "{err}");
    // A spec with a control character is refused whole (it would reach
    // every game line).
    let err = assert_rejected(cases[1]);
    assert!(err.contains(r"'depth=1,bo\ngus=2'"), "{err}");
    // Errors of the command line's own parser too.
    let err = assert_rejected(cases[2]);
    assert!(err.contains(r"'ch\ness'"), "{err}");
    let err = assert_rejected(&["perft", "aporia", "--depth=1\t2"]);
    assert!(err.contains(r"'1\t2'"), "{err}");
}

#[test]
fn help_explains_every_subcommand() {
    for sub in ["perft", "moves", "show", "analyze"] {
        let o = gamut(&[sub, "--help"]);
        assert!(o.status.success(), "{sub}");
        assert!(stdout(&o).contains("Usage: gamut"), "{sub}");
    }
}

#[test]
fn bench_prints_a_row_per_case_with_cells_at_simultaneous_roots() {
    let out = crate::common::ok(&["bench", "spokes", "--runs", "1"]);
    let lines: Vec<&str> = out.lines().collect();
    assert!(lines[0].ends_with("cells/s"), "{}", lines[0]);
    let rows: Vec<Vec<&str>> = lines[1..lines.len() - 1]
        .iter()
        .map(|l| l.split_whitespace().collect())
        .collect();
    assert_eq!(rows.len(), 3, "{out}");
    for row in &rows {
        assert_eq!(row[0], "spokes");
        let nodes: u64 = row[5].parse().unwrap();
        assert!(nodes > 0, "{out}");
    }
    // The resolution root has no matrix; the two round starts have.
    assert_eq!(rows[0][7], "-");
    for row in &rows[1..] {
        assert!(row[7].parse::<f64>().unwrap() > 0.0, "{out}");
    }
    let last = lines[lines.len() - 1];
    assert!(last.starts_with("signature nodes "), "{last}");
    // Over runs, the spread of the whole search figure: a percentage,
    // which a loaded machine can push past 100.
    let out = crate::common::ok(&["bench", "aporia", "--runs", "3", "--perft-depth", "1"]);
    let last: Vec<&str> = out.lines().last().unwrap().split_whitespace().collect();
    assert_eq!(last[0..2], ["signature", "nodes"], "{out}");
    assert_eq!(last[5], "spread", "{out}");
    let spread: f64 = last[6].trim_end_matches('%').parse().unwrap();
    assert!(spread.is_finite() && spread >= 0.0, "{out}");
}

#[test]
fn a_perft_depth_beyond_the_cap_is_bad_input_not_a_stack_overflow() {
    for args in [
        &["perft", "aporia", "--depth", "65536"][..],
        &["perft", "aporia", "--depth", "1001"],
        &["perft", "epaminondas", "--depth", "65536", "--threads", "2"],
        &["bench", "aporia", "--perft-depth", "65536"],
    ] {
        let err = assert_rejected(args);
        assert!(err.contains("1000"), "{args:?}: {err}");
    }
}

#[test]
fn the_deepest_perft_accepted_fits_a_worker_threads_stack() {
    // Depth 1000 never finishes, but its first line of play is counted
    // within moments: the process must still be running (not aborted by a
    // stack overflow) a second later, in the main thread and in workers.
    let mut runs = Vec::new();
    for (game, _) in GAMES {
        for threads in ["1", "2"] {
            let child = crate::common::gamut_command()
                .args(["perft", game, "--depth", "1000", "--threads", threads])
                .stdout(std::process::Stdio::null())
                .stderr(std::process::Stdio::null())
                .spawn()
                .expect("the gamut binary runs");
            runs.push((game, threads, child));
        }
    }
    std::thread::sleep(std::time::Duration::from_millis(1500));
    for (game, threads, mut child) in runs {
        let status = child.try_wait().expect("waits");
        let _ = child.kill();
        let _ = child.wait();
        assert_eq!(status, None, "{game} --threads {threads} ended: {status:?}");
    }
}

#[test]
fn a_reader_that_goes_away_ends_the_command_silently_with_status_0() {
    use std::io::BufRead;
    // Spokes' start has 4,046 children, about 95 KB of text: more than a
    // pipe holds, so the command is still writing when the reader leaves.
    let mut child = crate::common::gamut_command()
        .args(["moves", "spokes"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("the gamut binary runs");
    let mut lines = std::io::BufReader::new(child.stdout.take().unwrap()).lines();
    for _ in 0..4 {
        assert!(lines.next().expect("a line").expect("text").contains(' '));
    }
    drop(lines);
    let o = child.wait_with_output().expect("waits");
    assert_eq!(o.status.code(), Some(0), "{o:?}");
    assert!(
        o.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
}

#[test]
fn an_unwritable_standard_output_is_an_error() {
    // A closed standard output (the shell's `>&-`), and a full disk.
    for redirect in [">&-", ">/dev/full"] {
        for command in ["moves aporia", "perft aporia --depth 2", "--help"] {
            let o = std::process::Command::new("sh")
                .arg("-c")
                .arg(format!("exec \"$0\" {command} {redirect}",))
                .arg(env!("CARGO_BIN_EXE_gamut"))
                .output()
                .expect("sh runs");
            let err = String::from_utf8_lossy(&o.stderr);
            assert_eq!(o.status.code(), Some(2), "{command} {redirect}: {err}");
            assert_eq!(err.lines().count(), 1, "{command} {redirect}: {err}");
            assert!(err.starts_with("error: "), "{command} {redirect}: {err}");
        }
    }
}

#[test]
fn openings_near_depth_needs_near_best() {
    assert_rejected(&["openings", "apart", "--near-depth", "2"]);
    assert_rejected(&[
        "openings",
        "apart",
        "--near-best",
        "10",
        "--near-depth",
        "0",
    ]);
}

#[test]
fn a_finished_game_is_named_in_the_games_own_words_by_show_and_analyze() {
    // White has a stone on Black's home row and Black none on White's.
    let fen = "2W11/14/14/14/14/14/14/4B9/14/14/14/14 w";
    let o = gamut(&["show", "epaminondas", "--fen", fen]);
    assert!(stdout(&o).contains("game over: White wins (home row)"));
    let o = gamut(&["analyze", "epaminondas", "--fen", fen, "--depth", "2"]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(
        err.trim_end(),
        "error: the game is over (White wins (home row)): nothing to search"
    );
}

/// The search options are checked against the game in one place, so every
/// game id refuses in one line what it cannot use: a network file that is
/// not one (or is another game's), an evaluation term it does not know, an
/// ordering heuristic that does not exist.
#[test]
fn every_game_refuses_in_one_line_the_options_it_cannot_use() {
    let not_a_net = common::scratch_dir("cli").join("not-a-network.net");
    std::fs::write(&not_a_net, b"plain text, no network").unwrap();
    let not_a_net = not_a_net.to_str().unwrap();
    for game in [
        "aporia",
        "apart",
        "empedocles",
        "spokes",
        "epaminondas",
        "spokes4",
        "spokes2v2",
    ] {
        for bad in [
            &["--net", not_a_net][..],
            &["--eval-off", "bogusterm"],
            &["--ordering-off", "bogus"],
            &["--eval", "classic", "--net", not_a_net],
        ] {
            let mut args = vec!["analyze", game, "--depth", "1"];
            args.extend(bad);
            common::rejected(&args);
        }
    }
    // Another game's network is not this game's.
    let apart_net = common::scratch_dir("cli").join("apart-copy.net");
    std::fs::write(
        &apart_net,
        include_bytes!("../../src/games/apart/apart.net"),
    )
    .unwrap();
    let err = common::rejected(&[
        "analyze",
        "epaminondas",
        "--depth",
        "1",
        "--net",
        apart_net.to_str().unwrap(),
    ]);
    assert!(err.contains("apart"), "{err}");
}
