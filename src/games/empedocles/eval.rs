//! Static evaluation for search: material, survival of a transmutation,
//! placement options and capture threats, each for the player to move
//! minus the same for the opponent.

use super::{Empedocles, Move};
use crate::game::{Evaluate, Game, TermMask, EVAL_LIMIT};

/// Weight per piece of the piece-count difference.
const PIECE: i32 = 100;
/// Weight per piece that would survive a transmutation now.
const SURVIVOR: i32 = 30;
/// Weight per square the player could place on now.
const PLACEMENT: i32 = 8;
/// Weight per enemy piece the player could capture now.
const THREAT: i32 = 20;
/// The pieces each player places during setup: while it lasts, the pieces
/// still to be placed count as material, so that a placement does not
/// swing the score.
const SETUP_PIECES: u32 = 3;

impl Evaluate for Empedocles {
    const TERMS: &'static [&'static str] = &["pieces", "survivors", "placements", "threats"];

    fn evaluate(&self, terms: TermMask) -> i32 {
        let me = self.perspective();
        let you = me.other();
        let diff = |f: &dyn Fn(crate::game::Player) -> u32| f(me) as i32 - f(you) as i32;
        let mut score = 0;
        if terms.has(0) {
            let material = |p| match self.stage() {
                super::Stage::Setup => SETUP_PIECES.max(self.pieces(p).count()),
                _ => self.pieces(p).count(),
            };
            score += PIECE * diff(&material);
        }
        if terms.has(1) {
            let alive = self.survivors();
            score += SURVIVOR * diff(&|p| alive[p.index()].count());
        }
        if terms.has(2) {
            score += PLACEMENT * diff(&|p| self.sides(p).placements().count());
        }
        if terms.has(3) {
            score += THREAT * diff(&|p| self.sides(p).threats().count());
        }
        score.clamp(-(EVAL_LIMIT - 1), EVAL_LIMIT - 1)
    }

    /// Captures first, then placements, then quiet moves.
    fn move_hint(&self, m: Move) -> i32 {
        match m {
            Move::Step(_, to) if self.pieces(self.side.other()).has(to) => 2,
            Move::Place(_) => 1,
            _ => 0,
        }
    }
}
