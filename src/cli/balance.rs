//! `gamut balance` and `gamut balance merge`: the library plays and
//! reports (`tournament::balance`), this reads the options, shows progress
//! on a terminal and prints the report.

use super::args::parse_game;
use super::interrupt::Interrupt;
use super::progress::GamesBar;
use super::CliError;
use clap::{Args, Subcommand};
use gamut_games::GameId;
use gamut_tournament::balance::{self, BalanceOutcome, BalanceSettings, Ladder};
use gamut_tournament::schedule::{Shard, MAX_GAMES};
use gamut_tournament::session::Ended;
use std::io::Write;
use std::path::PathBuf;

/// Options of `gamut balance`.
#[derive(Args, Debug)]
#[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
pub struct BalanceArgs {
    /// `merge`: rebuild the report from the records directories of shards.
    #[command(subcommand)]
    pub command: Option<BalanceCommand>,
    /// The game (`gamut show --help` lists the ids).
    #[arg(value_parser = parse_game, required = true)]
    pub game: Option<GameId>,
    /// A setup of the start position to play (repeat for several);
    /// default: every setup the game has (Empedocles' twelve element
    /// pairings), or its one start position.
    #[arg(long, value_name = "TEXT")]
    pub setup: Vec<String>,
    /// The strengths, weakest first: one engine limit and its values,
    /// `depth=1,2,4`, `time=50,200,800` (ms per move), `nodes=…` or
    /// `iterations=…` (with `--engine mcts`).
    #[arg(long, value_name = "LIMIT=V1,V2,…", default_value = "depth=1,2", value_parser = parse_ladder)]
    pub ladder: Ladder,
    /// The engine's other spec items, as `gamut tournament --engine`
    /// takes them, each rung adding its limit (e.g. `eval=classic`,
    /// `mcts`); default: the alpha-beta searcher, the paranoid search in
    /// games of more than two sides.
    #[arg(long, value_name = "SPEC")]
    pub engine: Option<String>,
    /// Games per rung and setup.
    #[arg(long, value_name = "N", default_value_t = 100, value_parser = clap::value_parser!(u64).range(1..=MAX_GAMES / 2))]
    pub games: u64,
    /// Games played at once.
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=256))]
    pub concurrency: u32,
    /// The seed of random openings, dice, and mixed choices.
    #[arg(long, value_name = "S", default_value_t = 1)]
    pub seed: u64,
    /// Start each game after this many random decision plies from the
    /// setup's start position (games without dice or simultaneous moves
    /// need some: a deterministic engine plays one game from one position).
    #[arg(long, value_name = "N")]
    pub random_plies: Option<u32>,
    /// Plies after which a game is a draw (default: the game's own limit).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    pub ply_limit: Option<u32>,
    /// Play only share K of N of each rung's games (same seed, same
    /// games); `gamut balance merge` joins the shards' records.
    #[arg(long, value_name = "K/N", value_parser = Shard::parse)]
    pub shard: Option<Shard>,
    /// Write every game to this directory, one records file per setup
    /// and rung (`fire,water@depth=2.jsonl`); they must not exist, unless
    /// --resume or --overwrite is given.
    #[arg(long, value_name = "DIR")]
    pub records: Option<PathBuf>,
    /// Continue the records files in --records: their games are checked
    /// and kept, and only the rest is played.
    #[arg(long, requires = "records", conflicts_with = "overwrite")]
    pub resume: bool,
    /// Replace the records files in --records.
    #[arg(long, requires = "records")]
    pub overwrite: bool,
    /// A won game is decided from the ply where the winner's evaluation
    /// reaches this win chance (by the game's score scale) and never
    /// drops below it again; above 0.5, below 1.
    #[arg(long, value_name = "P", default_value_t = 0.75, value_parser = parse_chance)]
    pub decisive: f64,
    /// Print the report as JSON.
    #[arg(long)]
    pub json: bool,
    /// Also write the report, with plots, as one web page to this file.
    #[arg(long, value_name = "FILE")]
    pub html: Option<PathBuf>,
}

/// Subcommands of `gamut balance`.
#[derive(Subcommand, Debug)]
pub enum BalanceCommand {
    /// Rebuild the report from the records directories of shards.
    Merge(MergeArgs),
}

/// Options of `gamut balance merge`.
#[derive(Args, Debug)]
pub struct MergeArgs {
    /// The records directories (each shard's --records).
    #[arg(required = true, value_name = "DIR")]
    pub dirs: Vec<PathBuf>,
    /// The win chance that decides a game, as `gamut balance --decisive`.
    #[arg(long, value_name = "P", default_value_t = 0.75, value_parser = parse_chance)]
    pub decisive: f64,
    /// Print the report as JSON.
    #[arg(long)]
    pub json: bool,
    /// Also write the report, with plots, as one web page to this file.
    #[arg(long, value_name = "FILE")]
    pub html: Option<PathBuf>,
}

/// Parses a ladder for clap.
fn parse_ladder(s: &str) -> Result<Ladder, String> {
    Ladder::parse(s).map_err(|e| e.0)
}

/// Parses a win chance above ½ and below 1 for clap.
fn parse_chance(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(p) if p > 0.5 && p < 1.0 => Ok(p),
        _ => Err("a win chance above 0.5 and below 1".into()),
    }
}

/// Runs `gamut balance` (or `merge`) and prints the report.
pub fn balance(a: &BalanceArgs, quiet: bool, out: &mut impl Write) -> Result<(), CliError> {
    if let Some(BalanceCommand::Merge(m)) = &a.command {
        let outcome = balance::merge(&m.dirs, m.decisive, m.html.as_deref())?;
        print_report(&outcome, m.json, out)?;
        return unwritten(outcome);
    }
    let id = a.game.expect("clap requires the game");
    let settings = BalanceSettings {
        ladder: a.ladder.clone(),
        engine: a.engine.clone(),
        setups: a.setup.clone(),
        games: a.games,
        concurrency: a.concurrency,
        seed: a.seed,
        random_plies: a.random_plies,
        ply_limit: a.ply_limit,
        shard: a.shard,
        records: a.records.clone(),
        resume: a.resume,
        overwrite: a.overwrite,
        win_chance: a.decisive,
        html: a.html.clone(),
    };
    let interrupt = Interrupt::install()?;
    let mut watch = GamesBar::new(quiet, String::new(), None);
    let outcome = balance::run(
        gamut_engine::game(id),
        &settings,
        interrupt.flag(),
        &mut watch,
    )?;
    print_report(&outcome, a.json, out)?;
    interrupt.exit_if_signalled();
    unwritten(outcome)
}

/// The failure to write the page after the games, once the report is
/// printed.
fn unwritten(outcome: BalanceOutcome) -> Result<(), CliError> {
    match outcome.unwritten {
        Some(e) => Err(e.into()),
        None => Ok(()),
    }
}

/// Prints the report as a table or as JSON, with how the run ended.
fn print_report(
    outcome: &BalanceOutcome,
    json: bool,
    out: &mut impl Write,
) -> Result<(), CliError> {
    if json {
        let mut v = outcome.report.json()?;
        v["ended"] = outcome.ended.as_str().into();
        writeln!(out, "{v}")?;
    } else {
        write!(out, "{}", outcome.report.table())?;
        if outcome.ended != Ended::Complete {
            writeln!(out, "ended {}", outcome.ended.as_str())?;
        }
    }
    Ok(())
}
