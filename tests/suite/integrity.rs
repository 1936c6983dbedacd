//! Nothing lost, nothing let in: no output option writes over an input
//! file, damaged data and records files are refused where they are
//! damaged, and a network file is checked before it is read.

use crate::common::{rejected, scratch_dir};
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
