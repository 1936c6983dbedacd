//! Nothing lost, nothing let in: no output option writes over an input
//! file, damaged data and records files are refused where they are
//! damaged, and a network file is checked before it is read.

use crate::common::{rejected, scratch_dir};
use gamut::game::{Notation, EVAL_LIMIT};
use gamut::games::empedocles::Empedocles;
use gamut::nnue::data::{encode_game, read_all, write_header, GameRecord as DataGame, Reader};
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
