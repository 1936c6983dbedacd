//! Static evaluation for search: material, survival of a transmutation,
//! placement options and capture threats, each for the player to move
//! minus the same for the opponent.

use super::{Empedocles, Move};
use gamut_core::evaluate::{Evaluate, TermMask, EVAL_LIMIT};
use gamut_core::game::Game;

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
        let diff = |f: &dyn Fn(gamut_core::game::Player) -> u32| f(me) as i32 - f(you) as i32;
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

    /// A step onto an enemy piece; placements are not captures.
    fn is_capture(&self, m: Move) -> bool {
        matches!(m, Move::Step(_, to) if self.pieces(self.side.other()).has(to))
    }

    const NETWORK: Option<gamut_core::nnue::BuiltinNetwork<Self>> = Some(super::net::NETWORK);
}

#[cfg(test)]
mod tests {
    use super::*;
    use gamut_core::game::NodeKind;

    /// Along a long line of play: a move is a capture exactly when it
    /// steps onto an enemy piece, and placements, which the move hints
    /// rank above other moves, are not captures.
    #[test]
    fn captures_are_steps_onto_enemies_and_placements_are_not() {
        let (mut captures, mut placements) = (0, 0);
        let mut moves = Vec::new();
        for line in 0..20usize {
            let mut pos = Empedocles::start();
            for ply in 0..200usize {
                if pos.node() == NodeKind::Terminal {
                    break;
                }
                pos.moves(&mut moves);
                if let NodeKind::Decision(_) = pos.node() {
                    for &m in &moves {
                        let onto_enemy = matches!(m, Move::Step(_, to)
                            if pos.pieces(pos.side.other()).has(to));
                        assert_eq!(pos.is_capture(m), onto_enemy, "{m:?}");
                        captures += usize::from(onto_enemy);
                        if let Move::Place(_) = m {
                            assert_eq!(pos.move_hint(m), 1);
                            placements += 1;
                        }
                    }
                }
                pos = pos.play(moves[(ply * 7 + line * 13) % moves.len()]);
            }
        }
        assert!(captures > 0 && placements > 0, "{captures} {placements}");
    }
}
