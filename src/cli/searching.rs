//! What the commands that search share: the search the options ask for
//! (configuration, limits, evaluation, ordering), the text of a principal
//! variation, and writing lines as soon as they are known.

use super::args::{EvalArgs, SearchArgs};
use super::interrupt::Interrupt;
use super::CliError;
use gamut::game::{Evaluate, FullGame};
use gamut::nnue::Eval;
use gamut::search::ordering::Ordering;
use gamut::search::{self, Config, Limits, Parallel, Progress, Table, Verdict};
use std::io::Write;
use std::time::Duration;

/// The search configuration and limits the options ask for.
pub fn search_setup<G: Evaluate>(a: &SearchArgs) -> Result<(Config, Limits), CliError> {
    super::two_players::<G>("the search")?;
    let mut config = Config::for_game::<G>(a.threads as usize);
    config.parallel = if a.parallel == "rootsplit" {
        Parallel::RootSplit
    } else {
        Parallel::LazySmp
    };
    config.quiescence &= !a.no_quiescence;
    config.aspiration = !a.no_aspiration;
    config.star1 = !a.no_star1;
    for (name, switch) in a.selective_switches() {
        if let (Some(on), Some(s)) = (config.selective.switch(name), switch) {
            *on = s == "on";
        }
    }
    if a.exact {
        config = config.exact();
    }
    if let Some(list) = &a.eval_off {
        config.terms = gamut::game::terms_off::<G>(list)?;
    }
    config.eval = a.evaluation.evaluation::<G>()?;
    if let Some(list) = &a.ordering_off {
        config.ordering = ordering_off(list)?;
    }
    let limits = Limits {
        depth: a.depth,
        time: a.time.map(Duration::from_millis),
        nodes: a.nodes,
        clock: None,
    };
    Ok((config, limits))
}

impl EvalArgs {
    /// The evaluation `--eval` names (default the game's own), with the
    /// network of `--net` loaded for the game.
    pub fn evaluation<G: Evaluate>(&self) -> Result<Eval, CliError> {
        let slot = G::network();
        if let Some(path) = &self.net {
            let slot = slot.ok_or_else(|| CliError(format!("{} has no network yet", G::ID)))?;
            slot.load_file(path).map_err(CliError)?;
        }
        match self.eval.as_deref() {
            Some("net") if slot.is_none() => Err(CliError(format!(
                "--eval net: {} has no network yet",
                G::ID
            ))),
            Some("net") => Ok(Eval::Net),
            Some("classic") => Ok(Eval::Classic),
            _ => Ok(Eval::Game),
        }
    }
}

/// The move ordering with the heuristics of `list` (comma-separated:
/// `tt`, `captures`, `killers`, `history`) switched off.
pub fn ordering_off(list: &str) -> Result<Ordering, CliError> {
    Ok(Ordering::without(list)?)
}

/// The texts of a principal variation from `pos`.
pub fn pv_texts<G: FullGame>(pos: &G, pv: &[G::Move]) -> Vec<String> {
    let mut p = pos.clone();
    let mut out = Vec::with_capacity(pv.len());
    for &m in pv {
        out.push(p.move_text(m));
        p = p.play(m);
    }
    out
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
