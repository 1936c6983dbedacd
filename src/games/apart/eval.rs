//! Static evaluation and move-ordering hints for Apart.
//!
//! A player wins by having no two own pieces adjacent, so the main term
//! measures how far each side still is from that; see
//! `docs/rules/apart.md` for the terms and their weights.

use super::lines::{is_apart, shift};
use super::Apart;
use gamut_core::bits::Bitboard;
use gamut_core::evaluate::{Evaluate, TermMask, EVAL_LIMIT};

/// Weight of one unit of [`closeness`] (the anchor of the fitted weights).
const ADJACENCY_WEIGHT: i32 = 20;
/// Weight of one piece fewer than the opponent (fitted to game results:
/// docs/results.md, Texel tuning).
const MATERIAL_WEIGHT: i32 = 1;
/// The value of having the move (fitted): without it scores at odd and
/// even depths differ by about twice this.
const TEMPO: i32 = 43;
/// Hint of a move that leaves the mover apart and the opponent not: it wins.
const WINNING_HINT: i32 = 1_000_000;
/// Hint per captured piece.
const CAPTURE_HINT: i32 = 100;

/// How far the pieces `own` are from being apart: the number of adjacent
/// pairs plus the number of pieces with an own neighbour (0 when apart).
#[must_use]
pub fn closeness(own: Bitboard) -> i32 {
    let mut pairs = 0;
    let mut touching = Bitboard::EMPTY;
    for d in 0..4 {
        let joined = own & shift(own, d, 1);
        pairs += joined.count();
        // Both ends of each pair: the piece the pair reaches and the one it
        // starts from.
        touching |= joined | shift(joined, d ^ 4, 1);
    }
    (pairs + touching.count()) as i32
}

impl Evaluate for Apart {
    const TERMS: &'static [&'static str] = &["adjacency", "material", "tempo"];

    /// Every selective feature of a decision search: together they won
    /// their match against the search without them (equal nodes per move,
    /// 2,000 games; see `docs/results.md`), at the searcher's margins, which
    /// a tuning run of 300 iterations left where they were.
    const SEARCH_DEFAULTS: &'static [&'static str] = &["lmr", "nmp", "rfp", "futility"];

    /// A pass, except on the game's first move (whose rule differs). Apart
    /// is a race to spread out: a move rarely hurts the mover, so a null
    /// move bounds the value from below; deep cutoffs are verified.
    fn null_move(&self) -> Option<Self> {
        (!self.first).then(|| Apart {
            pieces: self.pieces,
            side: self.side.other(),
            first: false,
            hash: self.hash ^ super::STATE_KEYS[0],
        })
    }

    fn evaluate(&self, terms: TermMask) -> i32 {
        let me = self.side().index();
        let mine = self.pieces[me];
        let theirs = self.pieces[1 - me];
        let mut v = if terms.has(2) { TEMPO } else { 0 };
        if terms.has(0) {
            v += ADJACENCY_WEIGHT * (closeness(theirs) - closeness(mine));
        }
        if terms.has(1) {
            v += MATERIAL_WEIGHT * (theirs.count() as i32 - mine.count() as i32);
        }
        v.clamp(-EVAL_LIMIT + 1, EVAL_LIMIT - 1)
    }

    fn move_hint(&self, m: Self::Move) -> i32 {
        let me = self.side().index();
        let mine = self.pieces[me] ^ (m.from().bb() | m.to().bb());
        let captured = self.pieces[1 - me] & m.landed();
        let theirs = self.pieces[1 - me] ^ captured;
        match (is_apart(mine), is_apart(theirs)) {
            (true, false) => WINNING_HINT,
            (_, true) => -WINNING_HINT,
            (false, false) => CAPTURE_HINT * captured.count() as i32,
        }
    }

    const NETWORK: Option<gamut_core::nnue::BuiltinNetwork<Self>> = Some(super::net::NETWORK);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn closeness_counts_pairs_and_touching_pieces() {
        let closeness = |b: u64| closeness(Bitboard(b));
        assert_eq!(closeness(0), 0);
        // a1, c1: apart.
        assert_eq!(closeness(0b101), 0);
        // a1, b1: one pair, two pieces.
        assert_eq!(closeness(0b11), 3);
        // a1, b1, a2, b2: six pairs, four pieces.
        assert_eq!(closeness(0x303), 10);
        // a1 and b2 touch diagonally; h8 alone.
        assert_eq!(closeness(1 | 1 << 9 | 1 << 63), 3);
    }
}
