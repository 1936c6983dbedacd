//! The tournament runner, for games of any number of sides, in four parts
//! as fastchess splits it: the engines (built from their specs), the
//! matchmaking (the plan of pairs, or the seating of a game of more than
//! two sides), the games (played on a pool of threads by [`session`]) and
//! the output (records file, running lines, report, web pages). The command line gives it
//! [`Settings`] and a [`Watch`] that shows progress; it returns the report.

use crate::pages;
use crate::pgn::{self, PgnFile};
use crate::play::{lineups, Plan, Schedule};
use crate::records;
use crate::report::{Summary, Tally};
use crate::schedule::{parse_openings, Format, Openings, Pairings, Seatings, Shard, MAX_GAMES};
use crate::session::{self, check_previous, Ended, RecordsFile};
use crate::stats::Sprt;
use gamut_core::game::{ParseError, Player};
use gamut_core::paths::check_outputs;
use gamut_engine::{AnyGame, Position};
use gamut_games::GameId;
use gamut_players::game::Rules;
use gamut_players::record::{Adjudicator, GameRecord};
use gamut_players::spec::check_names;
use std::collections::HashMap;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::time::Duration;

/// Why a sequential test is refused for games of more than two sides.
const SPRT_TWO_SIDES: &str = "a sequential test compares two engines over games of two sides";

/// What a tournament is asked to do: the engines' specs and every option
/// of `gamut tournament` that is not about printing.
#[derive(Clone, Debug)]
pub struct Settings {
    /// The engine specs, two or more.
    pub engines: Vec<String>,
    /// Who meets whom with more than two engines.
    pub format: Format,
    /// Games per encounter (two-player games: even).
    pub games: u64,
    /// Games played at once.
    pub concurrency: u32,
    /// The seed of every random choice.
    pub seed: u64,
    /// An openings file.
    pub openings: Option<PathBuf>,
    /// Openings made by this many random plies from the start.
    pub random_plies: Option<u32>,
    /// Plies after which a game is a draw (default: the game's own).
    pub ply_limit: Option<u32>,
    /// When games are adjudicated on the engines' scores (none: never).
    pub adjudicate: Adjudicator,
    /// Milliseconds an engine may go past its game clock.
    pub time_margin: u64,
    /// A sequential test that stops the tournament when it decides.
    pub sprt: Option<Sprt>,
    /// The records file.
    pub records: Option<PathBuf>,
    /// Continue the records file.
    pub resume: bool,
    /// Replace the records file.
    pub overwrite: bool,
    /// This machine's share of the pairs.
    pub shard: Option<Shard>,
    /// The report's web page.
    pub html: Option<PathBuf>,
    /// The PGN file of the games (two sides only).
    pub pgn: Option<PathBuf>,
}

/// Resign adjudication's moves unless a run says.
pub const RESIGN_MOVES: u32 = 3;
/// Draw adjudication's moves unless a run says.
pub const DRAW_MOVES: u32 = 8;

impl Settings {
    /// A round robin of `engines`, `games` games an encounter from `seed`,
    /// one at a time, without adjudication, openings, test or files: the
    /// rest as `gamut tournament`'s defaults.
    #[must_use]
    pub fn new(engines: Vec<String>, games: u64, seed: u64) -> Settings {
        Settings {
            engines,
            format: Format::RoundRobin,
            games,
            concurrency: 1,
            seed,
            openings: None,
            random_plies: None,
            ply_limit: None,
            adjudicate: Adjudicator::default(),
            time_margin: 0,
            sprt: None,
            records: None,
            resume: false,
            overwrite: false,
            shard: None,
            html: None,
            pgn: None,
        }
    }
}

/// What the runner tells whoever shows its progress.
pub trait Watch {
    /// Before the first game: games in all, and games already finished
    /// (kept from a resumed records file).
    fn start(&mut self, total: u64, done: u64);
    /// A game finished: its line, and for a tournament of one encounter
    /// the running score.
    fn game(&mut self, line: &str, status: Option<String>) -> io::Result<()>;
    /// Every game is done (or the session stopped).
    fn finish(&mut self);
    /// A warning for the user (one line).
    fn warn(&mut self, msg: &str);
}

/// A tournament's end: its report and why it stopped (`complete`, `sprt`,
/// `interrupted`, `merged`).
#[derive(Clone, Debug)]
pub struct TournamentOutcome {
    /// The report.
    pub summary: Summary,
    /// Why it stopped.
    pub ended: Ended,
    /// Every finished game, when [`run_plan`] was asked to keep them
    /// (otherwise none).
    pub games: Vec<GameRecord>,
    /// Why the page written after the games could not be written, if it
    /// could not (the report is whole all the same: a command prints it,
    /// then fails with this).
    pub unwritten: Option<ParseError>,
}

/// Runs the tournament of `settings` in `game`, of two sides or more;
/// raising `stop` ends it early (finished games kept).
pub fn run(
    game: &'static dyn AnyGame,
    settings: &Settings,
    stop: &AtomicBool,
    watch: &mut dyn Watch,
) -> Result<TournamentOutcome, ParseError> {
    run_plan(settings, &plan(game, settings)?, false, stop, watch)
}

/// Runs `plan`, made from `settings` by [`plan`] (and possibly changed
/// since, as `gamut balance` does); with `keep_games` the outcome holds
/// every finished game.
pub fn run_plan(
    settings: &Settings,
    plan: &Plan,
    keep_games: bool,
    stop: &AtomicBool,
    watch: &mut dyn Watch,
) -> Result<TournamentOutcome, ParseError> {
    let sprt = settings.sprt;
    if sprt.is_some() && plan.engines.len() != 2 {
        return Err(ParseError::new("--sprt needs exactly two engines"));
    }
    let tally = match plan.schedule {
        Schedule::Pairs(_) | Schedule::Firsts(_) => Tally::new(sprt),
        Schedule::Seats(_) => Tally::of_seats(
            plan.engines.iter().map(|e| e.name.clone()).collect(),
            plan.game.info().sides.len(),
        ),
    };
    check_tournament_paths(settings, plan)?;
    let (mut records, previous) = open_records(settings, plan, watch)?;
    let mut pgn_file = open_pgn(settings, &previous)?;
    let total = plan.game_count() as u64;
    let mut played = Vec::new();
    let keep = keep_games || settings.html.is_some();
    watch.start(total, previous.len() as u64);
    let mut each = |rec: &GameRecord, tally: &Tally| -> io::Result<()> {
        if keep {
            played.push(rec.clone());
        }
        if let Some(f) = pgn_file.as_mut() {
            f.append(rec).map_err(|e| io::Error::other(e.0))?;
        }
        watch.game(
            &game_line(rec, total, plan.game.info().sides),
            status(tally),
        )
    };
    let finished = session::run(
        plan,
        settings.concurrency as usize,
        tally,
        &previous,
        records.as_mut(),
        stop,
        &mut each,
    );
    watch.finish();
    let finished = finished?;
    if finished.ended == Ended::Interrupted {
        watch.warn(&format!(
            "interrupted: {} of {total} games finished and kept",
            finished.tally.games()
        ));
    }
    let summary = finished.tally.summary();
    played.extend(previous);
    let unwritten = match &settings.html {
        Some(path) => write_pages(plan.game, path, &summary, &played).err(),
        None => None,
    };
    Ok(TournamentOutcome {
        summary,
        ended: finished.ended,
        games: if keep_games { played } else { Vec::new() },
        unwritten,
    })
}

/// The running score of a tournament of one encounter, for a progress
/// bar.
fn status(tally: &Tally) -> Option<String> {
    let [(engines, wdl)] = tally.wdl().try_into().ok()?;
    let elo = wdl.elo().map_or(String::new(), |e| {
        format!(" Elo {:.0} [{:.0}, {:.0}]", e.value, e.lower, e.upper)
    });
    Some(format!(
        "{}: +{} ={} -{} ({:.1}%){elo}",
        engines[0],
        wdl.wins,
        wdl.draws,
        wdl.losses,
        100.0 * wdl.score()
    ))
}

/// Refuses a tournament whose output files (records, page) name one of
/// its input files (the engines' networks and tables, the openings) or
/// each other.
fn check_tournament_paths(s: &Settings, plan: &Plan) -> Result<(), ParseError> {
    let mut inputs: Vec<(&str, &Path)> = plan
        .engines
        .iter()
        .flat_map(|e| &e.reads)
        .map(|(item, path)| (*item, path.as_path()))
        .collect();
    let mut outputs: Vec<(&str, &Path)> = Vec::new();
    if let Some(p) = &s.openings {
        inputs.push(("--openings", p));
    }
    if let Some(p) = &s.records {
        if s.resume {
            inputs.push(("--records", p));
        } else {
            outputs.push(("--records", p));
        }
    }
    if let Some(h) = &s.html {
        outputs.push(("--html", h));
    }
    if let Some(p) = &s.pgn {
        outputs.push(("--pgn", p));
    }
    check_outputs(&inputs, &outputs)
}

/// The PGN file, if one was asked for: created afresh, the games of a
/// resumed records file written first (in the file's order).
fn open_pgn(s: &Settings, previous: &[GameRecord]) -> Result<Option<PgnFile>, ParseError> {
    let Some(path) = &s.pgn else {
        return Ok(None);
    };
    let mut file = PgnFile::create(path, &pgn::today())?;
    for rec in previous {
        file.append(rec)?;
    }
    Ok(Some(file))
}

/// The records file, if one was asked for: a new file (an existing one only
/// with `--overwrite`), or with `--resume` the file so far and its games,
/// checked against the plan.
fn open_records(
    s: &Settings,
    plan: &Plan,
    watch: &mut dyn Watch,
) -> Result<(Option<RecordsFile>, Vec<GameRecord>), ParseError> {
    let Some(path) = &s.records else {
        return Ok((None, Vec::new()));
    };
    if s.resume {
        let r = RecordsFile::reopen(path, |previous| check_previous(plan, previous))?;
        if let Some(line) = r.dropped {
            watch.warn(&format!(
                "warning: {} line {line}: dropped a cut-off last record; that game is played again",
                path.display()
            ));
        }
        let previous: Vec<GameRecord> = r.previous.into_iter().map(|(_, rec)| rec).collect();
        return Ok((Some(r.file), previous));
    }
    if !s.overwrite && path.exists() {
        return Err(ParseError::new(format!(
            "{} already exists: --resume continues it, --overwrite replaces it",
            path.display()
        )));
    }
    Ok((Some(RecordsFile::create(path)?), Vec::new()))
}

/// The line printed when a game ends: its number, its engines by side,
/// the result (`1-0`, or which engine won at which seat of `sides`), why
/// and its length.
fn game_line(rec: &GameRecord, total: u64, sides: &[&str]) -> String {
    let head = format!(
        "game {} of {total}: {}",
        rec.number,
        rec.engines.join(" - ")
    );
    let tail = format!("({}, {} plies)", rec.reason, rec.plies);
    match (&rec.result, rec.winner) {
        (Some(result), _) => format!("{head} {result} {tail}"),
        (None, Some(w)) => format!(
            "{head}: {} ({}) wins {tail}",
            rec.engines[w as usize - 1],
            sides[w as usize - 1]
        ),
        (None, None) => format!("{head}: draw {tail}"),
    }
}

/// The engines, the schedule (this shard's pairs), the openings and the
/// adjudication rules from the settings.
pub fn plan(game: &'static dyn AnyGame, s: &Settings) -> Result<Plan, ParseError> {
    let pairs = game.players() == 2;
    if !pairs {
        refuse_pair_options(game, s)?;
    }
    let engines = s
        .engines
        .iter()
        .map(|t| game.engine(t))
        .collect::<Result<Vec<_>, _>>()?;
    if engines.len() < 2 {
        return Err(ParseError::new("a tournament needs at least two --engine"));
    }
    check_names(&engines)?;
    if s.games > MAX_GAMES {
        return Err(ParseError::new(format!(
            "--games {}: a tournament plays at most {MAX_GAMES} games",
            s.games
        )));
    }
    if pairs && !s.games.is_multiple_of(2) {
        return Err(ParseError::new(
            "--games must be even: games are played in pairs with sides swapped",
        ));
    }
    let shard = s.shard;
    let openings = match (&s.openings, s.random_plies) {
        (Some(path), _) => {
            let text = std::fs::read_to_string(path)
                .map_err(|e| ParseError::new(format!("cannot read {}: {e}", path.display())))?;
            Openings::List(
                parse_openings(game, &text)
                    .map_err(|e| ParseError::new(format!("{}: {e}", path.display())))?,
            )
        }
        (None, plies) => Openings::Random {
            start: game.start(),
            plies: plies.unwrap_or(0),
        },
    };
    let rules = Rules {
        ply_limit: s.ply_limit.unwrap_or(game.info().ply_limit),
        adjudicate: s.adjudicate,
        time_margin: Duration::from_millis(s.time_margin),
    };
    let schedule = if pairs {
        Schedule::Pairs(Pairings::new(engines.len(), s.format, s.games / 2, shard)?)
    } else {
        Schedule::Seats(Seatings::new(
            lineups(engines.len(), game.info().sides.len()),
            s.games,
            shard,
        ))
    };
    Ok(Plan {
        game,
        engines,
        schedule,
        openings,
        rules,
        seed: s.seed,
    })
}

/// Refuses the options of a tournament of two sides in game `G` of more:
/// the seat engines give no scores to adjudicate on, every engine takes
/// every seat in turn.
fn refuse_pair_options(game: &dyn AnyGame, s: &Settings) -> Result<(), ParseError> {
    const SCORES: &str = "adjudication needs the engines' scores, and seat engines give none";
    let unsupported = [
        (s.sprt.is_some(), "--sprt", SPRT_TWO_SIDES),
        (s.pgn.is_some(), "--pgn", pgn::TWO_PLAYERS),
        (
            s.adjudicate != Adjudicator::default(),
            "--adjudicate (or --resign-score, --draw-score)",
            SCORES,
        ),
        (
            s.format != Format::RoundRobin,
            "--format",
            "every engine takes every seat in turn",
        ),
    ];
    match unsupported.iter().find(|(given, _, _)| *given) {
        Some((_, opt, why)) => Err(ParseError::new(format!(
            "{opt} does not apply to {}: {why}",
            game.id()
        ))),
        None => Ok(()),
    }
}

/// Writes the tournament's page, every game in it, to `path`.
pub fn write_pages(
    game: &dyn AnyGame,
    path: &Path,
    summary: &Summary,
    games: &[GameRecord],
) -> Result<(), ParseError> {
    write_file(path, &pages::tournament_page(game, summary, games)?)
}

/// Writes `text` to the file at `path`.
pub fn write_file(path: &Path, text: &str) -> Result<(), ParseError> {
    std::fs::write(path, text)
        .map_err(|e| ParseError::new(format!("cannot write {}: {e}", path.display())))
}

/// What `gamut tournament merge` is asked to do.
#[derive(Clone, Debug)]
pub struct MergeSettings {
    /// The record files.
    pub files: Vec<PathBuf>,
    /// A sequential test for the merged results.
    pub sprt: Option<Sprt>,
    /// The report's web page.
    pub html: Option<PathBuf>,
    /// A PGN file of every game.
    pub pgn: Option<PathBuf>,
    /// Join records of different tournaments.
    pub allow_mixed: bool,
}

/// Rebuilds the report from record files: every record of every file
/// checked, no game number twice, one game throughout; the seats report
/// for a game of more than two sides.
pub fn merge(m: &MergeSettings) -> Result<TournamentOutcome, ParseError> {
    let sprt = m.sprt;
    let mut check = MergeCheck::new(m.allow_mixed);
    let mut all = Vec::new();
    for path in &m.files {
        for (line, rec) in records::read_holding(path, records::Holds::Finished)? {
            check.record(path, line, &rec)?;
            all.push(rec);
        }
    }
    let inputs: Vec<(&str, &Path)> = m.files.iter().map(|f| ("FILE", f.as_path())).collect();
    let outputs: Vec<(&str, &Path)> = [("--html", &m.html), ("--pgn", &m.pgn)]
        .into_iter()
        .filter_map(|(flag, p)| p.as_deref().map(|p| (flag, p)))
        .collect();
    check_outputs(&inputs, &outputs)?;
    let Some(game) = &check.game else {
        return Ok(TournamentOutcome {
            summary: Tally::new(sprt).summary(),
            ended: Ended::Merged,
            games: Vec::new(),
            unwritten: None,
        });
    };
    let id: GameId = game.parse().map_err(ParseError)?;
    let object = gamut_engine::game(id);
    let (sides, pairs) = (object.info().sides.len(), object.players() == 2);
    all.sort_by_key(|r| r.number);
    let mut tally = if pairs {
        Tally::new(sprt)
    } else {
        if sprt.is_some() {
            return Err(ParseError::new(format!(
                "--sprt does not apply to games of more than two sides: {SPRT_TWO_SIDES}"
            )));
        }
        if m.pgn.is_some() {
            return Err(pgn::refused(&id.to_string()));
        }
        let mut names: Vec<String> = Vec::new();
        for name in all.iter().flat_map(|r| &r.engines) {
            if !names.contains(name) {
                names.push(name.clone());
            }
        }
        Tally::of_seats(names, sides)
    };
    for rec in &all {
        tally.add(rec);
    }
    let summary = tally.summary();
    let mut unwritten = match &m.html {
        Some(path) => write_pages(gamut_engine::game(id), path, &summary, &all).err(),
        None => None,
    };
    if let Some(path) = &m.pgn {
        let written = pgn::undated(&all).and_then(|text| write_file(path, &text));
        unwritten = unwritten.or(written.err());
    }
    Ok(TournamentOutcome {
        summary,
        ended: Ended::Merged,
        games: Vec::new(),
        unwritten,
    })
}

/// What merging checks of each record, over every file: one tournament
/// (one seed, one spec per engine name) unless mixing is allowed, no game
/// number twice, one game throughout.
struct MergeCheck<'p> {
    allow_mixed: bool,
    /// Where the first record was, and its seed.
    first: Option<(String, Option<u64>)>,
    specs: HashMap<String, String>,
    seen: HashMap<u64, (&'p PathBuf, usize)>,
    game: Option<String>,
}

impl<'p> MergeCheck<'p> {
    fn new(allow_mixed: bool) -> MergeCheck<'p> {
        MergeCheck {
            allow_mixed,
            first: None,
            specs: HashMap::new(),
            seen: HashMap::new(),
            game: None,
        }
    }

    /// Checks the record `rec` of `path`'s line `line` against the records
    /// before it; returns where it is, for messages.
    fn record(
        &mut self,
        path: &'p PathBuf,
        line: usize,
        rec: &GameRecord,
    ) -> Result<String, ParseError> {
        let (number, seed, game) = (rec.number, rec.seed, rec.game.as_str());
        let (names, specs) = (&rec.engines, &rec.specs);
        let at = format!("{} line {line}: game {number}", path.display());
        if !self.allow_mixed {
            let (where_first, first_seed) = self.first.get_or_insert_with(|| (at.clone(), seed));
            if *first_seed != seed {
                return Err(ParseError::new(format!(
                    "{at}: seed {} is not the seed {} of {where_first}: records of another tournament (--allow-mixed joins them)",
                    seed_text(seed),
                    seed_text(*first_seed)
                )));
            }
            for (name, spec) in names.iter().zip(specs) {
                let known = self
                    .specs
                    .entry(name.clone())
                    .or_insert_with(|| spec.clone());
                if known != spec {
                    return Err(ParseError::new(format!(
                        "{at}: engine '{name}' is '{spec}' here and '{known}' before: records of another tournament (--allow-mixed joins them)"
                    )));
                }
            }
        }
        if let Some((first, first_line)) = self.seen.insert(number, (path, line)) {
            return Err(ParseError::new(format!(
                "{at} appears twice (also {} line {first_line})",
                first.display()
            )));
        }
        match &self.game {
            Some(g) if g != game => {
                return Err(ParseError::new(format!(
                    "{at}: the records mix games: {g} and {game}"
                )))
            }
            Some(_) => {}
            None => self.game = Some(game.to_string()),
        }
        Ok(at)
    }
}

/// A record's seed as text (`none` for records that keep none).
fn seed_text(seed: Option<u64>) -> String {
    seed.map_or("none".to_string(), |s| s.to_string())
}

/// One recorded game replayed: what `gamut replay` shows of it.
pub struct Replayed {
    /// The game's number.
    pub number: u64,
    /// The engines by side, each with its side (`d1 (player 1)`).
    pub seated: Vec<String>,
    /// Every position, each with the step that led to it (`None` for the
    /// opening).
    pub steps: Vec<(Option<String>, Position)>,
    /// The result (`1-0`, `player 3 wins`, `draw`).
    pub result: String,
    /// Why it ended.
    pub reason: String,
    /// Decision plies played.
    pub plies: u32,
}

/// The recorded game `rec` replayed, checked throughout: what `gamut
/// replay` shows of it.
pub fn replayed(rec: &GameRecord) -> Result<Replayed, ParseError> {
    let steps = records::replay(rec)?;
    let game = steps[0].1.game();
    let sides = game.info().sides;
    Ok(Replayed {
        number: rec.number,
        seated: rec
            .engines
            .iter()
            .enumerate()
            .map(|(i, e)| match game.players() {
                2 => format!("{e} ({})", Player::nth(i)),
                _ => format!("{e} ({})", sides.get(i).copied().unwrap_or("?")),
            })
            .collect(),
        steps,
        result: rec.shown_result(sides),
        reason: rec.reason.clone(),
        plies: rec.plies,
    })
}
