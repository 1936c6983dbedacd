//! Checks shared by every game's integration tests, generic over the
//! [`Game`] trait.
#![allow(dead_code, clippy::type_complexity)]

use gamut_core::evaluate::{FullGame, TermMask, EVAL_LIMIT};
use gamut_core::game::{NodeKind, NodeRules, Notation, Player};
use gamut_core::perft::perft;
use gamut_core::suite::parse_suite;
use gamut_search::matrix;
use gamut_search::score::{outcome_score, WIN_THRESHOLD};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

/// The seed of the cases that [`fixed_cases`] draws: one whose random
/// Spokes games stay clear of the largest resolutions (those have checks
/// of their own, and the `long_` checks meet them), measured on the seeds
/// 1 to 6: 1 keeps each check under a second, 3 takes 13 s.
const FIXED_SEED: u64 = 1;

/// Proptest's settings for a check of the default suite whose cases include
/// random Spokes games: `cases` cases drawn from a fixed seed, the same in
/// every run. A random Spokes game can reach resolutions of millions of
/// boards, so fresh cases would make the check take a different time on
/// each run (from a tenth of a second to over ten seconds, now and then
/// minutes). `PROPTEST_RNG_SEED=<n>` draws other cases; the `long_` checks
/// draw fresh ones in every run.
pub fn fixed_cases(cases: u32) -> proptest::test_runner::Config {
    let mut config = proptest::test_runner::Config::with_cases(cases);
    if std::env::var_os("PROPTEST_RNG_SEED").is_none() {
        config.rng_seed = proptest::test_runner::RngSeed::Fixed(FIXED_SEED);
    }
    config
}

/// Reads `positions/<file>` and checks every count whose expected value is
/// at most `max_count` against `perft`; returns how many counts it checked.
pub fn check_suite<G: Notation>(file: &str, max_count: u64) -> usize {
    let path = format!("{}/positions/{file}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).expect("suite file");
    let mut checked = 0;
    for e in parse_suite(&text).expect("suite parses") {
        let pos = G::parse(&e.position).unwrap_or_else(|err| panic!("{path}:{}: {err}", e.line));
        assert_eq!(pos.text(), e.position, "{path}:{}: not canonical", e.line);
        for &(d, n) in &e.counts {
            if n <= max_count {
                assert_eq!(perft(&pos, d), n, "{path}:{} depth {d}", e.line);
                checked += 1;
            }
        }
    }
    checked
}

/// Every entry of `positions/<file>` as (line, position text, counts).
pub fn suite_entries(file: &str) -> Vec<(usize, String, Vec<(u32, u64)>)> {
    let path = format!("{}/positions/{file}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).expect("suite file");
    parse_suite(&text)
        .expect("suite parses")
        .into_iter()
        .map(|e| (e.line, e.position, e.counts))
        .collect()
}

/// A random child of `pos` (which must not be terminal): a uniform move at a
/// decision node, an outcome drawn by probability at a chance node, a
/// uniform joint action at a simultaneous node.
pub fn random_child<G: Notation>(pos: &G, rng: &mut SmallRng, buf: &mut Vec<G::Move>) -> G {
    match pos.node() {
        NodeKind::Terminal => panic!("no child of a terminal position"),
        NodeKind::Decision(_) => {
            pos.moves(buf);
            assert!(
                !buf.is_empty(),
                "decision node without moves: {}",
                pos.text()
            );
            pos.play(buf[rng.gen_range(0..buf.len())])
        }
        NodeKind::Chance => {
            pos.moves(buf);
            let total: f64 = buf.iter().map(|&m| pos.probability(m)).sum();
            assert!((total - 1.0).abs() < 1e-9, "probabilities sum to {total}");
            let mut x = rng.gen::<f64>();
            for &m in buf.iter() {
                x -= pos.probability(m);
                if x < 0.0 {
                    return pos.play(m);
                }
            }
            pos.play(*buf.last().unwrap())
        }
        NodeKind::Simultaneous => {
            pos.actions(Player::FIRST, buf);
            let a = buf[rng.gen_range(0..buf.len())];
            pos.actions(Player::SECOND, buf);
            let b = buf[rng.gen_range(0..buf.len())];
            pos.play_joint(a, b)
        }
    }
}

/// Checks one position's invariants: the text round-trips, the incremental
/// hash equals the hash from scratch, terminal nodes (and only they) have an
/// outcome, and every move's text parses back to that move.
pub fn check_position<G: Notation>(pos: &G, buf: &mut Vec<G::Move>) {
    let text = pos.text();
    let back = G::parse(&text).unwrap_or_else(|e| panic!("'{text}' does not parse: {e}"));
    assert_eq!(&back, pos, "round trip of '{text}'");
    assert_eq!(back.text(), text);
    assert_eq!(pos.hash(), pos.hash_from_scratch(), "hash of '{text}'");
    assert_eq!(
        pos.node() == NodeKind::Terminal,
        pos.outcome().is_some(),
        "outcome at '{text}'"
    );
    if let NodeKind::Decision(_) | NodeKind::Chance = pos.node() {
        // One scratch for the node, so a game that works its moves out at
        // some cost (Spokes' resolutions) does so once.
        let mut scratch = G::Scratch::default();
        pos.moves_with(buf, &mut scratch);
        assert_eq!(
            pos.move_count_with(&mut scratch),
            buf.len(),
            "move_count at '{text}'"
        );
        for &m in buf.iter() {
            let mt = pos.move_text(m);
            let parsed = pos.parse_move_with(&mt, &mut scratch);
            assert_eq!(parsed, Ok(m), "move '{mt}' at '{text}'");
        }
    }
}

/// Plays `games` random games from `start` (at most `max_plies` plies each),
/// checking every position with [`check_position`] when `check` is set.
/// Returns how many games reached a terminal position.
pub fn random_games<G: Notation>(
    start: &G,
    games: usize,
    max_plies: usize,
    seed: u64,
    check: bool,
) -> usize {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut buf = Vec::new();
    let mut finished = 0;
    for _ in 0..games {
        let mut pos = start.clone();
        for _ in 0..max_plies {
            if check {
                check_position(&pos, &mut buf);
            }
            if pos.node() == NodeKind::Terminal {
                finished += 1;
                break;
            }
            pos = random_child(&pos, &mut rng, &mut buf);
        }
    }
    finished
}

/// A chance node's value from its outcomes' probabilities and values, by
/// the rule of `docs/architecture.md`: all proven wins give the slowest
/// win, all proven losses the slowest loss, anything else the mean with
/// proven results counted as plus or minus the evaluation limit.
pub fn chance_mean(values: &[(f64, i32)]) -> i32 {
    let proven = WIN_THRESHOLD;
    if values.iter().all(|&(_, v)| v > proven) {
        return values.iter().map(|&(_, v)| v).min().unwrap();
    }
    if values.iter().all(|&(_, v)| v < -proven) {
        return values.iter().map(|&(_, v)| v).max().unwrap();
    }
    let mean: f64 = values
        .iter()
        .map(|&(p, v)| p * f64::from(v.clamp(-EVAL_LIMIT, EVAL_LIMIT)))
        .sum();
    mean.round() as i32
}

/// The static value the searcher uses by default: the game's own
/// evaluation (its network where that is its default).
fn static_value<G: gamut_core::evaluate::Evaluate>(pos: &G) -> i32 {
    gamut_search::Evaluation::default_for::<G>().value_once(pos, TermMask::ALL)
}

/// Plain minimax with the searcher's depth rules and quiescence, with the
/// game's default evaluation.
pub fn minimax<G: FullGame>(pos: &G, depth: i32, ply: usize, quiescence: bool) -> i32 {
    let value = |child: &G, d: i32, me: Player| {
        let v = minimax(child, d, ply + 1, quiescence);
        if child.perspective() == me {
            v
        } else {
            -v
        }
    };
    let mut moves = Vec::new();
    match pos.node() {
        NodeKind::Terminal => outcome_score(&pos.outcome().unwrap(), pos.perspective(), ply),
        NodeKind::Decision(me) => {
            pos.moves(&mut moves);
            if depth <= 0 {
                let stand = static_value(pos);
                if !quiescence {
                    return stand;
                }
                return moves
                    .iter()
                    .filter(|&&m| pos.move_hint(m) > 0)
                    .map(|&m| value(&pos.play(m), 0, me))
                    .fold(stand, i32::max);
            }
            if moves.is_empty() {
                return static_value(pos);
            }
            moves
                .iter()
                .map(|&m| value(&pos.play(m), depth - 1, me))
                .max()
                .unwrap()
        }
        NodeKind::Chance => {
            let me = pos.perspective();
            pos.moves(&mut moves);
            let values: Vec<(f64, i32)> = moves
                .iter()
                .map(|&m| (pos.probability(m), value(&pos.play(m), depth, me)))
                .collect();
            chance_mean(&values)
        }
        NodeKind::Simultaneous if depth <= 0 => static_value(pos),
        NodeKind::Simultaneous => {
            let (mut rows, mut cols) = (Vec::new(), Vec::new());
            pos.actions(Player::FIRST, &mut rows);
            pos.actions(Player::SECOND, &mut cols);
            let payoff: Vec<f64> = rows
                .iter()
                .flat_map(|&a| cols.iter().map(move |&b| (a, b)))
                .map(|(a, b)| f64::from(value(&pos.play_joint(a, b), depth, Player::FIRST)))
                .collect();
            matrix::solve(&payoff, rows.len(), cols.len()).value.round() as i32
        }
    }
}

/// A command running the built `gamut` (or the binary `GAMUT_BIN` names,
/// to run the checks that drive the binary against another build) with
/// its data folder (where `solve` writes tables that other commands then
/// read) set to an empty folder of the tests' own, so that nothing kept
/// in the user's changes a test.
pub fn gamut_command() -> std::process::Command {
    static DATA: std::sync::OnceLock<std::path::PathBuf> = std::sync::OnceLock::new();
    let data = DATA.get_or_init(|| scratch_dir("data-home"));
    let binary = std::env::var_os("GAMUT_BIN")
        .unwrap_or_else(|| std::ffi::OsString::from(env!("CARGO_BIN_EXE_gamut")));
    let mut command = std::process::Command::new(binary);
    command.env("XDG_DATA_HOME", data);
    // The checks that interrupt gamut need the signals' default actions,
    // which a shell's background job (`(cargo test &)`, job control off)
    // passes on as ignored: the child gets them back.
    #[cfg(target_os = "linux")]
    {
        use std::os::unix::process::CommandExt;
        // SAFETY: signal(2) is async-signal-safe, as pre_exec asks.
        unsafe {
            command.pre_exec(|| {
                libc::signal(libc::SIGINT, libc::SIG_DFL);
                libc::signal(libc::SIGTERM, libc::SIG_DFL);
                Ok(())
            });
        }
    }
    command
}

/// Runs the built `gamut` with `args`.
pub fn gamut(args: &[&str]) -> std::process::Output {
    gamut_command()
        .args(args)
        .output()
        .expect("the gamut binary runs")
}

/// Runs `gamut` with `args`, asserts success, and returns its stdout.
pub fn ok(args: &[&str]) -> String {
    let o = gamut(args);
    assert!(
        o.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8(o.stdout).expect("utf-8 output")
}

/// Runs `gamut` with `args` and asserts the contract for bad input: status
/// 2, nothing on stdout, one `error: ` line on stderr and no panic; returns
/// that line.
pub fn rejected(args: &[&str]) -> String {
    let o = gamut(args);
    let err = String::from_utf8_lossy(&o.stderr).to_string();
    assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
    assert!(o.stdout.is_empty(), "{args:?} printed on stdout");
    assert_eq!(err.trim_end().lines().count(), 1, "{args:?}: {err}");
    assert!(err.starts_with("error: "), "{args:?}: {err}");
    assert!(!err.contains("panicked"), "{args:?}: {err}");
    err
}

/// Whether the outside `tool` some `tests` need is installed (`here`):
/// without it they are skipped, saying so, except under CI (`CI` set),
/// which must run them.
pub fn tool_here(here: bool, tool: &str, tests: &str) -> bool {
    if !here {
        assert!(
            std::env::var_os("CI").is_none(),
            "CI runs {tests}: install {tool}"
        );
        eprintln!("no {tool}: {tests} skipped");
    }
    here
}

/// This run's scratch folder for `name`, `<temp>/gamut-<name>-<pid>`,
/// created if need be. Every scratch folder of the run is removed when the
/// test binary exits (on Linux; elsewhere they stay).
pub fn scratch_dir(name: &str) -> std::path::PathBuf {
    static CLEANUP: std::sync::Once = std::sync::Once::new();
    CLEANUP.call_once(|| {
        #[cfg(target_os = "linux")]
        // SAFETY: `remove_scratch_dirs` is a plain function that does not
        // unwind (it ignores every error).
        unsafe {
            libc::atexit(remove_scratch_dirs);
        }
    });
    let dir = std::env::temp_dir().join(format!("gamut-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a scratch folder");
    dir
}

/// Removes this run's scratch folders (`gamut-*-<pid>` in the temp folder).
#[cfg(target_os = "linux")]
extern "C" fn remove_scratch_dirs() {
    let suffix = format!("-{}", std::process::id());
    let Ok(entries) = std::fs::read_dir(std::env::temp_dir()) else {
        return;
    };
    for e in entries.flatten() {
        let name = e.file_name().to_string_lossy().into_owned();
        if name.starts_with("gamut-") && name.ends_with(&suffix) {
            let _ = std::fs::remove_dir_all(e.path());
        }
    }
}

/// A line of a records file as JSON: the record's fields, without the
/// checksum that ends the line.
pub fn record_fields(line: &str) -> serde_json::Value {
    let mut v: serde_json::Value = serde_json::from_str(line).expect("a JSON line");
    v.as_object_mut()
        .expect("a record is an object")
        .remove("crc32");
    v
}

/// A record's fields as a line of a records file, sealed with their
/// checksum as `gamut` writes it (no newline).
pub fn sealed_line(fields: &serde_json::Value) -> String {
    gamut_players::record::seal(&fields.to_string())
}

/// The records of a records file sorted by game number, with every time
/// cleared (the game's and each move's), which vary from run to run.
pub fn untimed(path: &std::path::Path) -> Vec<gamut_players::record::GameRecord> {
    let mut recs: Vec<_> = gamut_tournament::records::read(path)
        .unwrap()
        .into_iter()
        .map(|(_, mut r)| {
            r.time_ms = 0;
            for s in &mut r.scores {
                s.time_ms = None;
            }
            r
        })
        .collect();
    recs.sort_by_key(|r| r.number);
    recs
}
