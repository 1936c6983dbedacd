//! What each subcommand does, written once over the [`Game`] trait.

use super::args::{Cli, Command, PerftArgs, PositionArgs, ShowArgs};
use super::{analyze, bench, solve, tournament, CliError};
use gamut::game::{Game, NodeKind, StartOptions};
use gamut::perft::{self, Child};
use gamut::with_game;
use indicatif::{ProgressBar, ProgressStyle};
use std::io::Write;
use std::time::Instant;

/// Runs a parsed command line; what it prints goes to `out`.
pub fn run(cli: Cli, out: &mut impl Write) -> Result<(), CliError> {
    match cli.command {
        Command::Perft(a) => {
            let id = a.position.game;
            with_game!(id, G => perft_cmd::<G>(&a, out), unimplemented => not_yet(id))
        }
        Command::Moves(a) => {
            let id = a.game;
            with_game!(id, G => moves_cmd::<G>(&a, out), unimplemented => not_yet(id))
        }
        Command::Show(a) => {
            let id = a.position.game;
            with_game!(id, G => show_cmd::<G>(&a, out), unimplemented => not_yet(id))
        }
        Command::Analyze(a) => {
            let id = a.position.game;
            with_game!(id, G => analyze::analyze::<G>(&a, out), unimplemented => not_yet(id))
        }
        Command::Tournament(a) => tournament::tournament(&a, out),
        Command::Replay(a) => tournament::replay(&a, out),
        Command::Bench(a) => bench::bench(&a, out),
        Command::Solve(a) => solve::solve(&a, out),
    }
}

pub fn not_yet(id: gamut::games::GameId) -> Result<(), CliError> {
    Err(CliError(format!("game '{id}' is not implemented yet")))
}

/// The position a command starts from: `--fen`, or the start position.
pub fn position<G: Game>(a: &PositionArgs) -> Result<G, CliError> {
    match (&a.fen, &a.elements) {
        (Some(_), Some(_)) => Err(CliError(
            "--elements sets up the start position; give it or --fen, not both".into(),
        )),
        (Some(f), None) => {
            G::parse(f).map_err(|e| CliError(format!("bad position for {}: {e}", G::ID)))
        }
        (None, e) => Ok(G::start_with(&StartOptions {
            elements: e.clone(),
        })?),
    }
}

fn perft_cmd<G: Game>(a: &PerftArgs, out: &mut impl Write) -> Result<(), CliError> {
    let pos: G = position(&a.position)?;
    let threads = a.threads as usize;
    let started = Instant::now();
    let total = if a.divide {
        let rows = divide_with_progress(&pos, a.depth, threads);
        for (text, n) in &rows {
            writeln!(out, "{text}: {n}")?;
        }
        rows.iter().map(|(_, n)| n).sum()
    } else {
        perft::perft_threads(&pos, a.depth, threads)
    };
    writeln!(out, "nodes {total}")?;
    let secs = started.elapsed().as_secs_f64();
    eprintln!(
        "time {:.3} s, {:.0} leaves/s, {threads} thread{}",
        secs,
        total as f64 / secs.max(1e-9),
        if threads == 1 { "" } else { "s" }
    );
    Ok(())
}

/// `perft::divide` with a progress bar over the root's children on stderr
/// (drawn only when stderr is a terminal).
fn divide_with_progress<G: Game>(pos: &G, depth: u32, threads: usize) -> Vec<(String, u64)> {
    let bar = ProgressBar::new(perft::children(pos).len() as u64).with_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} children {elapsed}")
            .expect("a valid progress template"),
    );
    let rows = perft::divide_with(pos, depth, threads, || bar.inc(1));
    bar.finish_and_clear();
    rows
}

fn moves_cmd<G: Game>(a: &PositionArgs, out: &mut impl Write) -> Result<(), CliError> {
    let pos: G = position(a)?;
    for text in child_texts(&pos) {
        writeln!(out, "{text}")?;
    }
    Ok(())
}

/// The canonical text of every perft child of `pos`, sorted: moves and
/// chance outcomes, or at a simultaneous node `<joint action> <move>` for
/// every move of the node each joint action leads to.
pub fn child_texts<G: Game>(pos: &G) -> Vec<String> {
    let mut texts = Vec::new();
    for (text, child) in perft::children(pos) {
        match child {
            Child::Move(_) => texts.push(text),
            Child::Joint(..) => {
                let next = perft::child_position(pos, &child);
                let mut moves = Vec::new();
                next.moves(&mut moves);
                texts.extend(
                    moves
                        .iter()
                        .map(|&m| format!("{text} {}", next.move_text(m))),
                );
            }
        }
    }
    texts.sort();
    texts
}

fn show_cmd<G: Game>(a: &ShowArgs, out: &mut impl Write) -> Result<(), CliError> {
    let pos: G = position(&a.position)?;
    if let Some(path) = &a.svg {
        let svg = pos
            .svg()
            .ok_or_else(|| CliError(format!("{} has no SVG picture; drop --svg", G::ID)))?;
        std::fs::write(path, svg)
            .map_err(|e| CliError(format!("cannot write {}: {e}", path.display())))?;
    }
    write!(out, "{}", show_text(&pos))?;
    if let Some(line) = solve::table_value(G::ID, a.table.as_deref(), &pos.text())? {
        writeln!(out, "{line}")?;
    }
    Ok(())
}

/// What `show` prints for a position: its diagram, state, text and hash.
pub fn show_text<G: Game>(pos: &G) -> String {
    let state = match pos.node() {
        NodeKind::Decision(p) => format!("{p} to move"),
        NodeKind::Chance => format!("{} to roll", pos.perspective()),
        NodeKind::Simultaneous => "both players choose in secret".to_string(),
        NodeKind::Terminal => match pos.outcome() {
            Some(o) => format!("game over: {o}"),
            None => "game over".to_string(),
        },
    };
    format!(
        "{}state    {state}\nposition {}\nhash     {:016x}\n",
        pos.diagram(),
        pos.text(),
        pos.hash()
    )
}
