//! `gamut learn`: the loop of generations, killed at each step and
//! started again, ends as an uninterrupted run does; its settings are
//! fixed; `--install` copies only a network of the game.

#[cfg(feature = "learn")]
use crate::common::gamut_command;
use crate::common::{ok, rejected, scratch_dir};
use serde_json::Value;
#[cfg(feature = "learn")]
use std::io::{BufRead, BufReader};
use std::path::Path;
#[cfg(feature = "learn")]
use std::process::Stdio;

#[cfg(feature = "learn")]
/// A tiny, depth-limited run of Aporia: two generations, the first
/// network promoted by a lenient test; each candidate starts from the
/// best network (the built-in one for the first: 128 hidden units).
const TINY: [&str; 20] = [
    "--games",
    "4",
    "--nodes",
    "100",
    "--epochs",
    "2",
    "--validation",
    "0.3",
    "--gate",
    "depth=1",
    "--gate-games",
    "12",
    "--sprt",
    "elo0=-300,elo1=-200,alpha=0.2,beta=0.2",
    "--start",
    "classic",
    "--classic-games",
    "4",
    "--generations",
    "2",
];

#[cfg(feature = "learn")]
/// A tiny run of `spokes4`, one generation: each side's paranoid search at
/// 20 nodes a move, a gate of two games, no match against classic.
const TINY_SEATS: [&str; 16] = [
    "--games",
    "8",
    "--nodes",
    "20",
    "--epochs",
    "1",
    "--validation",
    "0.2",
    "--gate",
    "nodes=20,width=1",
    "--gate-games",
    "2",
    "--classic-games",
    "0",
    "--generations",
    "1",
];

#[cfg(feature = "learn")]
/// `gamut learn aporia --dir DIR` with the tiny settings.
fn args(dir: &Path) -> Vec<String> {
    args_of("aporia", &TINY, dir)
}

#[cfg(feature = "learn")]
/// `gamut learn GAME --dir DIR` with `settings`.
fn args_of(game: &str, settings: &[&str], dir: &Path) -> Vec<String> {
    let mut a: Vec<String> = ["learn", game, "--dir", dir.to_str().unwrap(), "--quiet"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    a.extend(settings.iter().map(|s| s.to_string()));
    a
}

/// The ledger's lines with the times (which vary) taken out.
fn untimed_ledger(dir: &Path) -> Vec<Value> {
    std::fs::read_to_string(dir.join("ledger.jsonl"))
        .unwrap()
        .lines()
        .map(|l| {
            let mut v: Value = serde_json::from_str(l).unwrap();
            let o = v.as_object_mut().unwrap();
            o.remove("time");
            o.remove("seconds");
            v
        })
        .collect()
}

#[cfg(feature = "learn")]
/// Runs the tiny run in `dir` until it stops inside `step`, kills it
/// with SIGKILL there, and asserts it left that step unrecorded.
fn kill_inside(dir: &Path, step: &str) {
    kill_run_inside(&args(dir), dir, step);
}

#[cfg(feature = "learn")]
/// Runs `gamut args` (a run in `dir`) until it stops inside `step`, kills
/// it with SIGKILL there, and asserts it left that step unrecorded.
fn kill_run_inside(args: &[String], dir: &Path, step: &str) {
    let mut child = gamut_command()
        .args(args)
        .env("GAMUT_LEARN_PAUSE", step)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(child.stderr.take().unwrap()).lines();
    let line = lines.next().expect("a line").unwrap();
    assert_eq!(line, format!("paused in {step}"));
    child.kill().unwrap();
    child.wait().unwrap();
    let ledger = untimed_ledger(dir);
    let last = ledger.last().unwrap();
    assert_ne!(last["step"], step, "{step} was recorded before the kill");
    assert!(last["generation"].as_u64().unwrap() <= 1);
}

#[cfg(feature = "learn")]
#[test]
#[ignore = "long check"]
fn long_learn_killed_at_each_step_resumes_to_the_same_ledger_and_network() {
    let root = scratch_dir("learn-kill");
    let whole = root.join("whole");
    ok(&args(&whole).iter().map(String::as_str).collect::<Vec<_>>());
    let reference = untimed_ledger(&whole);
    // Settings, then five steps for each of two generations.
    assert_eq!(reference.len(), 11, "{reference:?}");
    assert_eq!(reference[4]["against"], "classic", "{reference:?}");
    assert_eq!(reference[4]["games"], 4, "{reference:?}");
    assert_eq!(reference[5]["decision"], "promoted", "{reference:?}");
    assert_eq!(reference[6]["played_by"], "generation 1's network");
    // The first candidate starts from the built-in network, the second
    // from the first, promoted.
    assert_eq!(reference[2]["init"], "the built-in network");
    assert_eq!(reference[7]["init"], "generation 1's network");
    let aporia = concat!(env!("CARGO_MANIFEST_DIR"), "/src/games/aporia/aporia.net");
    assert_eq!(
        std::fs::read(whole.join("gen-001/init.net")).unwrap(),
        std::fs::read(aporia).unwrap()
    );
    assert_eq!(
        std::fs::read(whole.join("gen-002/init.net")).unwrap(),
        std::fs::read(whole.join("gen-001/candidate.net")).unwrap()
    );
    let best = std::fs::read(whole.join("best.net")).unwrap();
    for step in ["data", "train", "gate", "classic", "promotion"] {
        let dir = root.join(step);
        kill_inside(&dir, step);
        ok(&args(&dir).iter().map(String::as_str).collect::<Vec<_>>());
        assert_eq!(untimed_ledger(&dir), reference, "killed in {step}");
        assert_eq!(
            std::fs::read(dir.join("best.net")).unwrap(),
            best,
            "killed in {step}"
        );
        for g in ["gen-001", "gen-002"] {
            for net in ["init", "candidate"] {
                let file = format!("{g}/{net}.net");
                assert_eq!(
                    std::fs::read(dir.join(&file)).unwrap(),
                    std::fs::read(whole.join(&file)).unwrap(),
                    "{file}, killed in {step}"
                );
            }
        }
        assert!(!dir.join("best.net.tmp").exists());
    }
    // A complete run asked for no more generations does nothing more.
    ok(&args(&whole).iter().map(String::as_str).collect::<Vec<_>>());
    assert_eq!(untimed_ledger(&whole), reference);
    // --install copies best.net into the slot under the current folder,
    // and refuses a best.net that is not the promoted network.
    let repo = root.join("repo");
    let slot = repo.join("src/games/aporia/aporia.net");
    std::fs::create_dir_all(slot.parent().unwrap()).unwrap();
    std::fs::write(&slot, b"old").unwrap();
    let install = |dir: &Path| {
        gamut_command()
            .args([
                "learn",
                "aporia",
                "--dir",
                dir.to_str().unwrap(),
                "--install",
            ])
            .current_dir(&repo)
            .output()
            .unwrap()
    };
    let o = install(&whole);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(std::fs::read(&slot).unwrap(), best);
    let apart = concat!(env!("CARGO_MANIFEST_DIR"), "/src/games/apart/apart.net");
    std::fs::copy(apart, whole.join("best.net")).unwrap();
    std::fs::write(&slot, b"old").unwrap();
    let o = install(&whole);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("not the network the ledger promoted"));
    assert_eq!(std::fs::read(&slot).unwrap(), b"old");
}

/// `gamut learn spokes4`: the data is every side's paranoid search, each
/// sample a side's; the candidate trains from the built-in network; the
/// gate is a seats match judged by its interval; a run killed in the gate
/// resumes to the same ledger and candidate.
#[cfg(feature = "learn")]
#[test]
#[ignore = "long check"]
fn long_learn_of_four_players_plays_seats_and_resumes_after_a_kill() {
    use gamut_games::data::read_all;
    let root = scratch_dir("learn-seats");
    let whole = root.join("whole");
    let run = |dir: &Path| args_of("spokes4", &TINY_SEATS, dir);
    ok(&run(&whole).iter().map(String::as_str).collect::<Vec<_>>());
    let reference = untimed_ledger(&whole);
    assert_eq!(reference.len(), 6, "{reference:?}");
    let settings = &reference[0]["settings"];
    assert_eq!(
        (settings["hidden"].as_u64(), settings["lambda"].as_f64()),
        (Some(32), Some(1.0))
    );
    let data = std::fs::read(whole.join("gen-001/data-1-of-1.dat")).unwrap();
    let games = read_all(&data[..], "spokes4").unwrap();
    assert_eq!(games.len(), 8);
    let sides: std::collections::BTreeSet<usize> = games
        .iter()
        .flat_map(|g| g.samples.iter().map(|s| s.side.index()))
        .collect();
    assert_eq!(sides.len(), 4, "every seat's samples: {sides:?}");
    assert_eq!(reference[2]["init"], "the built-in network");
    let gate = &reference[3];
    assert_eq!(gate["games"], 2, "{gate}");
    assert!(gate["sprt"].is_null(), "{gate}");
    assert_eq!(gate["seat"]["fair_share"], 0.25, "{gate}");
    let wdl: u64 = gate["wdl"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_u64().unwrap())
        .sum();
    assert_eq!(wdl, 2, "{gate}");
    assert_eq!(reference[5]["decision"], "kept", "two games decide nothing");
    let records = std::fs::read_to_string(whole.join("gen-001/gate.jsonl")).unwrap();
    assert!(
        records.lines().all(|l| l.contains("paranoid,net=")),
        "{records}"
    );
    let dir = root.join("gate");
    kill_run_inside(&run(&dir), &dir, "gate");
    ok(&run(&dir).iter().map(String::as_str).collect::<Vec<_>>());
    assert_eq!(untimed_ledger(&dir), reference);
    assert_eq!(
        std::fs::read(dir.join("gen-001/candidate.net")).unwrap(),
        std::fs::read(whole.join("gen-001/candidate.net")).unwrap()
    );
}

#[test]
fn learn_settings_are_fixed_and_bad_ones_refused() {
    let root = scratch_dir("learn-settings");
    let dir = root.join("run");
    let d = dir.to_str().unwrap();
    // No generation asked for: the run only keeps its settings.
    ok(&[
        "learn",
        "aporia",
        "--dir",
        d,
        "--games",
        "6",
        "--generations",
        "0",
    ]);
    let ledger = untimed_ledger(&dir);
    assert_eq!(ledger.len(), 1);
    assert_eq!(ledger[0]["settings"]["games"], 6);
    ok(&[
        "learn",
        "aporia",
        "--dir",
        d,
        "--games",
        "6",
        "--generations",
        "0",
    ]);
    let err = rejected(&["learn", "aporia", "--dir", d, "--games", "8"]);
    assert!(err.contains("was started with --games 6, not 8"), "{err}");
    let err = rejected(&["learn", "apart", "--dir", d]);
    assert!(err.contains("is a run of aporia"), "{err}");
    let err = rejected(&["learn", "aporia", "--dir", d, "--install"]);
    assert!(err.contains("no network has been promoted yet"), "{err}");
    let fresh = root.join("fresh");
    let f = fresh.to_str().unwrap();
    for (option, value, says) in [
        ("--gate-games", "7", "even number"),
        ("--gate", "name=x,depth=1", "chooses 'name'"),
        ("--gate", "depth=0", "--gate depth=0"),
        ("--sprt", "elo0=5", "--sprt elo0=5"),
        ("--validation", "1.5", "--validation"),
        ("--start", "random", "random"),
    ] {
        let err = rejected(&["learn", "aporia", "--dir", f, option, value]);
        assert!(err.contains(says), "{option} {value}: {err}");
        assert!(!fresh.join("ledger.jsonl").exists());
    }
    // Four players: the gate's limit is read as a paranoid search's.
    let err = rejected(&["learn", "spokes4", "--dir", f, "--gate", "depth=0"]);
    assert!(err.contains("--gate depth=0"), "{err}");
    assert!(!fresh.join("ledger.jsonl").exists());
    // Candidates start from the built-in network unless --fresh: a
    // hidden size other than its own needs --fresh, which is then kept.
    let err = rejected(&["learn", "aporia", "--dir", f, "--hidden", "8"]);
    assert!(
        err.contains("--hidden 8: the built-in network has 128 hidden units")
            && err.contains("--fresh"),
        "{err}"
    );
    assert!(!fresh.join("ledger.jsonl").exists());
    let new = root.join("new-weights");
    let n = new.to_str().unwrap();
    ok(&[
        "learn",
        "aporia",
        "--dir",
        n,
        "--hidden",
        "8",
        "--fresh",
        "--generations",
        "0",
    ]);
    assert_eq!(untimed_ledger(&new)[0]["settings"]["fresh"], true);
    // Resumed without the option, the run keeps it.
    ok(&["learn", "aporia", "--dir", n, "--generations", "0"]);
    assert_eq!(ledger[0]["settings"]["fresh"], false);
    let err = rejected(&["learn", "aporia", "--dir", d, "--fresh"]);
    assert!(err.contains("was started without --fresh"), "{err}");
    // A build without the trainer says so before it plays a game, and
    // leaves only the run's settings behind.
    if !cfg!(feature = "learn") {
        let err = rejected(&["learn", "aporia", "--dir", f]);
        assert!(err.contains("--features learn"), "{err}");
        assert!(!fresh.join("gen-001").exists());
    }
}
