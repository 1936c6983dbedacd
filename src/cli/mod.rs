//! The command line's actions: each subcommand, generic over the game.

mod analyze;
pub mod args;
mod bench;
mod commands;
mod compliance;
mod datagen;
pub mod engine;
mod interrupt;
mod moves;
mod openings;
mod perft;
mod play;
mod progress;
mod searching;
mod serve;
mod show;
mod sides;
mod soak;
mod solve;
mod tournament;

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
pub fn two_players<G: gamut::game::Game>(command: &str) -> Result<(), CliError> {
    if G::players() == 2 {
        Ok(())
    } else {
        Err(CliError(format!(
            "{command} does not support {} yet: it plays games of two players",
            G::ID
        )))
    }
}

/// The longest message printed, in characters; longer ones are cut.
const MESSAGE_LIMIT: usize = 400;

/// `msg` made fit for one line of stderr: control characters (such as the
/// newlines of echoed input) written as escapes (`\n`, `\u{1b}`), and cut
/// to [`MESSAGE_LIMIT`] characters with `...` at the end.
pub fn one_line(msg: &str) -> String {
    let mut out = String::with_capacity(msg.len().min(MESSAGE_LIMIT + 3));
    for (n, c) in msg.chars().enumerate() {
        if n == MESSAGE_LIMIT {
            out.push_str("...");
            break;
        }
        if c.is_control() {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::one_line;

    #[test]
    fn messages_are_one_escaped_line_of_bounded_length() {
        assert_eq!(one_line("bad 'a\nb'\t!"), "bad 'a\\nb'\\t!");
        let long = "x".repeat(1000);
        let cut = one_line(&long);
        assert!(cut.ends_with("...") && cut.chars().count() == super::MESSAGE_LIMIT + 3);
        assert_eq!(one_line("Empedocles’ élan"), "Empedocles’ élan");
    }
}
