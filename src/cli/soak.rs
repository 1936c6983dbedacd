//! `gamut soak`: random games played to the end with every invariant
//! checked at every ply ([`gamut_core::soak`]), with a summary line per game.

use super::args::parse_game;
use super::progress::Progress;
use super::CliError;
use clap::Args;
use gamut_core::soak::Tally;
use gamut_engine::AnyGame;
use gamut_games::GameId;
use rayon::prelude::*;
use std::io::Write;
use std::time::Instant;

/// How many failures are printed; the rest are only counted.
const SHOWN_FAILURES: usize = 20;

/// Options of `gamut soak`.
#[derive(Args, Debug)]
pub struct SoakArgs {
    /// The game to soak; default: every game.
    #[arg(value_parser = parse_game)]
    pub game: Option<GameId>,
    /// Random games to play per game.
    #[arg(long, value_name = "N", default_value_t = 100, value_parser = clap::value_parser!(u64).range(1..=100_000_000))]
    pub games: u64,
    /// Seed of the first game; game i uses seed + i.
    #[arg(long, value_name = "S", default_value_t = 0)]
    pub seed: u64,
    /// Threads to play games on.
    #[arg(long, value_name = "T", default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=256))]
    pub threads: u32,
}

/// Runs the soak for the chosen games; an error when any check failed.
pub fn soak(a: &SoakArgs, quiet: bool, out: &mut impl Write) -> Result<(), CliError> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(a.threads as usize)
        .build()
        .map_err(|e| CliError(format!("cannot start {} threads: {e}", a.threads)))?;
    let ids = match a.game {
        Some(id) => vec![id],
        None => GameId::ALL.to_vec(),
    };
    let mut failed = 0;
    for id in ids {
        let started = Instant::now();
        let tally = pool.install(|| soak_game(gamut_engine::game(id), a, quiet));
        writeln!(
            out,
            "soak {id}: games {}, plies {}, checks {}, failures {}, time {:.1} s",
            tally.games,
            tally.plies,
            tally.checks,
            tally.failures.len(),
            started.elapsed().as_secs_f64()
        )?;
        for f in tally.failures.iter().take(SHOWN_FAILURES) {
            writeln!(out, "failure {}", super::one_line(f))?;
        }
        out.flush()?;
        failed += tally.failures.len();
    }
    if failed > 0 {
        return Err(CliError(format!("{failed} invariant checks failed")));
    }
    Ok(())
}

/// Plays `a.games` seeded games of `game` on the current thread pool.
fn soak_game(game: &dyn AnyGame, a: &SoakArgs, quiet: bool) -> Tally {
    let progress = Progress::new(a.games, "{bar:40} {pos}/{len} games {elapsed}", quiet);
    let tally = (0..a.games)
        .into_par_iter()
        .map(|i| {
            let t = game.soak_one(a.seed.wrapping_add(i));
            progress.inc();
            t
        })
        .reduce(Tally::default, |mut x, y| {
            x.absorb(y);
            x
        });
    progress.finish();
    tally
}
