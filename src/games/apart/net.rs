//! Apart's input features for the learned evaluation ([`gamut_core::nnue`]),
//! seen from one side: that side's pieces by square (64), the other side's
//! (64), then the same two sets again for the pieces that touch a piece of
//! their own colour (what stands between a player and being apart). The
//! board is turned for Black so that each side sees its own start at the
//! bottom.

use super::Apart;
use gamut_core::bits::Bitboard;
use gamut_core::game::Player;
use gamut_core::nnue::{BuiltinNetwork, FeatureSet, Features};

/// Square `sq` as side `view` sees the board.
fn seen(sq: u8, view: Player) -> u16 {
    u16::from(if view == Player::FIRST { sq } else { sq ^ 56 })
}

/// The squares of `set` as side `view` sees the board, as a word: turned
/// for Black (ranks reversed, which is the bytes reversed).
fn seen_word(set: Bitboard, view: Player) -> u64 {
    if view == Player::FIRST {
        set.0
    } else {
        set.0.swap_bytes()
    }
}

/// The pieces of `own` that touch another piece of `own`.
fn touching(own: Bitboard) -> Bitboard {
    own & own.neighbours()
}

impl Features for Apart {
    const INPUTS: usize = 4 * 64;

    fn features(&self, view: Player, out: &mut Vec<u16>) {
        out.clear();
        let (mine, theirs) = (self.pieces(view), self.pieces(view.other()));
        for (block, set) in [mine, theirs, touching(mine), touching(theirs)]
            .into_iter()
            .enumerate()
        {
            out.extend(
                set.into_iter()
                    .map(|sq| 64 * block as u16 + seen(sq.0, view)),
            );
        }
    }

    fn feature_set(&self, view: Player, _scratch: &mut Vec<u16>) -> FeatureSet {
        let (mine, theirs) = (self.pieces(view), self.pieces(view.other()));
        let mut words = [0; gamut_core::nnue::MAX_INPUTS / 64];
        for (word, set) in words
            .iter_mut()
            .zip([mine, theirs, touching(mine), touching(theirs)])
        {
            *word = seen_word(set, view);
        }
        FeatureSet::from_words(words)
    }

    /// Left and right: the board and every rule are symmetric about the
    /// line between files d and e.
    const MIRROR: Option<fn(u16) -> u16> = Some(|f| f - f % 8 + (7 - f % 8));
}

/// The network Apart evaluates with: `apart.net`, trained by
/// `tools/train.sh apart` (see `docs/nnue.md`), unless a search is
/// handed another (`--net`). Apart's default evaluation: it beats the classic terms at
/// 100 ms per move (docs/results.md).
pub const NETWORK: BuiltinNetwork<Apart> = BuiltinNetwork::new(include_bytes!("apart.net"), true);
