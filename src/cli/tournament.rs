//! `gamut tournament`, `gamut tournament merge` and `gamut replay`.

use super::analyze::search_setup;
use super::args::{parse_game, SearchArgs};
use super::commands::show_text;
use super::interrupt::Interrupt;
use super::progress::Progress;
use super::CliError;
use clap::{Args, Parser, Subcommand};
use gamut::game::{Evaluate, Game};
use gamut::games::GameId;
use gamut::svg::SvgOptions;
use gamut::tournament::engine::{
    check_names, Engine, ExactTable, Kind, PlayerKind, SpecText, TimeControl,
};
use gamut::tournament::external::External;
use gamut::tournament::pages;
use gamut::tournament::paths::check_outputs;
use gamut::tournament::play::{Plan, Rules, Threshold};
use gamut::tournament::records::{self, GameRecord};
use gamut::tournament::report::{Report, Tally};
use gamut::tournament::schedule::{
    default_ply_limit, pairings, parse_openings, Format, Openings, Shard,
};
use gamut::tournament::seats::{self, SeatEngine, SeatRecord};
use gamut::tournament::session::{self, check_previous, Ended, Finished, RecordsFile};
use gamut::tournament::stats::Sprt;
use gamut::with_game;
use std::collections::HashMap;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering::SeqCst};
use std::time::Duration;

/// Options of `gamut tournament`.
#[derive(Args, Debug)]
#[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
pub struct TournamentArgs {
    /// `merge`: rebuild the report from record files.
    #[command(subcommand)]
    pub command: Option<TournamentCommand>,
    /// The game (`gamut show --help` lists the ids).
    #[arg(value_parser = parse_game, required = true)]
    pub game: Option<GameId>,
    /// An engine: `name=d4,search=alphabeta,depth=4`, `name=fast,time=50`,
    /// `random`, `greedy`; for games of more than two sides
    /// `name=p,paranoid,time=200`, `name=m,mcts,time=200` (also
    /// `iterations=`, `width=`, `exploration=`) or `random`, one per seat,
    /// rotated over the seats (see docs/tournament.md). Give two or more.
    #[arg(long = "engine", value_name = "SPEC", required = true)]
    pub engines: Vec<String>,
    /// Who meets whom with more than two engines.
    #[arg(long, value_name = "FORMAT", default_value = "roundrobin", value_parser = ["roundrobin", "gauntlet"])]
    pub format: String,
    /// Games per encounter, in pairs with sides swapped (even).
    #[arg(long, value_name = "N", default_value_t = 10, value_parser = clap::value_parser!(u64).range(2..))]
    pub games: u64,
    /// Games played at once.
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=256))]
    pub concurrency: u32,
    /// The seed of random openings, dice, and random and mixed choices.
    #[arg(long, value_name = "S", default_value_t = 1)]
    pub seed: u64,
    /// Openings: one position text per line (text after `;` is ignored,
    /// so perft suites work).
    #[arg(long, value_name = "FILE")]
    pub openings: Option<PathBuf>,
    /// Openings made by this many random plies from the start.
    #[arg(long, value_name = "N", conflicts_with = "openings")]
    pub random_plies: Option<u32>,
    /// Plies after which a game is a draw (default: the game's own limit,
    /// from its rules).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    pub ply_limit: Option<u32>,
    /// Resign adjudication: a side loses when both engines agree it is at
    /// least this far behind for --resign-moves moves each.
    #[arg(long, value_name = "SCORE", value_parser = clap::value_parser!(i32).range(1..))]
    pub resign_score: Option<i32>,
    /// Moves of each side for resign adjudication.
    #[arg(long, value_name = "N", default_value_t = 3, value_parser = clap::value_parser!(u32).range(1..))]
    pub resign_moves: u32,
    /// Draw adjudication: a draw when both engines' scores stay within
    /// ±SCORE for --draw-moves moves each.
    #[arg(long, value_name = "SCORE", value_parser = clap::value_parser!(i32).range(0..))]
    pub draw_score: Option<i32>,
    /// Moves of each side for draw adjudication.
    #[arg(long, value_name = "N", default_value_t = 8, value_parser = clap::value_parser!(u32).range(1..))]
    pub draw_moves: u32,
    /// The ply from which draw adjudication applies.
    #[arg(long, value_name = "PLY", default_value_t = 0)]
    pub draw_after: u32,
    /// Adjudication as fastchess writes it: `resign=<score>,<moves>` (the
    /// --resign options) and `draw=<score>,<moves>[,<from ply>]` (the
    /// --draw options); give one or both.
    #[arg(long, value_name = "RULE", num_args = 1..=2,
          conflicts_with_all = ["resign_score", "draw_score"])]
    pub adjudicate: Vec<String>,
    /// Milliseconds an engine with a game clock (`tc=`) may go past it
    /// before it loses on time.
    #[arg(long, value_name = "MS", default_value_t = 0)]
    pub time_margin: u64,
    /// Stop when a sequential test decides:
    /// `elo0=0,elo1=5,alpha=0.05,beta=0.05[,model=normalized|logistic]`
    /// (two engines only).
    #[arg(long, value_name = "TEST")]
    pub sprt: Option<String>,
    /// Write every game as one JSON line to this file (which must not
    /// exist, unless --resume or --overwrite is given).
    #[arg(long, value_name = "FILE")]
    pub records: Option<PathBuf>,
    /// Continue the tournament in the --records file: its games are checked
    /// and kept, and only the rest of the schedule is played.
    #[arg(long, requires = "records", conflicts_with = "overwrite")]
    pub resume: bool,
    /// Replace the --records file if it exists.
    #[arg(long, requires = "records")]
    pub overwrite: bool,
    /// Play only share K of N of the pairs (same seed, same pairs).
    #[arg(long, value_name = "K/N")]
    pub shard: Option<String>,
    /// Print the summary as JSON.
    #[arg(long)]
    pub json: bool,
    /// Also write the report as a web page to this file, and beside it
    /// each game's page (`<stem>-game-<N>.html`), linked from the report.
    #[arg(long, value_name = "FILE")]
    pub html: Option<PathBuf>,
}

/// Subcommands of `gamut tournament`.
#[derive(Subcommand, Debug)]
pub enum TournamentCommand {
    /// Rebuild the report from record files (shards of one tournament).
    Merge(MergeArgs),
}

/// Options of `gamut tournament merge`.
#[derive(Args, Debug)]
pub struct MergeArgs {
    /// The record files.
    #[arg(required = true, value_name = "FILE")]
    pub files: Vec<PathBuf>,
    /// Apply this sequential test to the merged results.
    #[arg(long, value_name = "TEST")]
    pub sprt: Option<String>,
    /// Print the summary as JSON.
    #[arg(long)]
    pub json: bool,
    /// Also write the report and every game as web pages, as `tournament
    /// --html` does.
    #[arg(long, value_name = "FILE")]
    pub html: Option<PathBuf>,
    /// Join records of different tournaments (another seed, or another
    /// spec under one engine name), which are otherwise refused.
    #[arg(long)]
    pub allow_mixed: bool,
}

/// Options of `gamut replay`.
#[derive(Args, Debug)]
pub struct ReplayArgs {
    /// A records file written by `gamut tournament --records`.
    #[arg(value_name = "FILE")]
    pub file: PathBuf,
    /// The game's number.
    #[arg(long, value_name = "N")]
    pub game: u64,
    /// Print only the position after step K (0: the opening), as `show`
    /// prints it.
    #[arg(long = "move", value_name = "K")]
    pub step: Option<usize>,
    /// With --move: also write that position's picture, its last step
    /// marked, to this SVG file.
    #[arg(long, value_name = "FILE", requires = "step")]
    pub svg: Option<PathBuf>,
    /// Write the game as one self-contained web page to this file: every
    /// position's board, the steps, and the engines' scores.
    #[arg(long, value_name = "FILE", conflicts_with = "step")]
    pub html: Option<PathBuf>,
}

/// The search options an engine spec may set, read by clap like the
/// options of `gamut analyze`.
#[derive(Parser, Debug)]
#[command(no_binary_name = true)]
struct EngineOptions {
    #[command(flatten)]
    search: SearchArgs,
}

/// Turns an engine spec into an engine for game `G`.
pub(super) fn engine<G: Evaluate>(text: &str) -> Result<Engine, CliError> {
    let spec = SpecText::parse(text)?;
    let fail = |msg: String| CliError(format!("engine '{text}': {msg}"));
    if spec.options.iter().any(|(k, _)| k == "cmd") {
        return external_engine(spec);
    }
    let mut argv: Vec<String> = Vec::new();
    let tc = time_control(&spec).map_err(|e| fail(e.0))?;
    for (key, value) in &spec.options {
        let allowed = match spec.player {
            PlayerKind::AlphaBeta => true,
            PlayerKind::Greedy => key == "eval_off" || key == "tc",
            PlayerKind::Random => key == "tc",
        };
        if !allowed {
            return Err(fail(format!("'{key}' does not apply to this player")));
        }
        let need = || {
            value
                .clone()
                .ok_or_else(|| fail(format!("'{key}' needs a value")))
        };
        match key.as_str() {
            "depth" | "time" | "nodes" | "threads" | "hash" | "parallel" | "eval" | "net" => {
                argv.push(format!("--{key}"));
                argv.push(need()?);
            }
            "eval_off" | "ordering_off" => {
                argv.push(format!("--{}", key.replace('_', "-")));
                argv.push(need()?.replace('+', ","));
            }
            "table" | "tc" => {}
            "quiescence" | "aspiration" => match value.as_deref() {
                Some("off") => argv.push(format!("--no-{key}")),
                Some("on") | None => {}
                Some(v) => return Err(fail(format!("{key}={v}: use on or off"))),
            },
            "exact" => match value.as_deref() {
                Some("on") | None => argv.push("--exact".into()),
                Some("off") => {}
                Some(v) => return Err(fail(format!("{key}={v}: use on or off"))),
            },
            "lmr" | "nmp" | "rfp" | "futility" | "partial" | "narrow" => match value.as_deref() {
                Some(v @ ("on" | "off")) => argv.extend([format!("--{key}"), v.to_string()]),
                None => argv.extend([format!("--{key}"), "on".to_string()]),
                Some(v) => return Err(fail(format!("{key}={v}: use on or off"))),
            },
            "history" => match value.as_deref() {
                Some("off") => argv.extend(["--ordering-off".into(), "history".into()]),
                Some("on") | None => {}
                Some(v) => return Err(fail(format!("{key}={v}: use on or off"))),
            },
            _ => {
                return Err(fail(format!(
                    "unknown option '{key}' (name, search, depth, time, nodes, tc, threads, hash, parallel, eval, eval_off, ordering_off, quiescence, aspiration, exact, lmr, nmp, rfp, futility, partial, narrow, history, table)"
                )))
            }
        }
    }
    if !spec.options.iter().any(|(k, _)| k == "hash") {
        argv.extend([
            "--hash".to_string(),
            gamut::search::params::TOURNAMENT_HASH_MIB.to_string(),
        ]);
    }
    let opts = EngineOptions::try_parse_from(&argv).map_err(|e| {
        let rendered = e.render().to_string();
        let first = rendered.lines().next().unwrap_or("bad option").to_string();
        fail(first.trim_start_matches("error: ").to_string())
    })?;
    let (config, limits) = search_setup::<G>(&opts.search).map_err(|e| fail(e.0))?;
    let kind = match spec.player {
        PlayerKind::AlphaBeta => {
            if limits.depth.is_none()
                && limits.time.is_none()
                && limits.nodes.is_none()
                && tc.is_none()
            {
                return Err(fail("alphabeta needs depth=, time=, nodes= or tc=".into()));
            }
            // Each game makes its own table: find out now, not mid-game,
            // whether the machine can give one of this size.
            gamut::search::Table::try_new(opts.search.hash as usize)
                .map_err(|e| fail(e.to_string()))?;
            Kind::Search {
                config,
                limits,
                hash_mib: opts.search.hash as usize,
                exact: exact_table::<G>(&spec).map_err(|e| fail(e.0))?,
            }
        }
        PlayerKind::Greedy => Kind::Greedy {
            terms: config.terms,
        },
        PlayerKind::Random => Kind::Random,
    };
    Ok(Engine {
        name: spec.name,
        spec: spec.text,
        kind,
        tc,
    })
}

/// The game clock a spec's `tc=` gives, if any.
fn time_control(spec: &SpecText) -> Result<Option<TimeControl>, CliError> {
    match spec.options.iter().find(|(k, _)| k == "tc") {
        None => Ok(None),
        Some((_, None)) => Err(CliError("'tc' needs a value".into())),
        Some((_, Some(v))) => Ok(Some(TimeControl::parse(v)?)),
    }
}

/// The table of exact values an engine spec asks for: `table=<file>`, or a
/// bare `table` for the game's table at its default location.
fn exact_table<G: Evaluate>(spec: &SpecText) -> Result<Option<ExactTable>, CliError> {
    let Some((_, value)) = spec.options.iter().find(|(k, _)| k == "table") else {
        return Ok(None);
    };
    let path = value.as_deref().map(std::path::Path::new);
    match super::solve::open_table::<G>(path)? {
        Some(oracle) => Ok(Some(ExactTable(oracle.into()))),
        None => Err(CliError(format!(
            "no table of exact values for {} (make one with gamut solve {})",
            G::ID,
            G::ID
        ))),
    }
}

/// Turns a spec with `cmd=<program> [args]` into an engine that is that
/// program speaking the engine protocol: `time=`, `depth=` or `nodes=` per
/// move, `margin=` (ms) past `time=` before a silent engine forfeits
/// (default 1000; 60000 without `time=`; plus twice the tournament's own
/// time to list the position's moves), `hash=` and `threads=` sent as
/// options.
fn external_engine(spec: SpecText) -> Result<Engine, CliError> {
    let text = &spec.text;
    let fail = |msg: String| CliError(format!("engine '{text}': {msg}"));
    if spec.player != PlayerKind::AlphaBeta {
        return Err(fail("cmd= names the program; it takes no search=".into()));
    }
    let mut command = Vec::new();
    let mut go = Vec::new();
    let mut time = None;
    let mut margin = None;
    let mut options = Vec::new();
    let tc = time_control(&spec).map_err(|e| fail(e.0))?;
    for (key, value) in &spec.options {
        let value = value
            .as_deref()
            .ok_or_else(|| fail(format!("'{key}' needs a value")))?;
        let number = || {
            value
                .parse::<u64>()
                .ok()
                .filter(|&n| n >= 1)
                .ok_or_else(|| fail(format!("{key}={value}: not a positive number")))
        };
        match key.as_str() {
            "cmd" => command = value.split_whitespace().map(String::from).collect(),
            "time" => {
                time = Some(number()?);
                go.push(format!("movetime {value}"));
            }
            "depth" | "nodes" => go.push(format!("{key} {}", number()?)),
            "margin" => margin = Some(number()?),
            "hash" | "threads" => options.push((key.clone(), number()?.to_string())),
            "tc" => {}
            _ if key.starts_with("option.") && key.len() > "option.".len() => {
                options.push((key["option.".len()..].to_string(), value.to_string()))
            }
            _ => {
                return Err(fail(format!(
                    "unknown option '{key}' for a program (name, cmd, time, depth, nodes, tc, margin, hash, threads, option.<name>)"
                )))
            }
        }
    }
    if command.is_empty() {
        return Err(fail("cmd= needs a program".into()));
    }
    if go.is_empty() && tc.is_none() {
        return Err(fail("a program needs time=, depth=, nodes= or tc=".into()));
    }
    let timed = time.is_some() || tc.is_some();
    let margin = margin.unwrap_or(if timed { 1000 } else { 60_000 });
    Ok(Engine {
        name: spec.name.clone(),
        spec: spec.text.clone(),
        kind: Kind::External(External {
            command,
            go: go.join(" "),
            allowance: Duration::from_millis(time.unwrap_or(0) + margin),
            options,
        }),
        tc,
    })
}

/// Runs `gamut tournament` (or `merge`).
pub fn tournament(a: &TournamentArgs, quiet: bool, out: &mut impl Write) -> Result<(), CliError> {
    if let Some(TournamentCommand::Merge(m)) = &a.command {
        return merge(m, out);
    }
    let id = a.game.expect("clap requires the game");
    with_game!(id, G => play::<G>(a, quiet, out))
}

fn play<G: Evaluate>(
    a: &TournamentArgs,
    quiet: bool,
    out: &mut impl Write,
) -> Result<(), CliError> {
    if G::players() != 2 {
        return play_seats::<G>(a, quiet, out);
    }
    let plan = plan::<G>(a)?;
    let sprt = a.sprt.as_deref().map(Sprt::parse).transpose()?;
    if sprt.is_some() && plan.engines.len() != 2 {
        return Err(CliError("--sprt needs exactly two engines".into()));
    }
    let numbers: Vec<u64> = (0..plan.game_count()).map(|i| plan.number(i)).collect();
    check_tournament_paths(a, &numbers)?;
    let (mut records, previous) = open_records(a, &plan)?;
    // Ctrl-C or SIGTERM: no new moves are started, finished games are kept
    // and reported, then the exit status is the signal's.
    let interrupt = Interrupt::install()?;
    let (finished, mut played) = run_games(
        a,
        &plan,
        sprt,
        &previous,
        records.as_mut(),
        interrupt.flag(),
        quiet,
        out,
    )?;
    let report = finished.tally.report();
    if let Some(path) = &a.html {
        played.extend(previous);
        write_pages::<G>(path, &report, &played)?;
    }
    print_report(&report, finished.ended.as_str(), a.json, out)?;
    interrupt.exit_if_signalled();
    Ok(())
}

/// Refuses a tournament whose output files (records, pages of the games
/// `numbers`) name one of its input files or each other.
fn check_tournament_paths(a: &TournamentArgs, numbers: &[u64]) -> Result<(), CliError> {
    let mut inputs: Vec<(&str, &Path)> = Vec::new();
    let mut outputs: Vec<(&str, &Path)> = Vec::new();
    if let Some(p) = &a.openings {
        inputs.push(("--openings", p));
    }
    if let Some(p) = &a.records {
        if a.resume {
            inputs.push(("--records", p));
        } else {
            outputs.push(("--records", p));
        }
    }
    let pages = a.html.as_deref().map(|h| page_paths(h, numbers));
    if let (Some(h), Some(pages)) = (&a.html, &pages) {
        outputs.push(("--html", h));
        outputs.extend(pages.iter().map(|p| ("--html", p.as_path())));
    }
    Ok(check_outputs(&inputs, &outputs)?)
}

/// The pages of games `numbers` written beside the report page `html`.
fn page_paths(html: &Path, numbers: &[u64]) -> Vec<PathBuf> {
    let stem = html.file_stem().and_then(|s| s.to_str()).unwrap_or("games");
    numbers
        .iter()
        .map(|n| html.with_file_name(format!("{stem}-game-{n}.html")))
        .collect()
}

/// A tournament of a game of more than two players: one engine per side,
/// seated by [`seats::lineups`], games played from the start position.
fn play_seats<G: Evaluate>(
    a: &TournamentArgs,
    quiet: bool,
    out: &mut impl Write,
) -> Result<(), CliError> {
    let unsupported = [
        (a.sprt.is_some(), "--sprt"),
        (a.openings.is_some(), "--openings"),
        (a.random_plies.is_some(), "--random-plies"),
        (a.shard.is_some(), "--shard"),
        (a.resume, "--resume"),
        (a.html.is_some(), "--html"),
        (a.resign_score.is_some(), "--resign-score"),
        (a.draw_score.is_some(), "--draw-score"),
        (!a.adjudicate.is_empty(), "--adjudicate"),
        (a.format != "roundrobin", "--format"),
    ];
    if let Some((_, opt)) = unsupported.iter().find(|(given, _)| *given) {
        return Err(CliError(format!(
            "{opt} does not apply to {}: its tournaments seat one engine per side",
            G::ID
        )));
    }
    let engines = a
        .engines
        .iter()
        .map(|t| SeatEngine::parse(t))
        .collect::<Result<Vec<_>, _>>()?;
    if engines.len() < 2 {
        return Err(CliError("a tournament needs at least two --engine".into()));
    }
    let names: Vec<String> = engines.iter().map(|e| e.name.clone()).collect();
    if let Some(n) = names
        .iter()
        .find(|n| names.iter().filter(|m| m == n).count() > 1)
    {
        return Err(CliError(format!("two engines are named '{n}'")));
    }
    let sides = G::INFO.sides.len();
    let lineups = seats::lineups(engines.len(), sides);
    let mut file = match &a.records {
        Some(path) if !a.overwrite && path.exists() => {
            return Err(CliError(format!(
                "{} already exists: --overwrite replaces it",
                path.display()
            )))
        }
        Some(path) => Some(
            std::fs::File::create(path)
                .map_err(|e| CliError(format!("cannot write {}: {e}", path.display())))?,
        ),
        None => None,
    };
    let interrupt = Interrupt::install()?;
    let stop = interrupt.flag();
    let total = a.games;
    let ply_limit = a.ply_limit.unwrap_or_else(|| default_ply_limit::<G>());
    let bar = Progress::new(total, "{bar:30} {pos}/{len} games {elapsed}", quiet);
    let next = std::sync::atomic::AtomicU64::new(1);
    let (send, receive) = std::sync::mpsc::channel::<SeatRecord>();
    let mut played = Vec::new();
    let written: Result<(), CliError> = std::thread::scope(|scope| {
        for _ in 0..a.concurrency.min(total as u32) {
            let send = send.clone();
            let (engines, lineups, next) = (&engines, &lineups, &next);
            scope.spawn(move || loop {
                let n = next.fetch_add(1, SeqCst);
                if n > total || stop.load(SeqCst) {
                    break;
                }
                let lineup = &lineups[((n - 1) % lineups.len() as u64) as usize];
                match seats::play_game::<G>(engines, lineup, n, a.seed, ply_limit, stop) {
                    Some(rec) => {
                        if send.send(rec).is_err() {
                            break;
                        }
                    }
                    None => break,
                }
            });
        }
        drop(send);
        for rec in receive {
            if let Some(f) = file.as_mut() {
                writeln!(f, "{}", serde_json::to_string(&rec)?)?;
                f.flush()?;
            }
            if !a.json {
                bar.suspend(|| {
                    writeln!(out, "{}", seat_line(&rec, total, G::INFO.sides))?;
                    out.flush()
                })?;
            }
            bar.inc();
            played.push(rec);
        }
        Ok(())
    });
    bar.finish();
    written?;
    let report = seats::report(&names, sides, &played);
    let ended = if stop.load(SeqCst) && (played.len() as u64) < total {
        eprintln!(
            "interrupted: {} of {total} games finished and kept",
            played.len()
        );
        "interrupted"
    } else {
        "complete"
    };
    if a.json {
        let mut v = serde_json::to_value(&report)?;
        v["ended"] = ended.into();
        writeln!(out, "{v}")?;
    } else {
        write!(out, "{}", report.table())?;
        if ended != "complete" {
            writeln!(out, "ended      {ended}")?;
        }
    }
    interrupt.exit_if_signalled();
    Ok(())
}

/// The line printed when a seats game ends: its engines by seat, the
/// winner and why.
fn seat_line(rec: &SeatRecord, total: u64, sides: &[&str]) -> String {
    let result = match rec.winner {
        Some(w) => format!(
            "{} ({}) wins",
            rec.seats[w as usize - 1],
            sides[w as usize - 1]
        ),
        None => "draw".to_string(),
    };
    format!(
        "game {} of {total}: {}: {result} ({}, {} plies)",
        rec.number,
        rec.seats.join(" - "),
        rec.reason,
        rec.plies
    )
}

/// Writes the tournament's page to `path` and each game's page beside it,
/// named `<stem>-game-<N>.html`.
fn write_pages<G: Game>(
    path: &std::path::Path,
    report: &Report,
    games: &[GameRecord],
) -> Result<(), CliError> {
    let stem = path
        .file_stem()
        .and_then(|s| s.to_str())
        .ok_or_else(|| CliError(format!("--html {}: no file name", path.display())))?;
    let link = |n: u64| format!("{stem}-game-{n}.html");
    for rec in games {
        let steps = records::replay::<G>(rec)?;
        write_file(
            &path.with_file_name(link(rec.number)),
            &pages::game_page(rec, &steps),
        )?;
    }
    let start = G::start().text();
    let by_opening = games.iter().any(|r| r.opening != start);
    let page = pages::tournament_page(
        G::INFO.name,
        G::INFO.sides,
        report,
        games,
        by_opening,
        &link,
    );
    write_file(path, &page)
}

/// The engines, the schedule (this shard's pairs), the openings and the
/// adjudication rules from the options.
fn plan<G: Evaluate>(a: &TournamentArgs) -> Result<Plan<G>, CliError> {
    let engines = a
        .engines
        .iter()
        .map(|t| engine::<G>(t))
        .collect::<Result<Vec<_>, _>>()?;
    if engines.len() < 2 {
        return Err(CliError("a tournament needs at least two --engine".into()));
    }
    check_names(&engines)?;
    if !a.games.is_multiple_of(2) {
        return Err(CliError(
            "--games must be even: games are played in pairs with sides swapped".into(),
        ));
    }
    let format = match a.format.as_str() {
        "gauntlet" => Format::Gauntlet,
        _ => Format::RoundRobin,
    };
    let shard = a.shard.as_deref().map(Shard::parse).transpose()?;
    let openings = match (&a.openings, a.random_plies) {
        (Some(path), _) => {
            let text = std::fs::read_to_string(path)
                .map_err(|e| CliError(format!("cannot read {}: {e}", path.display())))?;
            Openings::List(
                parse_openings::<G>(&text)
                    .map_err(|e| CliError(format!("{}: {e}", path.display())))?,
            )
        }
        (None, plies) => Openings::Random {
            start: G::start(),
            plies: plies.unwrap_or(0),
        },
    };
    let mut rules = Rules {
        ply_limit: a.ply_limit.unwrap_or_else(|| default_ply_limit::<G>()),
        resign: a.resign_score.map(|score| Threshold {
            score,
            moves: a.resign_moves,
        }),
        draw: a.draw_score.map(|score| Threshold {
            score,
            moves: a.draw_moves,
        }),
        draw_after: a.draw_after,
        time_margin: Duration::from_millis(a.time_margin),
    };
    for rule in &a.adjudicate {
        adjudication(rule, &mut rules)?;
    }
    let pairs = pairings(engines.len(), format, a.games / 2)
        .into_iter()
        .filter(|p| shard.is_none_or(|s| s.has(p.pair)))
        .collect();
    Ok(Plan {
        engines,
        pairs,
        openings,
        rules,
        seed: a.seed,
    })
}

/// Reads one `--adjudicate` rule into `rules`: `resign=<score>,<moves>` or
/// `draw=<score>,<moves>[,<from ply>]`.
fn adjudication(rule: &str, rules: &mut Rules) -> Result<(), CliError> {
    let fail = || {
        CliError(format!(
            "--adjudicate {rule}: use resign=<score>,<moves> or draw=<score>,<moves>[,<from ply>]"
        ))
    };
    let (kind, values) = rule.split_once('=').ok_or_else(fail)?;
    let numbers: Vec<u32> = values
        .split(',')
        .map(|v| v.trim().parse::<u32>().map_err(|_| fail()))
        .collect::<Result<_, _>>()?;
    let threshold = |score: u32, moves: u32| {
        (moves >= 1 && score <= 30_000).then_some(Threshold {
            score: score as i32,
            moves,
        })
    };
    match (kind, numbers.as_slice()) {
        ("resign", &[score, moves]) if score >= 1 => {
            rules.resign = Some(threshold(score, moves).ok_or_else(fail)?)
        }
        ("draw", &[score, moves]) => rules.draw = Some(threshold(score, moves).ok_or_else(fail)?),
        ("draw", &[score, moves, after]) => {
            rules.draw = Some(threshold(score, moves).ok_or_else(fail)?);
            rules.draw_after = after;
        }
        _ => return Err(fail()),
    }
    Ok(())
}

/// The records file, if one was asked for: a new file (an existing one only
/// with `--overwrite`), or with `--resume` the file so far and its games,
/// checked against the plan.
fn open_records<G: Evaluate>(
    a: &TournamentArgs,
    plan: &Plan<G>,
) -> Result<(Option<RecordsFile>, Vec<GameRecord>), CliError> {
    let Some(path) = &a.records else {
        return Ok((None, Vec::new()));
    };
    if a.resume {
        let r = RecordsFile::reopen(path, |previous| check_previous(plan, previous))?;
        if let Some(line) = r.dropped {
            eprintln!(
                "warning: {} line {line}: dropped a cut-off last record; that game is played again",
                path.display()
            );
        }
        let previous: Vec<GameRecord> = r.previous.into_iter().map(|(_, rec)| rec).collect();
        return Ok((Some(r.file), previous));
    }
    if !a.overwrite && path.exists() {
        return Err(CliError(format!(
            "{} already exists: --resume continues it, --overwrite replaces it",
            path.display()
        )));
    }
    Ok((Some(RecordsFile::create(path)?), Vec::new()))
}

/// Plays what remains of the plan with a progress bar; in text mode each
/// finished game's line is written to `out` at once. Returns how the
/// session ended and, with `--html`, the games it played. Raising `stop`
/// ends the session early.
#[allow(clippy::too_many_arguments)]
fn run_games<G: Evaluate>(
    a: &TournamentArgs,
    plan: &Plan<G>,
    sprt: Option<Sprt>,
    previous: &[GameRecord],
    records: Option<&mut RecordsFile>,
    stop: &AtomicBool,
    quiet: bool,
    out: &mut impl Write,
) -> Result<(Finished, Vec<GameRecord>), CliError> {
    let mut played = Vec::new();
    let total = plan.game_count() as u64;
    let bar = Progress::new(total, "{bar:30} {pos}/{len} games {msg} {elapsed}", quiet);
    bar.set_position(previous.len() as u64);
    let mut each = |rec: &GameRecord, tally: &Tally| -> io::Result<()> {
        if a.html.is_some() {
            played.push(rec.clone());
        }
        if !a.json {
            bar.suspend(|| {
                writeln!(out, "{}", game_line(rec, total))?;
                out.flush()
            })?;
        }
        bar.inc();
        if let [(engines, wdl)] = tally.wdl().as_slice() {
            let elo = wdl.elo().map_or(String::new(), |e| {
                format!(" Elo {:.0} [{:.0}, {:.0}]", e.value, e.lower, e.upper)
            });
            bar.set_message(format!(
                "{}: +{} ={} -{} ({:.1}%){elo}",
                engines[0],
                wdl.wins,
                wdl.draws,
                wdl.losses,
                100.0 * wdl.score()
            ));
        }
        Ok(())
    };
    let finished = session::run(
        plan,
        a.concurrency as usize,
        sprt,
        previous,
        records,
        stop,
        &mut each,
    );
    bar.finish();
    let finished = finished?;
    if finished.ended == Ended::Interrupted {
        eprintln!(
            "interrupted: {} of {total} games finished and kept",
            finished.tally.games()
        );
    }
    Ok((finished, played))
}

/// The line printed when a game ends: number, engines by side, result,
/// reason and length.
fn game_line(rec: &GameRecord, total: u64) -> String {
    format!(
        "game {} of {total}: {} - {} {} ({}, {} plies)",
        rec.number, rec.engines[0], rec.engines[1], rec.result, rec.reason, rec.plies
    )
}

fn print_report(
    report: &Report,
    ended: &str,
    json: bool,
    out: &mut impl Write,
) -> Result<(), CliError> {
    if json {
        let mut v = serde_json::to_value(report)?;
        v["ended"] = ended.into();
        writeln!(out, "{v}")?;
    } else {
        write!(out, "{}", report.table())?;
        if ended != "complete" {
            writeln!(out, "ended      {ended}")?;
        }
    }
    Ok(())
}

/// Runs `gamut tournament merge`: every record of every file checked, no
/// game number twice, one game throughout, then the report.
fn merge(m: &MergeArgs, out: &mut impl Write) -> Result<(), CliError> {
    let sprt = m.sprt.as_deref().map(Sprt::parse).transpose()?;
    let mut seen: HashMap<u64, (&PathBuf, usize)> = HashMap::new();
    let mut tally = Tally::new(sprt);
    let mut game: Option<String> = None;
    let mut first: Option<(String, GameRecord)> = None;
    let mut specs: HashMap<String, String> = HashMap::new();
    let mut all = Vec::new();
    for path in &m.files {
        for (line, rec) in records::read(path)? {
            let at = format!("{} line {line}: game {}", path.display(), rec.number);
            if !m.allow_mixed {
                let (where_first, f) = first.get_or_insert_with(|| (at.clone(), rec.clone()));
                if f.seed != rec.seed {
                    return Err(CliError(format!(
                        "{at}: seed {} is not the seed {} of {where_first}: records of another tournament (--allow-mixed joins them)",
                        seed_text(rec.seed),
                        seed_text(f.seed)
                    )));
                }
                for (name, spec) in rec.engines.iter().zip(&rec.specs) {
                    let known = specs.entry(name.clone()).or_insert_with(|| spec.clone());
                    if known != spec {
                        return Err(CliError(format!(
                            "{at}: engine '{name}' is '{spec}' here and '{known}' before: records of another tournament (--allow-mixed joins them)"
                        )));
                    }
                }
            }
            if let Some((first, first_line)) = seen.insert(rec.number, (path, line)) {
                return Err(CliError(format!(
                    "{at} appears twice (also {} line {first_line})",
                    first.display()
                )));
            }
            match &game {
                Some(g) if *g != rec.game => {
                    return Err(CliError(format!(
                        "{at}: the records mix games: {g} and {}",
                        rec.game
                    )))
                }
                Some(_) => {}
                None => game = Some(rec.game.clone()),
            }
            if rec.result == GameRecord::UNFINISHED {
                return Err(CliError(format!(
                    "{at} is unfinished (saved by play): only finished games make a report"
                )));
            }
            tally.add(&rec);
            all.push(rec);
        }
    }
    let report = tally.report();
    if let Some(html) = &m.html {
        let numbers: Vec<u64> = all.iter().map(|r| r.number).collect();
        let pages = page_paths(html, &numbers);
        let inputs: Vec<(&str, &Path)> = m.files.iter().map(|f| ("FILE", f.as_path())).collect();
        let mut outputs = vec![("--html", html.as_path())];
        outputs.extend(pages.iter().map(|p| ("--html", p.as_path())));
        check_outputs(&inputs, &outputs)?;
    }
    if let (Some(path), Some(game)) = (&m.html, &game) {
        let id: GameId = game.parse().map_err(CliError)?;
        with_game!(id, G => write_pages::<G>(path, &report, &all))?;
    }
    print_report(&report, "merged", m.json, out)
}

/// A record's seed as text (`none` for records that keep none).
fn seed_text(seed: Option<u64>) -> String {
    seed.map_or("none".to_string(), |s| s.to_string())
}

/// Writes `text` to the file at `path`.
fn write_file(path: &std::path::Path, text: &str) -> Result<(), CliError> {
    std::fs::write(path, text)
        .map_err(|e| CliError(format!("cannot write {}: {e}", path.display())))
}

/// Runs `gamut replay`: every record of the file checked, then every
/// position of the game in turn, as `show` draws it, and the result.
pub fn replay(a: &ReplayArgs, out: &mut impl Write) -> Result<(), CliError> {
    let mut outputs: Vec<(&str, &Path)> = Vec::new();
    if let Some(p) = &a.html {
        outputs.push(("--html", p));
    }
    if let Some(p) = &a.svg {
        outputs.push(("--svg", p));
    }
    check_outputs(&[("FILE", &a.file)], &outputs)?;
    if let Some(seat_records) = read_seat_records(&a.file)? {
        let numbers: Vec<u64> = seat_records.iter().map(|r| r.number).collect();
        one_game(a, &numbers)?;
        return replay_seats(a, &seat_records, out);
    }
    let all = records::read(&a.file)?;
    let numbers: Vec<u64> = all.iter().map(|(_, r)| r.number).collect();
    one_game(a, &numbers)?;
    let (_, rec) = all
        .iter()
        .find(|(_, r)| r.number == a.game)
        .ok_or_else(|| no_game(a, all.len()))?;
    let id: GameId = rec.game.parse().map_err(CliError)?;
    with_game!(id, G => replay_game::<G>(a, rec, out))
}

fn replay_game<G: Game>(
    a: &ReplayArgs,
    rec: &GameRecord,
    out: &mut impl Write,
) -> Result<(), CliError> {
    let steps = records::replay::<G>(rec)?;
    if let Some(path) = &a.html {
        return write_file(path, &pages::game_page(rec, &steps));
    }
    if replay_step(a, rec.number, &steps, out)? {
        return Ok(());
    }
    writeln!(
        out,
        "game {}: {} (player 1) vs {} (player 2)",
        rec.number, rec.engines[0], rec.engines[1]
    )?;
    for (i, (step, pos)) in steps.iter().enumerate() {
        match step {
            None => writeln!(out, "\nopening")?,
            Some(text) => writeln!(out, "\nstep {i}: {text}")?,
        }
        write!(out, "{}", show_text(pos))?;
    }
    writeln!(
        out,
        "\nresult {} ({}), {} plies",
        rec.result, rec.reason, rec.plies
    )?;
    Ok(())
}

/// The records of a seats tournament in `path`, every one checked; `None`
/// if the file holds two-player records.
fn read_seat_records(path: &std::path::Path) -> Result<Option<Vec<SeatRecord>>, CliError> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| CliError(format!("cannot read {}: {e}", path.display())))?;
    let mut lines = text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty());
    let is_seats = |l: &str| {
        serde_json::from_str::<serde_json::Value>(l).is_ok_and(|v| v.get("seats").is_some())
    };
    if !lines.clone().next().is_some_and(|(_, l)| is_seats(l)) {
        return Ok(None);
    }
    let mut out = Vec::new();
    for (i, line) in lines.by_ref() {
        let at = |msg: String| CliError(format!("{} line {}: {msg}", path.display(), i + 1));
        let rec: SeatRecord =
            serde_json::from_str(line).map_err(|e| at(format!("not a seats game record: {e}")))?;
        seats::verify(&rec).map_err(|e| at(e.0))?;
        out.push(rec);
    }
    Ok(Some(out))
}

/// `gamut replay` of a seats game: every position, or the one at --move.
fn replay_seats(a: &ReplayArgs, all: &[SeatRecord], out: &mut impl Write) -> Result<(), CliError> {
    if a.html.is_some() {
        return Err(CliError(
            "--html does not apply to games of more than two players yet".into(),
        ));
    }
    let rec = all
        .iter()
        .find(|r| r.number == a.game)
        .ok_or_else(|| no_game(a, all.len()))?;
    let id: GameId = rec.game.parse().map_err(CliError)?;
    with_game!(id, G => replay_seat_game::<G>(a, rec, out))
}

fn replay_seat_game<G: Game>(
    a: &ReplayArgs,
    rec: &SeatRecord,
    out: &mut impl Write,
) -> Result<(), CliError> {
    let steps = seats::replay::<G>(rec)?;
    if replay_step(a, rec.number, &steps, out)? {
        return Ok(());
    }
    let seated: Vec<String> = rec
        .seats
        .iter()
        .zip(G::INFO.sides)
        .map(|(e, s)| format!("{e} ({s})"))
        .collect();
    writeln!(out, "game {}: {}", rec.number, seated.join(" vs "))?;
    for (i, (step, pos)) in steps.iter().enumerate() {
        match step {
            None => writeln!(out, "\nopening")?,
            Some(text) => writeln!(out, "\nstep {i}: {text}")?,
        }
        write!(out, "{}", show_text(pos))?;
    }
    let result = match rec.winner {
        Some(w) => format!("{} wins", G::INFO.sides[w as usize - 1]),
        None => "draw".to_string(),
    };
    writeln!(
        out,
        "\nresult {result} ({}), {} plies",
        rec.reason, rec.plies
    )?;
    Ok(())
}

/// Refuses a records file that holds the game asked for more than once.
fn one_game(a: &ReplayArgs, numbers: &[u64]) -> Result<(), CliError> {
    let copies = numbers.iter().filter(|&&n| n == a.game).count();
    if copies > 1 {
        return Err(CliError(format!(
            "{} holds game {} {copies} times: which one is meant is unknown",
            a.file.display(),
            a.game
        )));
    }
    Ok(())
}

/// The error for a --game not in the records file of `count` games.
fn no_game(a: &ReplayArgs, count: usize) -> CliError {
    CliError(format!(
        "no game {} in {} ({count} games)",
        a.game,
        a.file.display()
    ))
}

/// With --move K: prints the position after step K of game `number` (and
/// with --svg draws it) and returns true; false without --move.
fn replay_step<G: Game>(
    a: &ReplayArgs,
    number: u64,
    steps: &[(Option<String>, G)],
    out: &mut impl Write,
) -> Result<bool, CliError> {
    let Some(k) = a.step else {
        return Ok(false);
    };
    let Some((_, pos)) = steps.get(k) else {
        return Err(CliError(format!(
            "--move {k}: game {number} has {} steps (0 is the opening)",
            steps.len() - 1
        )));
    };
    if let Some(path) = &a.svg {
        let before = k.checked_sub(1).map(|b| &steps[b].1);
        write_file(path, &pos.svg(&SvgOptions::default(), before))?;
    }
    write!(out, "{}", show_text(pos))?;
    Ok(true)
}
