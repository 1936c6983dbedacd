//! `gamut perft`: the leaves of the game tree to a depth, the rules' proof.

use super::args::{perft_depth, position, PositionArgs};
use super::progress::Progress;
use super::CliError;
use clap::Args;
use std::cell::OnceCell;
use std::io::Write;
use std::time::Instant;

/// Options of `gamut perft`.
#[derive(Args, Debug)]
pub struct PerftArgs {
    /// The game and position.
    #[command(flatten)]
    pub position: PositionArgs,
    /// How many plies to count (chance outcomes and simultaneous joint
    /// actions use none), at most 1000.
    #[arg(long, value_name = "N", value_parser = perft_depth)]
    pub depth: u32,
    /// First print each child with its own count, sorted by child text.
    #[arg(long)]
    pub divide: bool,
    /// Threads to split the root's children over.
    #[arg(long, value_name = "T", default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=256))]
    pub threads: u32,
}

/// `gamut perft`: with `--divide` one line per child, printed as soon as
/// it and the children before it are counted; a progress bar over the
/// root's children on a terminal once counting takes a second.
pub fn perft(a: &PerftArgs, quiet: bool, out: &mut impl Write) -> Result<(), CliError> {
    let pos = position(&a.position)?;
    let threads = a.threads as usize;
    let started = Instant::now();
    let bar =
        |parts: usize| Progress::new(parts as u64, "{bar:40} {pos}/{len} parts {elapsed}", quiet);
    // The bar's length is the number of children, known once they are
    // listed.
    let progress = OnceCell::new();
    let mut io_err = None;
    let total = if a.divide {
        pos.divide(
            a.depth,
            threads,
            &mut |parts| {
                progress.get_or_init(|| bar(parts));
            },
            &mut |text, n| {
                progress.get().map(Progress::inc);
                if let Err(e) = writeln!(out, "{text}: {n}").and_then(|_| out.flush()) {
                    io_err.get_or_insert(e);
                }
            },
        )
    } else {
        let parts = progress.get_or_init(|| bar(pos.part_count()));
        pos.perft(a.depth, threads, &mut || parts.inc())
    };
    if let Some(p) = progress.into_inner() {
        p.finish();
    }
    if let Some(e) = io_err {
        return Err(e.into());
    }
    writeln!(out, "nodes {total}")?;
    out.flush()?;
    let secs = started.elapsed().as_secs_f64();
    eprintln!(
        "time {:.3} s, {:.0} leaves/s, {threads} thread{}",
        secs,
        total as f64 / secs.max(1e-9),
        if threads == 1 { "" } else { "s" }
    );
    Ok(())
}
