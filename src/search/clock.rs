//! Time management under a game clock: how much of the time left to spend
//! on one move.
//!
//! A search under a [`Clock`] gets two budgets: a *soft* one, after which
//! iterative deepening starts no new iteration, and a *hard* one, after
//! which the search stops wherever it is. The soft budget is the time left
//! shared among the moves still to play (`moves_to_go`, or
//! [`params::CLOCK_MOVES_LEFT`](super::params::CLOCK_MOVES_LEFT) when the
//! clock gives none) plus most of the increment; the hard budget is a few
//! soft budgets, never more than a fixed share of the time left, and both
//! keep a safety margin for the process's own overhead.
//!
//! During the search the main thread scales the soft budget after each
//! iteration (`root::TimeManager`): shorter once the best move has been
//! the same for a few iterations, longer when it changed or the score
//! dropped; the hard budget stays as it is.

use super::params::{
    CLOCK_HARD_FACTOR, CLOCK_HARD_SHARE, CLOCK_INCREMENT_SHARE, CLOCK_MARGIN, CLOCK_MOVES_LEFT,
};
use std::time::Duration;

/// The side to move's clock: what a tournament or a protocol's `go wtime …`
/// gives a search.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Clock {
    /// Time left on the side to move's clock.
    pub remaining: Duration,
    /// Time added to it after each move.
    pub increment: Duration,
    /// Moves to play before the clock's next time control, where it has one.
    pub moves_to_go: Option<u32>,
}

/// How long one move may take under a [`Clock`].
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Budget {
    /// After this, start no new iteration.
    pub soft: Duration,
    /// After this, stop the search.
    pub hard: Duration,
}

impl Clock {
    /// The budgets for the next move.
    #[must_use]
    pub fn budget(&self) -> Budget {
        let usable = self.remaining.saturating_sub(CLOCK_MARGIN);
        let moves = self.moves_to_go.unwrap_or(CLOCK_MOVES_LEFT).max(1);
        let soft = usable / moves + self.increment.mul_f64(CLOCK_INCREMENT_SHARE);
        let hard_cap = usable.mul_f64(CLOCK_HARD_SHARE);
        let soft = soft.min(hard_cap);
        let hard = (soft * CLOCK_HARD_FACTOR).min(hard_cap);
        Budget { soft, hard }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn the_soft_budget_shares_the_time_left_among_the_moves_to_go() {
        let b = Clock {
            remaining: ms(10_000) + CLOCK_MARGIN,
            increment: Duration::ZERO,
            moves_to_go: Some(10),
        }
        .budget();
        assert_eq!(b.soft, ms(1_000));
        assert!(b.hard > b.soft);
    }

    #[test]
    fn the_increment_adds_to_the_budget() {
        let without = Clock {
            remaining: ms(10_000),
            ..Clock::default()
        };
        let with = Clock {
            increment: ms(1_000),
            ..without
        };
        assert!(with.budget().soft > without.budget().soft);
    }

    #[test]
    fn no_budget_exceeds_its_share_of_the_time_left() {
        for remaining in [0, 5, 50, 500, 5_000, 500_000] {
            for increment in [0, 10, 1_000, 100_000] {
                let b = Clock {
                    remaining: ms(remaining),
                    increment: ms(increment),
                    moves_to_go: Some(1),
                }
                .budget();
                assert!(b.hard <= ms(remaining), "{remaining}+{increment}: {b:?}");
                assert!(b.soft <= b.hard, "{remaining}+{increment}: {b:?}");
            }
        }
    }
}
