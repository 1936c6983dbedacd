//! The query of the JSON API's routes (docs/serve.md), read alike by
//! `gamut serve` and by the static site's worker ([`crate::local`]): the
//! game and its line, and the search limits, checked the same way.

use crate::lines::{Lines, Replayed};
use crate::page::ANALYSIS_LINES;
use gamut_engine::game;
use gamut_games::GameId;
use gamut_search::params::MAX_MULTIPV;
use gamut_search::Limits;
use serde::Deserialize;
use std::sync::Arc;
use std::time::Duration;

/// The longest text a query field may hold.
const MAX_FIELD: usize = 100_000;

/// The deepest search asked for, in plies.
const MAX_DEPTH: u32 = 64;
/// The longest search asked for, in milliseconds.
const MAX_TIME: u64 = 600_000;
/// The engine's time for a move when the query gives no limit, in ms.
pub const ENGINE_MS: u64 = 1000;
/// The time for each position's score when the query gives no limit, in ms.
pub const SCORE_MS: u64 = 200;

/// The query fields of the API: the game and line, and search limits.
#[derive(Deserialize, Default, Debug)]
#[serde(deny_unknown_fields)]
pub struct Params {
    /// The game's id.
    pub game: Option<String>,
    /// The start position's text.
    pub fen: Option<String>,
    /// The start's setup (without `fen`).
    pub setup: Option<String>,
    /// The moves from the start, separated by `;`.
    pub moves: Option<String>,
    /// A search's depth in plies.
    pub depth: Option<u32>,
    /// A search's time in milliseconds.
    pub time: Option<u64>,
    /// The player whose action the engine chooses at a simultaneous node.
    pub player: Option<usize>,
    /// A records file's name.
    pub file: Option<String>,
    /// The lines an analysis reports per iteration.
    pub multipv: Option<usize>,
    /// What a resolution's outcomes leave on the board (`/api/outcomes`).
    pub fix: Option<String>,
    /// The first outcome of a page of them (`/api/outcomes`).
    pub from: Option<usize>,
    /// A move played at the line's end, whose short text is asked.
    pub short_of: Option<String>,
}

impl Params {
    /// The query of a URL (`game=…&moves=…`), read as `gamut serve` reads
    /// it, then [`checked`](Self::checked).
    ///
    /// # Errors
    /// An unknown field, a value that does not read, or what
    /// [`checked`](Self::checked) refuses.
    pub fn parse(query: &str) -> Result<Params, String> {
        serde_urlencoded::from_str::<Params>(query)
            .map_err(|e| format!("Failed to deserialize query string: {e}"))?
            .checked()
    }

    /// The query, checked on every route: texts of bounded length, and
    /// search limits within their bounds (`depth` 1–64 or `time` 1–600000
    /// ms, `multipv` 1–256) wherever they are given.
    ///
    /// # Errors
    /// The first bound a field breaks, in one line.
    pub fn checked(self) -> Result<Params, String> {
        let p = self;
        for f in [
            &p.game,
            &p.fen,
            &p.setup,
            &p.moves,
            &p.file,
            &p.fix,
            &p.short_of,
        ]
        .into_iter()
        .flatten()
        {
            if f.len() > MAX_FIELD {
                return Err(format!("a field is longer than {MAX_FIELD} bytes"));
            }
        }
        if p.depth.is_some() && p.time.is_some() {
            return Err("give a depth or a time, not both".into());
        }
        if p.depth.is_some_and(|d| !(1..=MAX_DEPTH).contains(&d)) {
            return Err(format!("depth is 1 to {MAX_DEPTH}"));
        }
        if p.time.is_some_and(|t| !(1..=MAX_TIME).contains(&t)) {
            return Err(format!("time is 1 to {MAX_TIME} ms"));
        }
        if p.multipv.is_some_and(|n| !(1..=MAX_MULTIPV).contains(&n)) {
            return Err(format!("multipv is 1 to {MAX_MULTIPV}"));
        }
        Ok(p)
    }

    /// The game named by `game`.
    ///
    /// # Errors
    /// No game, or an unknown one.
    pub fn game(&self) -> Result<GameId, String> {
        self.game
            .as_deref()
            .ok_or_else(|| "which game? (game=<id>)".to_string())?
            .parse()
    }

    /// The line of play named by `game`, `fen`/`setup` and `moves`,
    /// replayed from the lines kept.
    ///
    /// # Errors
    /// As [`game`](Self::game) and [`Lines::replay`].
    pub fn line(&self, lines: &Lines) -> Result<Arc<Replayed>, String> {
        lines.replay(
            game(self.game()?),
            self.fen.as_deref(),
            self.setup.as_deref(),
            self.moves.as_deref(),
        )
    }

    /// The texts of `moves`, one per step, trimmed (none where empty).
    #[must_use]
    pub fn move_texts(&self) -> Vec<String> {
        self.moves
            .as_deref()
            .filter(|m| !m.trim().is_empty())
            .map(|m| m.split(';').map(|t| t.trim().to_string()).collect())
            .unwrap_or_default()
    }

    /// The lines an analysis reports per iteration: `multipv`, else
    /// [`ANALYSIS_LINES`].
    #[must_use]
    pub fn multipv(&self) -> usize {
        self.multipv.unwrap_or(ANALYSIS_LINES)
    }

    /// An analysis' limits: `depth` or `time`, else none (it deepens
    /// until the page stops it).
    #[must_use]
    pub fn analysis_limits(&self) -> Limits {
        self.limits(Limits::default())
    }

    /// The limits of the engine's move (`/api/engine`): `depth` or `time`,
    /// else [`ENGINE_MS`].
    #[must_use]
    pub fn engine_limits(&self) -> Limits {
        self.limits(Limits {
            time: Some(Duration::from_millis(ENGINE_MS)),
            ..Limits::default()
        })
    }

    /// The limits of each position's score (`/api/scores`): `depth` or
    /// `time`, else [`SCORE_MS`].
    #[must_use]
    pub fn score_limits(&self) -> Limits {
        self.limits(Limits {
            time: Some(Duration::from_millis(SCORE_MS)),
            ..Limits::default()
        })
    }

    /// The search limits: `depth` plies or `time` ms (checked by
    /// [`checked`](Self::checked)), else `default`.
    fn limits(&self, default: Limits) -> Limits {
        match (self.depth, self.time) {
            (Some(d), _) => Limits {
                depth: Some(d),
                ..Limits::default()
            },
            (None, Some(t)) => Limits {
                time: Some(Duration::from_millis(t)),
                ..Limits::default()
            },
            (None, None) => default,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_query_is_read_and_checked_as_the_server_reads_it() {
        let p = Params::parse("game=aporia&moves=a%3Bb&multipv=2&time=50").unwrap();
        assert_eq!(p.game().unwrap(), GameId::Aporia);
        assert_eq!(p.move_texts(), ["a", "b"]);
        assert_eq!(p.multipv(), 2);
        assert_eq!(p.analysis_limits().time, Some(Duration::from_millis(50)));
        assert_eq!(
            Params::parse("").unwrap().engine_limits().time,
            Some(Duration::from_millis(ENGINE_MS))
        );
        assert_eq!(
            Params::parse("game=aporia&depth=1&time=5").unwrap_err(),
            "give a depth or a time, not both"
        );
        assert_eq!(Params::parse("depth=65").unwrap_err(), "depth is 1 to 64");
        assert!(Params::parse("nope=1")
            .unwrap_err()
            .starts_with("Failed to deserialize query string: unknown field `nope`"));
        assert_eq!(
            Params::parse("").unwrap().game().unwrap_err(),
            "which game? (game=<id>)"
        );
    }
}
