//! `gamut balance`: self-play at a ladder of strengths, its report (text,
//! JSON, page), its records directories, shards and their merge.

use crate::common::{ok, rejected, scratch_dir};
use serde_json::Value;
use std::path::PathBuf;

fn json(text: &str) -> Value {
    serde_json::from_str(text.trim()).expect("one JSON object")
}

/// A fresh directory for `name` in this run's scratch folder.
fn fresh(name: &str) -> PathBuf {
    let d = scratch_dir("balance").join(name);
    let _ = std::fs::remove_dir_all(&d);
    d
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-9
}

/// Checks one rung of a report: the counts add up to its games, the
/// sides' scores add up to 1 and lie in their intervals, the draw rate
/// is the draws' share, and at most every won game is decided.
fn check_rung(r: &Value, games: u64, sides: usize) {
    assert_eq!(r["games"], games, "{r}");
    let distinct = r["distinct"].as_u64().unwrap();
    assert!(distinct >= 1 && distinct <= games, "{r}");
    let s = r["sides"].as_array().unwrap();
    assert_eq!(s.len(), sides, "{r}");
    let draws = s[0]["draws"].as_u64().unwrap();
    let wins: u64 = s.iter().map(|x| x["wins"].as_u64().unwrap()).sum();
    assert_eq!(
        wins + draws,
        games,
        "every game is won by one side or drawn: {r}"
    );
    let mut total = 0.0;
    for x in s {
        assert_eq!(
            x["wins"].as_u64().unwrap()
                + x["draws"].as_u64().unwrap()
                + x["losses"].as_u64().unwrap(),
            games
        );
        let sc = &x["score"];
        let v = sc["value"].as_f64().unwrap();
        let expect = (x["wins"].as_f64().unwrap() + draws as f64 / sides as f64) / games as f64;
        assert!(close(v, expect), "score is wins plus a share of draws: {x}");
        assert!(sc["lower"].as_f64().unwrap() <= v && v <= sc["upper"].as_f64().unwrap());
        total += v;
    }
    assert!(close(total, 1.0), "the sides' scores add up to 1: {r}");
    assert!(close(
        r["draw_rate"]["value"].as_f64().unwrap(),
        draws as f64 / games as f64
    ));
    let length = &r["length"];
    assert!(
        length["q1"].as_f64() <= length["median"].as_f64()
            && length["median"].as_f64() <= length["q3"].as_f64()
    );
    let ended: u64 = r["endings"]
        .as_object()
        .unwrap()
        .values()
        .map(|v| v.as_u64().unwrap())
        .sum();
    assert_eq!(ended, games);
    if let Some(d) = r["decisive"].as_object() {
        assert!(d["games"].as_u64().unwrap() <= wins, "{r}");
        assert!(d["ply"]["median"].as_f64().unwrap() <= length["q3"].as_f64().unwrap().max(1000.0));
    }
}

#[test]
fn a_tiny_ladder_reports_every_field_and_the_scores_add_up() {
    let page = fresh("page.html");
    let out = ok(&[
        "balance",
        "empedocles",
        "--setup",
        "fire,water",
        "--ladder",
        "depth=1,2",
        "--games",
        "6",
        "--seed",
        "3",
        "--json",
        "--html",
        page.to_str().unwrap(),
    ]);
    let v = json(&out);
    assert_eq!(v["game"], "empedocles");
    assert_eq!(v["ended"], "complete");
    assert_eq!(v["sides"].as_array().unwrap().len(), 2);
    assert_eq!(v["decisive_win_chance"], 0.75);
    let setups = v["setups"].as_array().unwrap();
    assert_eq!(setups.len(), 1, "only the setup asked for");
    assert_eq!(setups[0]["setup"], "fire,water");
    let rungs = setups[0]["rungs"].as_array().unwrap();
    assert_eq!(rungs.len(), 2);
    assert_eq!(
        (rungs[0]["rung"].as_str(), rungs[1]["rung"].as_str()),
        (Some("depth=1"), Some("depth=2"))
    );
    for r in rungs {
        check_rung(r, 6, 2);
        assert!(
            r["first_elo"].is_object(),
            "games of two sides have the first side's Elo"
        );
    }
    let edge = &setups[0]["first_edge"].as_array().unwrap()[0];
    let first = |r: &Value| r["sides"][0]["score"]["value"].as_f64().unwrap();
    assert!(close(
        edge["change"]["value"].as_f64().unwrap(),
        first(&rungs[1]) - first(&rungs[0])
    ));
    assert_eq!(
        (edge["from"].as_str(), edge["to"].as_str()),
        (Some("depth=1"), Some("depth=2"))
    );
    // The page has its plots and names no outside resource.
    let html = std::fs::read_to_string(&page).unwrap();
    for id in ["score-plot", "draw-plot", "length-plot", "decisive-plot"] {
        assert!(html.contains(&format!("id=\"{id}\"")), "{id}");
    }
    assert!(!html.contains("http"), "the page stands alone");
    // The text report says the same.
    let text = ok(&[
        "balance",
        "empedocles",
        "--setup",
        "fire,water",
        "--ladder",
        "depth=1,2",
        "--games",
        "6",
        "--seed",
        "3",
    ]);
    assert!(text.starts_with("balance of empedocles"), "{text}");
    assert!(
        text.contains("setup fire,water") && text.contains("depth=2"),
        "{text}"
    );
    assert!(
        text.contains("player 1's score from depth=1 to depth=2"),
        "{text}"
    );
}

#[test]
fn every_setup_is_played_unless_some_are_named() {
    let v = json(&ok(&[
        "balance",
        "empedocles",
        "--ladder",
        "depth=1",
        "--games",
        "2",
        "--json",
    ]));
    let setups: Vec<&str> = v["setups"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["setup"].as_str().unwrap())
        .collect();
    assert_eq!(setups.len(), 12, "the twelve element pairings: {setups:?}");
    assert_eq!(setups[0], "fire,water");
    assert!(setups.contains(&"earth,air") && setups.contains(&"air,earth"));
    // A game without setup options has one start position.
    let v = json(&ok(&[
        "balance",
        "apart",
        "--ladder",
        "depth=1",
        "--games",
        "2",
        "--random-plies",
        "2",
        "--ply-limit",
        "40",
        "--json",
    ]));
    assert_eq!(v["setups"].as_array().unwrap().len(), 1);
    assert_eq!(v["setups"][0]["setup"], Value::Null);
    check_rung(&v["setups"][0]["rungs"][0], 2, 2);
}

#[test]
fn games_of_more_than_two_sides_score_every_seat() {
    // Monte Carlo tree search at a few iterations keeps the games quick;
    // the teams' games end drawn at ply 6, before their resolutions grow
    // to thousands of outcomes (the four-player games below are won).
    let v = json(&ok(&[
        "balance",
        "spokes2v2",
        "--engine",
        "mcts",
        "--ladder",
        "iterations=4",
        "--games",
        "2",
        "--ply-limit",
        "6",
        "--json",
    ]));
    assert_eq!(v["sides"], serde_json::json!(["team 1", "team 2"]));
    let r = &v["setups"][0]["rungs"][0];
    check_rung(r, 2, 2);
    assert!(r["first_elo"].is_object(), "two teams are two sides: {r}");
    let dir = fresh("spokes4");
    let v = json(&ok(&[
        "balance",
        "spokes4",
        "--engine",
        "mcts",
        "--ladder",
        "iterations=4",
        "--games",
        "2",
        "--json",
        "--records",
        dir.to_str().unwrap(),
    ]));
    // Its records, which seat the engine's two names in turn, merge back
    // to the same report.
    let mut merged = json(&ok(&["balance", "merge", "--json", dir.to_str().unwrap()]));
    merged["ended"] = v["ended"].clone();
    assert_eq!(merged, v);
    assert_eq!(v["sides"].as_array().unwrap().len(), 4);
    let r = &v["setups"][0]["rungs"][0];
    check_rung(r, 2, 4);
    let wins: u64 = (r["sides"].as_array().unwrap().iter())
        .map(|x| x["wins"].as_u64().unwrap())
        .sum();
    assert!(wins > 0, "a seat wins a game of four: {r}");
    assert_eq!(r["first_elo"], Value::Null, "no Elo among four sides");
}

/// Runs balance `common` (options ending with `--json`) in two shards,
/// each with its records folder (named for `tag`): the folders, and the
/// first rung's games each shard played.
fn two_shards(common: &[&str], tag: &str) -> (Vec<PathBuf>, Vec<u64>) {
    let mut dirs = Vec::new();
    let mut games = Vec::new();
    for k in 1..=2 {
        let d = fresh(&format!("{tag}shard{k}"));
        let shard = format!("{k}/2");
        let mut args = common.to_vec();
        args.extend(["--shard", &shard, "--records", d.to_str().unwrap()]);
        let part = json(&ok(&args));
        games.push(part["setups"][0]["rungs"][0]["games"].as_u64().unwrap());
        dirs.push(d);
    }
    (dirs, games)
}

#[test]
fn shards_merged_equal_one_unsharded_run() {
    let common = [
        "balance",
        "empedocles",
        "--setup",
        "water,fire",
        "--setup",
        "air,earth",
        "--ladder",
        "depth=1,2",
        "--games",
        "5",
        "--seed",
        "11",
        "--json",
    ];
    let whole = fresh("whole");
    let mut args = common.to_vec();
    args.extend(["--records", whole.to_str().unwrap()]);
    let mut single = json(&ok(&args));
    assert_eq!(single["ended"], "complete");
    let mut names: Vec<String> = std::fs::read_dir(&whole)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    assert_eq!(
        names,
        [
            "air,earth@depth=1.jsonl",
            "air,earth@depth=2.jsonl",
            "water,fire@depth=1.jsonl",
            "water,fire@depth=2.jsonl"
        ]
    );
    let (dirs, games) = two_shards(&common, "");
    assert_eq!(games, [3, 2], "a shard plays its share");
    let page = fresh("merged.html");
    let mut merge = vec![
        "balance",
        "merge",
        "--json",
        "--html",
        page.to_str().unwrap(),
    ];
    merge.extend(dirs.iter().map(|d| d.to_str().unwrap()));
    let mut merged = json(&ok(&merge));
    assert_eq!(merged["ended"], "merged");
    merged["ended"] = Value::Null;
    single["ended"] = Value::Null;
    assert_eq!(
        merged, single,
        "two shards merged give the unsharded report"
    );
    assert!(page.exists());
    // The unsharded directory alone merges to the same report.
    let mut again = json(&ok(&[
        "balance",
        "merge",
        "--json",
        whole.to_str().unwrap(),
    ]));
    again["ended"] = Value::Null;
    assert_eq!(again, single);
    // A shard given twice is refused: its games would count twice.
    let err = rejected(&[
        "balance",
        "merge",
        dirs[0].to_str().unwrap(),
        dirs[0].to_str().unwrap(),
    ]);
    assert!(err.contains("appears twice"), "{err}");
    // A run refuses to write over its records unless told.
    let mut args = common.to_vec();
    args.extend(["--records", whole.to_str().unwrap()]);
    let err = rejected(&args);
    assert!(err.contains("already exists"), "{err}");
    // Resumed, a finished run plays nothing more and reports the same.
    args.push("--resume");
    let mut resumed = json(&ok(&args));
    resumed["ended"] = Value::Null;
    assert_eq!(resumed, single);
}

/// Balance runs of games of more than two sides share out like their
/// tournaments, by cycles of seatings (six in `spokes4`): two shards of a
/// rung of 7 games, 6 and 1, merged are the unsharded report.
#[test]
fn seat_shards_merged_equal_one_unsharded_run() {
    let common = [
        "balance",
        "spokes4",
        "--engine",
        "mcts",
        "--ladder",
        "iterations=10",
        "--games",
        "7",
        "--seed",
        "4",
        "--json",
    ];
    let whole = fresh("seats-whole");
    let mut args = common.to_vec();
    args.extend(["--records", whole.to_str().unwrap()]);
    let mut single = json(&ok(&args));
    let (dirs, games) = two_shards(&common, "seats-");
    assert_eq!(games, [6, 1], "a shard plays its cycles");
    let mut merge = vec!["balance", "merge", "--json"];
    merge.extend(dirs.iter().map(|d| d.to_str().unwrap()));
    let mut merged = json(&ok(&merge));
    assert_eq!(merged["ended"], "merged");
    merged["ended"] = Value::Null;
    single["ended"] = Value::Null;
    assert_eq!(
        merged, single,
        "two shards merged give the unsharded report"
    );
}

#[test]
fn bad_options_exit_2_with_one_line() {
    for (args, says) in [
        (
            vec!["balance", "aporia", "--ladder", "depth=2,1"],
            "must rise",
        ),
        (vec!["balance", "aporia", "--ladder", "speed=1,2"], "speed"),
        (
            vec!["balance", "aporia", "--ladder", "depth=0"],
            "at least 1",
        ),
        (
            vec!["balance", "aporia", "--ladder", "depth"],
            "<limit>=<values>",
        ),
        (
            vec!["balance", "empedocles", "--setup", "fire,fire"],
            "bad setup",
        ),
        (
            vec!["balance", "aporia", "--setup", "fire,water"],
            "bad setup",
        ),
        (vec!["balance", "aporia", "--decisive", "1.5"], "win chance"),
        (vec!["balance", "aporia", "--games", "0"], "--games"),
        (vec!["balance", "aporia", "--shard", "3/2"], "--shard"),
        (vec!["balance", "aporia", "--engine", "depth=0"], "depth"),
        (vec!["balance", "spokes4", "--shard", "0/2"], "--shard"),
        (
            vec!["balance", "merge", "/nonexistent/gamut-balance"],
            "cannot read",
        ),
    ] {
        let err = rejected(&args);
        assert!(err.contains(says), "{args:?}: {err}");
    }
}

/// A proven result is a win chance of 1: Aporia's scale is so flat that
/// no evaluation reaches 75%, so the decisive threshold stops just past
/// the evaluation's limit and the legend says it is a proven result;
/// Epaminondas' threshold is its scale.
#[test]
fn a_scale_no_evaluation_reaches_leaves_proven_results_deciding() {
    let aporia = ["balance", "aporia", "--ladder", "depth=1", "--games", "2"];
    let v = json(&ok(&[&aporia[..], &["--json"]].concat()));
    assert_eq!(v["decisive_score"], 10_001.0, "{v}");
    let text = ok(&aporia);
    assert!(text.contains("10001 or more (a proven result"), "{text}");
    let v = json(&ok(&[
        "balance",
        "epaminondas",
        "--ladder",
        "depth=1",
        "--games",
        "2",
        "--ply-limit",
        "20",
        "--json",
    ]));
    assert_eq!(v["decisive_score"], 500.0, "{v}");
}
