//! `gamut tournament`, `tournament merge` and `replay`, checked on the built
//! binary, and the tournament library's guarantees (reproducible games,
//! honest intervals, records that replay).

use crate::common;
use crate::common::untimed;
use crate::common::{ok, rejected as assert_rejected};
use gamut_games::epaminondas::Epaminondas;
use gamut_players::record::GameRecord;
use gamut_tournament::records;
use serde_json::Value;
use std::path::PathBuf;

fn temp(name: &str) -> PathBuf {
    let dir = common::scratch_dir("tournament");
    dir.join(name)
}

fn json(text: &str) -> Value {
    serde_json::from_str(text.trim()).expect("one JSON object")
}

#[test]
fn bad_engine_specs_and_options_are_rejected_with_one_line() {
    let base = ["tournament", "epaminondas", "--games", "2"];
    for specs in [
        ["name=a,depth=abc", "random"],
        ["name=a,depth=0", "random"],
        ["name=a,colour=red", "random"],
        ["name=a,search=mcts,depth=2", "random"],
        ["name=a", "random"],
        ["random,depth=3", "greedy"],
        ["name=a,depth=1,depth=2", "random"],
        ["name=a,depth=1,eval_off=nosuchterm", "random"],
        ["name=a,depth=1,parallel=everywhere", "random"],
        ["name=a,depth=1,", "random"],
        ["name=x,random", "name=x,greedy"],
    ] {
        let mut args: Vec<&str> = base.to_vec();
        for s in specs {
            args.extend(["--engine", s]);
        }
        assert_rejected(&args);
    }
    let two = ["--engine", "random", "--engine", "greedy"];
    for extra in [
        vec!["--games", "3"],
        vec!["--shard", "4/3"],
        vec!["--shard", "x"],
        vec!["--sprt", "elo0=5,elo1=0"],
        vec!["--openings", "/nonexistent/openings.txt"],
    ] {
        let mut args = vec!["tournament", "epaminondas"];
        args.extend(two);
        args.extend(extra);
        assert_rejected(&args);
    }
    assert_rejected(&["tournament", "epaminondas", "--engine", "random"]);
    assert_rejected(&[
        "tournament",
        "epaminondas",
        "--engine",
        "random",
        "--engine",
        "greedy",
        "--engine",
        "name=r2,random",
        "--sprt",
        "elo0=0,elo1=5",
    ]);
    assert_rejected(&["replay", "/nonexistent/records.jsonl", "--game", "1"]);
}

#[test]
fn a_seeded_tournament_is_reproducible_and_its_records_replay() {
    let (a, b) = (temp("repro-a.jsonl"), temp("repro-b.jsonl"));
    let run = |path: &PathBuf, concurrency: &str| {
        ok(&[
            "tournament",
            "epaminondas",
            "--engine",
            "name=d1,depth=1",
            "--engine",
            "greedy",
            "--engine",
            "name=rnd,random",
            "--games",
            "2",
            "--random-plies",
            "3",
            "--seed",
            "11",
            "--concurrency",
            concurrency,
            "--json",
            "--records",
            path.to_str().unwrap(),
        ])
    };
    // Games at once change only the order games finish in.
    let (ja, jb) = (json(&run(&a, "2")), json(&run(&b, "1")));
    assert_eq!(ja, jb, "same seed, same report");
    let (ra, rb) = (untimed(&a), untimed(&b));
    assert_eq!(ra.len(), 6, "three encounters of one pair each");
    assert_eq!(ra, rb, "same seed, same games, moves and results");
    // Both games of a pair start from the same opening with sides swapped.
    for pair in ra.chunks(2) {
        assert_eq!(pair[0].opening, pair[1].opening);
        assert_eq!(
            pair[0].engines,
            [pair[1].engines[1].clone(), pair[1].engines[0].clone()]
        );
    }
    for r in &ra {
        let steps = records::replay(r).expect("the record replays");
        assert_eq!(steps.len(), r.moves.len() + 1);
    }
    // Another seed gives other openings.
    let c = temp("repro-c.jsonl");
    ok(&[
        "tournament",
        "epaminondas",
        "--engine",
        "name=d1,depth=1",
        "--engine",
        "greedy",
        "--games",
        "2",
        "--random-plies",
        "3",
        "--seed",
        "12",
        "--records",
        c.to_str().unwrap(),
    ]);
    assert_ne!(untimed(&c)[0].opening, ra[0].opening);
    // The replay command steps through every position to the result.
    let text = ok(&["replay", a.to_str().unwrap(), "--game", "2"]);
    let r = &ra[1];
    assert_eq!(text.matches("\nposition ").count(), r.moves.len() + 1);
    assert!(text.contains(&format!(
        "step {}: {}",
        r.moves.len(),
        r.moves.last().unwrap()
    )));
    assert!(text.trim_end().ends_with(&format!(
        "result {} ({}), {} plies",
        r.result.as_deref().unwrap(),
        r.reason,
        r.plies
    )));
    assert_rejected(&["replay", a.to_str().unwrap(), "--game", "99"]);
}

#[test]
fn depth_three_beats_random_in_every_game_of_epaminondas() {
    // Without the capture search, which makes each game many times slower.
    let out = ok(&[
        "tournament",
        "epaminondas",
        "--engine",
        "name=d3,depth=3,quiescence=off",
        "--engine",
        "name=rnd,random",
        "--games",
        "6",
        "--random-plies",
        "2",
        "--seed",
        "5",
        "--json",
    ]);
    let v = json(&out);
    let e = &v["encounters"][0];
    assert_eq!(e["engines"][0], "d3");
    assert_eq!(e["wdl"]["wins"], 6, "{e}");
    assert_eq!(e["penta"], serde_json::json!([0, 0, 0, 0, 3]));
    assert_eq!(v["ended"], "complete");
}

#[test]
fn random_against_random_stays_within_the_interval_of_zero_elo() {
    let out = ok(&[
        "tournament",
        "apart",
        "--engine",
        "name=r1,random",
        "--engine",
        "name=r2,random",
        "--games",
        "60",
        "--seed",
        "3",
        "--json",
    ]);
    let e = json(&out)["encounters"][0].clone();
    assert_eq!(e["games"], 60);
    for key in ["elo", "penta_elo"] {
        let lo = e[key]["lower"].as_f64().unwrap();
        let hi = e[key]["upper"].as_f64().unwrap();
        assert!(lo < 0.0 && 0.0 < hi, "{key}: [{lo}, {hi}] misses 0");
    }
    let los = e["los"].as_f64().unwrap();
    assert!(los > 0.025 && los < 0.975, "LOS {los}");
}

/// Runs tournament `common` (options ending with `--json`) unsharded and
/// in `n` shards, each with its records (files named for `tag`), and
/// checks that the shards merged give the unsharded report and games:
/// the shards' files.
fn sharded_run(common: &[&str], tag: &str, n: u32) -> Vec<PathBuf> {
    let whole = temp(&format!("{tag}-whole.jsonl"));
    let mut args = common.to_vec();
    args.extend(["--records", whole.to_str().unwrap()]);
    let single = json(&ok(&args));
    let mut files = Vec::new();
    for k in 1..=n {
        let f = temp(&format!("{tag}-shard{k}.jsonl"));
        let shard = format!("{k}/{n}");
        let mut args = common.to_vec();
        args.extend(["--shard", &shard, "--records", f.to_str().unwrap()]);
        ok(&args);
        files.push(f);
    }
    let mut merge = vec!["tournament", "merge", "--json"];
    merge.extend(files.iter().map(|f| f.to_str().unwrap()));
    let mut merged = json(&ok(&merge));
    assert_eq!(merged["ended"], "merged");
    merged["ended"] = single["ended"].clone();
    assert_eq!(
        merged, single,
        "{n} shards merged give the unsharded report"
    );
    let mut sharded: Vec<GameRecord> = files.iter().flat_map(|f| untimed(f)).collect();
    sharded.sort_by_key(|r| r.number);
    assert_eq!(sharded, untimed(&whole), "and the same games");
    files
}

#[test]
fn shards_merged_equal_one_unsharded_run() {
    let common = [
        "tournament",
        "apart",
        "--engine",
        "name=d1,depth=1",
        "--engine",
        "greedy",
        "--engine",
        "name=rnd,random",
        "--format",
        "gauntlet",
        "--games",
        "4",
        "--random-plies",
        "2",
        "--seed",
        "9",
        "--json",
    ];
    let files = sharded_run(&common, "pairs", 3);
    // A shard given twice is refused.
    assert_rejected(&[
        "tournament",
        "merge",
        files[0].to_str().unwrap(),
        files[0].to_str().unwrap(),
    ]);
    // The text report names the encounters of the gauntlet and the standings.
    let mut text_args = vec!["tournament", "merge"];
    text_args.extend(files.iter().map(|f| f.to_str().unwrap()));
    let text = ok(&text_args);
    assert!(text.contains("d1 vs greedy (4 games)"), "{text}");
    assert!(text.contains("d1 vs rnd (4 games)"), "{text}");
    assert!(text.contains("standings"), "{text}");
}

/// A tournament of four seats shares out whole cycles of lineups (six for
/// two engines on four seats): 14 games are cycles 0 and 2 (the last cut
/// to two games) on shard 1 and cycle 1 on shard 2, and the two merged
/// are the unsharded run, report and games.
#[test]
fn seat_shards_merged_equal_one_unsharded_run() {
    let common = [
        "tournament",
        "spokes4",
        "--engine",
        "name=a,mcts,iterations=10",
        "--engine",
        "name=b,mcts,iterations=20",
        "--games",
        "14",
        "--ply-limit",
        "4",
        "--seed",
        "3",
        "--json",
    ];
    let files = sharded_run(&common, "seats", 2);
    let numbers = |f: &PathBuf| -> Vec<u64> { untimed(f).iter().map(|r| r.number).collect() };
    assert_eq!(numbers(&files[0]), [1, 2, 3, 4, 5, 6, 13, 14]);
    assert_eq!(numbers(&files[1]), [7, 8, 9, 10, 11, 12]);
}

#[test]
fn dice_are_the_same_in_both_games_of_a_pair() {
    let f = temp("empedocles.jsonl");
    ok(&[
        "tournament",
        "empedocles",
        "--engine",
        "greedy",
        "--engine",
        "name=rnd,random",
        "--games",
        "4",
        "--seed",
        "4",
        "--records",
        f.to_str().unwrap(),
    ]);
    let recs = untimed(&f);
    assert_eq!(recs.len(), 4);
    for pair in recs.chunks(2) {
        let n = pair[0].rolls.len().min(pair[1].rolls.len());
        assert!(n > 0, "the games rolled the die");
        assert_eq!(
            pair[0].rolls[..n],
            pair[1].rolls[..n],
            "same rolls in a pair"
        );
    }
    assert_ne!(recs[0].rolls, recs[2].rolls, "other openings, other rolls");
    for r in &recs {
        records::replay(r).expect("the record replays");
    }
}

#[test]
fn sprt_stops_as_soon_as_a_bound_is_crossed() {
    let f = temp("sprt.jsonl");
    let out = ok(&[
        "tournament",
        "apart",
        "--engine",
        "name=d1,depth=1",
        "--engine",
        "name=rnd,random",
        "--games",
        "100",
        "--random-plies",
        "2",
        "--sprt",
        "elo0=0,elo1=10",
        "--json",
        "--records",
        f.to_str().unwrap(),
    ]);
    let v = json(&out);
    assert_eq!(v["ended"], "sprt");
    let e = &v["encounters"][0];
    assert_eq!(e["sprt"]["state"], "h1");
    let games = e["games"].as_u64().unwrap();
    assert!(games < 100, "stopped early after {games} games");
    assert_eq!(
        records::read(&f).unwrap().len() as u64,
        games,
        "every game kept"
    );
}

#[test]
fn ply_limit_and_draw_adjudication_are_recorded() {
    let f = temp("limits.jsonl");
    ok(&[
        "tournament",
        "epaminondas",
        "--engine",
        "name=r1,random",
        "--engine",
        "name=r2,random",
        "--games",
        "2",
        "--ply-limit",
        "6",
        "--records",
        f.to_str().unwrap(),
    ]);
    for r in untimed(&f) {
        assert_eq!(
            (r.reason.as_str(), r.plies, r.adjudicated),
            ("ply limit", 6, true)
        );
        assert_eq!(r.result.as_deref(), Some("1/2-1/2"));
        records::replay(&r).expect("an adjudicated record replays");
    }
    let out = ok(&[
        "tournament",
        "epaminondas",
        "--engine",
        "name=a,depth=1",
        "--engine",
        "name=b,depth=1",
        "--games",
        "2",
        "--draw-score",
        "30000",
        "--draw-moves",
        "2",
        "--json",
    ]);
    let e = &json(&out)["encounters"][0];
    assert_eq!(e["reasons"]["draw adjudication"], 2, "{e}");
}

#[test]
fn points_are_reported_and_simultaneous_records_replay() {
    let f = temp("spokes.jsonl");
    let out = ok(&[
        "tournament",
        "spokes",
        "--engine",
        "greedy",
        "--engine",
        "name=rnd,random",
        "--games",
        "4",
        "--seed",
        "3",
        "--json",
        "--records",
        f.to_str().unwrap(),
    ]);
    let e = &json(&out)["encounters"][0];
    let recs = untimed(&f);
    // The report's points are the records' points, summed per engine.
    let mut totals = [0u64; 2];
    for r in &recs {
        let p = r.points.as_deref().expect("spokes scores points");
        let side = r.side_of("greedy");
        totals[0] += u64::from(p[side]);
        totals[1] += u64::from(p[1 - side]);
        assert_eq!(
            r.joint.len(),
            r.moves.iter().filter(|m| m.contains(',')).count()
        );
        for j in &r.joint {
            for (s, strategy) in j.strategies.iter().enumerate() {
                let sum: f64 = strategy.iter().map(|(_, p)| p).sum();
                assert!((sum - 1.0).abs() < 1e-9, "a strategy sums to 1");
                assert!(
                    strategy.iter().any(|(a, _)| *a == j.actions[s]),
                    "the action was in it"
                );
            }
        }
        records::replay(r).expect("a simultaneous record replays");
    }
    assert_eq!(e["points"], serde_json::json!(totals));
    let margin = (totals[0] as f64 - totals[1] as f64) / 4.0;
    assert!((e["margin"]["value"].as_f64().unwrap() - margin).abs() < 1e-9);
    let f = temp("aporia.jsonl");
    ok(&[
        "tournament",
        "aporia",
        "--engine",
        "name=d1,depth=1",
        "--engine",
        "name=rnd,random",
        "--games",
        "2",
        "--random-plies",
        "2",
        "--records",
        f.to_str().unwrap(),
    ]);
    for r in untimed(&f) {
        // Aporia scores 3/2 points; a tournament adjudication scores none.
        assert_eq!(r.points.is_some(), !r.adjudicated, "{}", r.reason);
        records::replay(&r).expect("the record replays");
    }
}

#[test]
fn openings_come_from_a_perft_suite_in_turn() {
    let suite = concat!(env!("CARGO_MANIFEST_DIR"), "/positions/epaminondas.perft");
    // Positions where the game is over (home-row wins) are skipped.
    let lines: Vec<String> = std::fs::read_to_string(suite)
        .unwrap()
        .lines()
        .map(|l| l.split(';').next().unwrap().trim().to_string())
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .filter(|l| {
            use gamut_core::game::{Game, NodeKind, Notation};
            Epaminondas::parse(l).unwrap().node() != NodeKind::Terminal
        })
        .collect();
    let f = temp("openings.jsonl");
    ok(&[
        "tournament",
        "epaminondas",
        "--engine",
        "name=r1,random",
        "--engine",
        "name=r2,random",
        "--games",
        "4",
        "--ply-limit",
        "4",
        "--openings",
        suite,
        "--records",
        f.to_str().unwrap(),
    ]);
    let recs = untimed(&f);
    assert_eq!(recs[0].opening, lines[0]);
    assert_eq!(recs[1].opening, lines[0]);
    assert_eq!(recs[2].opening, lines[1]);
    let bad = temp("bad-openings.txt");
    std::fs::write(&bad, "# one good line, one bad\nnot a position ;D1 3\n").unwrap();
    assert_rejected(&[
        "tournament",
        "epaminondas",
        "--engine",
        "random",
        "--engine",
        "greedy",
        "--openings",
        bad.to_str().unwrap(),
    ]);
}

/// Runs stored with today's build of an earlier version (before the
/// tournament library was unified): the file under `tests/suite/data/` and
/// the arguments after `tournament` that made it. Engines limited by depth
/// or iterations, so the games depend on the seed alone. Epaminondas' run
/// was made again when a move onto the home row became a capture-like
/// move for ordering (the search changed on purpose). Apart's run was made
/// with the classic evaluation, then its default; its network is the
/// default now, so the run names `eval=classic` (its records' specs too);
/// so do the runs of two-player Spokes, Epaminondas and `spokes2v2` (its
/// paranoid engine's), for the same reason.
const STORED: &[(&str, &[&str])] = &[
    (
        "tournament-epaminondas-main.jsonl",
        &[
            "epaminondas",
            "--engine",
            "name=d2,depth=2,eval=classic",
            "--engine",
            "name=d1,depth=1,quiescence=off,eval=classic",
            "--engine",
            "name=g,greedy",
            "--games",
            "2",
            "--seed",
            "7",
            "--random-plies",
            "2",
        ],
    ),
    (
        "tournament-empedocles-main.jsonl",
        &[
            "empedocles",
            "--engine",
            "name=d2,depth=2",
            "--engine",
            "name=r,random",
            "--games",
            "2",
            "--seed",
            "3",
        ],
    ),
    (
        "tournament-spokes-main.jsonl",
        &[
            "spokes",
            "--engine",
            "name=d1,depth=1,eval=classic",
            "--engine",
            "name=g,greedy",
            "--games",
            "2",
            "--seed",
            "5",
        ],
    ),
    (
        "tournament-aporia-main.jsonl",
        &[
            "aporia",
            "--engine",
            "name=d2,depth=2",
            "--engine",
            "name=g,greedy",
            "--games",
            "2",
            "--seed",
            "9",
        ],
    ),
    (
        "tournament-apart-main.jsonl",
        &[
            "apart",
            "--engine",
            "name=d2,depth=2,eval=classic",
            "--engine",
            "name=g,greedy",
            "--games",
            "2",
            "--seed",
            "9",
            "--ply-limit",
            "60",
        ],
    ),
    (
        "tournament-spokes4-main.jsonl",
        &[
            "spokes4",
            "--engine",
            "name=m,mcts,iterations=50",
            "--engine",
            "name=r,random",
            "--games",
            "2",
            "--seed",
            "5",
        ],
    ),
    (
        "tournament-spokes2v2-main.jsonl",
        &[
            "spokes2v2",
            "--engine",
            "name=p,paranoid,depth=1,eval=classic",
            "--engine",
            "name=r,random",
            "--games",
            "2",
            "--seed",
            "5",
        ],
    ),
];

fn stored(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/suite/data")
        .join(name)
}

/// The records of a file as JSON, by game number, without their timings,
/// their lines' checksums and the seed (which records written before they
/// were kept lack); the seed, where present, must be `seed`. Seats records
/// written before one record served every game are read as today's: their
/// `seats` are `engines`, and they score no points.
fn comparable(text: &str, seed: Option<u64>) -> Vec<Value> {
    let mut recs: Vec<Value> = text
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(json)
        .collect();
    for r in &mut recs {
        let map = r.as_object_mut().expect("a record is an object");
        // Records written before lines carried a checksum have none.
        map.remove("crc32");
        if let Some(engines) = map.remove("seats") {
            map.insert("engines".into(), engines);
            map.entry("points").or_insert(Value::Null);
        }
        map.remove("time_ms").expect("a record has its time");
        // Move times vary from run to run, as the game's time does.
        if let Some(Value::Array(scores)) = map.get_mut("scores") {
            for s in scores {
                s.as_object_mut()
                    .expect("a score is an object")
                    .remove("time_ms");
            }
        }
        if let Some(s) = map.remove("seed") {
            assert_eq!(s.as_u64(), seed, "{s}");
        }
        // Records written before the ply limit and the adjudication
        // settings were kept have none.
        map.remove("ply_limit");
        map.remove("adjudicate");
    }
    recs.sort_by_key(|r| r["number"].as_u64());
    recs
}

#[test]
fn records_written_by_the_earlier_version_still_read() {
    for (file, _) in STORED {
        let path = stored(file);
        let text = std::fs::read_to_string(&path).unwrap();
        let games = text.lines().count();
        assert!(games >= 2, "{file}");
        // Every game replays, checked throughout, in every game id.
        for n in 1..=games {
            let shown = ok(&["replay", path.to_str().unwrap(), "--game", &n.to_string()]);
            assert!(shown.contains("\nresult "), "{file} game {n}: {shown}");
        }
        assert_eq!(records::read(&path).unwrap().len(), games, "{file}");
        // Records of every game, of two sides or more, merge.
        let merged = json(&ok(&[
            "tournament",
            "merge",
            path.to_str().unwrap(),
            "--json",
        ]));
        assert_eq!(merged["games"].as_u64(), Some(games as u64), "{merged}");
    }
}

/// Seats records (`spokes4`, `spokes2v2`) as the version before one
/// record served every tournament wrote them.
const SEATS_FORMAT: [&str; 2] = [
    "tournament-spokes4-seats-record.jsonl",
    "tournament-spokes2v2-seats-record.jsonl",
];

#[test]
fn records_of_two_players_write_back_byte_for_byte() {
    for (file, args) in STORED {
        if args[0].starts_with("spokes4") || args[0].starts_with("spokes2v2") {
            continue;
        }
        let text = std::fs::read_to_string(stored(file)).unwrap();
        let recs = records::read(&stored(file)).unwrap();
        for ((_, rec), line) in recs.iter().zip(text.lines()) {
            // serde_json reads a float to within a unit of its last place,
            // so records with strategies are compared as JSON values.
            if rec.joint.is_empty() {
                assert_eq!(rec.to_json(), line, "{file} game {}", rec.number);
            } else {
                assert_eq!(
                    json(&rec.to_json()),
                    json(line),
                    "{file} game {}",
                    rec.number
                );
            }
        }
    }
}

/// Long: each of the stored four-player games is replayed against the
/// rules, and a four-player resolution lists every outcome (seconds each).
#[test]
#[ignore = "long check"]
fn long_seats_records_of_the_earlier_format_read_as_games_without_pairs() {
    for file in SEATS_FORMAT {
        let path = stored(file);
        let text = std::fs::read_to_string(&path).unwrap();
        let recs = records::read(&path).unwrap();
        assert_eq!(recs.len(), text.lines().count(), "{file}");
        for ((_, rec), line) in recs.iter().zip(text.lines()) {
            let old = json(line);
            assert_eq!(serde_json::json!(rec.engines), old["seats"], "{file}");
            assert_eq!(
                (&rec.pair, &rec.encounter, &rec.opening_index, &rec.result),
                (&None, &None, &None, &None),
                "{file}: a seats game has no pair"
            );
            assert!(rec.points.is_none() && rec.rolls.is_empty() && rec.scores.is_empty());
            // Written again, the record is the old one with `seats` named
            // `engines` and no points scored.
            let mut again = json(&rec.to_json());
            let map = again.as_object_mut().unwrap();
            assert_eq!(map.remove("points"), Some(Value::Null), "{file}");
            let engines = map.remove("engines").unwrap();
            map.insert("seats".into(), engines);
            assert_eq!(again, old, "{file} game {}", rec.number);
            // Every game replays.
            let shown = ok(&[
                "replay",
                path.to_str().unwrap(),
                "--game",
                &rec.number.to_string(),
            ]);
            assert!(
                shown.contains(" wins (") || shown.contains("result draw"),
                "{shown}"
            );
        }
        let merged = json(&ok(&[
            "tournament",
            "merge",
            path.to_str().unwrap(),
            "--json",
        ]));
        assert_eq!(
            merged["games"].as_u64(),
            Some(recs.len() as u64),
            "{merged}"
        );
        let err = assert_rejected(&[
            "replay",
            path.to_str().unwrap(),
            "--pgn",
            temp(&format!("{file}.pgn")).to_str().unwrap(),
        ]);
        assert!(err.contains("PGN records games of two players"), "{err}");
    }
}

#[test]
fn a_seats_record_with_a_pair_or_a_pair_record_without_one_is_refused() {
    let seats = std::fs::read_to_string(stored(SEATS_FORMAT[0])).unwrap();
    let mut rec: GameRecord = serde_json::from_str(seats.lines().next().unwrap()).unwrap();
    records::verify(&rec).unwrap();
    rec.result = Some("1-0".into());
    let err = records::verify(&rec).unwrap_err().0;
    assert!(err.contains("seats game has no pair"), "{err}");
    let two = std::fs::read_to_string(stored("tournament-spokes-main.jsonl")).unwrap();
    let mut rec: GameRecord = serde_json::from_str(two.lines().next().unwrap()).unwrap();
    records::verify(&rec).unwrap();
    rec.encounter = None;
    let err = records::verify(&rec).unwrap_err().0;
    assert!(err.contains("needs its pair"), "{err}");
}

#[test]
fn a_stored_run_of_depth_limited_engines_is_played_again_game_for_game() {
    for (file, args) in STORED {
        let out = temp(&format!("again-{file}"));
        let _ = std::fs::remove_file(&out);
        let mut argv = vec!["tournament"];
        argv.extend(args.iter());
        argv.extend(["--records", out.to_str().unwrap(), "--quiet"]);
        ok(&argv);
        let seed = args
            .iter()
            .position(|&a| a == "--seed")
            .map(|i| args[i + 1].parse().unwrap());
        let before = comparable(&std::fs::read_to_string(stored(file)).unwrap(), seed);
        let now = comparable(&std::fs::read_to_string(&out).unwrap(), seed);
        assert_eq!(before.len(), now.len(), "{file}");
        for (b, n) in before.iter().zip(&now) {
            assert_eq!(b, n, "{file}: game {} differs", b["number"]);
        }
    }
}

/// A small records file of Epaminondas made for the path tests.
fn small_records(name: &str, seed: &str, spec: &str, shard: &str) -> PathBuf {
    let path = temp(name);
    let _ = std::fs::remove_file(&path);
    ok(&[
        "tournament",
        "epaminondas",
        "--engine",
        spec,
        "--engine",
        "name=r,random",
        "--games",
        "2",
        "--format",
        "gauntlet",
        "--engine",
        "name=g,greedy",
        "--seed",
        seed,
        "--shard",
        shard,
        "--ply-limit",
        "40",
        "--records",
        path.to_str().unwrap(),
        "--quiet",
    ]);
    path
}

#[test]
fn no_output_option_overwrites_a_records_file() {
    let rec = small_records("keep.jsonl", "1", "name=a,depth=1", "1/1");
    let r = rec.to_str().unwrap();
    let before = std::fs::read(&rec).unwrap();
    let link = temp("keep-link.html");
    let _ = std::fs::remove_file(&link);
    std::os::unix::fs::symlink(&rec, &link).unwrap();
    let l = link.to_str().unwrap();
    let fresh = temp("fresh.jsonl");
    let _ = std::fs::remove_file(&fresh);
    let f = fresh.to_str().unwrap();
    let play = [
        "tournament",
        "epaminondas",
        "--engine",
        "random",
        "--engine",
        "greedy",
    ];
    let openings = temp("keep-openings.txt");
    let first: Value = json(
        std::str::from_utf8(&before)
            .unwrap()
            .lines()
            .next()
            .unwrap(),
    );
    std::fs::write(
        &openings,
        format!("{}\n", first["opening"].as_str().unwrap()),
    )
    .unwrap();
    let o = openings.to_str().unwrap();
    let cases: Vec<Vec<&str>> = vec![
        vec!["tournament", "merge", r, "--html", r],
        vec!["tournament", "merge", r, "--html", l],
        vec!["replay", r, "--game", "1", "--html", r],
        vec!["replay", r, "--game", "1", "--html", l],
        vec!["replay", r, "--game", "1", "--move", "1", "--svg", l],
        [&play[..], &["--records", f, "--html", f]].concat(),
        [&play[..], &["--records", r, "--resume", "--html", l]].concat(),
        [&play[..], &["--openings", o, "--records", o, "--overwrite"]].concat(),
    ];
    for args in &cases {
        let err = assert_rejected(args);
        assert!(err.contains("choose another file"), "{args:?}: {err}");
        assert_eq!(std::fs::read(&rec).unwrap(), before, "{args:?} changed it");
        assert!(!fresh.exists(), "{args:?} wrote {f}");
    }
    assert!(std::fs::read_to_string(&openings).unwrap().lines().count() == 1);
}

#[test]
fn merge_refuses_records_of_another_tournament_unless_told() {
    let one = small_records("mix-1.jsonl", "1", "name=a,depth=1", "1/2");
    let seed = small_records("mix-seed.jsonl", "2", "name=a,depth=1", "2/2");
    let spec = small_records("mix-spec.jsonl", "1", "name=a,depth=2", "2/2");
    let same = small_records("mix-2.jsonl", "1", "name=a,depth=1", "2/2");
    let p = |x: &PathBuf| x.to_str().unwrap().to_string();
    let merged = json(&ok(&["tournament", "merge", &p(&one), &p(&same), "--json"]));
    assert_eq!(merged["games"].as_u64(), Some(4), "{merged}");
    let err = assert_rejected(&["tournament", "merge", &p(&one), &p(&seed)]);
    assert!(err.contains("seed"), "{err}");
    let err = assert_rejected(&["tournament", "merge", &p(&one), &p(&spec)]);
    assert!(err.contains("name=a,depth=2"), "{err}");
    for other in [&seed, &spec] {
        let merged = json(&ok(&[
            "tournament",
            "merge",
            &p(&one),
            &p(other),
            "--allow-mixed",
            "--json",
        ]));
        assert_eq!(merged["games"].as_u64(), Some(4), "{merged}");
    }
}

#[test]
fn replay_refuses_a_game_number_held_twice() {
    for file in [
        "tournament-spokes-main.jsonl",
        "tournament-spokes2v2-main.jsonl",
    ] {
        let text = std::fs::read_to_string(stored(file)).unwrap();
        let first = text.lines().next().unwrap();
        let twice = temp(&format!("twice-{file}"));
        std::fs::write(&twice, format!("{text}{first}\n")).unwrap();
        let t = twice.to_str().unwrap();
        let err = assert_rejected(&["replay", t, "--game", "1"]);
        assert!(err.contains("2 times"), "{err}");
        ok(&["replay", t, "--game", "2"]);
    }
}

#[test]
fn adjudicate_ends_a_lost_game_instead_of_a_draw_at_the_ply_limit() {
    let base = [
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
        "--json",
    ];
    // Without adjudication the second game runs to the ply limit, the
    // stronger side far ahead, and counts as a draw (with the classic
    // evaluation, whose games these seeds were chosen for).
    let plain = json(&ok(&base));
    assert_eq!(
        plain["encounters"][0]["wdl"]["draws"].as_u64(),
        Some(1),
        "{plain}"
    );
    let args = [&base[..], &["--adjudicate", "resign=300,2", "draw=5,10,40"]].concat();
    let judged = json(&ok(&args));
    assert_eq!(
        judged["encounters"][0]["wdl"]["wins"].as_u64(),
        Some(2),
        "{judged}"
    );
    assert_eq!(
        judged["encounters"][0]["reasons"]["resign adjudication"].as_u64(),
        Some(2),
        "{judged}"
    );
    for bad in [
        "resign=300",
        "resign=0,2",
        "lose=1,2",
        "draw=a,b",
        "draw=5,0",
    ] {
        assert_rejected(&[&base[..], &["--adjudicate", bad]].concat());
    }
    assert_rejected(
        &[
            &base[..],
            &["--adjudicate", "resign=300,2", "--resign-score", "3"],
        ]
        .concat(),
    );
}

#[test]
fn searchers_under_a_game_clock_play_without_losing_on_time() {
    let path = temp("clock.jsonl");
    let _ = std::fs::remove_file(&path);
    ok(&[
        "tournament",
        "epaminondas",
        "--engine",
        "name=clock,tc=1+0.05",
        "--engine",
        "name=periods,depth=3,tc=4/0.5+0",
        "--games",
        "2",
        "--ply-limit",
        "24",
        "--records",
        path.to_str().unwrap(),
        "--quiet",
    ]);
    let recs = untimed(&path);
    assert_eq!(recs.len(), 2);
    for r in &recs {
        assert!(!r.reason.starts_with("forfeit"), "{}", r.reason);
        assert!(r.scores.len() as u32 >= r.plies.min(24) - 1, "{r:?}");
    }
    for bad in ["tc=0+1", "tc=1+x", "tc=0/10+1", "tc=", "tc=-1+0"] {
        assert_rejected(&[
            "tournament",
            "epaminondas",
            "--engine",
            &format!("name=a,{bad}"),
            "--engine",
            "random",
        ]);
    }
}

#[test]
fn a_program_under_a_clock_is_sent_its_time_and_options_and_loses_on_time() {
    let log = temp("clock-engine.log");
    let _ = std::fs::remove_file(&log);
    let script = temp("clock-engine.sh");
    std::fs::write(
        &script,
        format!(
            "#!/bin/sh\nwhile read -r line; do\n  echo \"$line\" >> '{}'\n  case \"$line\" in\n    gamut) echo gamutok ;;\n    isready) echo readyok ;;\n    go*) exec sleep 120 ;;\n    quit) exit 0 ;;\n  esac\ndone\n",
            log.display()
        ),
    )
    .unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    let path = temp("clock-engine.jsonl");
    let _ = std::fs::remove_file(&path);
    ok(&[
        "tournament",
        "epaminondas",
        "--engine",
        &format!(
            "name=slow,cmd={},tc=0.3+0.1,margin=100,option.Style=calm",
            script.display()
        ),
        "--engine",
        "name=r,random",
        "--games",
        "2",
        "--records",
        path.to_str().unwrap(),
        "--quiet",
    ]);
    let recs = untimed(&path);
    for r in &recs {
        assert!(r.reason.starts_with("forfeit: "), "{}", r.reason);
        assert_eq!(r.engines[r.winner.unwrap() as usize - 1], "r");
    }
    let sent = std::fs::read_to_string(&log).unwrap();
    assert!(sent.contains("setoption name Style value calm\n"), "{sent}");
    assert!(sent.contains("go wtime 300 winc 100\n"), "{sent}");
    assert!(sent.contains("go btime 300 binc 100\n"), "{sent}");
}

/// A short spokes4 tournament of tiny engines (a few iterations, a few
/// plies): the arguments after `tournament`, with `extra` appended.
fn spokes4_run(seed: &str, extra: &[&str]) -> Vec<String> {
    let mut args: Vec<String> = [
        "tournament",
        "spokes4",
        "--engine",
        "name=m,mcts,iterations=2",
        "--engine",
        "name=r,random",
        "--games",
        "2",
        "--ply-limit",
        "6",
        "--seed",
        seed,
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    args.extend(extra.iter().map(|s| s.to_string()));
    args
}

fn strs(args: &[String]) -> Vec<&str> {
    args.iter().map(String::as_str).collect()
}

#[test]
fn a_spokes4_tournament_writes_its_report_and_games_as_pages() {
    let html = temp("s4-report.html");
    let records = temp("s4-pages.jsonl");
    for f in [&html, &records] {
        let _ = std::fs::remove_file(f);
    }
    let (h, r) = (html.to_str().unwrap(), records.to_str().unwrap());
    ok(&strs(&spokes4_run(
        "2",
        &["--records", r, "--html", h, "--quiet"],
    )));
    let report = std::fs::read_to_string(&html).unwrap();
    assert!(report.contains("Spokes") && report.contains("id=\"standings\""));
    // One page: every game in it as data, linked within it.
    for n in 1..=2 {
        assert!(!temp(&format!("s4-report-game-{n}.html")).exists());
        assert!(report.contains(&format!("href=\"#game={n}\"")));
        assert!(report.contains(&format!("\"n\":{n}")));
    }
    assert!(report.contains("player 4") && report.contains("ply limit"));
    // replay --html writes the viewer with the one game.
    let again = temp("s4-replayed.html");
    ok(&[
        "replay",
        r,
        "--game",
        "2",
        "--html",
        again.to_str().unwrap(),
    ]);
    let one = std::fs::read_to_string(&again).unwrap();
    assert!(one.contains("id=\"games-data\"") && one.contains("\"n\":2"));
    assert!(!one.contains("\"n\":1"));
    // The output checks: no page over the records file.
    let err = assert_rejected(&strs(&spokes4_run(
        "2",
        &["--records", r, "--overwrite", "--html", r],
    )));
    assert!(err.contains("choose another file"), "{err}");
}

#[test]
fn a_spokes4_tournament_resumes_from_its_records_and_refuses_another() {
    let full = temp("s4-full.jsonl");
    let part = temp("s4-part.jsonl");
    let _ = std::fs::remove_file(&full);
    let (f, p) = (full.to_str().unwrap(), part.to_str().unwrap());
    ok(&strs(&spokes4_run("4", &["--records", f, "--quiet"])));
    let text = std::fs::read_to_string(&full).unwrap();
    // The first record and half of the second, as a crash leaves them.
    let second = text.lines().nth(1).unwrap();
    let cut = format!(
        "{}\n{}",
        text.lines().next().unwrap(),
        &second[..second.len() / 2]
    );
    std::fs::write(&part, &cut).unwrap();
    let out = ok(&strs(&spokes4_run(
        "4",
        &["--records", p, "--resume", "--json"],
    )));
    assert_eq!(json(&out)["games"].as_u64(), Some(2), "{out}");
    let untimed = |t: &str| comparable(t, Some(4));
    assert_eq!(
        untimed(&std::fs::read_to_string(&part).unwrap()),
        untimed(&text)
    );
    // Another seed or another engine is another tournament.
    std::fs::write(&part, &cut).unwrap();
    let err = assert_rejected(&strs(&spokes4_run("5", &["--records", p, "--resume"])));
    assert!(err.contains("seed"), "{err}");
    let other = [
        "tournament",
        "spokes4",
        "--engine",
        "name=m,mcts,iterations=3",
        "--engine",
        "name=r,random",
        "--games",
        "2",
        "--seed",
        "4",
        "--records",
        p,
        "--resume",
    ];
    let err = assert_rejected(&other);
    assert!(err.contains("iterations=3"), "{err}");
    assert_eq!(std::fs::read_to_string(&part).unwrap(), cut);
    // Without --resume an existing file is kept.
    let err = assert_rejected(&strs(&spokes4_run("4", &["--records", f])));
    assert!(err.contains("already exists"), "{err}");
}

#[test]
fn spokes4_records_merge_into_the_seats_report() {
    let a = temp("s4-merge.jsonl");
    let _ = std::fs::remove_file(&a);
    let r = a.to_str().unwrap();
    let played = json(&ok(&strs(&spokes4_run("6", &["--records", r, "--json"]))));
    let merged = json(&ok(&["tournament", "merge", r, "--json"]));
    assert_eq!(merged["ended"], "merged");
    assert_eq!(merged["games"], played["games"]);
    assert_eq!(merged["standings"], played["standings"]);
    let html = temp("s4-merged.html");
    ok(&["tournament", "merge", r, "--html", html.to_str().unwrap()]);
    assert!(std::fs::read_to_string(&html)
        .unwrap()
        .contains("id=\"standings\""));
    let err = assert_rejected(&["tournament", "merge", r, r]);
    assert!(err.contains("appears twice"), "{err}");
    let err = assert_rejected(&["tournament", "merge", r, "--sprt", "elo0=0,elo1=5"]);
    assert!(err.contains("--sprt does not apply"), "{err}");
}

/// A seats tournament with openings plays every arrangement of the
/// engines in a cycle from the same position, and each cycle from its own:
/// random walks drawn per cycle, or an openings file's lines in turn; the
/// records keep each game's opening index, and a resumed run refuses
/// records of other openings. Two engines on `spokes2v2`'s two teams make
/// cycles of two games.
#[test]
fn seats_tournaments_play_each_opening_once_in_every_arrangement() {
    use gamut_core::game::{Game, Notation};
    let path = temp("s2v2-openings.jsonl");
    let p = path.to_str().unwrap();
    let run = |extra: &[&str]| {
        let mut args = vec![
            "tournament",
            "spokes2v2",
            "--engine",
            "name=m,mcts,iterations=2",
            "--engine",
            "name=r,random",
            "--games",
            "6",
            // A ply after the openings' two: each game is a round of play
            // from its opening (whole games of spokes2v2 take seconds).
            "--ply-limit",
            "3",
            "--seed",
            "3",
            "--records",
            p,
            "--quiet",
        ];
        args.extend_from_slice(extra);
        args.iter().map(|s| s.to_string()).collect::<Vec<_>>()
    };
    // (number, opening index, opening, engines) of every game, by number.
    let games = || -> Vec<(u64, u64, String, Value)> {
        let mut games: Vec<_> = std::fs::read_to_string(&path)
            .unwrap()
            .lines()
            .map(json)
            .map(|g| {
                (
                    g["number"].as_u64().unwrap(),
                    g["opening_index"].as_u64().unwrap(),
                    g["opening"].as_str().unwrap().to_string(),
                    g["engines"].clone(),
                )
            })
            .collect();
        games.sort_by_key(|g| g.0);
        games
    };
    ok(&strs(&run(&["--random-plies", "2", "--overwrite"])));
    let played = games();
    assert_eq!(played.len(), 6);
    let start = gamut_games::spokes::Spokes2v2::start().text();
    for (n, index, opening, engines) in &played {
        let first = &played[(*index * 2) as usize];
        assert_eq!(*index, (n - 1) / 2, "game {n}");
        assert_eq!(opening, &first.2, "game {n}: its cycle's opening");
        assert_ne!(opening, &start, "game {n}");
        if n % 2 == 0 {
            assert_ne!(engines, &first.3, "game {n}: the other arrangement");
        }
    }
    assert_ne!(played[0].2, played[2].2, "each cycle draws its own opening");
    // Resuming with other openings is another tournament.
    let err = assert_rejected(&strs(&run(&["--random-plies", "3", "--resume"])));
    assert!(err.contains("opening"), "{err}");
    // An openings file's lines, one per cycle, in turn.
    let walked = played[2].2.clone();
    let book = temp("s2v2.openings");
    std::fs::write(&book, format!("{walked}\n{start}\n")).unwrap();
    ok(&strs(&run(&[
        "--openings",
        book.to_str().unwrap(),
        "--overwrite",
    ])));
    for (n, index, opening, _) in games() {
        let line = if index == 1 { &start } else { &walked };
        assert_eq!((index, &opening), ((n - 1) / 2, line), "game {n}");
    }
}

#[test]
fn what_cannot_work_for_spokes4_is_refused_in_one_line_saying_why() {
    for (extra, says) in [
        (&["--sprt", "elo0=0,elo1=5"][..], "compares two engines"),
        (&["--adjudicate", "resign=300,2"], "scores"),
        (&["--format", "gauntlet"], "every seat"),
        (&["--shard", "3/2"], "--shard"),
    ] {
        let err = assert_rejected(&strs(&spokes4_run("1", extra)));
        assert!(err.contains(says), "{extra:?}: {err}");
    }
    let err = assert_rejected(&[
        "tournament",
        "spokes4",
        "--engine",
        "name=m,mcts,iterations=2,tc=1+0",
        "--engine",
        "random",
    ]);
    assert!(err.contains("tc= does not apply"), "{err}");
}

/// The moves of every game of a records file, in game order.
fn games_moves(path: &std::path::Path) -> Vec<Value> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(json)
        .filter(|g| g.get("moves").is_some())
        .map(|g| g["moves"].clone())
        .collect()
}

/// Networks are values handed to each engine: a tournament of network A
/// against network B runs in one process, each engine searching with its
/// own, and its games differ from those of the same engines both using B.
#[test]
fn two_networks_play_each_other_in_one_process() {
    use gamut_search::nnue::network::Network;
    use gamut_search::Evaluation;
    let Some(Evaluation::Net(builtin)) = Evaluation::builtin::<Epaminondas>() else {
        panic!("Epaminondas has a network");
    };
    // B is the built-in network; A the same with its output turned round,
    // so that it prefers what B avoids.
    let mut other: Network = (*builtin).clone();
    for w in &mut other.output_weights {
        *w = -*w;
    }
    for b in &mut other.output_bias {
        *b = -*b;
    }
    let (a, b) = (temp("net-a.net"), temp("net-b.net"));
    std::fs::write(&a, other.to_bytes()).unwrap();
    std::fs::write(&b, builtin.to_bytes()).unwrap();
    let run = |first: &std::path::Path, out: &str| {
        let records = temp(out);
        let _ = std::fs::remove_file(&records);
        let (ea, eb) = (
            format!("name=a,depth=2,net={}", first.display()),
            format!("name=b,depth=2,net={}", b.display()),
        );
        ok(&[
            "tournament",
            "epaminondas",
            "--engine",
            &ea,
            "--engine",
            &eb,
            "--games",
            "2",
            "--seed",
            "3",
            "--concurrency",
            "1",
            "--records",
            records.to_str().unwrap(),
            "--quiet",
        ]);
        games_moves(&records)
    };
    let two = run(&a, "two-nets.jsonl");
    let one = run(&b, "one-net.jsonl");
    assert_eq!((two.len(), one.len()), (2, 2));
    assert_ne!(two, one, "network A played as network B");
    // The same run again gives the same games: each engine kept its own.
    assert_eq!(run(&a, "two-nets-again.jsonl"), two);
}

#[test]
fn records_that_would_overwrite_an_engine_s_network_are_refused_before_the_games() {
    let net = temp("own.net");
    std::fs::copy(
        concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/src/games/epaminondas/epaminondas.net"
        ),
        &net,
    )
    .unwrap();
    let before = std::fs::read(&net).unwrap();
    let spec = format!("name=own,depth=1,eval=net,net={}", net.display());
    let err = assert_rejected(&[
        "tournament",
        "epaminondas",
        "--engine",
        &spec,
        "--engine",
        "name=plain,depth=1",
        "--games",
        "2",
        "--records",
        net.to_str().unwrap(),
        "--overwrite",
    ]);
    assert!(err.contains("an engine's net="), "{err}");
    assert_eq!(std::fs::read(&net).unwrap(), before);
}
