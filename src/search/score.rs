//! Search scores: evaluation units, with proven wins and losses above
//! [`EVAL_LIMIT`](gamut_core::evaluate::EVAL_LIMIT) that remember their distance.

use gamut_core::evaluate::EVAL_LIMIT;
use gamut_core::game::{Outcome, Player};
use std::fmt;

/// The score of a win on the spot; a win in `n` plies scores `WIN - n`.
pub const WIN: i32 = 30_000;
/// Scores beyond this magnitude are proven wins or losses.
pub const WIN_THRESHOLD: i32 = WIN - 1_000;
/// A bound beyond every score.
pub const INFINITY: i32 = WIN + 1;

/// The score of a finished game at `ply` plies from the root, for `me`.
#[must_use]
pub fn outcome_score(outcome: &Outcome, me: Player, ply: usize) -> i32 {
    match outcome.winner {
        Some(w) if w == me => WIN - ply as i32,
        Some(_) => -(WIN - ply as i32),
        None => 0,
    }
}

/// A value as it enters a chance node's mean: a proven win counts
/// +[`EVAL_LIMIT`], a proven loss -`EVAL_LIMIT`, an evaluation itself.
#[must_use]
pub fn chance_clamp(v: i32) -> i32 {
    v.clamp(-EVAL_LIMIT, EVAL_LIMIT)
}

/// The value of a chance node from its outcomes' `(probability, value)`
/// pairs, in the unit of decision scores: when every outcome is a proven
/// win it is a proven win at the distance of the slowest one (what the
/// player can be sure of), and likewise a proven loss when every outcome is
/// one; otherwise the probability-weighted mean of the values with proven wins
/// and losses counted as ±[`EVAL_LIMIT`] (see [`chance_clamp`]), so that
/// averages stay readable: never an average of win scores.
pub fn chance_value(values: impl Iterator<Item = (f64, i32)>) -> i32 {
    let mut all_won = true;
    let mut all_lost = true;
    let mut slowest_win = i32::MAX;
    let mut slowest_loss = i32::MIN;
    let mut mean = 0.0;
    for (p, v) in values {
        all_won &= v > WIN_THRESHOLD;
        all_lost &= v < -WIN_THRESHOLD;
        slowest_win = slowest_win.min(v);
        slowest_loss = slowest_loss.max(v);
        mean += p * f64::from(chance_clamp(v));
    }
    if all_won && slowest_win != i32::MAX {
        slowest_win
    } else if all_lost && slowest_loss != i32::MIN {
        slowest_loss
    } else {
        mean.round() as i32
    }
}

/// Converts a score found `ply` plies below the root to one relative to the
/// node it belongs to, for storing in the transposition table.
#[must_use]
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
#[must_use]
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
    #[must_use]
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
    fn chance_values_average_in_evaluation_units() {
        let win = WIN - 5;
        // A third of a win and two thirds of an even position.
        let v = chance_value([(1.0 / 3.0, win), (2.0 / 3.0, 0)].into_iter());
        assert_eq!(v, (f64::from(EVAL_LIMIT) / 3.0).round() as i32);
        assert!(v.abs() < WIN_THRESHOLD);
        // All wins: a proven win, as slow as the slowest.
        assert_eq!(
            chance_value([(0.5, WIN - 3), (0.5, WIN - 7)].into_iter()),
            WIN - 7
        );
        // All losses: a proven loss, as slow as the slowest.
        assert_eq!(
            chance_value([(0.5, -(WIN - 3)), (0.5, -(WIN - 7))].into_iter()),
            -(WIN - 7)
        );
        // A win and a loss cancel out.
        assert_eq!(
            chance_value([(0.5, WIN - 2), (0.5, -(WIN - 9))].into_iter()),
            0
        );
    }

    #[test]
    fn scores_print_as_numbers_or_distances() {
        assert_eq!(Score(57).to_string(), "57");
        assert_eq!(Score(WIN - 3).to_string(), "win in 3");
        assert_eq!(Score(-(WIN - 4)).to_string(), "loss in 4");
        assert_eq!(Score(-WIN).to_string(), "loss in 0");
    }
}
