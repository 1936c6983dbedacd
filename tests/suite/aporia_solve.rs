//! Aporia solved: the symmetries keep the rules, the reduced state keeps a
//! position's future, the state numbering is sound, and (long checks,
//! since building the table takes minutes) the table agrees with the
//! searcher, with the tactics file and with itself.
//!
//! The ignored tests load the table from `APORIA_TABLE` when it is set
//! (e.g. written by `gamut solve aporia --out t.table`), else build it.

use crate::common;
use std::path::Path;

use gamut_core::game::{Game, NodeKind, Notation};
use gamut_core::perft::perft;
use gamut_core::tablebase::agreement::{self, agreement};
use gamut_core::tablebase::{Oracle, Probe, Value};
use gamut_games::aporia::board::{Move, NodeSet};
use gamut_games::aporia::solve::SolvedTable;
use gamut_games::aporia::states::{board_rank, Key, StateSpace, BOARDS};
use gamut_games::aporia::{symmetry, Aporia};
use gamut_games::data::{encode_game, write_header, GameRecord, Reader, Sample};
use gamut_search::score::Score;
use gamut_search::{self as search, Config, Limits};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use std::sync::OnceLock;

/// Positions met in random games from the start, terminal ones included.
fn random_positions(count: usize, seed: u64) -> Vec<Aporia> {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut buf = Vec::new();
    let mut out = Vec::new();
    let mut pos = Aporia::start();
    while out.len() < count {
        out.push(pos);
        if pos.node() == NodeKind::Terminal || rng.gen_range(0..200) == 0 {
            pos = Aporia::start();
        } else {
            pos = common::random_child(&pos, &mut rng, &mut buf);
        }
    }
    out
}

fn sorted_moves(pos: &Aporia) -> Vec<(u8, u8)> {
    let mut moves = Vec::new();
    pos.moves(&mut moves);
    let mut v: Vec<(u8, u8)> = moves.iter().map(|m| (m.from.0, m.to.0)).collect();
    v.sort();
    v
}

#[test]
fn symmetries_map_moves_to_moves_and_keep_perft() {
    for (i, pos) in random_positions(400, 1).iter().enumerate() {
        for g in 0..symmetry::COUNT {
            let image = symmetry::position(g, pos);
            let mut moves = Vec::new();
            pos.moves(&mut moves);
            let mut mapped: Vec<(u8, u8)> = moves
                .iter()
                .map(|&m| symmetry::mv(g, m))
                .map(|m| (m.from.0, m.to.0))
                .collect();
            mapped.sort();
            assert_eq!(mapped, sorted_moves(&image), "{} under {g}", pos.text());
            for &m in &moves {
                assert_eq!(
                    symmetry::position(g, &pos.play(m)).text(),
                    image.play(symmetry::mv(g, m)).text()
                );
            }
            if i % 20 == 0 {
                assert_eq!(perft(pos, 3), perft(&image, 3), "{} under {g}", pos.text());
            }
        }
    }
}

#[test]
fn reduced_states_keep_the_moves_and_the_future() {
    for pos in random_positions(3000, 2) {
        let key = Key::of(&pos);
        let rebuilt = key.position(pos.side());
        assert_eq!(Key::of(&rebuilt), key, "{}", pos.text());
        assert_eq!(sorted_moves(&pos), sorted_moves(&rebuilt), "{}", pos.text());
        let mut moves = Vec::new();
        pos.moves(&mut moves);
        for m in moves {
            assert_eq!(
                Key::of(&pos.play(m)),
                Key::of(&rebuilt.play(m)),
                "{} then {m}",
                pos.text()
            );
        }
    }
}

fn space() -> &'static StateSpace {
    static SPACE: OnceLock<StateSpace> = OnceLock::new();
    SPACE.get_or_init(StateSpace::new)
}

#[test]
fn state_numbers_are_the_same_on_images_and_decode_back() {
    let space = space();
    for pos in random_positions(3000, 3) {
        let index = space.index(&Key::of(&pos));
        assert!(index < space.total);
        for g in 1..symmetry::COUNT {
            let image = symmetry::position(g, &pos);
            assert_eq!(
                space.index(&Key::of(&image)),
                index,
                "{} under {g}",
                pos.text()
            );
        }
        // The canonical key of the number is an image of the position's key.
        let canonical = space.key(index);
        assert!(space.is_canonical(index));
        assert!((0..symmetry::COUNT).any(|g| Key::of(&pos).mapped(g) == canonical));
    }
}

#[test]
fn boards_are_ranked_densely_and_counted() {
    let mut seen = vec![false; BOARDS];
    let mut raw = 0u64;
    for w in 0u32..1 << 16 {
        if w.count_ones() != 4 {
            continue;
        }
        let mut b = !w & 0xffff;
        // Every four-node subset of the other twelve nodes.
        let free = b;
        loop {
            if b.count_ones() == 4 {
                let (white, black) = (NodeSet(w as u16), NodeSet(b as u16));
                let r = board_rank(white, black);
                assert!(!seen[r], "rank {r} twice");
                seen[r] = true;
                // Keys on this board: `back` and `again` each none or one of
                // the board's open moves, never the same move.
                let open = Key {
                    white,
                    black,
                    back: None,
                    again: None,
                }
                .position(gamut_core::game::Player::FIRST)
                .move_count() as u64;
                raw += (open + 1) * (open + 1) - open;
            }
            if b == 0 {
                break;
            }
            b = (b - 1) & free;
        }
    }
    assert!(seen.iter().all(|&s| s));
    assert_eq!(space().raw_count(), raw);
}

fn table() -> &'static SolvedTable {
    static TABLE: OnceLock<SolvedTable> = OnceLock::new();
    TABLE.get_or_init(|| match std::env::var_os("APORIA_TABLE") {
        Some(path) => SolvedTable::load(std::path::Path::new(&path)).expect("the table loads"),
        None => {
            SolvedTable::solve(&|_, _, _| {})
                .expect("the solve succeeds")
                .0
        }
    })
}

fn search_score(pos: &Aporia, depth: u32) -> Score {
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    let config = Config::for_game::<Aporia>(1).exact();
    let r = search::search(pos, &limits, &config, &search::Table::new(4), |_| {});
    Score(r.score)
}

/// The searcher's proven result as a table value.
fn proven(score: Score) -> Option<Value> {
    score.plies_to_end().map(|n| {
        if n >= 0 && score.0 > 0 {
            Value::Win(n as u32)
        } else {
            Value::Loss((-n) as u32)
        }
    })
}

#[test]
#[ignore = "long check"]
fn long_table_agrees_with_the_searcher() {
    const DEPTH: u32 = 7;
    let table = table();
    // Random reachable positions: a result the searcher proves is the
    // table's, and a table result within its horizon is proved.
    let mut decisive = 0;
    for pos in random_positions(3000, 4) {
        if pos.node() == NodeKind::Terminal {
            assert_eq!(table.value(&pos), Value::Loss(0));
            continue;
        }
        let value = table.value(&pos);
        let found = proven(search_score(&pos, DEPTH));
        if let Some(v) = found {
            assert_eq!(v, value, "{}", pos.text());
            decisive += 1;
        }
        if let Value::Win(n) | Value::Loss(n) = value {
            if n <= DEPTH {
                assert_eq!(found, Some(value), "{}", pos.text());
            }
        }
    }
    // Decisive states from the table itself, far more of them than random
    // play meets.
    let space = table.space();
    let mut rng = SmallRng::seed_from_u64(5);
    let mut checked = 0;
    while checked < 2000 {
        let s = rng.gen_range(0..space.total);
        let value = Value::from_entry(table.entries()[s as usize]);
        if value == Value::Draw || !space.is_canonical(s) {
            continue;
        }
        let pos = space.key(s).position(gamut_core::game::Player::SECOND);
        assert_eq!(table.value(&pos), value);
        if pos.node() == NodeKind::Terminal {
            assert_eq!(value, Value::Loss(0));
            continue;
        }
        let found = proven(search_score(&pos, DEPTH));
        if let Value::Win(n) | Value::Loss(n) = value {
            if n <= DEPTH {
                assert_eq!(found, Some(value), "{}", pos.text());
            } else if let Some(v) = found {
                panic!("{}: searcher {v}, table {value}", pos.text());
            }
        }
        checked += 1;
    }
    eprintln!("{decisive} random positions proved by the searcher, 2000 decisive states checked");
}

#[test]
#[ignore = "long check"]
fn long_table_agrees_with_the_tactics_file() {
    let table = table();
    let path = format!("{}/positions/aporia.tactics", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(path).unwrap();
    let mut lines = 0;
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        let f: Vec<&str> = line.split(';').map(str::trim).collect();
        let pos = Aporia::parse(f[0]).unwrap();
        let mut best: Vec<String> = f[2]
            .strip_prefix("best ")
            .unwrap()
            .split_whitespace()
            .map(String::from)
            .collect();
        best.sort();
        let score = f[3].strip_prefix("score ").unwrap();
        assert_eq!(table.value(&pos).to_string(), score, "{line}");
        let mut ours: Vec<String> = table.best_moves(&pos).iter().map(Move::to_string).collect();
        ours.sort();
        assert_eq!(ours, best, "{line}");
        lines += 1;
    }
    assert!(lines >= 10);
}

#[test]
#[ignore = "long check"]
fn long_table_is_consistent_with_itself() {
    let table = table();
    let space = table.space();
    let mut checked = 0u64;
    for s in 0..space.total {
        if !space.is_canonical(s) {
            continue;
        }
        checked += 1;
        let pos = space.key(s).position(gamut_core::game::Player::FIRST);
        let value = Value::from_entry(table.entries()[s as usize]);
        let children: Vec<Value> = table
            .move_values(&pos)
            .into_iter()
            .map(|(_, v)| v)
            .collect();
        let here = pos.text();
        match value {
            Value::Loss(0) => assert!(children.is_empty(), "{here}"),
            Value::Win(n) => {
                // A move to a state lost in n - 1, none faster.
                assert!(children.contains(&Value::Win(n)), "{here}");
                assert!(
                    children
                        .iter()
                        .all(|c| !matches!(c, Value::Win(m) if *m < n)),
                    "{here}"
                );
            }
            Value::Loss(n) => {
                // Every move leads to a won state, the slowest in n - 1.
                assert!(!children.is_empty(), "{here}");
                assert!(
                    children
                        .iter()
                        .all(|c| matches!(c, Value::Loss(m) if *m <= n)),
                    "{here}"
                );
                assert!(children.contains(&Value::Loss(n)), "{here}");
            }
            Value::Draw => {
                // A move to a draw, none to a lost state.
                assert!(children.contains(&Value::Draw), "{here}");
                assert!(
                    children.iter().all(|c| !matches!(c, Value::Win(_))),
                    "{here}"
                );
            }
        }
    }
    assert!(checked > 10_000_000);
}

fn gamut(args: &[&str], data: &std::path::Path) -> std::process::Output {
    crate::common::gamut_command()
        .args(args)
        .env("XDG_DATA_HOME", data)
        .output()
        .expect("gamut runs")
}

/// A bad table or a game without a solver is exit status 2 with one line.
#[test]
fn bad_tables_and_unsolvable_games_are_one_line_errors() {
    let dir = common::scratch_dir("aporia-solve");
    let bad = dir.join("bad.table");
    let cases: [(&[u8], &str); 3] = [
        (b"not a table", "no GAMUTTB1 header"),
        (
            b"GAMUTTB1aporia\0\0\0\0\0\0\0\0\0\0\x01\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0",
            "entries",
        ),
        (b"", "no GAMUTTB1 header"),
    ];
    for (bytes, why) in cases {
        std::fs::write(&bad, bytes).unwrap();
        let out = gamut(&["show", "aporia", "--table", bad.to_str().unwrap()], &dir);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{err}");
        assert!(out.stdout.is_empty());
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.starts_with("error: ") && err.contains(why), "{err}");
    }
    for args in [
        &["solve", "apart"][..],
        &["show", "apart", "--table", bad.to_str().unwrap()][..],
    ] {
        let out = gamut(args, &dir);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2));
        assert_eq!(err.trim(), "error: no solver for apart");
    }
    // No table in the data directory: show prints no value line.
    let out = gamut(&["show", "aporia"], &dir);
    assert_eq!(out.status.code(), Some(0));
    assert!(!String::from_utf8_lossy(&out.stdout).contains("value"));
    // A well-formed table there (every entry a draw) is read by default.
    let entries = vec![0u8; space().total as usize];
    let path = dir.join("gamut").join("aporia.table");
    gamut_core::tablebase::write(&path, "aporia", &entries).unwrap();
    let out = gamut(&["show", "aporia"], &dir);
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8_lossy(&out.stdout);
    let line = text.lines().last().unwrap();
    assert!(
        line.starts_with("value    draw (best: b2-a3 b2-b4 "),
        "{line}"
    );
    assert_eq!(line.split_whitespace().count(), 3 + 16, "{line}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Whether the opening `text` is lost for `perfect` before play starts.
fn game_value_for(table: &SolvedTable, text: &str, perfect: gamut_core::game::Player) -> bool {
    let pos = Aporia::parse(text).unwrap();
    let v = table.value(&pos);
    (pos.side() == perfect && matches!(v, Value::Loss(_)))
        || (pos.side() != perfect && matches!(v, Value::Win(_)))
}

/// Perfect play never loses to the depth-limited searcher: 200 games from
/// openings of four random plies, the table playing each side in turn
/// (a move keeping the value, chosen at random), the searcher at depth 4,
/// at most 300 plies.
#[test]
#[ignore = "long check"]
fn long_perfect_play_never_loses_to_the_searcher() {
    let table = table();
    let mut rng = SmallRng::seed_from_u64(6);
    let mut buf = Vec::new();
    let (mut wins, mut unfinished, mut lost_openings) = (0, 0, 0);
    for game in 0..200 {
        let mut pos = Aporia::start();
        for _ in 0..4 {
            if pos.node() != NodeKind::Terminal {
                pos = common::random_child(&pos, &mut rng, &mut buf);
            }
        }
        let perfect = if game % 2 == 0 {
            pos.side()
        } else {
            pos.side().other()
        };
        let opening = pos.text();
        let mut history = Vec::new();
        let mut plies = 0;
        while pos.node() != NodeKind::Terminal && plies < 300 {
            let m = if pos.side() == perfect {
                let best = table.best_moves(&pos);
                best[rng.gen_range(0..best.len())]
            } else {
                let limits = Limits {
                    depth: Some(4),
                    ..Limits::default()
                };
                let config = Config::for_game::<Aporia>(1);
                search::search(&pos, &limits, &config, &search::Table::new(4), |_| {}).best
            };
            history.push(format!("{} [{}]", m, table.value(&pos)));
            pos = pos.play(m);
            plies += 1;
        }
        let lost_from_the_start = game_value_for(table, &opening, perfect);
        match pos.outcome() {
            Some(o) => {
                assert!(
                    o.winner == Some(perfect) || lost_from_the_start,
                    "game {game} from {opening}: {}",
                    history.join(" ")
                );
                if o.winner == Some(perfect) {
                    wins += 1;
                } else {
                    lost_openings += 1;
                }
            }
            None => unfinished += 1,
        }
    }
    eprintln!(
        "perfect play: {wins} wins, {unfinished} games unfinished after 300 plies, \
         {lost_openings} lost from openings already lost"
    );
}

/// `analyze` answers from a table with the exact value and every move
/// keeping it, and a tournament engine with `table=` plays from it.
#[test]
#[ignore = "long check"]
fn long_analyze_and_engines_play_from_the_table() {
    let dir = common::scratch_dir("analyze-table");
    let path = dir.join("aporia.table");
    table().save(&path).unwrap();
    let file = path.to_str().unwrap();
    let run = |args: &[&str]| {
        let o = crate::common::gamut_command().args(args).output().unwrap();
        assert!(o.status.success(), "{args:?}: {o:?}");
        String::from_utf8(o.stdout).unwrap()
    };
    let ready = "WW2/WWB1/2B1/2BB 1 - -";
    let out = run(&["analyze", "aporia", "--table", file, "--fen", ready]);
    assert_eq!(out, "table win in 1 best c3-d2\nbestmove c3-d2\n");
    let start = run(&["analyze", "aporia", "--table", file]);
    assert!(start.starts_with("table draw best "), "{start}");
    // Without the table the same command searches.
    let searched = run(&["analyze", "aporia", "--no-table", "--depth", "2"]);
    assert!(searched.starts_with("depth 1 "), "{searched}");
    let spec = format!("name=exact,depth=1,table={file}");
    let report = run(&[
        "tournament",
        "aporia",
        "--engine",
        &spec,
        "--engine",
        "name=d3,depth=3",
        "--games",
        "6",
        "--json",
    ]);
    let v: serde_json::Value = serde_json::from_str(report.lines().last().unwrap()).unwrap();
    assert_eq!(v["encounters"][0]["wdl"]["losses"], 0, "{report}");
    // `openings --keep` keeps exactly the positions the table says.
    for keep in ["win", "draw", "sharp"] {
        let book = run(&[
            "openings",
            "aporia",
            "--table",
            file,
            "--keep",
            keep,
            "--plies",
            "30",
            "--count",
            "20",
            "--min-distance",
            "3",
        ]);
        let lines: Vec<&str> = book.lines().collect();
        assert_eq!(lines.len(), 20, "{book}");
        for line in lines {
            let pos = Aporia::parse(line.split(" ; ").next().unwrap()).unwrap();
            let value = table().value(&pos);
            let moves = sorted_moves(&pos).len();
            match keep {
                "win" => assert!(matches!(value, Value::Win(d) if d >= 3), "{line}"),
                "draw" => assert_eq!(value, Value::Draw, "{line}"),
                _ => assert!(table().best_moves(&pos).len() == 1 && moves >= 2, "{line}"),
            }
            assert!(line.contains(&value.to_string()), "{line}");
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `solve --agreement`: without a table, one line saying how to get one;
/// with one (here every entry a draw), a line per evaluation, counting the
/// positions drawn and none decided.
#[test]
fn agreement_compares_every_evaluation_with_the_table() {
    let dir = common::scratch_dir("aporia-agreement");
    let out = gamut(&["solve", "aporia", "--agreement", "50"], &dir);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("no table for aporia"), "{err}");
    let path = dir.join("draws.table");
    gamut_core::tablebase::write(&path, "aporia", &vec![0u8; space().total as usize]).unwrap();
    let out = gamut(
        &[
            "solve",
            "aporia",
            "--agreement",
            "50",
            "--table",
            path.to_str().unwrap(),
        ],
        &dir,
    );
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8_lossy(&out.stdout);
    let evals: Vec<&str> = text
        .lines()
        .map(|l| l.split_whitespace().nth(1).unwrap())
        .collect();
    assert_eq!(evals, ["classic", "net"], "{text}");
    for line in text.lines() {
        assert!(
            line.contains(" positions 50 decided 0 same-sign 0 "),
            "{line}"
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A table that calls every position with an even text length won
/// in one, and every other position lost now.
struct Parity;
impl Oracle for Parity {
    fn probe(&self, position: &str) -> Result<Probe, String> {
        Ok(Probe {
            value: if position.len().is_multiple_of(2) {
                Value::Win(1)
            } else {
                Value::Loss(0)
            },
            best: Vec::new(),
        })
    }
}

#[test]
fn an_evaluation_that_knows_the_table_agrees_and_its_negation_does_not() {
    let positions = agreement::random_positions::<Aporia>(200, 1);
    assert_eq!(positions.len(), 200);
    let oracle = |p: &Aporia| {
        if p.text().len().is_multiple_of(2) {
            5
        } else {
            -5
        }
    };
    let good = agreement(&positions, &Parity, oracle).unwrap();
    assert_eq!(good.decided, 200);
    assert_eq!(good.same_sign(), 200);
    assert!(good.won > 0 && good.lost() > 0, "{good:?}");
    assert_eq!((good.won_right, good.lost_right), (good.won, good.lost()));
    assert_eq!(good.balanced_share(), 1.0);
    assert!((good.rank_correlation - 1.0).abs() < 1e-9, "{good:?}");
    let bad = agreement(&positions, &Parity, |p| -oracle(p)).unwrap();
    assert_eq!(bad.same_sign(), 0);
    assert_eq!(bad.balanced_share(), 0.0);
    assert!(bad.rank_correlation < -0.99, "{bad:?}");
    // Always "win": right on every won position and no lost one, so its
    // balanced share is a half whatever the mix.
    let always = agreement(&positions, &Parity, |_| 1).unwrap();
    assert_eq!(always.same_sign(), always.won);
    assert_eq!(always.lost_right, 0);
    assert_eq!(always.balanced_share(), 0.5);
}

/// A table in `dir` whose values cycle through draw, win in 1 and loss
/// in 2 by state number: its path.
fn cycle_table(dir: &std::path::Path) -> std::path::PathBuf {
    let path = dir.join("cycle.table");
    let entries: Vec<u8> = (0..space().total)
        .map(|s| [0, 2, 3][(s % 3) as usize])
        .collect();
    gamut_core::tablebase::write(&path, "aporia", &entries).unwrap();
    path
}

/// The arguments of `solve aporia --training-data DATA --positions 300
/// --table TABLE`, then `extra`.
fn training_data_args<'a>(data: &'a Path, table: &'a Path, extra: &[&'a str]) -> Vec<&'a str> {
    let mut args = vec![
        "solve",
        "aporia",
        "--training-data",
        data.to_str().unwrap(),
        "--positions",
        "300",
        "--table",
        table.to_str().unwrap(),
    ];
    args.extend(extra);
    args
}

/// `solve --training-data`: from a table whose values cycle through draw,
/// win in 1 and loss in 2 by state number, every written position is
/// distinct and scored with its table value's sign (a draw 0), the result
/// is the one that value forces, `--decided` keeps no draw, and an
/// existing file is refused.
#[test]
fn training_data_carries_the_table_values() {
    let dir = common::scratch_dir("aporia-training-data");
    let table_path = cycle_table(&dir);
    let table = SolvedTable::load(&table_path).unwrap();
    for (name, decided) in [("all.dat", false), ("decided.dat", true)] {
        let data = dir.join(name);
        let args = training_data_args(
            &data,
            &table_path,
            if decided { &["--decided"] } else { &[] },
        );
        let out = gamut(&args, &dir);
        let text = String::from_utf8_lossy(&out.stdout);
        assert_eq!(
            out.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(text.starts_with("positions 300 decided "), "{text}");
        let mut reader = Reader::new(std::fs::File::open(&data).unwrap()).unwrap();
        assert_eq!(reader.game(), "aporia");
        let (mut texts, mut values) = (std::collections::HashSet::new(), [0usize; 3]);
        while let Some(game) = reader.next_game().unwrap() {
            assert_eq!(game.samples.len(), 1);
            let s = &game.samples[0];
            let pos = Aporia::parse(&s.text).unwrap();
            assert_eq!(s.side, pos.perspective());
            let value = table.value(&pos);
            assert_eq!(i32::from(s.score), value.score(), "{}", s.text);
            let (winner, kind) = match value {
                Value::Win(_) => (Some(s.side), 0),
                Value::Loss(_) => (Some(s.side.other()), 1),
                Value::Draw => (None, 2),
            };
            assert_eq!(game.winner, winner, "{}", s.text);
            assert_eq!(s.score.signum(), [1, -1, 0][kind]);
            values[kind] += 1;
            assert!(texts.insert(s.text.clone()), "{} twice", s.text);
        }
        assert_eq!(texts.len(), 300);
        assert!(values[0] > 0 && values[1] > 0, "{values:?}");
        assert_eq!(values[2] == 0, decided, "{values:?}");
        assert!(
            text.contains(&format!(" decided {} ", values[0] + values[1])),
            "{text}"
        );
        let again = gamut(&args, &dir);
        assert_eq!(again.status.code(), Some(2));
        assert!(String::from_utf8_lossy(&again.stderr).contains("exists"));
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `solve --training-data --hold-out 3` writes no position of a held-out
/// state (about a third of them), says how many it left out, and the same
/// walks without it do meet such states; without `--training-data` the
/// option is refused.
#[test]
fn training_data_holds_out_a_share_of_the_states() {
    let dir = common::scratch_dir("aporia-training-data-hold-out");
    let table_path = cycle_table(&dir);
    let table = SolvedTable::load(&table_path).unwrap();
    let states_of = |name: &str, hold_out: Option<&str>| {
        let data = dir.join(name);
        let extra = match hold_out {
            Some(k) => vec!["--hold-out", k],
            None => vec![],
        };
        let out = gamut(&training_data_args(&data, &table_path, &extra), &dir);
        assert_eq!(
            out.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let text = String::from_utf8_lossy(&out.stdout).into_owned();
        let mut reader = Reader::new(std::fs::File::open(&data).unwrap()).unwrap();
        let mut states = Vec::new();
        while let Some(game) = reader.next_game().unwrap() {
            states.push(table.state(&game.samples[0].text).unwrap().unwrap());
        }
        assert_eq!(states.len(), 300);
        (text, states)
    };
    let (text, kept) = states_of("held.dat", Some("3"));
    assert!(kept.iter().all(|&s| !agreement::held_out(s, 3)));
    let held: usize = text
        .split_whitespace()
        .skip_while(|w| *w != "held-out")
        .nth(1)
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no held-out count: {text}"));
    let (_, all) = states_of("all.dat", None);
    let met = all.iter().filter(|&&s| agreement::held_out(s, 3)).count();
    assert!(
        held > 0 && met > 30 && met < 200,
        "held {held}, met {met} of 300"
    );
    // Without --training-data, or beside --agreement (which has no use
    // for it), the option is refused in one line.
    let table = table_path.to_str().unwrap();
    for extra in [&[][..], &["--agreement", "10", "--table", table]] {
        let mut args = vec!["solve", "aporia", "--hold-out", "3"];
        args.extend(extra);
        let refused = gamut(&args, &dir);
        assert_eq!(refused.status.code(), Some(2), "{args:?}");
        assert_eq!(String::from_utf8_lossy(&refused.stderr).lines().count(), 1);
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `solve --training-data --scored-by search`: each position's score is
/// a search's at `--nodes` (the same as a search from an empty table in
/// this process), its result still the table's; `--nodes` alone is
/// refused.
#[test]
fn training_data_scored_by_a_search_keeps_the_table_results() {
    let dir = common::scratch_dir("aporia-training-data-search");
    let table_path = cycle_table(&dir);
    let table = SolvedTable::load(&table_path).unwrap();
    let data = dir.join("searched.dat");
    let args = |scored_by: Option<&'static str>| {
        let mut args = vec![
            "solve".to_string(),
            "aporia".into(),
            "--training-data".into(),
            data.to_str().unwrap().into(),
            "--positions".into(),
            "40".into(),
            "--table".into(),
            table_path.to_str().unwrap().into(),
            "--nodes".into(),
            "300".into(),
        ];
        if let Some(by) = scored_by {
            args.extend(["--scored-by".into(), by.into()]);
        }
        args
    };
    let run = |scored_by| {
        let args = args(scored_by);
        gamut(&args.iter().map(String::as_str).collect::<Vec<_>>(), &dir)
    };
    let refused = run(None);
    assert_eq!(refused.status.code(), Some(2));
    assert_eq!(String::from_utf8_lossy(&refused.stderr).lines().count(), 1);
    assert!(!data.exists());
    let out = run(Some("search"));
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let config = Config::for_game::<Aporia>(1);
    let limits = Limits {
        nodes: Some(300),
        ..Limits::default()
    };
    let mut reader = Reader::new(std::fs::File::open(&data).unwrap()).unwrap();
    let (mut games, mut nonzero) = (0, 0);
    while let Some(game) = reader.next_game().unwrap() {
        let s = &game.samples[0];
        let pos = Aporia::parse(&s.text).unwrap();
        let tt = search::Table::new(16);
        let r = search::search(&pos, &limits, &config, &tt, |_| {});
        assert_eq!(i32::from(s.score), r.score, "{}", s.text);
        let winner = match table.value(&pos) {
            Value::Win(_) => Some(s.side),
            Value::Loss(_) => Some(s.side.other()),
            Value::Draw => None,
        };
        assert_eq!(game.winner, winner, "{}", s.text);
        games += 1;
        nonzero += usize::from(s.score != 0);
    }
    assert_eq!(games, 40);
    assert!(nonzero > 0, "every search scored 0");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A data file for Aporia holding `positions`, one a game.
fn write_data(path: &std::path::Path, positions: &[Aporia]) {
    let mut bytes = Vec::new();
    write_header(&mut bytes, "aporia").unwrap();
    for pos in positions {
        bytes.extend(encode_game(&GameRecord {
            winner: None,
            samples: vec![Sample {
                text: pos.text(),
                side: pos.perspective(),
                score: 0,
            }],
        }));
    }
    std::fs::write(path, bytes).unwrap();
}

/// A symmetric image of `pos` with another text.
fn image_with_another_text(pos: &Aporia) -> Aporia {
    (1..symmetry::COUNT)
        .map(|g| symmetry::position(g, pos))
        .find(|image| image.text() != pos.text())
        .expect("an image differs")
}

/// `agreement::unseen` leaves out the positions whose text was seen and,
/// with a table numbering its states, those whose state was seen under
/// another text; the rest keep their order, and the counts add up.
#[test]
fn unseen_leaves_out_seen_texts_and_seen_states() {
    let positions = agreement::random_positions::<Aporia>(200, 1);
    let seen: Vec<String> = positions[..30].iter().map(Notation::text).collect();
    let plain = agreement::unseen(positions.clone(), seen.clone(), &Parity).unwrap();
    assert_eq!((plain.same_text, plain.same_state), (30, 0));
    assert_eq!((plain.seen_texts, plain.seen_states), (30, 0));
    let texts = |ps: &[Aporia]| ps.iter().map(Notation::text).collect::<Vec<_>>();
    assert_eq!(texts(&plain.kept), texts(&positions[30..]));

    let dir = common::scratch_dir("aporia-unseen");
    let path = dir.join("draws.table");
    gamut_core::tablebase::write(&path, "aporia", &vec![0u8; space().total as usize]).unwrap();
    let table = SolvedTable::load(&path).unwrap();
    let image = image_with_another_text(&positions[100]);
    let mut with_image = seen;
    with_image.push(image.text());
    let r = agreement::unseen(positions.clone(), with_image, &table).unwrap();
    let state = |p: &Aporia| space().index(&Key::of(p));
    let seen_states: std::collections::HashSet<u64> =
        positions[..30].iter().chain([&image]).map(state).collect();
    let expected: Vec<&Aporia> = positions[30..]
        .iter()
        .filter(|p| !seen_states.contains(&state(p)))
        .collect();
    assert!(!expected.iter().any(|p| p.text() == positions[100].text()));
    assert_eq!(r.same_text, 30);
    assert!(r.same_state >= 1, "{r:?}");
    assert_eq!(r.kept.len() + r.same_text + r.same_state, positions.len());
    assert_eq!(
        texts(&r.kept),
        expected.iter().map(|p| p.text()).collect::<Vec<_>>()
    );
    assert_eq!((r.seen_texts, r.seen_states), (31, seen_states.len()));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `solve --agreement --unseen DATA`: the measured positions found in the
/// data file (by text, or as a symmetric image) are left out, the line
/// counting them adds up, and each evaluation is measured on the rest; a
/// missing file is one line and exit status 2.
#[test]
fn agreement_leaves_out_the_positions_of_data_files() {
    let dir = common::scratch_dir("aporia-agreement-unseen");
    let table_path = cycle_table(&dir);
    let measured = agreement::random_positions::<Aporia>(60, 5);
    let data = dir.join("seen.dat");
    let mut in_data: Vec<Aporia> = measured.iter().step_by(4).copied().collect();
    in_data.push(image_with_another_text(&measured[1]));
    write_data(&data, &in_data);
    let run = |extra: &[&str]| {
        let mut args = vec![
            "solve",
            "aporia",
            "--agreement",
            "60",
            "--seed",
            "5",
            "--table",
            table_path.to_str().unwrap(),
        ];
        args.extend_from_slice(extra);
        gamut(&args, &dir)
    };
    let out = run(&["--unseen", data.to_str().unwrap()]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let lines: Vec<&str> = text.lines().collect();
    let field = |line: &str, name: &str| -> usize {
        let words: Vec<&str> = line.split_whitespace().collect();
        let i = words.iter().position(|w| *w == name).expect(name);
        words[i + 1].parse().unwrap()
    };
    let first = lines[0];
    assert!(first.starts_with("unseen drawn 60 "), "{text}");
    let (kept, left_out) = (field(first, "kept"), field(first, "left-out"));
    let (same_text, same_state) = (field(first, "same-text"), field(first, "same-state"));
    assert_eq!(same_text, 15, "{first}");
    assert!(same_state >= 1, "{first}");
    assert_eq!(left_out, same_text + same_state, "{first}");
    assert_eq!(kept + left_out, 60, "{first}");
    assert_eq!(field(first, "data-positions"), 16, "{first}");
    let state = |p: &Aporia| space().index(&Key::of(p));
    let states: std::collections::HashSet<u64> = in_data.iter().map(state).collect();
    assert_eq!(field(first, "data-states"), states.len(), "{first}");
    let table = SolvedTable::load(&table_path).unwrap();
    let unseen: Vec<&Aporia> = measured
        .iter()
        .filter(|p| !states.contains(&state(p)))
        .collect();
    assert_eq!(kept, unseen.len(), "{first}");
    let decided = unseen
        .iter()
        .filter(|p| table.value(p) != Value::Draw)
        .count();
    assert!(decided > 0);
    for line in &lines[1..] {
        assert!(
            line.contains(&format!(" positions {kept} decided {decided} ")),
            "{line}"
        );
    }
    assert_eq!(lines.len(), 3, "{text}");

    let out = run(&["--unseen", dir.join("none.dat").to_str().unwrap()]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("none.dat"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}
