//! Search scores: evaluation units, with proven wins and losses above
//! [`EVAL_LIMIT`](crate::game::EVAL_LIMIT) that remember their distance.

use crate::game::{Outcome, Player};
use std::fmt;

/// The score of a win on the spot; a win in `n` plies scores `WIN - n`.
pub const WIN: i32 = 30_000;
/// Scores beyond this magnitude are proven wins or losses.
pub const WIN_THRESHOLD: i32 = WIN - 1_000;
/// A bound beyond every score.
pub const INFINITY: i32 = WIN + 1;

/// The score of a finished game at `ply` plies from the root, for `me`.
pub fn outcome_score(outcome: &Outcome, me: Player, ply: usize) -> i32 {
    match outcome.winner {
        Some(w) if w == me => WIN - ply as i32,
        Some(_) => -(WIN - ply as i32),
        None => 0,
    }
}

/// Converts a score found `ply` plies below the root to one relative to the
/// node it belongs to, for storing in the transposition table.
pub fn to_tt(score: i32, ply: usize) -> i32 {
    if score > WIN_THRESHOLD {
        score + ply as i32
    } else if score < -WIN_THRESHOLD {
        score - ply as i32
    } else {
        score
    }
}

/// The inverse of [`to_tt`]: a stored score made relative to the root again.
pub fn from_tt(score: i32, ply: usize) -> i32 {
    if score > WIN_THRESHOLD {
        score - ply as i32
    } else if score < -WIN_THRESHOLD {
        score + ply as i32
    } else {
        score
    }
}

/// A score as users read it: a number, or `win in N` / `loss in N` (plies).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Score(pub i32);

impl Score {
    /// Plies to a proven end, positive for a win and negative for a loss.
    pub fn plies_to_end(self) -> Option<i32> {
        if self.0 > WIN_THRESHOLD {
            Some(WIN - self.0)
        } else if self.0 < -WIN_THRESHOLD {
            Some(-(WIN + self.0))
        } else {
            None
        }
    }
}

impl fmt::Display for Score {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.plies_to_end() {
            Some(n) if n >= 0 && self.0 > 0 => write!(f, "win in {n}"),
            Some(n) => write!(f, "loss in {}", -n),
            None => write!(f, "{}", self.0),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn win_scores_keep_their_distance_through_the_table() {
        let s = WIN - 7; // win in 7 plies from the root
        let stored = to_tt(s, 3); // found 3 plies down: win in 4 from there
        assert_eq!(stored, WIN - 4);
        assert_eq!(from_tt(stored, 5), WIN - 9);
        assert_eq!(from_tt(to_tt(-s, 3), 3), -s);
        assert_eq!(to_tt(123, 9), 123);
    }

    #[test]
    fn scores_print_as_numbers_or_distances() {
        assert_eq!(Score(57).to_string(), "57");
        assert_eq!(Score(WIN - 3).to_string(), "win in 3");
        assert_eq!(Score(-(WIN - 4)).to_string(), "loss in 4");
        assert_eq!(Score(-WIN).to_string(), "loss in 0");
    }
}
