//! A game's balance: self-play of one engine setting against itself at a
//! ladder of strengths (`gamut balance`), for every setup option of the
//! start position. Each rung of each setup is a tournament of its own,
//! played by the [`runner`] from a [`Plan`](crate::play::Plan) of first
//! games only (one engine under two names, so the second game of a pair,
//! sides swapped, would be the first again); its records go to a file of
//! their own in a directory, so shards are merged as tournaments are. The
//! report ([`BalanceReport`]) is made from the records alone: each side's
//! score with its interval, the draw rate, game lengths, decisiveness (the
//! ply from which the eventual winner's evaluation stays above a
//! threshold) and how the first side's edge moves from rung to rung. See
//! `docs/balance.md`.
//!
//! Kept in one file (over 800 lines): settings, the rungs' runs and the
//! report made from their records are one pipeline, each step reading the
//! types of the one before.

use crate::records;
use crate::runner::{self, Settings, Watch};
use crate::schedule::{Shard, MAX_GAMES};
use crate::session::Ended;
use crate::stats::{Interval, Wdl, Z95};
use gamut_core::evaluate::EVAL_LIMIT;
use gamut_core::game::{NodeKind, ParseError, Player};
use gamut_core::paths::check_outputs;
use gamut_engine::AnyGame;
use gamut_games::GameId;
use gamut_players::record::GameRecord;
use rayon::prelude::*;
use serde::Serialize;
use std::collections::{BTreeMap, HashSet};
use std::fmt::Write as _;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;

/// The engine limits a ladder can vary.
const LIMITS: [&str; 4] = ["depth", "time", "nodes", "iterations"];

/// The extension of a rung's records file.
const EXTENSION: &str = "jsonl";

/// The engine limit a ladder varies and its values, weakest first:
/// `depth=1,2,4` or `time=50,200,800`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ladder {
    /// The spec key: `depth`, `time`, `nodes` or `iterations`.
    pub key: String,
    /// Its values, rising.
    pub values: Vec<u64>,
}

impl Ladder {
    /// Parses `<limit>=<v1>,<v2>,…` with rising values of at least 1.
    pub fn parse(text: &str) -> Result<Ladder, ParseError> {
        let bad = |why: String| {
            ParseError::new(format!(
                "--ladder '{text}': {why} (e.g. depth=1,2,4 or time=50,200,800)"
            ))
        };
        let (key, values) = text
            .split_once('=')
            .ok_or_else(|| bad("not <limit>=<values>".into()))?;
        let key = key.trim();
        if !LIMITS.contains(&key) {
            return Err(bad(format!("'{key}' is not one of {}", LIMITS.join(", "))));
        }
        let values: Vec<u64> = values
            .split(',')
            .map(|v| v.trim().parse::<u64>().ok().filter(|&v| v >= 1))
            .collect::<Option<_>>()
            .ok_or_else(|| bad("each value must be a whole number of at least 1".into()))?;
        if values.windows(2).any(|w| w[0] >= w[1]) {
            return Err(bad("the values must rise, weakest first".into()));
        }
        Ok(Ladder {
            key: key.to_string(),
            values,
        })
    }

    /// Each rung's spec item, weakest first (`depth=1`).
    #[must_use]
    pub fn rungs(&self) -> Vec<String> {
        self.values
            .iter()
            .map(|v| format!("{}={v}", self.key))
            .collect()
    }
}

/// What `gamut balance` is asked to do.
#[derive(Clone, Debug)]
pub struct BalanceSettings {
    /// The strengths.
    pub ladder: Ladder,
    /// The engine's spec items besides the ladder's limit (default: the
    /// searcher of two sides, the paranoid search in games of more).
    pub engine: Option<String>,
    /// The setups to play; empty: every setup the game has
    /// ([`Notation::setups`]), or its one start position.
    pub setups: Vec<String>,
    /// Games per rung and setup.
    pub games: u64,
    /// Games played at once.
    pub concurrency: u32,
    /// The seed of every random choice.
    pub seed: u64,
    /// Openings made by this many random decision plies from the start.
    pub random_plies: Option<u32>,
    /// Plies after which a game is a draw (default: the game's own).
    pub ply_limit: Option<u32>,
    /// This machine's share of each rung's games.
    pub shard: Option<Shard>,
    /// The directory of the records files, one per setup and rung.
    pub records: Option<PathBuf>,
    /// Continue the records files.
    pub resume: bool,
    /// Replace the records files.
    pub overwrite: bool,
    /// The win chance, by the game's logistic scale, the winner's
    /// evaluation must keep for a game to count as decided.
    pub win_chance: f64,
    /// The report's web page.
    pub html: Option<PathBuf>,
}

/// The games of one setup at one rung.
#[derive(Clone, Debug)]
pub struct Rung {
    /// The setup text, or `None` for the game's start position.
    pub setup: Option<String>,
    /// The rung's spec item (`depth=2`).
    pub rung: String,
    /// Its finished games.
    pub games: Vec<GameRecord>,
}

/// A balance run's end: its report and why it stopped (`complete`,
/// `interrupted`, `merged`).
#[derive(Clone, Debug)]
pub struct BalanceOutcome {
    /// The report.
    pub report: BalanceReport,
    /// Why it stopped.
    pub ended: Ended,
    /// Why the page written after the games could not be written, if it
    /// could not (the report is whole all the same).
    pub unwritten: Option<ParseError>,
}

/// The setups of game `G` a run plays: those asked for (each checked), or
/// every one the game has, or its start position (`None`).
pub fn setups(game: &dyn AnyGame, asked: &[String]) -> Result<Vec<Option<String>>, ParseError> {
    if asked.is_empty() {
        let all = game.setups();
        if all.is_empty() {
            return Ok(vec![None]);
        }
        return Ok(all.into_iter().map(Some).collect());
    }
    let mut out: Vec<Option<String>> = Vec::new();
    for s in asked {
        game.start_with(s)
            .map_err(|e| ParseError::new(format!("bad setup for {}: {e}", game.id())))?;
        if !out.contains(&Some(s.clone())) {
            out.push(Some(s.clone()));
        }
    }
    Ok(out)
}

/// The name of the records file of `setup` at `rung`: `depth=2.jsonl`,
/// or with a setup `fire,water@depth=2.jsonl` (`%`, `/` and `@` in the
/// setup written `%25`, `%2F`, `%40`).
#[must_use]
pub fn file_name(setup: Option<&str>, rung: &str) -> String {
    match setup {
        None => format!("{rung}.{EXTENSION}"),
        Some(s) => {
            let s = s
                .replace('%', "%25")
                .replace('/', "%2F")
                .replace('@', "%40");
            format!("{s}@{rung}.{EXTENSION}")
        }
    }
}

/// The setup and rung of a records file's name ([`file_name`]), or
/// `None` for a name that is not one.
#[must_use]
pub fn parse_file_name(name: &str) -> Option<(Option<String>, String)> {
    let stem = name.strip_suffix(&format!(".{EXTENSION}"))?;
    let (setup, rung) = match stem.rsplit_once('@') {
        Some((s, r)) => (
            Some(
                s.replace("%40", "@")
                    .replace("%2F", "/")
                    .replace("%25", "%"),
            ),
            r,
        ),
        None => (None, stem),
    };
    let (key, value) = rung.split_once('=')?;
    (LIMITS.contains(&key) && value.parse::<u64>().is_ok()).then(|| (setup, rung.to_string()))
}

/// A watch that labels a rung's running score with its setup and rung.
struct Labelled<'w> {
    inner: &'w mut dyn Watch,
    label: String,
}

impl Watch for Labelled<'_> {
    fn start(&mut self, total: u64, done: u64) {
        self.inner.start(total, done);
    }

    fn game(&mut self, line: &str, status: Option<String>) -> io::Result<()> {
        let status = status.map(|s| format!("{}: {s}", self.label));
        self.inner.game(line, status)
    }

    fn finish(&mut self) {
        self.inner.finish();
    }

    fn warn(&mut self, msg: &str) {
        self.inner.warn(msg);
    }
}

/// The engine specs of a rung: the same setting under two names (the
/// first is first player in every game of two sides).
fn rung_specs(game: &dyn AnyGame, b: &BalanceSettings, rung: &str) -> Vec<String> {
    let base = b.engine.as_deref().unwrap_or("");
    let named = gamut_players::spec::SpecText::parse(base)
        .map(|s| s.search.is_some())
        .unwrap_or(false);
    let player = if game.players() > 2 && !named {
        "paranoid,"
    } else {
        ""
    };
    let base = if base.is_empty() {
        String::new()
    } else {
        format!("{base},")
    };
    ["1", "2"]
        .iter()
        .map(|n| format!("name={rung}#{n},{player}{base}{rung}"))
        .collect()
}

/// Plays the balance run of `b` in `game`: every setup at every rung, in
/// turn; raising `stop` ends it early (finished games kept and reported).
pub fn run(
    game: &'static dyn AnyGame,
    b: &BalanceSettings,
    stop: &AtomicBool,
    watch: &mut dyn Watch,
) -> Result<BalanceOutcome, ParseError> {
    if !(0.5..1.0).contains(&b.win_chance) || b.win_chance == 0.5 {
        return Err(ParseError::new(format!(
            "--decisive {}: a win chance above 0.5 and below 1",
            b.win_chance
        )));
    }
    if b.games > MAX_GAMES / 2 {
        return Err(ParseError::new(format!(
            "--games {}: a balance run plays at most {} games a rung",
            b.games,
            MAX_GAMES / 2
        )));
    }
    if let Some(path) = &b.html {
        check_outputs(&[], &[("--html", path)])?;
    }
    let setups = setups(game, &b.setups)?;
    let starts = setups
        .iter()
        .map(|s| match s {
            Some(s) => game.start_with(s),
            None => Ok(game.start()),
        })
        .collect::<Result<Vec<_>, _>>()?;
    if let Some(dir) = &b.records {
        std::fs::create_dir_all(dir).map_err(|e| {
            ParseError::new(format!("cannot create directory {}: {e}", dir.display()))
        })?;
    }
    let two = game.players() == 2;
    let mut plans = Vec::new();
    for (setup, start) in setups.iter().zip(&starts) {
        for rung in b.ladder.rungs() {
            let settings = Settings {
                concurrency: b.concurrency,
                random_plies: b.random_plies,
                ply_limit: b.ply_limit,
                records: b
                    .records
                    .as_ref()
                    .map(|d| d.join(file_name(setup.as_deref(), &rung))),
                resume: b.resume,
                overwrite: b.overwrite,
                shard: b.shard,
                // One pair per game asked for, of which only the first is
                // played.
                ..Settings::new(
                    rung_specs(game, b, &rung),
                    if two { 2 * b.games } else { b.games },
                    b.seed,
                )
            };
            // Every plan is made before any game is played, so that a bad
            // option fails at once.
            let plan = runner::plan(game, &settings)?
                .first_games_only()
                .starting_from(start.clone());
            plans.push((setup.clone(), rung, settings, plan));
        }
    }
    let mut rungs = Vec::new();
    let mut ended = Ended::Complete;
    for (setup, rung, settings, plan) in plans {
        let label = match &setup {
            Some(s) => format!("{s} {rung}"),
            None => rung.clone(),
        };
        let mut labelled = Labelled {
            inner: &mut *watch,
            label,
        };
        let outcome = runner::run_plan(&settings, &plan, true, stop, &mut labelled)?;
        rungs.push(Rung {
            setup,
            rung,
            games: outcome.games,
        });
        if outcome.ended == Ended::Interrupted {
            ended = Ended::Interrupted;
            break;
        }
    }
    let report = BalanceReport::new(game, &rungs, b.win_chance)?;
    let unwritten = match &b.html {
        Some(path) => runner::write_file(path, &report.page()).err(),
        None => None,
    };
    Ok(BalanceOutcome {
        report,
        ended,
        unwritten,
    })
}

/// A record with the file and line it was read from.
type Located = (PathBuf, usize, GameRecord);

/// Rebuilds a balance report from the records directories of one run's
/// shards: the files of the same name (setup and rung) are joined, no
/// game number twice, one game, one seed and one spec per rung.
pub fn merge(
    dirs: &[PathBuf],
    win_chance: f64,
    html: Option<&Path>,
) -> Result<BalanceOutcome, ParseError> {
    if let Some(path) = html {
        check_outputs(&[], &[("--html", path)])?;
    }
    let mut groups: BTreeMap<(Option<String>, String), Vec<Located>> = BTreeMap::new();
    for dir in dirs {
        let entries = std::fs::read_dir(dir).map_err(|e| {
            ParseError::new(format!("cannot read directory {}: {e}", dir.display()))
        })?;
        let mut names: Vec<String> = entries
            .filter_map(Result::ok)
            .filter_map(|e| e.file_name().into_string().ok())
            .filter(|n| n.ends_with(&format!(".{EXTENSION}")))
            .collect();
        names.sort();
        for name in names {
            let key = parse_file_name(&name).ok_or_else(|| {
                ParseError::new(format!(
                    "{}: not a balance records file's name (<setup>@<limit>=<value>.{EXTENSION})",
                    dir.join(&name).display()
                ))
            })?;
            let path = dir.join(&name);
            for (line, rec) in records::read_holding(&path, records::Holds::Finished)? {
                groups
                    .entry(key.clone())
                    .or_default()
                    .push((path.clone(), line, rec));
            }
        }
    }
    let mut game: Option<String> = None;
    let mut rungs = Vec::new();
    for ((setup, rung), recs) in groups {
        let (first_path, first_line, first) = &recs[0];
        let mut seen: BTreeMap<u64, (&PathBuf, usize)> = BTreeMap::new();
        // Each engine name's spec (seats games seat the names in turn).
        let mut specs: BTreeMap<&str, &str> = BTreeMap::new();
        for (path, line, rec) in &recs {
            let at = format!("{} line {line}: game {}", path.display(), rec.number);
            let g = game.get_or_insert_with(|| rec.game.clone());
            if *g != rec.game {
                return Err(ParseError::new(format!(
                    "{at}: the records mix games: {g} and {}",
                    rec.game
                )));
            }
            let same_specs =
                rec.engines.iter().zip(&rec.specs).all(|(name, spec)| {
                    specs.entry(name.as_str()).or_insert(spec.as_str()) == spec
                });
            if rec.seed != first.seed || !same_specs {
                return Err(ParseError::new(format!(
                    "{at}: another seed or engine than {} line {first_line}: records of another balance run",
                    first_path.display()
                )));
            }
            if let Some((p, l)) = seen.insert(rec.number, (path, *line)) {
                return Err(ParseError::new(format!(
                    "{at} appears twice (also {} line {l})",
                    p.display()
                )));
            }
        }
        rungs.push(Rung {
            setup,
            rung,
            games: recs.into_iter().map(|(_, _, r)| r).collect(),
        });
    }
    let Some(game) = game else {
        return Err(ParseError::new(
            "no balance records in the directories given",
        ));
    };
    let id: GameId = game.parse().map_err(ParseError)?;
    let game = gamut_engine::game(id);
    order(game, &mut rungs);
    let report = BalanceReport::new(game, &rungs, win_chance)?;
    let unwritten = match html {
        Some(path) => runner::write_file(path, &report.page()).err(),
        None => None,
    };
    Ok(BalanceOutcome {
        report,
        ended: Ended::Merged,
        unwritten,
    })
}

/// Puts rungs in the order a run plays them: by setup as the game lists
/// them (the start position first), then by the ladder's values.
fn order(game: &dyn AnyGame, rungs: &mut [Rung]) {
    let setups = game.setups();
    let setup_rank = |s: &Option<String>| match s {
        None => 0,
        Some(s) => 1 + setups.iter().position(|x| x == s).unwrap_or(setups.len()),
    };
    let value = |r: &str| {
        r.split_once('=')
            .and_then(|(_, v)| v.parse::<u64>().ok())
            .unwrap_or(0)
    };
    rungs.sort_by(|a, b| {
        (setup_rank(&a.setup), &a.setup, value(&a.rung)).cmp(&(
            setup_rank(&b.setup),
            &b.setup,
            value(&b.rung),
        ))
    });
}

/// A side's results at one rung.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SideScore {
    /// The side's name (`player 1`, `team 2`).
    pub side: String,
    /// Games it won.
    pub wins: u64,
    /// Games drawn.
    pub draws: u64,
    /// Games it lost.
    pub losses: u64,
    /// Its mean score per game (a win 1, a draw shared by every side) with
    /// the 95% interval `mean ± 1.96 s/√n`, bounds kept within 0 and 1.
    pub score: Interval,
}

/// The first, second (median) and third quartile of some plies.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Quartiles {
    /// The first quartile.
    pub q1: f64,
    /// The median.
    pub median: f64,
    /// The third quartile.
    pub q3: f64,
}

impl Quartiles {
    /// The quartiles of `values` (linear between order statistics);
    /// `None` for none.
    fn of(values: &mut [u32]) -> Option<Quartiles> {
        if values.is_empty() {
            return None;
        }
        values.sort_unstable();
        let at = |q: f64| {
            let h = (values.len() - 1) as f64 * q;
            let (lo, hi) = (h.floor() as usize, h.ceil() as usize);
            f64::from(values[lo]) + (h - lo as f64) * f64::from(values[hi] - values[lo])
        };
        Some(Quartiles {
            q1: at(0.25),
            median: at(0.5),
            q3: at(0.75),
        })
    }
}

/// When won games were decided.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Decisive {
    /// Won games with the engines' scores (the others cannot say).
    pub games: u64,
    /// The decision ply from which the winner's evaluation stayed at the
    /// threshold or above to the end, quartiles over those games.
    pub ply: Quartiles,
    /// That ply as a share of the game's length (0: decided from the
    /// start, 1: at the last move), quartiles in hundredths.
    pub percent: Quartiles,
}

/// One setup at one rung.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RungReport {
    /// The rung's spec item (`depth=2`).
    pub rung: String,
    /// Games played.
    pub games: u64,
    /// How many of them differ in their moves (deterministic engines from
    /// one opening play one game).
    pub distinct: u64,
    /// Each side's score, first side first; the scores add up to 1.
    pub sides: Vec<SideScore>,
    /// The share of drawn games with its 95% Wilson interval.
    pub draw_rate: Interval,
    /// The first side's edge in Elo with its interval (games of two
    /// sides; infinite bounds are `null`).
    pub first_elo: Option<Interval>,
    /// Game length in decision plies.
    pub length: Option<Quartiles>,
    /// When won games were decided (`null` without won games with scores).
    pub decisive: Option<Decisive>,
    /// How many games ended for each reason.
    pub endings: BTreeMap<String, u64>,
}

/// The change of the first side's score from one rung to a stronger one.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct EdgeChange {
    /// The weaker rung.
    pub from: String,
    /// The stronger rung.
    pub to: String,
    /// The stronger rung's score minus the weaker's, with the 95% interval
    /// of a difference of independent means.
    pub change: Interval,
}

/// One setup at every rung.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SetupReport {
    /// The setup text, `null` for the game's start position.
    pub setup: Option<String>,
    /// Each rung, weakest first.
    pub rungs: Vec<RungReport>,
    /// How the first side's score moves: from each rung to the next, and
    /// from the weakest to the strongest when there are more than two.
    pub first_edge: Vec<EdgeChange>,
}

/// The report of a balance run.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BalanceReport {
    /// The game id.
    pub game: String,
    /// The game's name.
    pub name: String,
    /// The sides' names, first side first.
    pub sides: Vec<String>,
    /// The win chance the winner's evaluation keeps from the decisive ply.
    pub decisive_win_chance: f64,
    /// That win chance as a score for the side to move (the game's unit).
    pub decisive_score: f64,
    /// Each setup.
    pub setups: Vec<SetupReport>,
}

impl BalanceReport {
    /// The report of `rungs` (in order) of game `G`, games decided where
    /// the winner's evaluation keeps a win chance of `win_chance`; an error
    /// if a record does not replay.
    pub fn new(
        game: &dyn AnyGame,
        rungs: &[Rung],
        win_chance: f64,
    ) -> Result<BalanceReport, ParseError> {
        // The logistic scale: a score s gives 1 / (1 + 3^(-s / scale)); a
        // proven result (beyond the evaluation's limit) is a win chance of
        // 1 whatever the scale (Aporia's is so flat that no evaluation
        // reaches 0.75).
        let threshold = (game.score_scale() * (win_chance / (1.0 - win_chance)).ln() / 3f64.ln())
            .min(f64::from(EVAL_LIMIT + 1));
        let mut setups: Vec<SetupReport> = Vec::new();
        for r in rungs {
            let report = rung_report(game, r, threshold)?;
            match setups.iter_mut().find(|s| s.setup == r.setup) {
                Some(s) => s.rungs.push(report),
                None => setups.push(SetupReport {
                    setup: r.setup.clone(),
                    rungs: vec![report],
                    first_edge: Vec::new(),
                }),
            }
        }
        for s in &mut setups {
            s.first_edge = first_edge(&s.rungs);
        }
        Ok(BalanceReport {
            game: game.id().to_string(),
            name: game.info().name.to_string(),
            sides: game.info().sides.iter().map(|s| s.to_string()).collect(),
            decisive_win_chance: win_chance,
            decisive_score: threshold.round(),
            setups,
        })
    }
}

/// The report of one rung's games.
fn rung_report(game: &dyn AnyGame, r: &Rung, threshold: f64) -> Result<RungReport, ParseError> {
    let sides = game.info().sides.len();
    let mut games: Vec<&GameRecord> = r.games.iter().collect();
    games.sort_by_key(|g| g.number);
    let n = games.len() as u64;
    let draws = games.iter().filter(|g| g.winner.is_none()).count() as u64;
    let side_scores = (0..sides)
        .map(|s| {
            let results: Vec<f64> = games
                .iter()
                .map(|g| match g.winner {
                    Some(w) if w as usize == s + 1 => 1.0,
                    Some(_) => 0.0,
                    None => 1.0 / sides as f64,
                })
                .collect();
            let wins = games
                .iter()
                .filter(|g| g.winner == Some(s as u8 + 1))
                .count() as u64;
            SideScore {
                side: game.info().sides[s].to_string(),
                wins,
                draws,
                losses: n - wins - draws,
                score: mean_interval(&results),
            }
        })
        .collect();
    let first_elo = (sides == 2)
        .then(|| {
            let mut wdl = Wdl::default();
            for g in &games {
                wdl.add(match g.winner {
                    Some(1) => 1.0,
                    Some(_) => 0.0,
                    None => 0.5,
                });
            }
            wdl.elo()
        })
        .flatten();
    let distinct: HashSet<(&str, &[String])> = games
        .iter()
        .map(|g| (g.opening.as_str(), g.moves.as_slice()))
        .collect();
    let mut lengths: Vec<u32> = games.iter().map(|g| g.plies).collect();
    let mut plies = Vec::new();
    let mut percents = Vec::new();
    // Each game is replayed to find its decisive ply, on every thread of
    // the pool: a Spokes resolution can take seconds to replay.
    let decided = games
        .par_iter()
        .map(|g| decisive_ply(game, g, threshold))
        .collect::<Result<Vec<_>, _>>()?;
    for (g, decided) in games.iter().zip(decided) {
        if let Some(p) = decided {
            plies.push(p);
            percents.push((100 * p).checked_div(g.plies).unwrap_or(0));
        }
    }
    let decisive = Quartiles::of(&mut plies).map(|ply| Decisive {
        games: plies.len() as u64,
        ply,
        percent: Quartiles::of(&mut percents).expect("as many as plies"),
    });
    let mut endings = BTreeMap::new();
    for g in &games {
        *endings.entry(g.reason.clone()).or_insert(0) += 1;
    }
    Ok(RungReport {
        rung: r.rung.clone(),
        games: n,
        distinct: distinct.len() as u64,
        sides: side_scores,
        draw_rate: Interval::wilson(draws, n),
        first_elo,
        length: Quartiles::of(&mut lengths),
        decisive,
        endings,
    })
}

/// The mean of `results` with its 95% interval `mean ± 1.96 s/√n`, the
/// bounds kept within 0 and 1.
fn mean_interval(results: &[f64]) -> Interval {
    let n = results.len() as f64;
    if n == 0.0 {
        return Interval {
            value: 0.0,
            lower: 0.0,
            upper: 1.0,
        };
    }
    let mean = results.iter().sum::<f64>() / n;
    let var = if n > 1.0 {
        results.iter().map(|r| (r - mean).powi(2)).sum::<f64>() / (n - 1.0)
    } else {
        0.0
    };
    let half = Z95 * (var / n).sqrt();
    Interval {
        value: mean,
        lower: (mean - half).max(0.0),
        upper: (mean + half).min(1.0),
    }
}

/// The decision ply (counted from the opening, from 0) from which the
/// winner's evaluation stayed at `threshold` or above to the end of won
/// game `g`: the ply after the last scored decision whose score, seen from
/// the winner, was below it (0 if none was). In a game of two sides both
/// engines' scores count (the loser's negated); in a game of more only
/// the winner's own. `None` for a draw or a game without such scores.
fn decisive_ply(
    game: &dyn AnyGame,
    g: &GameRecord,
    threshold: f64,
) -> Result<Option<u32>, ParseError> {
    let Some(winner) = g.winner else {
        return Ok(None);
    };
    if g.scores.is_empty() {
        return Ok(None);
    }
    let winner = Player::nth(winner as usize - 1);
    let steps = records::replay(g)?;
    // The decision ply of each step, and who moved.
    let mut ply = 0u32;
    let mut movers = Vec::with_capacity(steps.len());
    for (_, pos) in &steps {
        match pos.node() {
            NodeKind::Decision(p) => {
                movers.push(Some((ply, p)));
                ply += 1;
            }
            _ => movers.push(None),
        }
    }
    let mut decided = 0;
    let mut seen = false;
    for s in &g.scores {
        let Some(&Some((ply, mover))) = movers.get(s.step) else {
            continue;
        };
        let view = if mover == winner {
            s.score
        } else if game.players() == 2 {
            -s.score
        } else {
            continue;
        };
        seen = true;
        if f64::from(view) < threshold {
            decided = ply + 1;
        }
    }
    Ok(seen.then_some(decided))
}

/// The first side's score change from each rung to the next, and from
/// the first to the last when there are more than two.
fn first_edge(rungs: &[RungReport]) -> Vec<EdgeChange> {
    let change = |a: &RungReport, b: &RungReport| {
        let (sa, sb) = (&a.sides[0].score, &b.sides[0].score);
        let se = |i: &Interval| (i.upper - i.lower) / (2.0 * Z95);
        let value = sb.value - sa.value;
        let half = Z95 * (se(sa).powi(2) + se(sb).powi(2)).sqrt();
        EdgeChange {
            from: a.rung.clone(),
            to: b.rung.clone(),
            change: Interval {
                value,
                lower: value - half,
                upper: value + half,
            },
        }
    };
    let mut out: Vec<EdgeChange> = rungs.windows(2).map(|w| change(&w[0], &w[1])).collect();
    if rungs.len() > 2 {
        out.push(change(&rungs[0], &rungs[rungs.len() - 1]));
    }
    out
}

/// `value ± half-width` of an interval, three decimals.
fn pm(i: &Interval) -> String {
    format!("{:.3} ± {:.3}", i.value, (i.upper - i.lower) / 2.0)
}

/// An interval as `value [lower, upper]`, three decimals.
fn bracket(i: &Interval) -> String {
    format!("{:.3} [{:.3}, {:.3}]", i.value, i.lower, i.upper)
}

/// Quartiles as `q1/median/q3`.
fn quartiles(q: &Option<Quartiles>) -> String {
    q.map_or("-".into(), |q| format!("{}/{}/{}", q.q1, q.median, q.q3))
}

impl BalanceReport {
    /// The report as JSON.
    pub fn json(&self) -> Result<serde_json::Value, serde_json::Error> {
        serde_json::to_value(self)
    }

    /// The line that says what the numbers mean.
    pub(crate) fn legend(&self) -> String {
        let meaning = if self.decisive_score > f64::from(EVAL_LIMIT) {
            format!(
                "a proven result: no evaluation reaches a {:.0}% win chance",
                100.0 * self.decisive_win_chance
            )
        } else {
            format!("a {:.0}% win chance", 100.0 * self.decisive_win_chance)
        };
        format!(
            "score: wins per game (a draw shared by every side) ± 95% interval; draws with the 95% Wilson interval; \
             length in decision plies (quartiles); decisive: the ply from which the winner's evaluation stayed at \
             {} or more ({meaning}) to the end, quartiles over won games with scores",
            self.decisive_score,
        )
    }

    /// The report as a table: per setup, a line per rung, then the first
    /// side's edge from rung to rung.
    #[must_use]
    pub fn table(&self) -> String {
        let mut o = String::new();
        let _ = writeln!(o, "balance of {} ({})", self.game, self.name);
        let _ = writeln!(o, "{}", self.legend());
        for s in &self.setups {
            if let Some(setup) = &s.setup {
                let _ = writeln!(o, "setup {setup}");
            }
            let mut head = format!("  {:<12} {:>6} {:>8}", "rung", "games", "distinct");
            for side in &self.sides {
                let _ = write!(head, " {side:>15}");
            }
            let _ = write!(
                head,
                " {:>24} {:>16} {:>16} {:>6}",
                "draws", "length", "decisive", "won"
            );
            let _ = writeln!(o, "{head}");
            for r in &s.rungs {
                let mut line = format!("  {:<12} {:>6} {:>8}", r.rung, r.games, r.distinct);
                for side in &r.sides {
                    let _ = write!(line, " {:>15}", pm(&side.score));
                }
                let _ = write!(
                    line,
                    " {:>24} {:>16} {:>16} {:>6}",
                    bracket(&r.draw_rate),
                    quartiles(&r.length),
                    quartiles(&r.decisive.as_ref().map(|d| d.ply)),
                    r.decisive.as_ref().map_or(0, |d| d.games)
                );
                let _ = writeln!(o, "{line}");
            }
            for e in &s.first_edge {
                let _ = writeln!(
                    o,
                    "  {}'s score from {} to {}: {:+.3} [{:+.3}, {:+.3}]",
                    self.sides[0], e.from, e.to, e.change.value, e.change.lower, e.change.upper
                );
            }
        }
        o
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ladders_parse_and_bad_ones_say_why() {
        let l = Ladder::parse("depth=1,2,4").unwrap();
        assert_eq!(l.rungs(), ["depth=1", "depth=2", "depth=4"]);
        for bad in [
            "depth",
            "speed=1,2",
            "depth=0,1",
            "depth=2,1",
            "depth=1,,2",
            "time=x",
        ] {
            let e = Ladder::parse(bad).unwrap_err().0;
            assert!(e.starts_with(&format!("--ladder '{bad}'")), "{e}");
        }
    }

    #[test]
    fn file_names_give_back_setup_and_rung() {
        for (setup, rung) in [
            (None, "depth=2"),
            (Some("fire,water"), "time=50"),
            (Some("a/b@c%"), "nodes=9"),
        ] {
            let name = file_name(setup, rung);
            assert!(!name[..name.len() - 6].contains('/'), "{name}");
            assert_eq!(
                parse_file_name(&name),
                Some((setup.map(str::to_string), rung.to_string()))
            );
        }
        assert_eq!(parse_file_name("notes.jsonl"), None);
        assert_eq!(parse_file_name("depth=2.txt"), None);
    }

    #[test]
    fn quartiles_interpolate_and_wilson_stays_inside_zero_and_one() {
        let q = Quartiles::of(&mut [4, 1, 3, 2, 5]).unwrap();
        assert_eq!((q.q1, q.median, q.q3), (2.0, 3.0, 4.0));
        let q = Quartiles::of(&mut [1, 2]).unwrap();
        assert_eq!((q.q1, q.median, q.q3), (1.25, 1.5, 1.75));
        let w = Interval::wilson(0, 50);
        assert!(w.lower == 0.0 && w.upper > 0.05 && w.upper < 0.1, "{w:?}");
        let w = Interval::wilson(50, 50);
        assert!(w.upper == 1.0 && w.lower < 0.95, "{w:?}");
        // Twenty alternate wins and losses: 0.5 ± 1.96 × 0.513 / √20.
        let m = mean_interval(&[1.0, 0.0].repeat(10));
        assert_eq!(m.value, 0.5);
        assert!(
            (m.lower - 0.275).abs() < 0.001 && (m.upper - 0.725).abs() < 0.001,
            "{m:?}"
        );
        // Four: the normal interval would pass 0 and 1, and is cut there.
        let m = mean_interval(&[1.0, 0.0, 1.0, 0.0]);
        assert_eq!((m.lower, m.upper), (0.0, 1.0), "{m:?}");
    }
}
