//! Static evaluation of Epaminondas positions, for the searcher.
//!
//! Every term is "the side to move's value minus the opponent's", so the
//! score is from the point of view of the side to move. The terms are
//! described in `docs/rules/epaminondas.md`. The weights are fitted to game
//! results (`tools/texel-fit.py`), material held at 100.

use super::board::{Bitboard, Dir, RANKS};
use super::{Epaminondas, Move};
use gamut_core::evaluate::{Evaluate, TermMask, EVAL_LIMIT};
use gamut_core::game::Player;

/// Points per stone.
const MATERIAL: i32 = 100;
/// Points per rank a stone has advanced from its own home row.
const ADVANCE: i32 = 1;
/// Points per stone on the opponent's home row.
const ON_FAR_ROW: i32 = 490;
/// Points per stone that a single step takes onto an empty square of the
/// opponent's home row.
const NEAR_FAR_ROW: i32 = 130;
/// Points per legal move.
const MOBILITY: i32 = 5;
/// The value of having the move (without a tempo term, scores at odd and
/// even depths differ by about twice the hand-set 43).
const TEMPO: i32 = 71;

impl Epaminondas {
    /// The position with the same stones and the other side to move (hash
    /// not maintained: for evaluation only).
    pub(super) fn other_side(&self) -> Epaminondas {
        Epaminondas {
            stones: self.stones,
            side: self.side.other(),
            hash: 0,
        }
    }

    /// Sum over `p`'s stones of the ranks they have advanced.
    fn advancement(&self, p: Player) -> i32 {
        let stones = self.stones(p);
        let ranks = stones.rank_sum() as i32;
        if p == Player::FIRST {
            ranks
        } else {
            i32::from(RANKS - 1) * stones.count() as i32 - ranks
        }
    }

    /// `p`'s stones on the opponent's home row, and those one step (forward
    /// or diagonally forward) from an empty square of it.
    fn far_row_threats(&self, p: Player) -> (i32, i32) {
        let far = Self::home_row(p.other());
        let empty = !(self.stones(p) | self.stones(p.other()));
        let stones = self.stones(p);
        let on = (stones & far).count() as i32;
        let forward: [Dir; 3] = if p == Player::FIRST {
            [Dir(0), Dir(1), Dir(7)]
        } else {
            [Dir(4), Dir(3), Dir(5)]
        };
        let targets = far & empty;
        let near = forward.into_iter().fold(Bitboard::EMPTY, |acc, d| {
            acc | (targets.step(d.reverse()) & stones)
        });
        (on, near.count() as i32)
    }
}

impl Evaluate for Epaminondas {
    const TERMS: &'static [&'static str] =
        &["material", "advancement", "home-row", "mobility", "tempo"];

    /// Captures are frequent and rarely forced in Epaminondas: following
    /// every capture sequence at the leaves costs far more than it settles.
    const QUIESCENCE: bool = false;

    /// Every selective feature of a decision search: together they won
    /// their match against the search without them (equal nodes per move;
    /// see `docs/results.md`). Their margins (a piece is 100) are those of
    /// a tuning run of 600 iterations (`gamut tune`), which won its match
    /// against the searcher's own (+25.8 [12.0, 39.6], 2,000 games).
    const SEARCH_DEFAULTS: &'static [&'static str] = &[
        "lmr",
        "nmp",
        "rfp",
        "futility",
        "param.rfp_margin=110",
        "param.futility_margin=97",
        "param.lmr_base=58",
        "param.lmr_divisor=253",
        "param.nmp_base=3",
    ];

    /// Passing never helps in Epaminondas (a side always has many moves
    /// and no position forces a harmful one), so a null move bounds the
    /// value from below.
    fn null_move(&self) -> Option<Self> {
        Some(Epaminondas {
            stones: self.stones,
            side: self.side.other(),
            hash: self.hash ^ super::BLACK_TO_MOVE,
        })
    }

    fn evaluate(&self, terms: TermMask) -> i32 {
        let me = self.side;
        let you = me.other();
        let mut score = if terms.has(4) { TEMPO } else { 0 };
        if terms.has(0) {
            let diff = self.stones(me).count() as i32 - self.stones(you).count() as i32;
            score += MATERIAL * diff;
        }
        if terms.has(1) {
            score += ADVANCE * (self.advancement(me) - self.advancement(you));
        }
        if terms.has(2) {
            let (on_me, near_me) = self.far_row_threats(me);
            let (on_you, near_you) = self.far_row_threats(you);
            score += ON_FAR_ROW * (on_me - on_you) + NEAR_FAR_ROW * (near_me - near_you);
        }
        if terms.has(3) {
            let mine = self.count_moves() as i32;
            let yours = self.other_side().count_moves() as i32;
            score += MOBILITY * (mine - yours);
        }
        score.clamp(-EVAL_LIMIT, EVAL_LIMIT)
    }

    /// Stones captured, plus one for a move onto the opponent's home row:
    /// such a move forces an answer next turn, so the search tries it
    /// early and never reduces or prunes it as a quiet move (a phalanx
    /// that reaches the home row is otherwise seen too late).
    fn move_hint(&self, m: Move) -> i32 {
        self.captures(m) as i32 + i32::from(self.far_row().has(m.landing()))
    }

    const NETWORK: Option<gamut_core::nnue::BuiltinNetwork<Self>> = Some(super::net::NETWORK);
}

#[cfg(test)]
mod tests {
    use super::*;
    use gamut_core::game::{Game, Notation};

    #[test]
    fn start_is_balanced_and_terms_switch_off() {
        let p = Epaminondas::start();
        // Balanced but for the move.
        assert_eq!(p.evaluate(TermMask::ALL.without(4)), 0);
        assert_eq!(p.evaluate(TermMask::ALL), TEMPO);
        let q = Epaminondas::parse("14/14/14/14/14/14/14/14/14/14/14/W13 w").unwrap();
        let all = q.evaluate(TermMask::ALL);
        assert!(all > 0);
        assert_eq!(q.evaluate(TermMask::ALL.without(0)), all - MATERIAL);
        assert_eq!(q.evaluate(TermMask(0)), 0);
    }

    #[test]
    fn stones_near_and_on_the_far_row_count() {
        // White: c12 on the far row, e11 one step from it; Black: a12 only.
        let p = Epaminondas::parse("B1W11/4W9/14/14/14/14/14/14/14/14/14/14 b").unwrap();
        assert_eq!(p.far_row_threats(Player::FIRST), (1, 1));
        assert_eq!(p.far_row_threats(Player::SECOND), (0, 0));
        let only_home = TermMask(1 << 2);
        assert_eq!(p.evaluate(only_home), -(ON_FAR_ROW + NEAR_FAR_ROW));
    }

    #[test]
    fn captures_are_hinted_by_size() {
        let p = Epaminondas::parse("14/14/14/14/14/14/2B11/2B11/2W11/2W11/2W11/14 w").unwrap();
        let m = p.parse_move("c2xc5").unwrap();
        assert_eq!(p.move_hint(m), 2);
        assert_eq!(p.move_hint(p.parse_move("c4-d5").unwrap()), 0);
    }
}
