//! Epaminondas' input features for the learned evaluation
//! ([`gamut_core::nnue`]): a stone per square per side, seen from one side's
//! view: that side's stones first (168 features), then the other side's,
//! with the board turned for Black so that each side's home row is rank 1.

use super::board::{FILES, RANKS};
use super::Epaminondas;
use gamut_core::game::Player;
use gamut_core::nnue::{BuiltinNetwork, Features};

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
