//! `gamut solve`: solve a game outright into a table file, and the table
//! lookup `show` prints.

use super::args::parse_game;
use super::progress::Progress;
use super::CliError;
use clap::Args;
use gamut::game::{FullGame, TermMask};
use gamut::games::{self, GameId};
use gamut::search::Evaluation;
use gamut::tablebase::agreement::{self as agree, Agreement};
use gamut::tablebase::{self, Oracle, Tablebase};
use gamut::with_game;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::Instant;

/// Options of `gamut solve`.
#[derive(Args, Debug)]
pub struct SolveArgs {
    /// The game to solve.
    #[arg(value_parser = parse_game)]
    pub game: GameId,
    /// Where to write the table (default: `<game>.table` in
    /// `$XDG_DATA_HOME/gamut/` or `~/.local/share/gamut/`).
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// Worker threads.
    #[arg(long, value_name = "T", default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=256))]
    pub threads: u32,
    /// Instead of solving: compare the evaluations (classic, and the
    /// network where the game has one) with the solved table on N random
    /// reachable positions.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..=10_000_000))]
    pub agreement: Option<u64>,
    /// The table to compare with (default: the one `solve` writes).
    #[arg(long, value_name = "FILE", requires = "agreement")]
    pub table: Option<PathBuf>,
    /// Seed of the random positions, with --agreement.
    #[arg(long, value_name = "K", default_value_t = 1, requires = "agreement")]
    pub seed: u64,
}

fn solver(id: GameId) -> Result<&'static dyn Tablebase, CliError> {
    games::tablebase(id).ok_or_else(|| CliError(format!("no solver for {id}")))
}

fn default_path(game: &str) -> Result<PathBuf, CliError> {
    tablebase::default_path(game).ok_or_else(|| {
        CliError("no data directory (set XDG_DATA_HOME or HOME, or give --out)".into())
    })
}

/// Solves the game, writes the table and prints the summary with the time
/// and peak memory.
pub fn solve(a: &SolveArgs, quiet: bool, out: &mut impl Write) -> Result<(), CliError> {
    let tb = solver(a.game)?;
    if let Some(n) = a.agreement {
        return with_game!(a.game, G => agreement::<G>(a, n as usize, out));
    }
    let path = match &a.out {
        Some(p) => p.clone(),
        None => default_path(tb.game())?,
    };
    let started = Instant::now();
    // One bar per stage.
    let bar: Mutex<Option<(String, Progress)>> = Mutex::new(None);
    let progress = |stage: &str, done: u64, total: u64| {
        let mut guard = bar.lock().expect("progress lock");
        if guard.as_ref().is_none_or(|(s, _)| s != stage) {
            if let Some((_, old)) = guard.take() {
                old.finish();
            }
            let b = Progress::new(
                total,
                "{prefix:>15} {bar:40} {human_pos}/{human_len} states {elapsed} (eta {eta})",
                quiet,
            );
            b.set_prefix(stage.to_string());
            *guard = Some((stage.to_string(), b));
        }
        // Threads report out of order: the bar only moves forward.
        if let Some((_, b)) = guard.as_ref().filter(|(_, b)| done > b.position()) {
            b.set_position(done);
        }
    };
    let solution = tb.solve(a.threads as usize, &progress)?;
    if let Some((_, b)) = bar.lock().expect("progress lock").take() {
        b.finish();
    }
    tablebase::write(&path, tb.game(), &solution.entries)?;
    for line in &solution.summary {
        writeln!(out, "{line}")?;
    }
    writeln!(
        out,
        "table {} ({} bytes)",
        path.display(),
        solution.entries.len() + 40
    )?;
    let memory =
        tablebase::peak_memory().map_or_else(|| "unknown".into(), |b| format!("{} MiB", b >> 20));
    writeln!(
        out,
        "time {:.1} s, peak memory {memory}, {} thread{}",
        started.elapsed().as_secs_f64(),
        a.threads,
        if a.threads == 1 { "" } else { "s" }
    )?;
    Ok(())
}

/// The table of game `G` to use: the one at `explicit`, else the one at the
/// default location if there is one; `None` when the game has no solver
/// and no table was asked for, or no table is there.
pub fn open_table<G: FullGame>(
    explicit: Option<&Path>,
) -> Result<Option<Box<dyn Oracle>>, CliError> {
    let Some(tb) = games::tablebase_of::<G>() else {
        return match explicit {
            Some(_) => Err(CliError(format!("no solver for {}", G::ID))),
            None => Ok(None),
        };
    };
    match tablebase::locate(tb.game(), explicit) {
        Some(path) => Ok(Some(tb.open(&path)?)),
        None => Ok(None),
    }
}

/// `show`'s line with the exact value of `pos` and the moves keeping it,
/// when a table is there.
pub fn table_value<G: FullGame>(table: Option<&Path>, pos: &G) -> Result<Option<String>, CliError> {
    let Some(oracle) = open_table::<G>(table)? else {
        return Ok(None);
    };
    let probe = oracle.probe(&pos.text())?;
    Ok(Some(format!(
        "value    {} (best: {})",
        probe.value,
        if probe.best.is_empty() {
            "-".to_string()
        } else {
            probe.best.join(" ")
        }
    )))
}

/// `solve --agreement N`: one line per evaluation with how well it orders
/// N random positions as the solved table does.
fn agreement<G: FullGame>(a: &SolveArgs, n: usize, out: &mut impl Write) -> Result<(), CliError> {
    let Some(table) = open_table::<G>(a.table.as_deref())? else {
        return Err(CliError(format!(
            "no table for {} (run 'gamut solve {}' first, or give --table)",
            G::ID,
            G::ID
        )));
    };
    let positions = agree::random_positions::<G>(n, a.seed);
    let classic = agree::agreement(&positions, &*table, |p| p.evaluate(TermMask::ALL))?;
    write_agreement(out, "classic", &classic)?;
    if let Some(net) = Evaluation::builtin::<G>() {
        let net = agree::agreement(&positions, &*table, |p| net.value_once(p, TermMask::ALL))?;
        write_agreement(out, "net", &net)?;
    }
    Ok(())
}

fn write_agreement(out: &mut impl Write, eval: &str, r: &Agreement) -> Result<(), CliError> {
    writeln!(
        out,
        "eval {eval} positions {} decided {} same-sign {} ({:.1}%) rank-correlation {:.3} decided-rank-correlation {:.3}",
        r.positions,
        r.decided,
        r.same_sign,
        100.0 * r.same_sign as f64 / r.decided.max(1) as f64,
        r.rank_correlation,
        r.decided_rank_correlation
    )?;
    out.flush()?;
    Ok(())
}
