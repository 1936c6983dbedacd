//! Records are data users keep: `merge` and `replay` check every record and
//! name the file and line of the first bad one; `tournament --records`
//! never overwrites a file by accident, appends game by game, and resumes
//! an interrupted run to the same games an uninterrupted one plays; the
//! running tally reports exactly what a report rebuilt from all the games
//! says.

use crate::common;
use crate::common::untimed;
use crate::common::{gamut, ok, rejected};
use gamut_players::record::GameRecord;
use gamut_tournament::report::{EncounterReport, Report, SprtReport, Standing, Tally};
use gamut_tournament::stats::{Interval, Penta, Sprt, Wdl, Z95};
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::SeedableRng;
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn temp(name: &str) -> PathBuf {
    let dir = common::scratch_dir("records");
    let path = dir.join(name);
    let _ = std::fs::remove_file(&path);
    path
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// A small tournament of Epaminondas: a searcher, a greedy and a random
/// player, every game ended by the rules or the ply limit.
fn epaminondas_args(games: &str, records: &Path) -> Vec<String> {
    [
        "tournament",
        "epaminondas",
        "--engine",
        "name=d1,depth=1",
        "--engine",
        "greedy",
        "--engine",
        "name=rnd,random",
        "--games",
        games,
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

fn run(args: &[String], extra: &[&str]) -> String {
    let mut v: Vec<&str> = args.iter().map(String::as_str).collect();
    v.extend(extra);
    ok(&v)
}

/// The lines of a records file written by a short tournament.
fn record_lines(name: &str) -> (PathBuf, Vec<Value>) {
    let path = temp(name);
    run(&epaminondas_args("2", &path), &[]);
    let lines = std::fs::read_to_string(&path)
        .unwrap()
        .lines()
        .map(crate::common::record_fields)
        .collect();
    (path, lines)
}

fn write_lines(path: &Path, lines: &[Value]) {
    let text: String = lines
        .iter()
        .map(|v| format!("{}\n", crate::common::sealed_line(v)))
        .collect();
    std::fs::write(path, text).unwrap();
}

/// Writes the lines with line `i` changed by `change`, and checks that
/// both `merge` and `replay` refuse the file naming it and line `i + 1`;
/// returns the error.
fn refused_with(name: &str, i: usize, change: impl Fn(&mut Value)) -> String {
    let (path, mut lines) = record_lines(name);
    change(&mut lines[i]);
    write_lines(&path, &lines);
    let at = format!("{} line {}:", s(&path), i + 1);
    let err = rejected(&["tournament", "merge", s(&path)]);
    assert!(err.contains(&at), "{err} does not say {at}");
    let other = lines[(i + 1) % lines.len()]["number"].to_string();
    let err2 = rejected(&["replay", s(&path), "--game", &other]);
    assert_eq!(err, err2, "replay checks every record too");
    err
}

#[test]
fn an_unknown_game_is_refused() {
    let err = refused_with("unknown.jsonl", 1, |v| v["game"] = "chess".into());
    assert!(err.contains("chess"), "{err}");
}

#[test]
fn a_game_name_with_a_newline_is_refused_on_one_line() {
    let err = refused_with("newline.jsonl", 1, |v| v["game"] = "ch\ness".into());
    assert!(err.contains(r"ch\ness"), "{err}");
}

#[test]
fn a_line_that_is_not_a_record_is_refused() {
    let (path, _) = record_lines("garbage.jsonl");
    let mut text = std::fs::read_to_string(&path).unwrap();
    text.insert_str(0, "{\"game\": \"epaminondas\"}\n");
    std::fs::write(&path, text).unwrap();
    let err = rejected(&["tournament", "merge", s(&path)]);
    assert!(err.contains("line 1: not a game record"), "{err}");
}

#[test]
fn an_illegal_move_inside_a_game_is_refused() {
    // The two players move stones of their own colour: one player's move
    // in the other's turn is illegal.
    let err = refused_with("illegal.jsonl", 2, |v| {
        let moves = v["moves"].as_array_mut().unwrap();
        let k = moves.len() / 2;
        moves.swap(k, k - 1);
    });
    assert!(err.contains("step"), "{err}");
}

#[test]
fn an_impossible_result_is_refused() {
    // Find a game the rules ended and give the other side the win.
    let (_, lines) = record_lines("impossible-probe.jsonl");
    let i = lines
        .iter()
        .position(|v| v["adjudicated"] == false && v["winner"] != Value::Null)
        .expect("a game won by the rules");
    let flip = |v: &mut Value| {
        let w = v["winner"].as_u64().unwrap();
        v["winner"] = (3 - w).into();
        v["result"] = if w == 1 { "0-1" } else { "1-0" }.into();
    };
    let err = refused_with("impossible.jsonl", i, flip);
    assert!(err.contains("replays to"), "{err}");
    // A result text that is not the winner's.
    refused_with("mismatch.jsonl", i, |v| {
        v["result"] = "1/2-1/2".into();
    });
    // A game the rules ended, recorded as adjudicated.
    let err = refused_with("adjudicated.jsonl", i, |v| {
        v["adjudicated"] = true.into();
        v["reason"] = "resign adjudication".into();
    });
    assert!(err.contains("the rules ended it"), "{err}");
    // A ply-limit draw given a winner.
    let j = lines
        .iter()
        .position(|v| v["reason"] == "ply limit")
        .expect("a game reached the ply limit");
    let err = refused_with("ply-limit.jsonl", j, |v| {
        v["winner"] = 1.into();
        v["result"] = "1-0".into();
    });
    assert!(err.contains("ply limit"), "{err}");
    // A game cut short of where its record says it ended.
    refused_with("short.jsonl", i, |v| {
        v["moves"].as_array_mut().unwrap().pop();
        v["plies"] = (v["plies"].as_u64().unwrap() - 1).into();
    });
}

#[test]
fn winner_zero_is_refused() {
    let err = refused_with("winner0.jsonl", 0, |v| {
        v["winner"] = 0.into();
    });
    assert!(err.contains("winner 0"), "{err}");
}

#[test]
fn an_empty_file_is_refused() {
    let path = temp("empty.jsonl");
    std::fs::write(&path, "").unwrap();
    for args in [
        vec!["tournament", "merge", s(&path)],
        vec!["replay", s(&path), "--game", "1"],
    ] {
        let err = rejected(&args);
        assert!(err.contains(s(&path)), "{err}");
    }
    std::fs::write(&path, "\n\n").unwrap();
    rejected(&["tournament", "merge", s(&path)]);
}

#[test]
fn a_torn_last_line_is_refused_by_merge_and_dropped_by_resume() {
    let full = temp("torn-full.jsonl");
    let args = epaminondas_args("4", &full);
    run(&args, &[]);
    let text = std::fs::read_to_string(&full).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 12);
    // Five complete games and half of the sixth, as a crash mid-write
    // leaves them.
    let torn = temp("torn.jsonl");
    let cut: String = lines[..5]
        .iter()
        .map(|l| format!("{l}\n"))
        .collect::<String>()
        + &lines[5][..lines[5].len() / 2];
    std::fs::write(&torn, &cut).unwrap();
    let err = rejected(&["tournament", "merge", s(&torn)]);
    assert!(err.contains(&format!("{} line 6:", s(&torn))), "{err}");
    assert!(err.contains("cut off"), "{err}");
    rejected(&["replay", s(&torn), "--game", "1"]);
    // Resuming drops the torn line with a warning and plays that game again.
    let mut resume = epaminondas_args("4", &torn);
    resume.push("--resume".into());
    let o = gamut(&resume.iter().map(String::as_str).collect::<Vec<_>>());
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("warning:") && err.contains("line 6"), "{err}");
    assert_eq!(untimed(&torn), untimed(&full));
}

#[test]
fn an_existing_records_file_is_refused_without_resume_or_overwrite() {
    let path = temp("existing.jsonl");
    std::fs::write(&path, "precious\n").unwrap();
    let args = epaminondas_args("2", &path);
    let v: Vec<&str> = args.iter().map(String::as_str).collect();
    let err = rejected(&v);
    assert!(err.contains("--overwrite"), "{err}");
    assert_eq!(std::fs::read_to_string(&path).unwrap(), "precious\n");
    // A file that is not records cannot be resumed either, and is kept.
    let mut resume = v.clone();
    resume.push("--resume");
    let err = rejected(&resume);
    assert!(err.contains("line 1"), "{err}");
    assert_eq!(std::fs::read_to_string(&path).unwrap(), "precious\n");
    // --overwrite replaces it.
    run(&args, &["--overwrite"]);
    assert_eq!(untimed(&path).len(), 6);
    // Both at once is a contradiction; either without --records is one too.
    rejected(&[v.clone(), vec!["--overwrite", "--resume"]].concat());
    rejected(&[
        "tournament",
        "epaminondas",
        "--engine",
        "random",
        "--engine",
        "greedy",
        "--overwrite",
    ]);
}

/// A file written before records carried a checksum (every line without
/// one) merges and replays as before, while `--resume`, which would add
/// lines with one, refuses it and leaves it as it was; a file that mixes
/// lines with and without is refused, naming the line.
#[test]
fn records_without_checksums_read_but_do_not_resume() {
    let (path, lines) = record_lines("unsealed.jsonl");
    let written = std::fs::read_to_string(&path).unwrap();
    assert!(written
        .lines()
        .all(|l| l.ends_with("\"}") && l.contains(",\"crc32\":\"")));
    let old: String = lines.iter().map(|v| format!("{v}\n")).collect();
    std::fs::write(&path, &old).unwrap();
    ok(&["tournament", "merge", s(&path)]);
    ok(&["replay", s(&path), "--game", "2"]);
    let mut resume = epaminondas_args("2", &path);
    resume.push("--resume".into());
    let err = rejected(&resume.iter().map(String::as_str).collect::<Vec<_>>());
    assert!(
        err.contains(&format!("{} line 1: a record without a checksum", s(&path))),
        "{err}"
    );
    assert_eq!(std::fs::read_to_string(&path).unwrap(), old);
    let mixed: String = written
        .lines()
        .take(2)
        .chain(old.lines().skip(2))
        .map(|l| format!("{l}\n"))
        .collect();
    std::fs::write(&path, &mixed).unwrap();
    let err = rejected(&["tournament", "merge", s(&path)]);
    assert!(
        err.contains("line 3: lacks a checksum and line 1 carries one"),
        "{err}"
    );
}

#[test]
fn a_resumed_tournament_plays_the_same_games_as_an_uninterrupted_one() {
    let full = temp("resume-full.jsonl");
    let whole = run(&epaminondas_args("6", &full), &["--json"]);
    let all = untimed(&full);
    assert_eq!(all.len(), 18);
    // The first K games as they finished, then resumed.
    let part = temp("resume-part.jsonl");
    let text = std::fs::read_to_string(&full).unwrap();
    let head: String = text.lines().take(7).map(|l| format!("{l}\n")).collect();
    std::fs::write(&part, &head).unwrap();
    let resumed = run(&epaminondas_args("6", &part), &["--json", "--resume"]);
    assert_eq!(untimed(&part), all, "the same games, moves and results");
    assert!(
        std::fs::read_to_string(&part).unwrap().starts_with(&head),
        "the games already played are kept as they were"
    );
    assert_eq!(resumed, whole, "the report covers all games");
    // A shorter run extended by more games per encounter.
    let grown = temp("resume-grown.jsonl");
    run(&epaminondas_args("2", &grown), &[]);
    run(
        &epaminondas_args("6", &grown),
        &["--resume", "--concurrency", "2"],
    );
    assert_eq!(untimed(&grown), all);
    // Nothing left to play: the report alone.
    let again = run(&epaminondas_args("6", &grown), &["--json", "--resume"]);
    assert_eq!(again, whole);
    // Records of another tournament are not resumed, and not touched.
    let before = std::fs::read_to_string(&part).unwrap();
    let mut other = epaminondas_args("6", &part);
    let seed = other.iter().position(|a| a == "21").unwrap();
    other[seed] = "22".into();
    let err = rejected(
        &[
            other.iter().map(String::as_str).collect::<Vec<_>>(),
            vec!["--resume"],
        ]
        .concat(),
    );
    assert!(err.contains("opening"), "{err}");
    assert_eq!(std::fs::read_to_string(&part).unwrap(), before);
}

#[test]
fn each_game_is_printed_as_it_ends_and_a_signal_keeps_every_finished_game() {
    // SIGINT (Ctrl-C) exits 130 and SIGTERM 143, after the report.
    for (signal, status) in [("INT", 130), ("TERM", 143)] {
        stopped_by(signal, status);
    }
}

fn stopped_by(signal: &str, status: i32) {
    let path = temp(&format!("sig{signal}.jsonl"));
    let _ = std::fs::remove_file(&path);
    let child = crate::common::gamut_command()
        .args([
            "tournament",
            "epaminondas",
            "--engine",
            "name=d2,depth=2,quiescence=off",
            "--engine",
            "name=rnd,random",
            "--games",
            "400",
            "--seed",
            "5",
            "--records",
            s(&path),
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let started = Instant::now();
    while std::fs::read_to_string(&path).map_or(0, |t| t.lines().count()) < 2 {
        assert!(
            started.elapsed() < Duration::from_secs(120),
            "no game ended"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    let killed = Command::new("kill")
        .args([&format!("-{signal}"), &child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let o = child.wait_with_output().unwrap();
    let out = String::from_utf8_lossy(&o.stdout);
    assert_eq!(
        o.status.code(),
        Some(status),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let recs = untimed(&path);
    assert!(recs.len() >= 2 && recs.len() < 400, "{} games", recs.len());
    // One line per finished game, then the report of those games.
    let games: Vec<&str> = out.lines().filter(|l| l.starts_with("game ")).collect();
    assert_eq!(games.len(), recs.len(), "{out}");
    assert!(
        out.contains(&format!("d2 vs rnd ({} games)", recs.len())),
        "{out}"
    );
    assert!(out.trim_end().ends_with("ended      interrupted"), "{out}");
    for r in &recs {
        assert!(games.contains(
            &format!(
                "game {} of 400: {} - {} {} ({}, {} plies)",
                r.number,
                r.engines[0],
                r.engines[1],
                r.result.as_deref().unwrap(),
                r.reason,
                r.plies
            )
            .as_str()
        ));
    }
}

/// The report as it was computed before the running tally: every record
/// sorted by number and grouped by encounter and pair at once.
fn report_from_scratch(records: &[GameRecord], sprt: Option<Sprt>) -> Report {
    let mut recs: Vec<&GameRecord> = records.iter().collect();
    recs.sort_by_key(|r| r.number);
    let mut order: Vec<[String; 2]> = Vec::new();
    for r in &recs {
        let encounter = r.encounter.clone().unwrap();
        if !order.contains(&encounter) {
            order.push(encounter);
        }
    }
    let mut encounters = Vec::new();
    for enc in &order {
        let mut wdl = Wdl::default();
        let mut reasons = BTreeMap::new();
        let mut by_pair: BTreeMap<u64, Vec<f64>> = BTreeMap::new();
        let mut points: Option<[u64; 2]> = None;
        let mut margins = Vec::new();
        for r in recs.iter().filter(|r| r.encounter.as_ref() == Some(enc)) {
            let s = r.score_of_first_engine();
            wdl.add(s);
            *reasons.entry(r.reason.clone()).or_insert(0) += 1;
            by_pair.entry(r.pair.unwrap()).or_default().push(s);
            if let Some(p) = &r.points {
                let side = r.side_of(&enc[0]);
                let t = points.get_or_insert([0, 0]);
                t[0] += u64::from(p[side]);
                t[1] += u64::from(p[1 - side]);
            }
            if let Some(m) = r.margin_of_first_engine() {
                margins.push(m as f64);
            }
        }
        let mut penta = Penta::default();
        for scores in by_pair.values().filter(|v| v.len() == 2) {
            penta.0[((scores[0] + scores[1]) * 2.0).round() as usize] += 1;
        }
        let margin = (!margins.is_empty()).then(|| {
            let n = margins.len() as f64;
            let mean = margins.iter().sum::<f64>() / n;
            let ss: f64 = margins.iter().map(|v| (v - mean).powi(2)).sum();
            let half = if margins.len() > 1 {
                Z95 * (ss / (n - 1.0)).sqrt() / n.sqrt()
            } else {
                0.0
            };
            Interval {
                value: mean,
                lower: mean - half,
                upper: mean + half,
            }
        });
        encounters.push(EncounterReport {
            engines: enc.clone(),
            games: wdl.games(),
            wdl,
            score: wdl.score(),
            elo: wdl.elo(),
            los: wdl.los(),
            pairs: penta.pairs(),
            penta,
            penta_elo: penta.elo(),
            nelo: penta.nelo(),
            points,
            margin,
            reasons,
            sprt: sprt.map(|test| {
                let llr = test.llr(&penta);
                SprtReport {
                    test,
                    llr,
                    bounds: test.bounds(),
                    state: test.state(llr),
                }
            }),
        });
    }
    let mut standings: Vec<Standing> = Vec::new();
    for e in &encounters {
        for (i, name) in e.engines.iter().enumerate() {
            let s = e.wdl.wins as f64 + 0.5 * e.wdl.draws as f64;
            let s = if i == 0 { s } else { e.games as f64 - s };
            match standings.iter_mut().find(|x| &x.engine == name) {
                Some(x) => {
                    x.games += e.games;
                    x.score += s;
                }
                None => standings.push(Standing {
                    engine: name.clone(),
                    games: e.games,
                    score: s,
                }),
            }
        }
    }
    standings.sort_by(|a, b| {
        let pa = a.score / a.games.max(1) as f64;
        let pb = b.score / b.games.max(1) as f64;
        pb.total_cmp(&pa)
    });
    Report {
        game: recs.first().map_or(String::new(), |r| r.game.clone()),
        games: recs.len() as u64,
        encounters,
        standings,
    }
}

/// Checks that the tally fed `records` in a shuffled order, game by game,
/// reports what the report from scratch says. The margin's interval is
/// summed exactly now, in floating point before: they agree to 1e-12.
fn tally_matches_scratch(records: &[GameRecord], sprt: Option<Sprt>) {
    let mut shuffled = records.to_vec();
    shuffled.shuffle(&mut StdRng::seed_from_u64(7));
    let mut tally = Tally::new(sprt);
    for r in &shuffled {
        tally.add(r);
    }
    let mut incremental = tally.report();
    let mut scratch = report_from_scratch(records, sprt);
    for (a, b) in incremental
        .encounters
        .iter_mut()
        .zip(&mut scratch.encounters)
    {
        match (a.margin.take(), b.margin.take()) {
            (Some(x), Some(y)) => {
                for (p, q) in [(x.value, y.value), (x.lower, y.lower), (x.upper, y.upper)] {
                    assert!((p - q).abs() <= 1e-12 * q.abs().max(1.0), "{x:?} {y:?}");
                }
            }
            (x, y) => assert_eq!(x, y),
        }
    }
    assert_eq!(incremental, scratch);
    assert_eq!(Report::new(&shuffled, sprt).games, records.len() as u64);
}

#[test]
fn the_running_tally_reports_what_all_the_games_say() {
    // A round robin (three encounters, standings, pentanomial pairs).
    let rr = temp("tally-rr.jsonl");
    run(&epaminondas_args("6", &rr), &[]);
    let recs = untimed(&rr);
    tally_matches_scratch(&recs, None);
    tally_matches_scratch(&recs, Some(Sprt::parse("elo0=0,elo1=10").unwrap()));
    // A game that scores points (margins), and a pair left incomplete.
    let sp = temp("tally-spokes.jsonl");
    ok(&[
        "tournament",
        "spokes",
        "--engine",
        "greedy",
        "--engine",
        "name=rnd,random",
        "--games",
        "8",
        "--seed",
        "2",
        "--records",
        s(&sp),
    ]);
    let mut recs = untimed(&sp);
    assert!(recs.iter().all(|r| r.points.is_some()));
    recs.remove(3);
    tally_matches_scratch(&recs, Some(Sprt::parse("elo0=-5,elo1=5").unwrap()));
}
