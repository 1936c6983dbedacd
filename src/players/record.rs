//! The record of one game of any number of sides ([`GameRecord`]), as a
//! records file keeps it: one JSON object per line ending with its
//! checksum ([`seal`]), with how the tournament adjudicates games on the
//! engines' scores ([`Adjudicator`]).

use gamut_core::game::Player;
use serde::{Deserialize, Serialize};

/// A simultaneous step of a game: every player's action and each side's
/// mixed strategy it was sampled from.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct JointStep {
    /// The index of the step in [`GameRecord::moves`].
    pub step: usize,
    /// Every player's action, in player order.
    pub actions: Vec<String>,
    /// Each side's strategy (action, probability) as its engine gave it
    /// (joint choices written `wD1+bD2` for a team; a game of more than
    /// two sides keeps at most ten choices, most likely first; empty for
    /// random play).
    pub strategies: Vec<Vec<(String, f64)>>,
}

/// The engine's verdict on a decision step it played: its search score for
/// the mover (the unit `analyze` prints; proven wins and losses beyond
/// ±[`gamut_search::score::WIN_THRESHOLD`]), the depth it completed and
/// the time it took.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StepScore {
    /// The index of the step in [`GameRecord::moves`].
    pub step: usize,
    /// The score for the side that moved.
    pub score: i32,
    /// The depth the search completed, where the engine said.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub depth: Option<u32>,
    /// The engine's time for the move in milliseconds, as the referee
    /// measured it (records written before times were kept have none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub time_ms: Option<u64>,
}

/// One finished game of any number of sides. A game of two players is one
/// of a pair (same opening, sides swapped) and has the pair's fields
/// (`pair`, `encounter`, `result`); a game of more players (a seats
/// tournament's: four players, or two teams of two) has none of them, and
/// is written without them.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GameRecord {
    /// The game id (`epaminondas`).
    pub game: String,
    /// The game's number in the tournament, from 1: in a game of two
    /// sides, games `2p+1` and `2p+2` are pair `p` (same opening, sides
    /// swapped).
    pub number: u64,
    /// The pair it belongs to, from 0 (two players only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pair: Option<u64>,
    /// The two engines of the encounter, the one that is first player in
    /// the pair's first game first; results are counted for it (two
    /// players only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub encounter: Option<[String; 2]>,
    /// The index of the opening (line of the openings file, or the random
    /// opening's number; in a seats game, its cycle of lineups; none in
    /// seats records written before seats games had openings).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub opening_index: Option<u64>,
    /// The opening position's text.
    pub opening: String,
    /// The engines by side, first side first (`seats` in seats records
    /// written before one record served every game).
    #[serde(alias = "seats")]
    pub engines: Vec<String>,
    /// Their spec texts, by side.
    pub specs: Vec<String>,
    /// Every step from the opening in canonical text: moves, chance
    /// outcomes (die rolls) and joint actions.
    pub moves: Vec<String>,
    /// The chance outcomes among the moves, in order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub rolls: Vec<String>,
    /// The simultaneous steps among the moves, with the strategies sampled.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub joint: Vec<JointStep>,
    /// The engines' scores of the decision steps they played, in step
    /// order, for engines that give one (records written before scores
    /// were kept have none).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub scores: Vec<StepScore>,
    /// `1-0`, `0-1` or `1/2-1/2`, first player first (two players only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result: Option<String>,
    /// The winning side, from 1; `null` for a draw.
    pub winner: Option<u8>,
    /// Why it ended: the game's own reason or the adjudication.
    pub reason: String,
    /// Whether the tournament ended it (ply limit, resign or draw scores)
    /// rather than the rules.
    pub adjudicated: bool,
    /// Match points by side, for games of two players that score them (a
    /// seats game keeps none).
    #[serde(default)]
    pub points: Option<Vec<u32>>,
    /// Decision plies played from the opening.
    pub plies: u32,
    /// The ply limit the game was played under (tournaments write it;
    /// records written before it was kept, and games saved by `play`, have
    /// none: a `ply limit` game of theirs must reach the game's own limit).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ply_limit: Option<u32>,
    /// The score adjudication the game was played under (tournaments of
    /// two sides write it, `{}` when none was in force; records written
    /// before it was kept, and games saved by `play`, have none: their
    /// adjudications are checked only as far as any settings would allow).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub adjudicate: Option<Adjudicator>,
    /// Wall-clock time of the game in milliseconds.
    pub time_ms: u64,
    /// The tournament's seed (records written before it was kept, and
    /// games saved by `play`, have none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seed: Option<u64>,
}

impl GameRecord {
    /// The result text of a game saved before its end (`gamut play`).
    pub const UNFINISHED: &'static str = "*";

    /// The result text of an outcome, first player first.
    #[must_use]
    pub fn result_text(winner: Option<Player>) -> &'static str {
        match winner {
            Some(Player::FIRST) => "1-0",
            Some(_) => "0-1",
            None => "1/2-1/2",
        }
    }

    /// The result as shown for people: a game of two players' `result`
    /// (`1-0`), otherwise the winning side of `sides` (`player 3 wins`),
    /// `*` for a game saved before its end, or `draw`.
    #[must_use]
    pub fn shown_result(&self, sides: &[&str]) -> String {
        match (&self.result, self.winner) {
            (Some(r), _) => r.clone(),
            (None, Some(w)) => {
                format!("{} wins", sides.get(w as usize - 1).copied().unwrap_or("?"))
            }
            (None, None) if self.is_unfinished() => Self::UNFINISHED.to_string(),
            (None, None) => "draw".to_string(),
        }
    }

    /// Whether `gamut play` saved the game before its end: its result is
    /// `*` (two players) or its reason `unfinished` (any number of sides).
    #[must_use]
    pub fn is_unfinished(&self) -> bool {
        self.result.as_deref() == Some(Self::UNFINISHED)
            || Adjudication::from_reason(&self.reason) == Some(Adjudication::Unfinished)
    }

    /// The two engines of a game of two players' encounter (a seats
    /// record, which has none, gives its first two engines).
    #[must_use]
    pub fn encounter(&self) -> [&str; 2] {
        match &self.encounter {
            Some([a, b]) => [a, b],
            None => [&self.engines[0], &self.engines[1]],
        }
    }

    /// The score of the encounter's first engine in this game (1, ½ or 0).
    #[must_use]
    pub fn score_of_first_engine(&self) -> f64 {
        let side = self.side_of(self.encounter()[0]);
        match self.winner {
            None => 0.5,
            Some(w) if w as usize == side + 1 => 1.0,
            Some(_) => 0.0,
        }
    }

    /// The side index (0 or 1) the named engine played.
    #[must_use]
    pub fn side_of(&self, name: &str) -> usize {
        usize::from(self.engines[0] != name)
    }

    /// The points margin of the encounter's first engine, where scored.
    #[must_use]
    pub fn margin_of_first_engine(&self) -> Option<i64> {
        let side = self.side_of(self.encounter()[0]);
        self.points
            .as_ref()
            .map(|p| i64::from(p[side]) - i64::from(p[1 - side]))
    }

    /// The record as one JSON object (no newline, no checksum): the text
    /// a line's checksum covers.
    #[must_use]
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("a record serialises")
    }

    /// The record as a line of a records file (no newline): its JSON
    /// sealed with its checksum ([`seal`]).
    #[must_use]
    pub fn to_line(&self) -> String {
        seal(&self.to_json())
    }
}

/// The checksum as a line ends: `,"crc32":"`, then 8 lowercase hex
/// digits and `"}`.
const SEAL_HEAD: &str = ",\"crc32\":\"";

/// The bytes the checksum adds to a line.
pub const SEAL_LEN: usize = SEAL_HEAD.len() + 8 + 2;

/// The JSON object `json` (a record's, as [`GameRecord::to_json`] writes
/// it) as a line of a records file: the CRC-32 of its bytes added as its
/// last key, `crc32`, in 8 lowercase hex digits.
///
/// # Panics
///
/// If `json` does not end with `}`.
#[must_use]
pub fn seal(json: &str) -> String {
    let open = json.strip_suffix('}').expect("a JSON object");
    format!(
        "{open}{SEAL_HEAD}{:08x}\"}}",
        crc32fast::hash(json.as_bytes())
    )
}

/// The record text of `line` (trimmed): `Ok(Some(json))` for a line that
/// ends with its checksum, the JSON it covers, once the checksum is found
/// to match; `Ok(None)` for a line without one; `Err` says how the
/// checksum is wrong.
pub fn unseal(line: &str) -> Result<Option<String>, String> {
    let Some(at) = line.len().checked_sub(SEAL_LEN) else {
        return Ok(None);
    };
    let Some(end) = line.get(at..) else {
        return Ok(None);
    };
    if !end.starts_with(SEAL_HEAD) || !end.ends_with("\"}") {
        return Ok(None);
    }
    let hex = &end[SEAL_HEAD.len()..SEAL_LEN - 2];
    let given = match hex.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f')) {
        true => u32::from_str_radix(hex, 16).expect("hex digits"),
        false => return Err(format!("checksum '{hex}' is not 8 lowercase hex digits")),
    };
    let json = format!("{}}}", &line[..at]);
    let actual = crc32fast::hash(json.as_bytes());
    if actual != given {
        return Err(format!(
            "checksum {hex} does not match the record's ({actual:08x}): the line was changed after it was written"
        ));
    }
    Ok(Some(json))
}

/// How the tournament, rather than the rules, ended a game: the reasons an
/// adjudicated record may give.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Adjudication {
    /// The ply limit was reached: a draw.
    PlyLimit,
    /// Both engines agreed one side was lost: a win.
    Resign,
    /// Both engines agreed the game was level: a draw.
    Draw,
    /// An engine crashed, hung past its time or played an illegal move: a
    /// loss, its reason `forfeit: <what happened>`.
    Forfeit,
    /// Saved before its end (`gamut play`): no winner, result `*`.
    Unfinished,
}

impl Adjudication {
    /// The reason text of a record.
    #[must_use]
    pub fn reason(self) -> &'static str {
        match self {
            Adjudication::PlyLimit => "ply limit",
            Adjudication::Resign => "resign adjudication",
            Adjudication::Draw => "draw adjudication",
            Adjudication::Forfeit => "forfeit",
            Adjudication::Unfinished => "unfinished",
        }
    }

    /// The adjudication a reason text names (a forfeit's reason may say
    /// more after `forfeit: `).
    #[must_use]
    pub fn from_reason(reason: &str) -> Option<Adjudication> {
        if reason.starts_with("forfeit: ") {
            return Some(Adjudication::Forfeit);
        }
        [
            Adjudication::PlyLimit,
            Adjudication::Resign,
            Adjudication::Draw,
            Adjudication::Forfeit,
            Adjudication::Unfinished,
        ]
        .into_iter()
        .find(|a| a.reason() == reason)
    }

    /// Whether it ends the game with a winner (otherwise a draw).
    #[must_use]
    pub fn has_winner(self) -> bool {
        matches!(self, Adjudication::Resign | Adjudication::Forfeit)
    }
}

/// A score agreement that ends a game: both engines' scores past `score`
/// for `moves` decisions of each side.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Threshold {
    /// The score (engine units) the agreement is about.
    pub score: i32,
    /// How many consecutive decisions of each side must agree.
    pub moves: u32,
}

/// How a tournament ends games on the engines' scores (`--resign-score`,
/// `--draw-score`, `--adjudicate`), as its records keep it.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Adjudicator {
    /// Resign adjudication: the last `moves` decisions of each side all
    /// scored at least `score` for the same player (each engine from its
    /// own side: one at least `score`, the other at most `-score`) → that
    /// player wins.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resign: Option<Threshold>,
    /// Draw adjudication: after `draw_after` plies, the last `moves`
    /// decisions of each side all scored within ±`score` → draw.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub draw: Option<Threshold>,
    /// The ply from which draw adjudication applies.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub draw_after: u32,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

impl Adjudicator {
    /// Adds one rule as fastchess writes it, `resign=<score>,<moves>` or
    /// `draw=<score>,<moves>[,<from ply>]`, or why it is not one.
    pub fn add_rule(&mut self, rule: &str) -> Result<(), String> {
        let fail = || {
            format!(
                "--adjudicate {rule}: use resign=<score>,<moves> or draw=<score>,<moves>[,<from ply>]"
            )
        };
        let (kind, values) = rule.split_once('=').ok_or_else(fail)?;
        let numbers: Vec<u32> = values
            .split(',')
            .map(|v| v.trim().parse::<u32>().map_err(|_| fail()))
            .collect::<Result<_, _>>()?;
        let threshold = |score: u32, moves: u32| {
            (moves >= 1 && score <= 30_000).then_some(Threshold {
                score: score as i32,
                moves,
            })
        };
        match (kind, numbers.as_slice()) {
            ("resign", &[score, moves]) if score >= 1 => {
                self.resign = Some(threshold(score, moves).ok_or_else(fail)?);
            }
            ("draw", &[score, moves]) => {
                self.draw = Some(threshold(score, moves).ok_or_else(fail)?)
            }
            ("draw", &[score, moves, after]) => {
                self.draw = Some(threshold(score, moves).ok_or_else(fail)?);
                self.draw_after = after;
            }
            _ => return Err(fail()),
        }
        Ok(())
    }

    /// The adjudication the scores call for after a decision that did not
    /// end the game by the rules: `scores` holds every decision ply's score
    /// so far from the first player's view (`None` where the engine gave
    /// none); the winner (`None`: a draw) and the adjudication.
    #[must_use]
    pub fn judge(&self, scores: &[Option<i32>]) -> Option<(Option<Player>, Adjudication)> {
        let last = |t: Threshold| -> Option<Vec<i32>> {
            let n = 2 * t.moves as usize;
            if n == 0 || scores.len() < n {
                return None;
            }
            scores[scores.len() - n..].iter().copied().collect()
        };
        if let Some(t) = self.resign {
            if let Some(v) = last(t) {
                if v.iter().all(|&s| s >= t.score) {
                    return Some((Some(Player::FIRST), Adjudication::Resign));
                }
                if v.iter().all(|&s| s <= -t.score) {
                    return Some((Some(Player::SECOND), Adjudication::Resign));
                }
            }
        }
        if let Some(t) = self.draw {
            if scores.len() as u32 >= self.draw_after {
                if let Some(v) = last(t) {
                    if v.iter().all(|&s| s.abs() <= t.score) {
                        return Some((None, Adjudication::Draw));
                    }
                }
            }
        }
        None
    }
}

impl std::fmt::Display for Adjudicator {
    /// As `--adjudicate` takes it (`resign=300,2 draw=5,10,40`), or `none`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut rules = Vec::new();
        if let Some(t) = self.resign {
            rules.push(format!("resign={},{}", t.score, t.moves));
        }
        if let Some(t) = self.draw {
            rules.push(format!("draw={},{},{}", t.score, t.moves, self.draw_after));
        }
        if rules.is_empty() {
            return f.write_str("none");
        }
        f.write_str(&rules.join(" "))
    }
}
