//! `gamut moves`: a position's children, one canonical (or short) text a
//! line, sorted.

use super::args::{position, PositionArgs};
use super::CliError;
use clap::Args;
use gamut::game::{Child, FullGame};
use gamut::moves::named_children;
use gamut::perft;
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
pub fn moves<G: FullGame>(
    a: &MovesArgs,
    quiet: bool,
    out: &mut impl Write,
) -> Result<(), CliError> {
    let pos: G = position(&a.position)?;
    let count = perft::count_parts(&pos, 1, 1, || {});
    if count > MANY && !quiet {
        eprintln!("listing {count} moves: the first line comes once all are gathered and sorted");
    }
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
