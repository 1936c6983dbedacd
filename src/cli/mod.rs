//! The command line's actions: each subcommand, generic over the game.

mod analyze;
pub mod args;
mod bench;
mod commands;
mod solve;
mod tournament;

pub use commands::run;

/// A failure to report to the user: one line on stderr, exit status 2.
#[derive(Debug)]
pub struct CliError(pub String);

impl<E: std::fmt::Display> From<E> for CliError {
    fn from(e: E) -> CliError {
        CliError(e.to_string())
    }
}
