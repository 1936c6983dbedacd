//! A game clock (`tc=`), as fastchess and cutechess write it.

use gamut_core::game::ParseError;
use gamut_search::Clock;
use std::time::Duration;

/// A game clock: `tc=[<moves>/]<base>+<increment>` in seconds, as
/// fastchess and cutechess write it (`tc=10+0.1`, `tc=40/60+0`): `base` at
/// the start, `increment` added after each move, and with `moves` the base
/// added again after every `moves` moves of the side.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct TimeControl {
    /// Moves per period, if the clock has periods.
    pub moves: Option<u32>,
    /// The time of a period (of the game, without periods).
    pub base: Duration,
    /// Time added after each move.
    pub increment: Duration,
}

impl TimeControl {
    /// Parses `[moves/]base[+increment]`, times in seconds.
    pub fn parse(text: &str) -> Result<TimeControl, ParseError> {
        let fail = || {
            ParseError::new(format!(
                "tc={text}: not [moves/]base+increment in seconds (tc=10+0.1, tc=40/60+0)"
            ))
        };
        let (moves, rest) = match text.split_once('/') {
            Some((m, r)) => (
                Some(m.parse::<u32>().ok().filter(|&m| m > 0).ok_or_else(fail)?),
                r,
            ),
            None => (None, text),
        };
        let (base, increment) = rest.split_once('+').unwrap_or((rest, "0"));
        let seconds = |s: &str| {
            s.parse::<f64>()
                .ok()
                .filter(|x| x.is_finite() && (0.0..1e7).contains(x))
                .map(Duration::from_secs_f64)
                .ok_or_else(fail)
        };
        let base = seconds(base)?;
        if base.is_zero() {
            return Err(fail());
        }
        Ok(TimeControl {
            moves,
            base,
            increment: seconds(increment)?,
        })
    }

    /// A full clock at the start of a game.
    #[must_use]
    pub fn start(&self) -> Clock {
        Clock {
            remaining: self.base,
            increment: self.increment,
            moves_to_go: self.moves,
        }
    }

    /// `clock` after a move that took `spent` (the caller has checked it
    /// was not more than the time left): the time taken off, the increment
    /// added, and at the end of a period the base added again.
    #[must_use]
    pub fn after_move(&self, clock: Clock, spent: Duration) -> Clock {
        let mut remaining = clock.remaining.saturating_sub(spent) + self.increment;
        let moves_to_go = match (self.moves, clock.moves_to_go) {
            (Some(period), Some(1)) => {
                remaining += self.base;
                Some(period)
            }
            (_, left) => left.map(|n| n - 1),
        };
        Clock {
            remaining,
            increment: self.increment,
            moves_to_go,
        }
    }
}
