//! Nothing lost, nothing let in: no output option writes over an input
//! file, damaged data and records files are refused where they are
//! damaged, and a network file is checked before it is read.

use crate::common::{record_fields, rejected, scratch_dir, sealed_line};
use gamut_core::evaluate::EVAL_LIMIT;
use gamut_core::game::Notation;
use gamut_games::data::{encode_game, read_all, write_header, GameRecord as DataGame, Reader};
use gamut_games::empedocles::Empedocles;
use gamut_tournament::records;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use serde_json::Value;
use std::path::{Path, PathBuf};

fn dir() -> PathBuf {
    scratch_dir("integrity")
}

/// A copy of `bytes` at `name` in the scratch folder, and a symbolic link
/// to it at `name.link`.
fn input(name: &str, bytes: &[u8]) -> (PathBuf, PathBuf) {
    let file = dir().join(name);
    std::fs::write(&file, bytes).unwrap();
    let link = dir().join(format!("{name}.link"));
    let _ = std::fs::remove_file(&link);
    std::os::unix::fs::symlink(&file, &link).unwrap();
    (file, link)
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// Runs each command, which must be refused with the guard's line, and
/// checks the input file kept its bytes.
fn refused_before_writing(file: &Path, cases: &[Vec<&str>]) {
    let before = std::fs::read(file).unwrap();
    for args in cases {
        let err = rejected(args);
        assert!(err.contains("choose another file"), "{args:?}: {err}");
        assert_eq!(std::fs::read(file).unwrap(), before, "{args:?} changed it");
    }
}

#[test]
fn show_never_draws_over_the_table_it_reads() {
    let (table, link) = input("show.table", &[7u8; 4096]);
    let new_link = dir().join("sub").join("..").join("show.table");
    std::fs::create_dir_all(dir().join("sub")).unwrap();
    refused_before_writing(
        &table,
        &[
            vec!["show", "aporia", "--table", s(&table), "--svg", s(&table)],
            vec!["show", "aporia", "--table", s(&table), "--svg", s(&link)],
            vec!["show", "aporia", "--table", s(&link), "--svg", s(&new_link)],
        ],
    );
}

#[test]
fn datagen_never_writes_over_the_network_it_plays_with() {
    let net = include_bytes!("../../src/games/epaminondas/epaminondas.net");
    let (file, link) = input("datagen.net", net);
    let (f, l) = (s(&file), s(&link));
    let play = ["datagen", "epaminondas", "--games", "1", "--nodes", "50"];
    refused_before_writing(
        &file,
        &[
            [
                &play[..],
                &["--eval", "net", "--net", f, "--out", l, "--resume"],
            ]
            .concat(),
            [&play[..], &["--eval", "net", "--net", l, "--out", f]].concat(),
        ],
    );
}

#[test]
fn a_tournament_never_writes_over_an_engines_network() {
    let net = include_bytes!("../../src/games/epaminondas/epaminondas.net");
    let (file, link) = input("tournament.net", net);
    let spec = format!("depth=1,eval=net,net={}", s(&file));
    let play = [
        "tournament",
        "epaminondas",
        "--engine",
        "random",
        "--engine",
        &spec,
        "--games",
        "2",
    ];
    refused_before_writing(
        &file,
        &[
            [&play[..], &["--records", s(&link), "--overwrite"]].concat(),
            [&play[..], &["--pgn", s(&file)]].concat(),
        ],
    );
}

/// A version 1 data file written before games carried checksums
/// (`gamut datagen empedocles --games 4 --nodes 300 --seed 7`).
const STORED_V1: &[u8] = include_bytes!("data/datagen-v1-empedocles.bin");

#[test]
fn a_data_file_of_version_1_still_reads() {
    let mut r = Reader::new(STORED_V1).unwrap();
    assert_eq!((r.game(), r.version()), ("empedocles", 1));
    assert_eq!(r.resume_point().unwrap(), (4, STORED_V1.len() as u64));
    let games = read_all(STORED_V1, "empedocles").unwrap();
    let positions: usize = games.iter().map(|g| g.samples.len()).sum();
    assert_eq!(positions, 10);
    for s in games.iter().flat_map(|g| &g.samples) {
        assert_eq!(Empedocles::parse(&s.text).unwrap().text(), s.text);
        assert!(i32::from(s.score).abs() <= EVAL_LIMIT);
    }
    assert_eq!(read_all(&v2_of(&games)[..], "empedocles").unwrap(), games);
    // --resume appends only to files that can tell a torn game from a
    // damaged one.
    let path = dir().join("v1.dat");
    std::fs::write(&path, STORED_V1).unwrap();
    let err = rejected(&[
        "datagen",
        "empedocles",
        "--out",
        s(&path),
        "--games",
        "5",
        "--resume",
    ]);
    assert!(err.contains("version 1"), "{err}");
    assert_eq!(std::fs::read(&path).unwrap(), STORED_V1);
}

/// The games as this build writes them.
fn v2_of(games: &[DataGame]) -> Vec<u8> {
    let mut f = Vec::new();
    write_header(&mut f, "empedocles").unwrap();
    for g in games {
        f.extend(encode_game(g));
    }
    f
}

/// Every single bit of a stored file flipped in turn: each flip is refused
/// by the reader and by `--resume`'s count, or leaves the same games.
#[test]
fn every_bit_flip_of_a_data_file_is_refused_or_harmless() {
    let games = read_all(STORED_V1, "empedocles").unwrap();
    let file = v2_of(&games);
    let mut refused = 0;
    for bit in 0..file.len() * 8 {
        let mut bad = file.clone();
        bad[bit / 8] ^= 1 << (bit % 8);
        match read_all(&bad[..], "empedocles") {
            Err(_) => refused += 1,
            Ok(g) => assert_eq!(g, games, "bit {bit} changed the games"),
        }
        if let Ok(mut r) = Reader::new(&bad[..]) {
            if let Ok(point) = r.resume_point() {
                assert_eq!(point, (4, file.len() as u64), "bit {bit} cuts the file");
            }
        }
    }
    assert_eq!(refused, file.len() * 8, "every flip is caught by a check");
}

/// The offsets of a data file's game blocks.
fn game_offsets(bytes: &[u8]) -> Vec<u64> {
    let mut r = Reader::new(bytes).unwrap();
    let mut at = vec![r.offset()];
    while r.next_game().unwrap().is_some() {
        at.push(r.offset());
    }
    at.pop();
    at
}

/// One damaged field in game 7 of 8 is refused by `--resume` naming its
/// byte offset, and the file, its intact game 8 included, is kept.
#[test]
fn resume_refuses_a_damaged_game_and_cuts_nothing() {
    let path = dir().join("eight.dat");
    let _ = std::fs::remove_file(&path);
    let p = s(&path);
    let play = [
        "datagen",
        "epaminondas",
        "--out",
        p,
        "--nodes",
        "50",
        "--seed",
        "5",
    ];
    crate::common::ok(&[&play[..], &["--games", "8"]].concat());
    let good = std::fs::read(&path).unwrap();
    let at = game_offsets(&good);
    assert_eq!(at.len(), 8);
    // Game 7's first text length, after its block head and positions,
    // result, side and score.
    let field = at[6] as usize + 8 + 3 + 3;
    assert!(field + 2 < at[7] as usize, "game 7 keeps a position");
    let mut bad = good.clone();
    bad[field..field + 2].copy_from_slice(&[0xff, 0xff]);
    std::fs::write(&path, &bad).unwrap();
    let err = rejected(&[&play[..], &["--games", "6", "--resume"]].concat());
    assert!(err.contains(&format!("byte {}", at[6])), "{err}");
    assert_eq!(std::fs::read(&path).unwrap(), bad, "nothing is cut");
    // A torn last game is dropped and played again.
    std::fs::write(&path, &good[..good.len() - 5]).unwrap();
    crate::common::ok(&[&play[..], &["--games", "8", "--resume"]].concat());
    assert_eq!(std::fs::read(&path).unwrap(), good);
}

/// A short Epaminondas tournament whose games end at its ply limit of 30.
fn short_tournament(records: &Path) -> Vec<String> {
    [
        "tournament",
        "epaminondas",
        "--engine",
        "name=d1,depth=1",
        "--engine",
        "greedy",
        "--games",
        "2",
        "--random-plies",
        "2",
        "--seed",
        "21",
        "--ply-limit",
        "30",
        "--records",
        s(records),
    ]
    .map(String::from)
    .to_vec()
}

/// Writes `lines` as a records file, each with its checksum.
fn write_records(path: &Path, lines: &[Value]) {
    let text: String = lines
        .iter()
        .map(|v| format!("{}\n", sealed_line(v)))
        .collect();
    std::fs::write(path, text).unwrap();
}

/// Each edit of a finished tournament's records is refused by the one
/// record check wherever a records file is read: `tournament --resume`,
/// `merge`, `replay` and the server.
fn refused_everywhere(name: &str, edit: impl Fn(&mut Vec<Value>), says: &str) {
    let path = dir().join(format!("{name}.jsonl"));
    let args = short_tournament(&path);
    let lines = played(&args, &path);
    assert!(
        lines.iter().any(|l| l["reason"] == "ply limit"),
        "a game reaches the ply limit"
    );
    refused_after(&args, &path, lines, edit, says);
}

/// Plays the tournament of `args` into the records file `path` afresh;
/// its records.
fn played(args: &[String], path: &Path) -> Vec<Value> {
    let _ = std::fs::remove_file(path);
    let argv: Vec<&str> = args.iter().map(String::as_str).collect();
    crate::common::ok(&argv);
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(record_fields)
        .collect()
}

/// Writes `lines` edited by `edit` to `path`, the records file of the
/// tournament of `args`, and checks that resuming it, merging it,
/// replaying from it and the server's `/api/record` all refuse it saying
/// `says` (exit status 2 with one line, a JSON error), and change nothing.
fn refused_after(
    args: &[String],
    path: &Path,
    mut lines: Vec<Value>,
    edit: impl Fn(&mut Vec<Value>),
    says: &str,
) {
    edit(&mut lines);
    write_records(path, &lines);
    let before = std::fs::read(path).unwrap();
    let p = s(path);
    let argv: Vec<&str> = args.iter().map(String::as_str).collect();
    for cmd in [
        [&argv[..], &["--resume"]].concat(),
        vec!["tournament", "merge", p],
        vec!["replay", p, "--game", "1"],
    ] {
        let err = rejected(&cmd);
        assert!(err.contains(says), "{cmd:?}: {err}");
        assert_eq!(std::fs::read(path).unwrap(), before, "{cmd:?} changed it");
    }
    let name = path.file_stem().unwrap().to_str().unwrap();
    let folder = dir().join(format!("{name}-served"));
    std::fs::create_dir_all(&folder).unwrap();
    std::fs::write(folder.join("t.jsonl"), &before).unwrap();
    let server = crate::serve::Server::start(&["--records-dir", s(&folder)]);
    let answer = crate::serve::get(&server.addr, "/api/record?file=t.jsonl");
    assert_eq!(answer.status, 400, "{}", answer.body);
    let error = answer.json()["error"].as_str().unwrap().to_string();
    assert!(error.contains(says), "{error}");
    assert_eq!(
        crate::serve::get(&server.addr, "/api/records").json(),
        serde_json::json!([]),
        "a refused file is not listed"
    );
}

#[test]
fn an_unfinished_game_in_a_tournaments_records_is_refused() {
    refused_everywhere(
        "unfinished",
        |lines| {
            let g = lines
                .iter_mut()
                .find(|l| l["reason"] == "ply limit")
                .unwrap();
            g["reason"] = "unfinished".into();
            g["result"] = "*".into();
        },
        "unfinished",
    );
}

#[test]
fn a_ply_limit_game_must_reach_its_limit() {
    let cut = |lines: &mut Vec<Value>| {
        let g = lines
            .iter_mut()
            .find(|l| l["reason"] == "ply limit")
            .unwrap();
        let keep = 20;
        g["moves"] = Value::from(g["moves"].as_array().unwrap()[..keep].to_vec());
        g["plies"] = keep.into();
        let scores: Vec<Value> = g["scores"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|s| s["step"].as_u64().unwrap() < keep as u64)
            .cloned()
            .collect();
        g["scores"] = scores.into();
    };
    refused_everywhere("cut", cut, "its limit is 30");
    // A record that names no limit must reach the game's own.
    refused_everywhere(
        "cut-old",
        |lines| {
            cut(lines);
            for l in lines.iter_mut() {
                l.as_object_mut().unwrap().remove("ply_limit");
            }
        },
        "its limit is 1000",
    );
}

/// A network file whose size is not the one its header implies (here a
/// sparse file of 3 GiB with a good header) is refused from its header.
#[test]
fn a_network_file_of_the_wrong_size_is_refused_from_its_header() {
    let net = include_bytes!("../../src/games/epaminondas/epaminondas.net");
    let path = dir().join("huge.net");
    std::fs::write(&path, net).unwrap();
    let file = std::fs::OpenOptions::new().write(true).open(&path).unwrap();
    file.set_len(3 << 30).unwrap();
    drop(file);
    // With no more than 1 GiB of address space, reading the whole file
    // would fail.
    let mut command = crate::common::gamut_command();
    command.args(["analyze", "epaminondas", "--depth", "1", "--hash", "1"]);
    command.args(["--eval", "net", "--net", s(&path)]);
    // SAFETY: only setrlimit, which is async-signal-safe, runs in the child.
    unsafe {
        std::os::unix::process::CommandExt::pre_exec(&mut command, || {
            let limit = libc::rlimit {
                rlim_cur: 1 << 30,
                rlim_max: 1 << 30,
            };
            if libc::setrlimit(libc::RLIMIT_AS, &limit) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
    let o = command.output().unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("bytes after its header"), "{err}");
    std::fs::remove_file(&path).unwrap();
}

/// A records file is read line by line, and a line past the cap is
/// refused where it is seen.
#[test]
fn a_records_line_past_the_cap_is_refused() {
    let path = dir().join("long.jsonl");
    let mut text = String::from("\n");
    text.push_str(&"x".repeat(gamut_tournament::records::MAX_LINE + 1));
    std::fs::write(&path, &text).unwrap();
    for cmd in [
        vec!["tournament", "merge", s(&path)],
        vec!["replay", s(&path), "--game", "1"],
    ] {
        let err = rejected(&cmd);
        assert!(
            err.contains("line 2: longer than a record may be"),
            "{cmd:?}: {err}"
        );
    }
}

/// A tournament resumed under another ply limit than its records' is
/// refused.
#[test]
fn resume_keeps_the_records_ply_limit() {
    let path = dir().join("limit.jsonl");
    let _ = std::fs::remove_file(&path);
    let args = short_tournament(&path);
    let argv: Vec<&str> = args.iter().map(String::as_str).collect();
    crate::common::ok(&argv);
    let before = std::fs::read(&path).unwrap();
    let mut other: Vec<&str> = argv
        .iter()
        .map(|a| if *a == "30" { "40" } else { a })
        .collect();
    other.push("--resume");
    let err = rejected(&other);
    assert!(
        err.contains("ply limit of 30, not this tournament's 40"),
        "{err}"
    );
    assert_eq!(std::fs::read(&path).unwrap(), before);
}

/// Two searchers of Epaminondas under resign adjudication (both games of
/// the pair end by it, as `tournament`'s adjudication check finds).
fn adjudicated_tournament(records: &Path, rule: &str) -> Vec<String> {
    [
        "tournament",
        "epaminondas",
        "--engine",
        "name=d2,depth=2,eval=classic",
        "--engine",
        "name=d1,depth=1,quiescence=off,eval=classic",
        "--games",
        "2",
        "--seed",
        "3",
        "--adjudicate",
        rule,
        "--records",
        s(records),
    ]
    .map(String::from)
    .to_vec()
}

/// The first resigned game of `lines`.
fn resigned(lines: &mut [Value]) -> &mut Value {
    lines
        .iter_mut()
        .find(|l| l["reason"] == "resign adjudication")
        .expect("a game ended by resign adjudication")
}

/// Each step of a game with the mover's score, from the first player's
/// view: (step, score) of its decisions, in order.
fn first_player_scores(game: &Value) -> Vec<(u64, i64)> {
    game["scores"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            let step = s["step"].as_u64().unwrap();
            let score = s["score"].as_i64().unwrap();
            // Epaminondas alternates: even steps are the first player's.
            (step, if step % 2 == 0 { score } else { -score })
        })
        .collect()
}

#[test]
fn an_adjudication_is_replayed_against_the_settings_its_records_keep() {
    let path = dir().join("resign.jsonl");
    let args = adjudicated_tournament(&path, "resign=300,2");
    let lines = played(&args, &path);
    for l in &lines {
        assert_eq!(
            l["adjudicate"],
            serde_json::json!({"resign": {"score": 300, "moves": 2}})
        );
    }
    let game = resigned(&mut lines.clone()).clone();
    // The last four decisions (two of each side) are at least 300 for the
    // winner, and the four before them were not all.
    let scores = first_player_scores(&game);
    let sign = if game["winner"] == 1 { 1 } else { -1 };
    assert!(scores[scores.len() - 4..]
        .iter()
        .all(|&(_, s)| s * sign >= 300));
    // The threshold not met: a record that says it was played under a
    // higher one.
    refused_after(
        &args,
        &path,
        lines.clone(),
        |lines| resigned(lines)["adjudicate"]["resign"]["score"] = 2000.into(),
        "do not call for it (adjudication resign=2000,2)",
    );
    // The threshold not met: one of its last scores lowered.
    refused_after(
        &args,
        &path,
        lines.clone(),
        |lines| {
            let g = resigned(lines);
            let last = g["scores"].as_array_mut().unwrap().last_mut().unwrap();
            last["score"] = 0.into();
        },
        "do not call for it",
    );
    // Cut short: the game's first two moves after the opening dropped,
    // and its end with them.
    refused_after(
        &args,
        &path,
        lines.clone(),
        |lines| {
            let g = resigned(lines);
            let keep = g["moves"].as_array().unwrap().len() - 2;
            g["moves"] = Value::from(g["moves"].as_array().unwrap()[..keep].to_vec());
            g["plies"] = keep.into();
            let scores: Vec<Value> = g["scores"].as_array().unwrap()[..keep].to_vec();
            g["scores"] = scores.into();
        },
        "do not call for it",
    );
    // The wrong reason: the resignation recorded as a draw.
    refused_after(
        &args,
        &path,
        lines.clone(),
        |lines| {
            let g = resigned(lines);
            g["reason"] = "draw adjudication".into();
            g["winner"] = Value::Null;
            g["result"] = "1/2-1/2".into();
        },
        "call for resign adjudication for player",
    );
    // The wrong reason: a forfeit by engines that could not forfeit so.
    refused_after(
        &args,
        &path,
        lines.clone(),
        |lines| {
            let g = resigned(lines);
            g["reason"] = "forfeit: time: 5 ms spent with 0 ms left".into();
        },
        "call for resign adjudication",
    );
    // Settings under which the game would have ended earlier.
    refused_after(
        &args,
        &path,
        lines.clone(),
        |lines| resigned(lines)["adjudicate"]["resign"]["score"] = 1.into(),
        "but the game goes on",
    );
    // Records that keep no settings (written before they were kept) are
    // checked as far as any settings allow: these read, and a resignation
    // whose last scores favour the loser does not.
    let old: Vec<Value> = lines
        .iter()
        .cloned()
        .map(|mut l| {
            l.as_object_mut().unwrap().remove("adjudicate");
            l
        })
        .collect();
    write_records(&path, &old);
    crate::common::ok(&["tournament", "merge", s(&path)]);
    crate::common::ok(&["replay", s(&path), "--game", "1"]);
    refused_after(
        &args,
        &path,
        old,
        |lines| {
            let g = resigned(lines);
            let winner = g["winner"].as_u64().unwrap();
            g["winner"] = (3 - winner).into();
            g["result"] = if winner == 1 { "0-1" } else { "1-0" }.into();
        },
        "under no settings",
    );
}

#[test]
fn a_forfeit_needs_an_engine_that_could_lose_so() {
    let path = dir().join("forfeit.jsonl");
    let args = short_tournament(&path);
    let lines = played(&args, &path);
    refused_after(
        &args,
        &path,
        lines,
        |lines| {
            let g = lines
                .iter_mut()
                .find(|l| l["reason"] == "ply limit")
                .unwrap();
            // Cut to a position where the first player (d1 in game 1, the
            // greedy player in game 2) was to move.
            let keep = 10;
            g["moves"] = Value::from(g["moves"].as_array().unwrap()[..keep].to_vec());
            g["plies"] = keep.into();
            let scores: Vec<Value> = g["scores"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|s| s["step"].as_u64().unwrap() < keep as u64)
                .cloned()
                .collect();
            g["scores"] = scores.into();
            g["reason"] = "forfeit: 'x' exited (exit status: 1)".into();
            g["winner"] = 2.into();
            g["result"] = "0-1".into();
        },
        "could lose so",
    );
}

/// A tournament resumed under other adjudication settings than its
/// records' is refused.
#[test]
fn resume_keeps_the_records_adjudication() {
    let path = dir().join("settings.jsonl");
    let args = adjudicated_tournament(&path, "resign=300,2");
    played(&args, &path);
    let before = std::fs::read(&path).unwrap();
    let mut other: Vec<&str> = args
        .iter()
        .map(|a| {
            if a == "resign=300,2" {
                "resign=400,2"
            } else {
                a
            }
        })
        .collect();
    other.push("--resume");
    let err = rejected(&other);
    assert!(
        err.contains("played under adjudication resign=300,2, not this tournament's resign=400,2"),
        "{err}"
    );
    assert_eq!(std::fs::read(&path).unwrap(), before);
}

/// One random change to the text of a records file, kept within line
/// `line`'s scores where it says so: a digit changed (of a score, a depth,
/// a time, a step), a character changed, a key renamed by one letter
/// (`adjudicate` → `adjudicade`), or a space or tab put in; and what it did.
fn change(text: &str, rng: &mut SmallRng) -> (String, String) {
    let lines: Vec<&str> = text.lines().collect();
    let n = rng.gen_range(0..lines.len());
    let line = lines[n];
    let start = line.find("\"scores\":[").expect("the games are scored");
    let scores = start..start + line[start..].find(']').unwrap();
    let pick = |rng: &mut SmallRng, range: std::ops::Range<usize>, ok: &dyn Fn(u8) -> bool| {
        let at: Vec<usize> = range.filter(|&i| ok(line.as_bytes()[i])).collect();
        at[rng.gen_range(0..at.len())]
    };
    let (at, byte) = match rng.gen_range(0..5) {
        0 | 1 => {
            let at = pick(rng, scores.clone(), &|b| b.is_ascii_digit());
            let old = line.as_bytes()[at];
            let digit = (old - b'0' + rng.gen_range(1..10)) % 10 + b'0';
            (at, digit)
        }
        2 => {
            let at = pick(rng, scores.clone(), &|_| true);
            let old = line.as_bytes()[at];
            let mut b = old;
            while b == old {
                b = rng.gen_range(b' '..=b'~');
            }
            (at, b)
        }
        3 => {
            // A letter of a key: a letter between `"` and `":`.
            let keys: Vec<usize> = line
                .match_indices("\":")
                .map(|(end, _)| end)
                .filter(|&end| line[..end].ends_with(|c: char| c.is_ascii_lowercase()))
                .collect();
            let end = keys[rng.gen_range(0..keys.len())];
            let begin = line[..end].rfind('"').unwrap() + 1;
            let at = pick(rng, begin..end, &|b| b.is_ascii_lowercase());
            let old = line.as_bytes()[at];
            (at, (old - b'a' + rng.gen_range(1..26)) % 26 + b'a')
        }
        _ => {
            // At either end of the line half the time (harmless there).
            let at = match rng.gen_range(0..4) {
                0 => 0,
                1 => line.len(),
                _ => rng.gen_range(0..=line.len()),
            };
            let space = if rng.gen_bool(0.5) { " " } else { "\t" };
            let mut lines: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
            lines[n] = format!("{}{space}{}", &line[..at], &line[at..]);
            let what = format!("line {}: {space:?} put in at {at}", n + 1);
            return (lines.iter().map(|l| format!("{l}\n")).collect(), what);
        }
    };
    let what = format!(
        "line {}: {:?} at {at} made {:?}",
        n + 1,
        line.as_bytes()[at] as char,
        byte as char
    );
    let mut bytes = line.as_bytes().to_vec();
    bytes[at] = byte;
    let mut lines: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
    lines[n] = String::from_utf8(bytes).unwrap();
    (lines.iter().map(|l| format!("{l}\n")).collect(), what)
}

/// Single random changes of a tournament's records (scored by searchers
/// that give a depth, played under score adjudication): each is refused
/// by `tournament --resume`, `tournament merge`, `replay` and `balance
/// merge`, in one line naming the file and the line, and leaves the file
/// as it was; or it reads to the same records (white space at a line's
/// ends). None is read with other content.
#[test]
fn single_changes_of_a_records_file_are_refused_or_read_as_written() {
    single_changes("changed", 40, 8);
}

/// As above, ten times the changes.
#[test]
#[ignore = "long check"]
fn long_single_changes_of_a_records_file_are_refused_or_read_as_written() {
    single_changes("changed-long", 400, 9);
}

/// `tries` random single changes (seeded by `seed`) of a records file
/// written in the folder `name`, each read by every command.
fn single_changes(name: &str, tries: usize, seed: u64) {
    let path = dir().join(format!("{name}.jsonl"));
    let args = adjudicated_tournament(&path, "resign=300,2");
    let argv: Vec<&str> = args.iter().map(String::as_str).collect();
    let _ = std::fs::remove_file(&path);
    crate::common::ok(&argv);
    let good = std::fs::read_to_string(&path).unwrap();
    let read = |p: &Path| -> Result<Vec<_>, String> {
        Ok(records::read(p)
            .map_err(|e| e.0)?
            .into_iter()
            .map(|(_, r)| r)
            .collect())
    };
    let games = read(&path).unwrap();
    assert!(games.iter().all(|g| g.adjudicate.is_some()
        && g.scores
            .iter()
            .all(|s| s.depth.is_some() && s.time_ms.is_some())));
    let rungs = dir().join(format!("{name}-balance"));
    std::fs::create_dir_all(&rungs).unwrap();
    let rung = rungs.join("depth=2.jsonl");
    let resume = [&argv[..], &["--resume"]].concat();
    let commands: [(&str, Vec<&str>, &Path); 4] = [
        ("--resume", resume, &path),
        ("merge", vec!["tournament", "merge", s(&path)], &path),
        ("replay", vec!["replay", s(&path), "--game", "1"], &path),
        ("balance", vec!["balance", "merge", s(&rungs)], &rung),
    ];
    std::fs::write(&rung, &good).unwrap();
    for (_, cmd, _) in &commands {
        crate::common::ok(cmd);
    }
    let mut rng = SmallRng::seed_from_u64(seed);
    let (mut refused, mut same) = (0, 0);
    let mut changed: Vec<String> = Vec::new();
    for _ in 0..tries {
        let (text, what) = change(&good, &mut rng);
        std::fs::write(&path, &text).unwrap();
        std::fs::write(&rung, &text).unwrap();
        let now = read(&path);
        for (name, cmd, file) in &commands {
            let o = crate::common::gamut(cmd);
            if o.status.success() {
                if now.as_ref() != Ok(&games) {
                    changed.push(format!("{name}: {what}"));
                }
                continue;
            }
            let err = rejected(cmd);
            assert!(
                err.contains(&format!("{} line ", s(file))),
                "{what}: {cmd:?}: {err}"
            );
            assert_eq!(std::fs::read_to_string(file).unwrap(), text, "{cmd:?}");
        }
        match now {
            Ok(g) if g == games => same += 1,
            Ok(_) => {}
            Err(_) => refused += 1,
        }
    }
    assert!(
        same > 0 && refused > 0,
        "{same} read the same, {refused} refused"
    );
    assert!(
        changed.is_empty(),
        "of {tries} changes, {} readings took other content: {changed:#?}",
        changed.len()
    );
}
