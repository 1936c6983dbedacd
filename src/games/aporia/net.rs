//! Aporia's input features for the learned evaluation ([`gamut_core::nnue`]).
//! Both players move pieces of either colour, so the board is not turned:
//! white pieces by node (16), black pieces by node (16), then the moves the
//! repetition rules look back on, from the viewing side: its own last move
//! (from, to: 32) and the other side's (32).

use super::board::Move;
use super::Aporia;
use gamut_core::game::{Game, Player};
use gamut_core::nnue::{BuiltinNetwork, Features};

/// Nodes of the board.
const NODES: u16 = 16;

/// The features of move `m` in the block starting at `base`.
fn move_features(m: Option<Move>, base: u16, out: &mut Vec<u16>) {
    if let Some(m) = m {
        out.push(base + u16::from(m.from.0));
        out.push(base + NODES + u16::from(m.to.0));
    }
}

impl Features for Aporia {
    const INPUTS: usize = 6 * NODES as usize;

    fn features(&self, view: Player, out: &mut Vec<u16>) {
        out.clear();
        out.extend(self.white.into_iter().map(|n| u16::from(n.0)));
        out.extend(self.black.into_iter().map(|n| NODES + u16::from(n.0)));
        let (own, other) = if view == self.perspective() {
            (self.own_last, self.last)
        } else {
            (self.last, self.own_last)
        };
        move_features(own, 2 * NODES, out);
        move_features(other, 4 * NODES, out);
    }

    /// Left and right: every symmetry of the square maps the rules onto
    /// themselves (`symmetry.rs`); the trainer uses the mirror of files.
    const MIRROR: Option<fn(u16) -> u16> = Some(|f| f - f % 4 + (3 - f % 4));
}

/// The network Aporia evaluates with: `aporia.net`, trained by
/// `tools/train.sh aporia` (see `docs/nnue.md`), unless a search is
/// handed another (`--net`).
pub const NETWORK: BuiltinNetwork<Aporia> =
    BuiltinNetwork::new(include_bytes!("aporia.net"), false);
