//! What the commands that search share: the search the options ask for
//! (configuration, limits, evaluation, ordering), the text of a principal
//! variation, and writing lines as soon as they are known.

use super::interrupt::Interrupt;
use super::CliError;
use gamut::game::Evaluate;
use gamut::search::options::SearchOptions;
use gamut::search::{self, Config, Limits, Progress, Table, Verdict};
use std::io::Write;

/// The search configuration and limits the options ask for, checked
/// against game `G`.
pub fn search_setup<G: Evaluate>(a: &SearchOptions) -> Result<(Config, Limits), CliError> {
    super::two_players::<G>("the search")?;
    Ok((a.setup::<G>()?, a.limits()))
}

/// Writes `line` and flushes it at once.
pub fn emit(out: &mut impl Write, line: &str) -> std::io::Result<()> {
    writeln!(out, "{line}")?;
    out.flush()
}

/// Searches `pos`, writing the line `line` makes of each progress report
/// (none for `None`) as soon as it comes; a failed write ends the command
/// once the search is over.
pub fn run_streamed<G: Evaluate>(
    pos: &G,
    limits: &Limits,
    config: &Config,
    tt: &Table,
    interrupt: &Interrupt,
    out: &mut impl Write,
    mut line: impl FnMut(Progress<'_, G::Move>) -> Option<String>,
) -> Result<Verdict<G::Move>, CliError> {
    let mut io_err = None;
    let mut observe = |p: Progress<'_, G::Move>| {
        if let Some(text) = line(p) {
            if let Err(e) = emit(out, &text) {
                io_err.get_or_insert(e);
            }
        }
    };
    let verdict = search::run(
        pos,
        limits,
        config,
        tt,
        Some(interrupt.flag()),
        &mut observe,
    );
    match io_err {
        Some(e) => Err(e.into()),
        None => Ok(verdict),
    }
}
