//! The static evaluation of Aporia positions and move-ordering hints; the
//! terms are described in `docs/rules/aporia.md`.

use super::board::{Move, Node, NodeSet, PLATFORMS};
use super::Aporia;
use gamut_core::evaluate::{Evaluate, TermMask, EVAL_LIMIT};
use gamut_core::game::Game;

const LOCK_THREATS: usize = 0;
const MOBILITY: usize = 1;
const PROHIBITIONS: usize = 2;
const TEMPO_TERM: usize = 3;

/// The value of having a move that locks the second platform (a win next ply).
const SECOND_LOCK_READY: i32 = 3000;
/// The cost, per platform one move from a second lock that the mover cannot
/// complete now, of having to move while it stands.
const SECOND_LOCK_EXPOSED: i32 = 200;
/// The value of a first lock after which the opponent cannot lock a second.
const SAFE_FIRST_LOCK: i32 = 50;
/// The value of a move that leaves the opponent without a legal move.
const BLOCKADE_READY: i32 = 2500;
/// Per move of difference between the mover's moves and the fewest replies
/// the mover can leave the opponent.
const MOBILITY_WEIGHT: i32 = 10;
/// Per move the repetition rules take away from the mover.
const PROHIBITED_MOVE: i32 = 25;
/// Extra when a prohibited move would have locked the second platform.
const PROHIBITED_WIN: i32 = 500;
/// The value of having the move: the mobility term favours the mover, so
/// without it scores at odd and even depths differ by about twice this.
const TEMPO: i32 = 30;

impl Aporia {
    /// Whether some legal move here locks a platform.
    fn can_lock(&self) -> bool {
        let mut found = false;
        self.for_each_move(|m| found |= self.locks_platform(m));
        found
    }

    /// Unlocked platforms holding three pieces of one colour and an empty
    /// node that a movable piece of that colour reaches, ignoring the
    /// repetition rules.
    fn lock_threats(&self) -> i32 {
        let movable = self.movable();
        let mut threats = 0;
        for p in PLATFORMS {
            if self.locked.contains(p) {
                continue;
            }
            for colour in [self.white, self.black] {
                let rest = p & !colour;
                if (colour & p).count() == 3 && (rest & self.occupied()).is_empty() {
                    let hole = Node(rest.0.trailing_zeros() as u8);
                    if (colour & movable & !p).any(|from| self.targets(from).has(hole)) {
                        threats += 1;
                    }
                }
            }
        }
        threats
    }
}

impl Evaluate for Aporia {
    const TERMS: &'static [&'static str] = &["lock_threats", "mobility", "prohibitions", "tempo"];

    fn evaluate(&self, terms: TermMask) -> i32 {
        let one_lock = !self.locked.is_empty();
        let mut moves = 0;
        let mut fewest_replies = u32::MAX;
        let mut second_locks = 0;
        let mut safe_first_locks = 0;
        self.for_each_move(|m| {
            moves += 1;
            let child = self.play(m);
            fewest_replies = fewest_replies.min(child.legal_count());
            if self.locks_platform(m) {
                if one_lock {
                    second_locks += 1;
                } else if !child.can_lock() {
                    safe_first_locks += 1;
                }
            }
        });
        let mut score = if terms.has(TEMPO_TERM) { TEMPO } else { 0 };
        if terms.has(LOCK_THREATS) {
            score += if second_locks > 0 {
                SECOND_LOCK_READY
            } else if one_lock {
                -SECOND_LOCK_EXPOSED * self.lock_threats()
            } else {
                SAFE_FIRST_LOCK * safe_first_locks
            };
        }
        if terms.has(MOBILITY) && moves > 0 {
            score += if fewest_replies == 0 {
                BLOCKADE_READY
            } else {
                MOBILITY_WEIGHT * (moves - fewest_replies as i32)
            };
        }
        if terms.has(PROHIBITIONS) {
            for m in self.prohibited().into_iter().flatten() {
                if self.is_pseudo_legal(m) {
                    score -= PROHIBITED_MOVE;
                    if one_lock && self.locks_platform(m) {
                        score -= PROHIBITED_WIN;
                    }
                }
            }
        }
        score.clamp(-EVAL_LIMIT, EVAL_LIMIT)
    }

    fn move_hint(&self, m: Move) -> i32 {
        if !self.locks_platform(m) {
            0
        } else if self.locked == NodeSet::EMPTY {
            1
        } else {
            2
        }
    }

    const NETWORK: Option<gamut_core::nnue::BuiltinNetwork<Self>> = Some(super::net::NETWORK);
}
