//! The command line under random input: random arguments, and malformed
//! record and openings files, fed to every subcommand. Each run must exit
//! with status 0, or with status 2 and exactly one line on stderr; never
//! panic, never die by a signal, never hang.

use crate::common;
use gamut_core::game::{NodeKind, NodeRules, Notation};
use gamut_core::moves::named_children;
use gamut_core::perft;
use gamut_games::with_game;
use gamut_games::GameId;
use rand::rngs::SmallRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use std::path::PathBuf;
use std::process::Stdio;
use std::time::{Duration, Instant};

/// Random command lines run.
const RUNS: usize = 300;

/// Longest a run may take before it counts as a hang.
const HANG: Duration = Duration::from_secs(60);

fn temp(name: &str) -> PathBuf {
    let dir = common::scratch_dir("cli-fuzz");
    dir.join(name)
}

/// Runs gamut with `args`; returns (status code, stderr).
fn run(args: &[String]) -> (Option<i32>, String) {
    let mut child = crate::common::gamut_command()
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the gamut binary runs");
    let started = Instant::now();
    loop {
        if child.try_wait().expect("wait").is_some() {
            break;
        }
        if started.elapsed() > HANG {
            let _ = child.kill();
            panic!("{args:?} still runs after {HANG:?}");
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    let out = child.wait_with_output().expect("output");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// `text` with a few random characters replaced, inserted or removed.
fn mutate(rng: &mut SmallRng, text: &str) -> String {
    let mut chars: Vec<char> = text.chars().collect();
    let junk = [
        '\n', '\t', '\u{1b}', ';', ',', '"', '{', '}', ':', '0', '9', '-', ' ', 'é', '\u{7f}',
    ];
    for _ in 0..rng.gen_range(1..4) {
        let n = chars.len();
        match rng.gen_range(0..3) {
            0 if n > 0 => chars[rng.gen_range(0..n)] = *junk.choose(rng).unwrap(),
            1 => chars.insert(rng.gen_range(0..=n), *junk.choose(rng).unwrap()),
            _ if n > 0 => {
                chars.remove(rng.gen_range(0..n));
            }
            _ => {}
        }
    }
    chars.into_iter().collect()
}

/// A position text and a `--moves` list of a random playout of `G`.
fn playout<G: Notation>(rng: &mut SmallRng) -> (String, String) {
    let mut pos = G::start();
    let mut texts = Vec::new();
    for _ in 0..rng.gen_range(0..12) {
        if pos.node() == NodeKind::Terminal {
            break;
        }
        let kids = named_children(&pos, perft::children(&pos));
        let (text, child) = kids.choose(rng).expect("a child").clone();
        let next = perft::child_position(&pos, &child);
        texts.push(text);
        pos = next;
    }
    (pos.text(), texts.join("; "))
}

/// The games of two players. A four-player game's start alone has 32
/// million children, so listing or counting them is long work, not a
/// hang; its own tests (`spokes4`) cover its command lines.
fn two_player_games() -> Vec<GameId> {
    GameId::ALL
        .iter()
        .copied()
        .filter(|&id| with_game!(id, G => G::players()) == 2)
        .collect()
}

/// The material random command lines are made of.
struct Material {
    positions: Vec<String>,
    move_lists: Vec<String>,
    records: Vec<PathBuf>,
    openings: Vec<PathBuf>,
}

impl Material {
    fn new(rng: &mut SmallRng) -> Material {
        let mut positions = Vec::new();
        let mut move_lists = Vec::new();
        for id in two_player_games() {
            for _ in 0..4 {
                let (p, m) = with_game!(id, G => playout::<G>(rng));
                positions.push(p);
                move_lists.push(m);
            }
        }
        let good = temp("good.jsonl");
        let _ = std::fs::remove_file(&good);
        let (status, err) = run(&[
            "tournament",
            "aporia",
            "--engine",
            "random",
            "--engine",
            "greedy",
            "--games",
            "2",
            "--quiet",
            "--records",
        ]
        .iter()
        .map(|s| s.to_string())
        .chain([good.display().to_string()])
        .collect::<Vec<_>>());
        assert_eq!(status, Some(0), "{err}");
        let text = std::fs::read_to_string(&good).expect("records");
        let mut records = vec![good];
        for i in 0..12 {
            let path = temp(&format!("bad{i}.jsonl"));
            let bad = match i % 4 {
                0 => mutate(rng, &text),
                1 => text[..rng.gen_range(0..text.len())].to_string(),
                2 => format!("{text}{text}"),
                _ => text.replace("aporia", ["apart", "chess", "", "spokes"][i % 3]),
            };
            std::fs::write(&path, bad).expect("write");
            records.push(path);
        }
        let mut openings = Vec::new();
        for i in 0..8 {
            let path = temp(&format!("openings{i}.txt"));
            let mut lines = Vec::new();
            for p in &positions {
                if rng.gen_bool(0.3) {
                    lines.push(if i % 2 == 0 {
                        mutate(rng, p)
                    } else {
                        p.clone()
                    });
                }
            }
            std::fs::write(&path, lines.join("\n")).expect("write");
            openings.push(path);
        }
        Material {
            positions,
            move_lists,
            records,
            openings,
        }
    }

    /// A value for an option: sometimes fitting, sometimes not.
    fn value(&self, rng: &mut SmallRng, kind: &str) -> String {
        let junk = [
            "",
            "-1",
            "0",
            "99999999999999999999999",
            "x",
            "1e3",
            "a\nb",
            "\u{1b}[2J",
            "é",
        ];
        if rng.gen_bool(0.1) {
            return junk.choose(rng).unwrap().to_string();
        }
        let games: Vec<&str> = two_player_games().iter().map(|g| g.name()).collect();
        match kind {
            "game" => games.choose(rng).unwrap().to_string(),
            "small" => rng.gen_range(0..3).to_string(),
            "games" => ["2", "4"].choose(rng).unwrap().to_string(),
            "ms" => rng.gen_range(1..40).to_string(),
            "fen" => {
                let p = self.positions.choose(rng).unwrap();
                if rng.gen_bool(0.5) {
                    mutate(rng, p)
                } else {
                    p.clone()
                }
            }
            "moves" => {
                let m = self.move_lists.choose(rng).unwrap();
                if rng.gen_bool(0.5) {
                    mutate(rng, m)
                } else {
                    m.clone()
                }
            }
            "records" if rng.gen_bool(0.4) => self.records[0].display().to_string(),
            "records" => self.records.choose(rng).unwrap().display().to_string(),
            "openings" => self.openings.choose(rng).unwrap().display().to_string(),
            "engine" => [
                "random",
                "greedy",
                "name=a,depth=1",
                "name=b,nodes=50",
                "depth=",
                "name=a,bogus=1",
            ]
            .choose(rng)
            .unwrap()
            .to_string(),
            "terms" => ["material", "tt,killers", "nope", ","]
                .choose(rng)
                .unwrap()
                .to_string(),
            "setup" => ["s1:fire,earth", "fire", "", "s9:x"]
                .choose(rng)
                .unwrap()
                .to_string(),
            "sprt" => ["elo0=0,elo1=5,alpha=0.05,beta=0.05", "elo0=5,elo1=0", "x"]
                .choose(rng)
                .unwrap()
                .to_string(),
            _ => junk.choose(rng).unwrap().to_string(),
        }
    }

    /// A random command line.
    fn command_line(&self, rng: &mut SmallRng) -> Vec<String> {
        let position = [("--fen", "fen"), ("--moves", "moves"), ("--setup", "setup")];
        let search = [
            ("--depth", "small"),
            ("--time", "ms"),
            ("--nodes", "small"),
            ("--threads", "small"),
            ("--hash", "small"),
            ("--parallel", "junk"),
            ("--eval-off", "terms"),
            ("--ordering-off", "terms"),
            ("--no-quiescence", ""),
            ("--json", ""),
        ];
        let tournament = [
            ("--engine", "engine"),
            ("--games", "games"),
            ("--openings", "openings"),
            ("--random-plies", "small"),
            ("--ply-limit", "small"),
            ("--records", "records"),
            ("--resume", ""),
            ("--sprt", "sprt"),
            ("--shard", "junk"),
            ("--concurrency", "small"),
        ];
        let (mut args, options): (Vec<String>, Vec<(&str, &str)>) = match rng.gen_range(0..9) {
            0 => (
                vec!["perft".into()],
                [&position[..], &[("--depth", "small"), ("--divide", "")]].concat(),
            ),
            1 => (vec!["moves".into()], position.to_vec()),
            2 => (vec!["show".into()], position.to_vec()),
            3 => (
                vec!["analyze".into()],
                [&position[..], &search[..]].concat(),
            ),
            4 => (vec!["tournament".into()], tournament.to_vec()),
            5 if rng.gen_bool(0.5) => (vec!["tournament".into()], tournament.to_vec()),
            5 => (
                vec!["tournament".into(), "merge".into()],
                vec![("--json", ""), ("--sprt", "sprt")],
            ),
            6 => (vec!["replay".into()], vec![("--game", "small")]),
            7 => (
                vec!["soak".into()],
                vec![("--games", "small"), ("--seed", "small")],
            ),
            _ => (vec![self.value(rng, "junk")], search.to_vec()),
        };
        if args[0] == "replay" || args.len() > 1 {
            let files = if rng.gen_bool(0.8) {
                1
            } else {
                rng.gen_range(0..3)
            };
            for _ in 0..files {
                args.push(self.value(rng, "records"));
            }
            if args[0] == "replay" && rng.gen_bool(0.8) {
                args.extend(["--game".into(), rng.gen_range(0..4).to_string()]);
            }
        } else if rng.gen_bool(0.9) {
            args.push(self.value(rng, "game"));
        }
        if args[0] == "tournament" && args.len() == 2 && rng.gen_bool(0.8) {
            for engine in ["name=a,random", "name=b,greedy"] {
                args.extend(["--engine".into(), engine.into()]);
            }
        }
        for _ in 0..rng.gen_range(0..3) {
            let &(name, kind) = options.choose(rng).unwrap();
            args.push(name.to_string());
            if !kind.is_empty() {
                args.push(self.value(rng, kind));
            }
        }
        // Limits, so that every run is short.
        let has = |a: &[String], o: &str| a.iter().any(|x| x == o);
        match args[0].as_str() {
            "perft" if !has(&args, "--depth") => args.extend(["--depth".into(), "1".into()]),
            "analyze" if !has(&args, "--depth") && !has(&args, "--nodes") => {
                args.extend(["--nodes".into(), "2000".into()])
            }
            "tournament" if args.get(1).map(String::as_str) != Some("merge") => {
                if !has(&args, "--games") {
                    args.extend(["--games".into(), "2".into()]);
                }
                if !has(&args, "--ply-limit") {
                    args.extend(["--ply-limit".into(), "30".into()]);
                }
                if !has(&args, "--records") {
                    args.extend([
                        "--records".into(),
                        temp("out.jsonl").display().to_string(),
                        "--overwrite".into(),
                    ]);
                }
            }
            "soak" => {
                // Some random Spokes games take a minute (slow resolutions):
                // soak one of the other games here.
                match args.get(1).map(String::as_str) {
                    Some("spokes") => args[1] = "empedocles".into(),
                    Some(g) if g.parse::<GameId>().is_ok() => {}
                    _ => args.insert(1, "aporia".into()),
                }
                if !has(&args, "--games") {
                    args.extend(["--games".into(), "2".into()]);
                }
            }
            _ => {}
        }
        args.push("--quiet".into());
        args
    }
}

#[test]
fn random_command_lines_exit_0_or_2_with_one_error_line() {
    let mut rng = SmallRng::seed_from_u64(0x6a6d7574);
    let material = Material::new(&mut rng);
    let mut refused = 0;
    for _ in 0..RUNS {
        let args = material.command_line(&mut rng);
        let (status, err) = run(&args);
        match status {
            Some(0) => {}
            Some(2) => {
                refused += 1;
                assert_eq!(err.lines().count(), 1, "{args:?}: stderr {err:?}");
                assert!(err.ends_with('\n'), "{args:?}: stderr {err:?}");
            }
            other => panic!("{args:?}: status {other:?}, stderr {err:?}"),
        }
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
    // Both kinds of outcome occur, so the test says something about each.
    assert!(
        refused > RUNS / 10 && refused < RUNS,
        "{refused} of {RUNS} refused"
    );
}
