//! Epaminondas' input features for the learned evaluation
//! ([`gamut_core::nnue`]): a stone per square per side, seen from one side's
//! view: that side's stones first (168 features), then the other side's,
//! with the board turned for Black so that each side's home row is rank 1.

use super::board::{Bitboard, FILES, RANKS};
use super::Epaminondas;
use gamut_core::game::Player;
use gamut_core::nnue::{BuiltinNetwork, FeatureSet, Features, MAX_INPUTS};

/// Squares of the board.
const SQUARES: u16 = FILES as u16 * RANKS as u16;

/// Square `sq` as side `view` sees the board: file + 14 · rank counted
/// from `view`'s home row.
fn seen(sq: super::board::Square, view: Player) -> u16 {
    let rank = if view == Player::FIRST {
        sq.rank()
    } else {
        RANKS - 1 - sq.rank()
    };
    u16::from(sq.file()) + u16::from(FILES) * u16::from(rank)
}

/// The four 16-bit rank lanes of `x` in reverse order.
const fn lanes_reversed(x: u64) -> u64 {
    let x = x.rotate_left(32);
    ((x & 0x0000_ffff_0000_ffff) << 16) | ((x >> 16) & 0x0000_ffff_0000_ffff)
}

/// The 14 files of each of the four rank lanes of `x`, packed together
/// (56 bits, rank by rank).
const fn packed(x: u64) -> u64 {
    let lane = 0x3fff;
    (x & lane) | ((x >> 16) & lane) << 14 | ((x >> 32) & lane) << 28 | ((x >> 48) & lane) << 42
}

/// The squares of `set` as side `view` sees the board, as [`seen`]
/// numbers them: 168 bits, the first 64 in word 0.
fn seen_words(set: Bitboard, view: Player) -> [u64; 3] {
    let [a, b, c] = set.0;
    // Turned for Black: the twelve ranks in reverse order.
    let [a, b, c] = if view == Player::FIRST {
        [a, b, c]
    } else {
        [lanes_reversed(c), lanes_reversed(b), lanes_reversed(a)]
    };
    let [a, b, c] = [packed(a), packed(b), packed(c)];
    [a | b << 56, b >> 8 | c << 48, c >> 16]
}

impl Features for Epaminondas {
    const INPUTS: usize = 2 * SQUARES as usize;

    fn features(&self, view: Player, out: &mut Vec<u16>) {
        out.clear();
        out.extend(self.stones(view).into_iter().map(|sq| seen(sq, view)));
        out.extend(
            self.stones(view.other())
                .into_iter()
                .map(|sq| SQUARES + seen(sq, view)),
        );
    }

    fn feature_set(&self, view: Player, _scratch: &mut Vec<u16>) -> FeatureSet {
        let [a, b, c] = seen_words(self.stones(view), view);
        let [d, e, f] = seen_words(self.stones(view.other()), view);
        // The other side's 168 bits start at bit 40 of word 2.
        let mut words = [0; MAX_INPUTS / 64];
        words[..6].copy_from_slice(&[
            a,
            b,
            c | d << 40,
            d >> 24 | e << 40,
            e >> 24 | f << 40,
            f >> 24,
        ]);
        FeatureSet::from_words(words)
    }

    /// Left and right: the board, the start and every rule are symmetric
    /// about the line between files g and h.
    const MIRROR: Option<fn(u16) -> u16> = Some(|f| {
        let files = u16::from(FILES);
        f - f % files + (files - 1 - f % files)
    });
}

/// The network Epaminondas evaluates with: `epaminondas.net`, trained by
/// `tools/train.sh epaminondas` (see `docs/nnue.md`), unless a search is
/// handed another (`--net`). Epaminondas' default evaluation (it beats the classic terms at
/// 100 ms per move, docs/results.md).
pub const NETWORK: BuiltinNetwork<Epaminondas> =
    BuiltinNetwork::new(include_bytes!("epaminondas.net"), true);
