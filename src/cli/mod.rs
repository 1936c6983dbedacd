//! The command line's actions: each subcommand, generic over the game.

mod analyze;
mod analyze_sides;
pub mod args;
mod balance;
mod bench;
mod commands;
mod compliance;
mod datagen;
mod interrupt;
mod learn;
mod moves;
mod openings;
mod params;
mod perft;
mod play;
mod progress;
pub mod protocol;
mod searching;
mod serve;
mod show;
mod soak;
mod solve;
mod tournament;
mod tune;

pub use commands::{run, Cli};

use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// When the process started (set first thing in `main`): a `--time` budget
/// counts from here, as the user's clock does.
static STARTED: OnceLock<Instant> = OnceLock::new();

/// Notes the start of the process; later calls change nothing.
pub fn mark_start() {
    STARTED.get_or_init(Instant::now);
}

/// The time since the process started (since the first call if
/// [`mark_start`] was never called).
pub fn since_start() -> Duration {
    STARTED.get_or_init(Instant::now).elapsed()
}

/// A failure to report to the user: one line on stderr, exit status 2.
#[derive(Debug)]
pub struct CliError(pub String);

impl<E: std::fmt::Display> From<E> for CliError {
    fn from(e: E) -> CliError {
        CliError(e.to_string())
    }
}

/// An error unless `G` has two players: the search, tournaments and soak
/// play games of two sides choosing one action each.
pub fn two_players(game: &dyn gamut_engine::AnyGame, command: &str) -> Result<(), CliError> {
    if game.players() == 2 {
        Ok(())
    } else {
        Err(CliError(format!(
            "{command} does not support {} yet: it plays games of two players",
            game.id()
        )))
    }
}

pub use gamut_core::message::one_line;
