//! What each subcommand does, written once over the [`Game`] trait.

use super::args::{Cli, Command, MovesArgs, PerftArgs, PositionArgs, ShowArgs};
use super::progress::Progress;
use super::{
    analyze, bench, datagen, engine, openings, play, serve, soak, solve, tournament, CliError,
};
use gamut::game::{state_text, Child, FullGame};
use gamut::moves::named_children;
use gamut::perft;
use gamut::svg::SvgOptions;
use gamut::with_game;
use std::io::Write;
use std::time::Instant;

/// Runs a parsed command line; what it prints goes to `out`.
pub fn run(cli: Cli, out: &mut impl Write) -> Result<(), CliError> {
    match cli.command {
        Command::Perft(a) => {
            let id = a.position.game;
            let quiet = cli.quiet;
            with_game!(id, G => perft_cmd::<G>(&a, quiet, out))
        }
        Command::Moves(a) => {
            let id = a.position.game;
            with_game!(id, G => moves_cmd::<G>(&a, out))
        }
        Command::Show(a) => {
            let id = a.position.game;
            with_game!(id, G => show_cmd::<G>(&a, out))
        }
        Command::Analyze(a) => {
            let id = a.position.game;
            with_game!(id, G => analyze::analyze::<G>(&a, out))
        }
        Command::Tournament(a) => tournament::tournament(&a, cli.quiet, out),
        Command::Replay(a) => tournament::replay(&a, out),
        Command::Play(a) => {
            let id = a.position.game;
            with_game!(id, G => play::play::<G>(&a, out))
        }
        Command::Bench(a) => bench::bench(&a, out),
        Command::Solve(a) => solve::solve(&a, cli.quiet, out),
        Command::Openings(a) => openings::openings(&a, cli.quiet, out),
        Command::Engine(a) => engine::engine(&a, out),
        Command::Datagen(a) => datagen::datagen(&a, cli.quiet, out),
        Command::Soak(a) => soak::soak(&a, cli.quiet, out),
        Command::Serve(a) => serve::serve(&a, out),
    }
}

/// The position a command starts from: `--fen`, the start position set up
/// by `--setup`, or the start position; then `--moves` played on it.
pub fn position<G: FullGame>(a: &PositionArgs) -> Result<G, CliError> {
    let pos = base_position(a)?;
    match &a.moves {
        Some(list) => Ok(gamut::moves::play_moves(pos, list, "--moves")?),
        None => Ok(pos),
    }
}

/// The position given by `--fen` or the start options, before `--moves`.
fn base_position<G: FullGame>(a: &PositionArgs) -> Result<G, CliError> {
    match (&a.fen, &a.setup) {
        (Some(_), Some(_)) => Err(CliError(
            "--setup chooses the start position; give it or --fen, not both".into(),
        )),
        (Some(f), None) => {
            G::parse(f).map_err(|e| CliError(format!("bad position for {}: {e}", G::ID)))
        }
        (None, Some(s)) => {
            G::start_with(s).map_err(|e| CliError(format!("bad setup for {}: {e}", G::ID)))
        }
        (None, None) => Ok(G::start()),
    }
}

/// `gamut perft`: with `--divide` one line per child, printed as soon as
/// it and the children before it are counted; a progress bar over the
/// root's children on a terminal once counting takes a second.
fn perft_cmd<G: FullGame>(
    a: &PerftArgs,
    quiet: bool,
    out: &mut impl Write,
) -> Result<(), CliError> {
    let pos: G = position(&a.position)?;
    let threads = a.threads as usize;
    let started = Instant::now();
    let kids = if a.divide {
        named_children(&pos, perft::children(&pos))
    } else {
        Vec::new()
    };
    let parts = if a.divide {
        kids.len()
    } else {
        perft::part_count(&pos)
    };
    let progress = Progress::new(parts as u64, "{bar:40} {pos}/{len} parts {elapsed}", quiet);
    let mut io_err = None;
    let total = if a.divide {
        perft::divide_each(&pos, &kids, a.depth, threads, |text, n| {
            progress.inc();
            if let Err(e) = writeln!(out, "{text}: {n}").and_then(|_| out.flush()) {
                io_err.get_or_insert(e);
            }
        })
    } else {
        perft::count_parts(&pos, a.depth, threads, || progress.inc())
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

fn moves_cmd<G: FullGame>(a: &MovesArgs, out: &mut impl Write) -> Result<(), CliError> {
    let pos: G = position(&a.position)?;
    let texts = if a.short {
        short_child_texts(&pos)
    } else {
        child_texts(&pos)
    };
    for text in texts {
        writeln!(out, "{text}")?;
    }
    Ok(())
}

/// The canonical text of every perft child of `pos`, sorted with numbers
/// compared as numbers ([`gamut::moves::natural_cmp`]): moves and
/// chance outcomes, or at a simultaneous node `<joint action> <move>` for
/// every move of the node each joint action leads to.
pub fn child_texts<G: FullGame>(pos: &G) -> Vec<String> {
    child_texts_by(pos, |p, m| p.move_text(m))
}

/// [`child_texts`] with every move in its short form
/// ([`Notation::short_move_text`](gamut::game::Notation::short_move_text)), sorted.
fn short_child_texts<G: FullGame>(pos: &G) -> Vec<String> {
    child_texts_by(pos, |p, m| p.short_move_text(m))
}

/// The text of every perft child of `pos`, sorted, each move written by
/// `move_text` (given the position it is played in).
fn child_texts_by<G: FullGame>(pos: &G, move_text: impl Fn(&G, G::Move) -> String) -> Vec<String> {
    let mut texts = Vec::new();
    for (text, child) in named_children(pos, perft::children(pos)) {
        match child {
            Child::Move(m) => texts.push(move_text(pos, m)),
            Child::Joint(..) | Child::Joints(_) => {
                let next = perft::child_position(pos, &child);
                let mut moves = Vec::new();
                next.moves(&mut moves);
                texts.extend(
                    moves
                        .iter()
                        .map(|&m| format!("{text} {}", move_text(&next, m))),
                );
            }
        }
    }
    texts.sort_by(|a, b| gamut::moves::natural_cmp(a, b));
    texts
}

fn show_cmd<G: FullGame>(a: &ShowArgs, out: &mut impl Write) -> Result<(), CliError> {
    let (pos, before) = show_positions::<G>(a)?;
    if let Some(path) = &a.svg {
        let opts = SvgOptions {
            size: a.size,
            coordinates: !a.no_coordinates,
        };
        std::fs::write(path, pos.svg(&opts, before.as_ref()))
            .map_err(|e| CliError(format!("cannot write {}: {e}", path.display())))?;
    }
    // Everything that can fail comes before anything is printed.
    let value = solve::table_value(a.table.as_deref(), &pos)?;
    write!(out, "{}", show_text(&pos))?;
    if let Some(line) = value {
        writeln!(out, "{line}")?;
    }
    Ok(())
}

/// The position `show` draws and the one before its last move: the move
/// of `--last-move`, else the last of `--moves`; `None` without either.
fn show_positions<G: FullGame>(a: &ShowArgs) -> Result<(G, Option<G>), CliError> {
    let pos: G = position(&a.position)?;
    if let Some(last) = &a.last_move {
        let after = gamut::moves::play_moves(pos.clone(), last, "--last-move")?;
        return Ok((after, Some(pos)));
    }
    let before = match a.position.moves.as_deref().and_then(|m| m.rsplit_once(';')) {
        Some((earlier, _)) => Some(gamut::moves::play_moves(
            base_position(&a.position)?,
            earlier,
            "--moves",
        )?),
        None if a.position.moves.is_some() => Some(base_position(&a.position)?),
        None => None,
    };
    Ok((pos, before))
}

/// What `show` prints for a position: its diagram, state, text and hash.
pub fn show_text<G: FullGame>(pos: &G) -> String {
    format!(
        "{}state    {}\nposition {}\nhash     {:016x}\n",
        pos.diagram(),
        state_text(pos),
        pos.text(),
        pos.hash()
    )
}
