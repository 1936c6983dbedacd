//! The static evaluation of Spokes positions.

use super::board::Board;
use super::score::{APPROACH, HOME, SEMICIRCLE};
use super::tables::{ADJACENT, PUSH_TARGETS};
use super::Spokes;
use gamut_core::evaluate::{Evaluate, TermMask, EVAL_LIMIT};
use gamut_core::game::{Game, Player};

/// Term index: stones on home nodes (single 1, block and double 2).
pub const HOME_TERM: usize = 0;
/// Term index: blocks on the approaches to each home.
pub const APPROACH_TERM: usize = 1;
/// Term index: single stones one push from an empty home node.
pub const NEAR_HOME_TERM: usize = 2;
/// Term index: stones on each home semicircle (the first tie-break).
pub const SEMICIRCLE_TERM: usize = 3;

const WEIGHTS: [i32; 4] = [100, 15, 20, 5];

/// Single stones that a push straight on from an adjacent node would move
/// onto an empty home node of `home`.
fn near_home(b: &Board, player: usize) -> i32 {
    let open = HOME[player] & b.empty();
    (b.all_singles() & APPROACH[player])
        .iter()
        .filter(|q| !(PUSH_TARGETS[q.index()] & open).is_empty())
        .count() as i32
}

/// The value of each term for player 1 minus player 2.
fn terms(b: &Board) -> [i32; 4] {
    let diff = |f: &dyn Fn(usize) -> i32| f(0) - f(1);
    [
        diff(&|p| b.stones_on(HOME[p]) as i32),
        // A block next to the opponent's home hinders them.
        diff(&|p| (b.blocks() & APPROACH[1 - p]).count() as i32),
        diff(&|p| near_home(b, p)),
        diff(&|p| b.stones_on(SEMICIRCLE[p]) as i32),
    ]
}

impl Evaluate for Spokes {
    const TERMS: &'static [&'static str] = &["home", "approaches", "near-home", "semicircle"];

    /// Partial move lists (inside the search a resolution ends with the
    /// outcomes found after a few boards) and narrow matrix games below
    /// the root (their matches are in `docs/results.md`); the rest of the
    /// selective search has no place at simultaneous nodes.
    const SEARCH_DEFAULTS: &'static [&'static str] = &["partial", "narrow"];

    const NETWORK: Option<gamut_core::nnue::BuiltinNetwork<Self>> = Some(super::net::NETWORK);

    fn evaluate(&self, mask: TermMask) -> i32 {
        let t = terms(self.board());
        let v: i32 = (0..t.len())
            .filter(|&i| mask.has(i))
            .map(|i| WEIGHTS[i] * t[i])
            .sum();
        let v = v.clamp(-EVAL_LIMIT, EVAL_LIMIT);
        if self.perspective().index() == 0 {
            v
        } else {
            -v
        }
    }

    /// A placement next to a single stone (something to push or pull this
    /// round) looks urgent, more so next to a home (the player's own first).
    fn action_hint(&self, player: Player, m: Self::Move) -> i32 {
        let super::Move::Place { node, .. } = m else {
            return 0;
        };
        let b = self.board();
        let around = ADJACENT[node.index()];
        if (around & b.all_singles()).is_empty() {
            return 0;
        }
        let me = player.index();
        let near = |p: usize| !(around & (HOME[p] | APPROACH[p])).is_empty();
        4 + 2 * i32::from(near(me)) + i32::from(near(1 - me))
    }

    /// Resolution outcomes are ordered by the static value of the board
    /// they leave for the resolver (always positive); placements get none.
    fn move_hint(&self, m: Self::Move) -> i32 {
        match m {
            super::Move::Outcome(r) => {
                let v: i32 = WEIGHTS
                    .iter()
                    .zip(terms(&r.board))
                    .map(|(w, t)| w * t)
                    .sum();
                let v = v.clamp(-EVAL_LIMIT, EVAL_LIMIT);
                let mine = if self.perspective().index() == 0 {
                    v
                } else {
                    -v
                };
                mine + EVAL_LIMIT + 1
            }
            super::Move::Place { .. } => 0,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use gamut_core::game::Notation;

    #[test]
    fn placements_next_to_single_stones_are_urgent() {
        // A white single on D1, next to player 1's home node H1.
        let pos = Spokes::parse("1/4/8/w15/16 2").unwrap();
        let hint = |player, text| pos.action_hint(player, pos.parse_move(text).unwrap());
        // D2 touches D1: urgent, more for player 1, whose home H2 it touches.
        assert_eq!(hint(Player::FIRST, "wD2"), 6);
        assert_eq!(hint(Player::SECOND, "bD2"), 5);
        // C1 (inward of D1) touches it too; C5 and D9 touch no single.
        assert!(hint(Player::FIRST, "wC1") > 0);
        assert_eq!(hint(Player::FIRST, "wC5"), 0);
        assert_eq!(hint(Player::SECOND, "bD9"), 0);
    }
}
