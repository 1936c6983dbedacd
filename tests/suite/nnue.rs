//! Learned evaluation: the training data `gamut datagen` writes.

use crate::common::{ok, rejected, scratch_dir};
use gamut::game::Game;
use gamut::games::epaminondas::Epaminondas;
use gamut::nnue::data::read_all;

fn datagen(out: &std::path::Path, games: &str, extra: &[&str]) -> String {
    let mut args = vec![
        "datagen",
        "epaminondas",
        "--out",
        out.to_str().unwrap(),
        "--games",
        games,
        "--nodes",
        "200",
        "--seed",
        "7",
    ];
    args.extend_from_slice(extra);
    ok(&args)
}

#[test]
fn datagen_resumes_and_shards_to_the_same_games() {
    let dir = scratch_dir("datagen");
    let whole = dir.join("whole.dat");
    datagen(&whole, "3", &[]);
    let resumed = dir.join("resumed.dat");
    datagen(&resumed, "1", &[]);
    // A crash in the middle of a game leaves part of it: resume drops it.
    let mut bytes = std::fs::read(&resumed).unwrap();
    bytes.extend_from_slice(&[9, 0, 1, 0]);
    std::fs::write(&resumed, &bytes).unwrap();
    let line = datagen(&resumed, "3", &["--resume"]);
    assert!(line.starts_with("games 2 positions "), "{line}");
    let whole_bytes = std::fs::read(&whole).unwrap();
    assert_eq!(std::fs::read(&resumed).unwrap(), whole_bytes);

    let games = read_all(&whole_bytes[..], "epaminondas").unwrap();
    assert_eq!(games.len(), 3);
    for g in &games {
        assert!(!g.samples.is_empty());
        for s in &g.samples {
            let pos = Epaminondas::parse(&s.text).unwrap();
            assert_eq!(pos.perspective(), s.side);
            assert!(s.score.abs() <= gamut::game::EVAL_LIMIT as i16);
        }
    }
    // Shard 2 of 2 plays game 1 (counted from 0): the whole's second game.
    let part = dir.join("part.dat");
    datagen(&part, "3", &["--shard", "2/2"]);
    let part_games = read_all(&std::fs::read(&part).unwrap()[..], "epaminondas").unwrap();
    assert_eq!(part_games, games[1..2]);
}

#[test]
fn datagen_refuses_corrupt_files_and_chance_games() {
    let dir = scratch_dir("datagen-bad");
    let file = dir.join("bad.dat");
    datagen(&file, "1", &[]);
    let mut bytes = std::fs::read(&file).unwrap();
    // The first game's result byte: after the 22-byte header and its count.
    bytes[24] = 5;
    std::fs::write(&file, &bytes).unwrap();
    let err = rejected(&[
        "datagen",
        "epaminondas",
        "--out",
        file.to_str().unwrap(),
        "--resume",
    ]);
    assert!(err.contains("byte 24"), "{err}");
    let err = rejected(&["datagen", "epaminondas", "--out", file.to_str().unwrap()]);
    assert!(err.contains("--resume"), "{err}");
    let err = rejected(&["datagen", "empedocles", "--out", "/nonexistent/x"]);
    assert!(err.contains("decisions only"), "{err}");
}
