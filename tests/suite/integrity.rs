//! Nothing lost, nothing let in: no output option writes over an input
//! file, damaged data and records files are refused where they are
//! damaged, and a network file is checked before it is read.

use crate::common::{rejected, scratch_dir};
use gamut::game::{Notation, EVAL_LIMIT};
use gamut::games::data::{encode_game, read_all, write_header, GameRecord as DataGame, Reader};
use gamut::games::empedocles::Empedocles;
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

/// Writes `lines` as a records file.
fn write_records(path: &Path, lines: &[Value]) {
    let text: String = lines.iter().map(|v| format!("{v}\n")).collect();
    std::fs::write(path, text).unwrap();
}

/// Each edit of a finished tournament's records is refused by the one
/// record check wherever a records file is read: `tournament --resume`,
/// `merge`, `replay` and the server.
fn refused_everywhere(name: &str, edit: impl Fn(&mut Vec<Value>), says: &str) {
    let path = dir().join(format!("{name}.jsonl"));
    let _ = std::fs::remove_file(&path);
    let args = short_tournament(&path);
    let argv: Vec<&str> = args.iter().map(String::as_str).collect();
    crate::common::ok(&argv);
    let mut lines: Vec<Value> = std::fs::read_to_string(&path)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert!(
        lines.iter().any(|l| l["reason"] == "ply limit"),
        "a game reaches the ply limit"
    );
    edit(&mut lines);
    write_records(&path, &lines);
    let before = std::fs::read(&path).unwrap();
    let p = s(&path);
    for cmd in [
        [&argv[..], &["--resume"]].concat(),
        vec!["tournament", "merge", p],
        vec!["replay", p, "--game", "1"],
    ] {
        let err = rejected(&cmd);
        assert!(err.contains(says), "{cmd:?}: {err}");
        assert_eq!(std::fs::read(&path).unwrap(), before, "{cmd:?} changed it");
    }
    let folder = dir().join(format!("{name}-served"));
    std::fs::create_dir_all(&folder).unwrap();
    std::fs::write(folder.join("t.jsonl"), &before).unwrap();
    let server = crate::serve::Server::start(&["--records-dir", s(&folder)]);
    let answer = crate::serve::get(&server.addr, "/api/record?file=t.jsonl");
    assert_eq!(answer.status, 400, "{}", answer.body);
    assert!(answer.body.contains(says), "{}", answer.body);
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
    text.push_str(&"x".repeat(gamut::tournament::records::MAX_LINE + 1));
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
