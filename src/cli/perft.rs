//! `gamut perft`: the leaves of the game tree to a depth, the rules' proof.

use super::args::{perft_depth, position, PositionArgs};
use super::progress::Progress;
use super::CliError;
use clap::Args;
use gamut::game::FullGame;
use gamut::moves::named_children;
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
pub fn perft<G: FullGame>(
    a: &PerftArgs,
    quiet: bool,
    out: &mut impl Write,
) -> Result<(), CliError> {
    let pos: G = position(&a.position)?;
    let threads = a.threads as usize;
    let started = Instant::now();
    let kids = if a.divide {
        named_children(&pos, gamut::perft::children(&pos))
    } else {
        Vec::new()
    };
    let parts = if a.divide {
        kids.len()
    } else {
        gamut::perft::part_count(&pos)
    };
    let progress = Progress::new(parts as u64, "{bar:40} {pos}/{len} parts {elapsed}", quiet);
    let mut io_err = None;
    let total = if a.divide {
        gamut::perft::divide_each(&pos, &kids, a.depth, threads, |text, n| {
            progress.inc();
            if let Err(e) = writeln!(out, "{text}: {n}").and_then(|_| out.flush()) {
                io_err.get_or_insert(e);
            }
        })
    } else {
        gamut::perft::count_parts(&pos, a.depth, threads, || progress.inc())
    };
    progress.finish();
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
