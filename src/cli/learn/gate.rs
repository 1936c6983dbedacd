//! The gate's match as the ledger keeps it: the candidate's result, its
//! Elo interval, and whether it is promoted.

use gamut_tournament::report::SideScores;
use gamut_tournament::stats::{Interval, SprtState};
use serde_json::{json, Value};

/// A match's result for the candidate, as the ledger keeps it.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct MatchResult {
    pub(super) games: u64,
    /// Games won, drawn and lost by the candidate.
    pub(super) wdl: [u64; 3],
    /// The candidate's share of the two engines' points (0.5: even).
    pub(super) score: f64,
    /// That share as Elo, with its 95% interval.
    pub(super) elo: Option<Interval>,
    /// The sequential test's log-likelihood ratio, bounds and state.
    pub(super) sprt: Option<(f64, (f64, f64), SprtState)>,
    /// In a game of more than two players: the candidate's score a seat,
    /// its 95% interval's half-width and a side's fair share.
    pub(super) seat: Option<[f64; 3]>,
}

impl MatchResult {
    /// The result of a seats match of the candidate against one other
    /// engine, each holding as many seats (every arrangement of a cycle
    /// is played). The share is the candidate's score a seat over the
    /// sum of both engines' (its interval the seat score's); `None` if
    /// no game was played.
    pub(super) fn of_seats(report: &SideScores) -> Option<MatchResult> {
        let [c, o] = [0, 1].map(|k| &report.standings[k].overall);
        let games = report.games;
        if games == 0 || c.games == 0 {
            return None;
        }
        let per_game = c.games / games;
        let draws = c.draws / per_game.max(1);
        let total = c.score + o.score;
        let share = |score: f64| (score / total).clamp(1e-3, 1.0 - 1e-3);
        // `+ 0.0`: an even share is 0, not -0.
        let as_elo = |p: f64| -400.0 * (1.0 / p - 1.0).log10() + 0.0;
        let elo = (total > 0.0).then(|| Interval {
            value: as_elo(share(c.score)),
            lower: as_elo(share(c.score - c.error)),
            upper: as_elo(share(c.score + c.error)),
        });
        Some(MatchResult {
            games,
            wdl: [c.wins, draws, games - c.wins - draws],
            score: if total > 0.0 { c.score / total } else { 0.5 },
            elo,
            sprt: None,
            seat: Some([c.score, c.error, report.fair_share]),
        })
    }

    /// The score a seat in words, after the games (empty with two
    /// players).
    pub(super) fn seat_text(&self) -> String {
        self.seat.map_or(String::new(), |[score, error, fair]| {
            format!(", {score:.3} ± {error:.3} a seat (fair share {fair:.3})")
        })
    }

    /// The ledger's fields of the match.
    pub(super) fn json(&self) -> Value {
        let mut record = json!({
            "games": self.games,
            "wdl": self.wdl,
            "score": round6(self.score),
            "elo": elo_json(self.elo),
        });
        if let Some([score, error, fair]) = self.seat {
            record["seat"] = json!({
                "score": round6(score),
                "error": round6(error),
                "fair_share": round6(fair),
            });
        }
        record
    }
}

/// Whether a gate (its ledger line) promotes its candidate, and why: its
/// sequential test accepted elo1, or the gate played all its games
/// without a verdict and the candidate's Elo interval lies above 0 (a
/// fixed-length match's verdict: at a gate of a few hundred games the
/// test of elo0 = 0 against elo1 = 10 may still be undecided at +80).
pub(super) fn promotes(gate: &Value) -> (bool, &'static str) {
    match gate["sprt"]["state"].as_str() {
        Some("h1") => (true, "the test accepted elo1"),
        Some("h0") => (false, "the test accepted elo0"),
        _ if gate["elo"]["lower"]
            .as_f64()
            .is_some_and(|lower| lower > 0.0) =>
        {
            (
                true,
                "no verdict in the gate's games; the Elo interval lies above 0",
            )
        }
        _ => (
            false,
            "no verdict in the gate's games; the Elo interval reaches 0",
        ),
    }
}

/// An Elo estimate as `+12.3 [+1.0, +25.0]`.
pub(super) fn elo_text(elo: Option<Interval>) -> String {
    elo.map_or("no Elo".into(), |i| {
        format!("{:+.1} [{:+.1}, {:+.1}]", i.value, i.lower, i.upper)
    })
}

/// An Elo estimate as the ledger keeps it.
pub(super) fn elo_json(elo: Option<Interval>) -> Value {
    elo.map_or(
        Value::Null,
        |i| json!({"value": round1(i.value), "lower": round1(i.lower), "upper": round1(i.upper)}),
    )
}

/// `x` to a millionth.
pub(super) fn round6(x: f64) -> f64 {
    (x * 1e6).round() / 1e6
}

/// `x` to a tenth (never −0).
pub(super) fn round1(x: f64) -> f64 {
    (x * 10.0).round() / 10.0 + 0.0
}

/// `h0`, `h1` or `continue`.
pub(super) fn state_name(s: SprtState) -> &'static str {
    match s {
        SprtState::H0 => "h0",
        SprtState::H1 => "h1",
        SprtState::Continue => "continue",
    }
}

#[cfg(test)]
mod tests {
    use super::{promotes, MatchResult};
    use crate::cli::learn::files::builtin_slot;
    use gamut_players::record::GameRecord;
    use gamut_tournament::report::SideScores;
    use serde_json::json;
    use std::path::Path;

    /// A seats game of `spokes4` won by seat `winner` (or drawn), the
    /// engines by seat.
    fn seats_game(engines: [&str; 4], winner: Option<u8>) -> GameRecord {
        let line = json!({
            "game": "spokes4", "number": 1, "opening": "", "engines": engines,
            "specs": engines, "moves": [], "winner": winner, "reason": "",
            "adjudicated": false, "points": null, "plies": 0, "time_ms": 0,
        });
        serde_json::from_value(line).unwrap()
    }

    /// The candidate's games, share and Elo from a seats match: it holds
    /// two seats a game, so it wins a game when either seat wins.
    #[test]
    fn a_seats_match_counts_the_candidates_games_and_share() {
        let (c, b) = ("candidate", "best");
        let games = [
            seats_game([c, c, b, b], Some(1)),
            seats_game([c, b, c, b], Some(3)),
            seats_game([c, b, b, c], Some(2)),
            seats_game([b, c, c, b], None),
        ];
        let names = [c.to_string(), b.to_string()];
        let r = MatchResult::of_seats(&SideScores::new(&names, 4, &games)).unwrap();
        assert_eq!(r.games, 4);
        assert_eq!(r.wdl, [2, 1, 1]);
        // Seat scores: candidate (1 + 1 + 0.5 + 0.5) / 8, best
        // (1 + 0.5 + 0.5) / 8: a share of 0.6, +70 Elo, the interval wide.
        assert!((r.score - 0.6).abs() < 1e-9, "{r:?}");
        let elo = r.elo.unwrap();
        let expected = 400.0 * 1.5f64.log10();
        assert!((elo.value - expected).abs() < 1e-9 && elo.lower < 0.0 && elo.upper > elo.value);
        assert_eq!(r.seat.unwrap()[2], 0.25);
        let lopsided = vec![seats_game([c, c, b, b], Some(2)); 3];
        let r = MatchResult::of_seats(&SideScores::new(&names, 4, &lopsided)).unwrap();
        assert_eq!((r.wdl, r.score), ([3, 0, 0], 1.0));
        assert!(r.elo.unwrap().value > 1000.0);
        assert!(MatchResult::of_seats(&SideScores::new(&names, 4, &[])).is_none());
    }

    /// Each game's built-in network is found by name wherever its game
    /// keeps it, and a name that is not there (or twice) finds nothing.
    #[test]
    fn built_in_slots_are_found_under_the_games() {
        let games = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/src/games"));
        let four = builtin_slot(games, "spokes4.net").unwrap();
        assert!(
            four.ends_with("spokes/multi/spokes4.net"),
            "{}",
            four.display()
        );
        assert!(builtin_slot(games, "aporia.net")
            .unwrap()
            .ends_with("aporia/aporia.net"));
        assert!(builtin_slot(games, "chess.net").is_none());
        assert!(builtin_slot(games, "mod.rs").is_none(), "many files");
    }

    #[test]
    fn a_gate_promotes_on_h1_or_on_an_interval_above_zero_at_its_end() {
        let gate =
            |state: &str, lower: f64| json!({"sprt": {"state": state}, "elo": {"lower": lower}});
        assert!(promotes(&gate("h1", -5.0)).0);
        assert!(!promotes(&gate("h0", 5.0)).0);
        assert!(promotes(&gate("continue", 47.3)).0);
        assert!(!promotes(&gate("continue", 0.0)).0);
        assert!(!promotes(&gate("continue", -12.0)).0);
        assert!(!promotes(&json!({"sprt": {"state": "continue"}, "elo": null})).0);
    }
}
