//! `gamut moves`: a position's children, one canonical (or short) text a
//! line, sorted.

use super::args::{position, PositionArgs};
use super::CliError;
use clap::Args;
use std::io::Write;

/// Options of `gamut moves`.
#[derive(Args, Debug)]
pub struct MovesArgs {
    /// The game and position.
    #[command(flatten)]
    pub position: PositionArgs,
    /// Write each move in its short form for people (Spokes outcomes by
    /// the nodes they change; other moves as their canonical text).
    #[arg(long)]
    pub short: bool,
}

/// Above this many moves, `gamut moves` first says how many it is about
/// to list (on stderr), since gathering and sorting them takes a while.
const MANY: u64 = 100_000;

/// Runs `gamut moves`; a list of more than [`MANY`] moves is announced
/// with its count on stderr before it is gathered (unless `quiet`).
pub fn moves(a: &MovesArgs, quiet: bool, out: &mut impl Write) -> Result<(), CliError> {
    let pos = position(&a.position)?;
    let count = pos.perft(1, 1, &mut || {});
    if count > MANY && !quiet {
        eprintln!("listing {count} moves: the first line comes once all are gathered and sorted");
    }
    for text in pos.child_texts(a.short) {
        writeln!(out, "{text}")?;
    }
    Ok(())
}
