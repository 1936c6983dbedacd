//! What the commands that search share: the search the options ask for
//! (configuration, limits, evaluation, ordering), the text of a principal
//! variation, and writing lines as soon as they are known.

use super::interrupt::Interrupt;
use super::CliError;
use gamut_engine::{AnyGame, Position};
use gamut_search::options::SearchOptions;
use gamut_search::{Config, Limits, Progress, Table, Verdict};
use std::io::Write;

/// The search configuration and limits the options ask for, checked
/// against `game`.
pub fn search_setup(game: &dyn AnyGame, a: &SearchOptions) -> Result<(Config, Limits), CliError> {
    Ok((game.config(a)?, a.limits()))
}

/// Writes `line` and flushes it at once.
pub fn emit(out: &mut impl Write, line: &str) -> std::io::Result<()> {
    writeln!(out, "{line}")?;
    out.flush()
}

/// Searches `pos`, writing the line `line` makes of each progress report
/// (none for `None`) as soon as it comes; a failed write ends the command
/// once the search is over.
pub fn run_streamed(
    pos: &Position,
    limits: &Limits,
    config: &Config,
    tt: &Table,
    interrupt: &Interrupt,
    out: &mut impl Write,
    mut line: impl FnMut(Progress<'_, String>) -> Option<String>,
) -> Result<Verdict<String>, CliError> {
    let mut io_err = None;
    let mut observe = |p: Progress<'_, String>| {
        if let Some(text) = line(p) {
            if let Err(e) = emit(out, &text) {
                io_err.get_or_insert(e);
            }
        }
    };
    let verdict = pos.search(limits, config, tt, Some(interrupt.flag()), &mut observe);
    match io_err {
        Some(e) => Err(e.into()),
        None => Ok(verdict),
    }
}
