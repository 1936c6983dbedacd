//! Empedocles' input features for the learned evaluation
//! ([`gamut_core::nnue`]), seen from one side (`view`), with the board turned
//! for player 2 so that each side sees its own first rank at the bottom:
//!
//! - `view`'s pieces by element and square: 64 · element (fire, water,
//!   earth, air) + square, 256 features, of which a game uses the 64 of
//!   `view`'s element;
//! - the other side's pieces by element and square: 256 + 64 · k + square,
//!   where `k` (0–2) counts the elements other than `view`'s before the
//!   other side's in that order, 192 features;
//! - during setup, the pieces each side has still to place (0–3): 448 +
//!   `view`'s, then 452 + the other side's;
//! - where the turn stands: 456 the die is to be rolled, 457 one action
//!   remains, 458 two actions remain (the die showed 6). A roll of 1–2
//!   (transmutation) or 3–5 leads to the same position with one action
//!   left, so that is all of the roll that matters.
//!
//! The rules have no direction, so mirroring the board left to right maps
//! every position to one of equal value ([`Features::MIRROR`]).

use super::{Empedocles, Stage};
use gamut_core::game::Player;
use gamut_core::nnue::{BuiltinNetwork, Features};

/// Pieces each side places during setup.
const SETUP_PIECES: u32 = 3;
/// The first feature of the other side's pieces.
const THEIRS: u16 = 4 * 64;
/// The first feature of the pieces still to place.
const HAND: u16 = THEIRS + 3 * 64;
/// The first feature of the stage of the turn.
const STAGE: u16 = HAND + 2 * (SETUP_PIECES as u16 + 1);

/// Square `sq` as side `view` sees the board.
fn seen(sq: u8, view: Player) -> u16 {
    u16::from(if view == Player::FIRST { sq } else { sq ^ 56 })
}

impl Features for Empedocles {
    const INPUTS: usize = STAGE as usize + 3;

    fn features(&self, view: Player, out: &mut Vec<u16>) {
        out.clear();
        let other = view.other();
        let mine = self.pairing().of(view).index();
        let theirs = self.pairing().of(other).index();
        // The other side's element among the three that are not `view`'s.
        let k = theirs - usize::from(theirs > mine);
        let own_base = 64 * mine as u16;
        let their_base = THEIRS + 64 * k as u16;
        out.extend(
            self.pieces(view)
                .into_iter()
                .map(|sq| own_base + seen(sq.0, view)),
        );
        out.extend(
            self.pieces(other)
                .into_iter()
                .map(|sq| their_base + seen(sq.0, view)),
        );
        match self.stage() {
            Stage::Setup => {
                for (i, p) in [view, other].into_iter().enumerate() {
                    let hand = SETUP_PIECES.saturating_sub(self.pieces(p).count());
                    out.push(HAND + (SETUP_PIECES as u16 + 1) * i as u16 + hand as u16);
                }
            }
            Stage::Roll => out.push(STAGE),
            Stage::OneAction => out.push(STAGE + 1),
            Stage::TwoActions => out.push(STAGE + 2),
        }
    }

    /// Left and right: the board and every rule are symmetric about the
    /// line between files d and e.
    const MIRROR: Option<fn(u16) -> u16> =
        Some(|f| if f < HAND { f - f % 8 + (7 - f % 8) } else { f });
}

/// The network Empedocles evaluates with: `empedocles.net`, trained by
/// `tools/train.sh empedocles` (see `docs/nnue.md`), unless a search is
/// handed another (`--net`).
pub const NETWORK: BuiltinNetwork<Empedocles> =
    BuiltinNetwork::new(include_bytes!("empedocles.net"), false);
