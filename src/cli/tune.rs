//! `gamut tune`: SPSA over the search's tunable parameters through pairs
//! of games (the library's [`gamut_tournament::tune`]), one line per
//! iteration, a progress bar of games on a terminal, and the tuned values
//! as spec items at the end.

use super::args::parse_game;
use super::interrupt::Interrupt;
use super::progress::Progress;
use super::CliError;
use clap::Args;
use gamut_core::game::ParseError;
use gamut_games::GameId;
use gamut_tournament::runner::Watch;
use gamut_tournament::tune::{self, Entry, Gains, Observer, TuneSettings};
use std::io::{self, Write};
use std::path::PathBuf;

/// Options of `gamut tune`.
#[derive(Args, Debug)]
pub struct TuneArgs {
    /// The game (of two sides).
    #[arg(value_parser = parse_game)]
    pub game: GameId,
    /// The spec items both settings share, as in `tournament --engine`
    /// but without `name=`: `depth=3`, `time=50,hash=8`; a tuned
    /// parameter's `param.<name>=` gives its start.
    #[arg(long, value_name = "SPEC")]
    pub engine: String,
    /// The parameters to tune, comma-separated (default: all of them;
    /// `gamut params` lists them).
    #[arg(long, value_name = "NAMES", value_delimiter = ',')]
    pub params: Vec<String>,
    /// SPSA iterations.
    #[arg(long, value_name = "N", default_value_t = 100, value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    pub iterations: u64,
    /// Game pairs per iteration (each pair one opening, sides swapped).
    #[arg(long, value_name = "N", default_value_t = 8, value_parser = clap::value_parser!(u64).range(1..=100_000))]
    pub pairs_per_iteration: u64,
    /// The seed of the directions, the openings and the games.
    #[arg(long, value_name = "S", default_value_t = 1)]
    pub seed: u64,
    /// Games played at once.
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=256))]
    pub concurrency: u32,
    /// Openings made by this many random plies from the start.
    #[arg(
        long,
        value_name = "N",
        default_value_t = 4,
        conflicts_with = "openings"
    )]
    pub random_plies: u32,
    /// Openings: one position text per line, used in turn across the
    /// iterations.
    #[arg(long, value_name = "FILE")]
    pub openings: Option<PathBuf>,
    /// Plies after which a game is a draw (default: the game's own limit).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    pub ply_limit: Option<u32>,
    /// Each parameter's learning rate at the end of the run (OpenBench's
    /// r_end).
    #[arg(long, value_name = "R", default_value_t = Gains::default().r_end, value_parser = positive)]
    pub r_end: f64,
    /// SPSA's stability constant A as a share of the run's game pairs.
    #[arg(long, value_name = "X", default_value_t = Gains::default().a_ratio, value_parser = positive)]
    pub a_ratio: f64,
    /// The learning rate's decay exponent.
    #[arg(long, value_name = "X", default_value_t = Gains::default().alpha, value_parser = positive)]
    pub alpha: f64,
    /// The perturbation's decay exponent.
    #[arg(long, value_name = "X", default_value_t = Gains::default().gamma, value_parser = positive)]
    pub gamma: f64,
    /// Write every iteration as one JSON line to this file (which must
    /// not exist, unless --resume or --overwrite is given).
    #[arg(long, value_name = "FILE")]
    pub ledger: Option<PathBuf>,
    /// Continue the run in the --ledger file (the same options): its
    /// iterations are checked and kept, and only the rest are played.
    #[arg(long, requires = "ledger", conflicts_with = "overwrite")]
    pub resume: bool,
    /// Replace the --ledger file if it exists.
    #[arg(long, requires = "ledger")]
    pub overwrite: bool,
}

/// A positive finite number (for clap).
fn positive(s: &str) -> Result<f64, String> {
    s.parse::<f64>()
        .ok()
        .filter(|x| x.is_finite() && *x > 0.0)
        .ok_or_else(|| format!("a positive number, not '{s}'"))
}

/// The games of the whole run on one bar (each iteration's tournament
/// reports to it), and a line per iteration on `out`. The runner's own
/// notes about records files, which tune does not keep, are left out.
struct Bar<'a> {
    bar: Progress,
    games_per_iteration: u64,
    out: &'a mut dyn Write,
}

impl Watch for Bar<'_> {
    fn start(&mut self, _total: u64, _done: u64) {}

    fn game(&mut self, _line: &str, _status: Option<String>) -> io::Result<()> {
        self.bar.inc();
        Ok(())
    }

    fn finish(&mut self) {}

    fn warn(&mut self, msg: &str) {
        if msg.starts_with("warning: ") {
            self.bar.suspend(|| eprintln!("{msg}"));
        }
    }
}

impl Observer for Bar<'_> {
    fn games(&mut self) -> &mut dyn Watch {
        self
    }

    fn start(&mut self, done: u64) {
        self.bar.set_position(done * self.games_per_iteration);
    }

    fn iteration(&mut self, e: &Entry) -> Result<(), ParseError> {
        let out = &mut *self.out;
        self.bar
            .suspend(|| writeln!(out, "{}", iteration_line(e)).and_then(|()| out.flush()))
            .map_err(|e| ParseError::new(e.to_string()))
    }
}

/// The line printed after an iteration: its results and θ after it.
fn iteration_line(e: &Entry) -> String {
    let theta: Vec<String> = e
        .next
        .iter()
        .map(|(name, v)| format!("{name} {v:.2}"))
        .collect();
    format!(
        "iteration {} of {}: plus +{} ={} -{}; {}",
        e.iteration,
        e.iterations,
        e.results.wins,
        e.results.draws,
        e.results.losses,
        theta.join(" ")
    )
}

/// Runs `gamut tune`.
pub fn tune(a: &TuneArgs, quiet: bool, out: &mut impl Write) -> Result<(), CliError> {
    let settings = TuneSettings {
        engine: a.engine.clone(),
        params: a.params.clone(),
        gains: Gains {
            r_end: a.r_end,
            a_ratio: a.a_ratio,
            alpha: a.alpha,
            gamma: a.gamma,
        },
        iterations: a.iterations,
        pairs: a.pairs_per_iteration,
        seed: a.seed,
        concurrency: a.concurrency,
        random_plies: a.random_plies,
        openings: a.openings.clone(),
        ply_limit: a.ply_limit,
        ledger: a.ledger.clone(),
        resume: a.resume,
        overwrite: a.overwrite,
    };
    let interrupt = Interrupt::install()?;
    let games = a.iterations * a.pairs_per_iteration * 2;
    let mut bar = Bar {
        bar: Progress::new(games, "{bar:30} {pos}/{len} games {elapsed}", quiet),
        games_per_iteration: 2 * a.pairs_per_iteration,
        out: &mut *out,
    };
    let result = tune::run(
        gamut_engine::game(a.game),
        &settings,
        interrupt.flag(),
        &mut bar,
    );
    bar.bar.finish();
    let tuned = result?;
    if tuned.interrupted {
        eprintln!(
            "interrupted: {} of {} iterations done{}",
            tuned.done,
            tuned.iterations,
            if a.ledger.is_some() {
                " (--resume continues)"
            } else {
                ""
            }
        );
    }
    writeln!(out, "tuned {}", tuned.spec_items())?;
    interrupt.exit_if_signalled();
    Ok(())
}
