//! Game records: one JSON object per line, enough to replay every game and
//! rebuild the tournament's report (`gamut tournament merge`).

use crate::game::{Game, NodeKind, ParseError, Player};
use serde::{Deserialize, Serialize};
use std::path::Path;

/// A simultaneous step of a game: both actions and the mixed strategies
/// they were sampled from.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct JointStep {
    /// The index of the step in [`GameRecord::moves`].
    pub step: usize,
    /// The first and second player's actions.
    pub actions: [String; 2],
    /// Each player's strategy (action, probability) as its engine gave it.
    pub strategies: [Vec<(String, f64)>; 2],
}

/// One finished game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameRecord {
    /// The game id (`epaminondas`).
    pub game: String,
    /// The game's number in the tournament, from 1: games `2p+1` and `2p+2`
    /// are pair `p` (same opening, sides swapped).
    pub number: u64,
    /// The pair it belongs to, from 0.
    pub pair: u64,
    /// The two engines of the encounter, the one that is first player in
    /// the pair's first game first; results are counted for it.
    pub encounter: [String; 2],
    /// The index of the opening (line of the openings file, or the random
    /// opening's number).
    pub opening_index: u64,
    /// The opening position's text.
    pub opening: String,
    /// The engines by side: first player, second player.
    pub engines: [String; 2],
    /// Their spec texts, by side.
    pub specs: [String; 2],
    /// Every step from the opening in canonical text: moves, chance
    /// outcomes (die rolls) and joint actions.
    pub moves: Vec<String>,
    /// The chance outcomes among the moves, in order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub rolls: Vec<String>,
    /// The simultaneous steps among the moves, with the strategies sampled.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub joint: Vec<JointStep>,
    /// `1-0`, `0-1` or `1/2-1/2`, first player first.
    pub result: String,
    /// 1 or 2 for the winning side, `null` for a draw.
    pub winner: Option<u8>,
    /// Why it ended: the game's own reason or the adjudication.
    pub reason: String,
    /// Whether the tournament ended it (ply limit, resign or draw scores)
    /// rather than the rules.
    pub adjudicated: bool,
    /// Match points by side, for games that score them.
    pub points: Option<[u32; 2]>,
    /// Decision plies played from the opening.
    pub plies: u32,
    /// Wall-clock time of the game in milliseconds.
    pub time_ms: u64,
}

impl GameRecord {
    /// The result text of an outcome, first player first.
    pub fn result_text(winner: Option<Player>) -> &'static str {
        match winner {
            Some(Player::FIRST) => "1-0",
            Some(_) => "0-1",
            None => "1/2-1/2",
        }
    }

    /// The score of the encounter's first engine in this game (1, ½ or 0).
    pub fn score_of_first_engine(&self) -> f64 {
        let side = self.side_of(&self.encounter[0]);
        match self.winner {
            None => 0.5,
            Some(w) if w as usize == side + 1 => 1.0,
            Some(_) => 0.0,
        }
    }

    /// The side index (0 or 1) the named engine played.
    pub fn side_of(&self, name: &str) -> usize {
        usize::from(self.engines[0] != name)
    }

    /// The points margin of the encounter's first engine, where scored.
    pub fn margin_of_first_engine(&self) -> Option<i64> {
        let side = self.side_of(&self.encounter[0]);
        self.points.map(|p| p[side] as i64 - p[1 - side] as i64)
    }

    /// The record as one JSON line (no newline).
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("a record serialises")
    }
}

/// Reads a records file: one JSON record per line, blank lines skipped.
pub fn read(path: &Path) -> Result<Vec<GameRecord>, ParseError> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| ParseError::new(format!("cannot read {}: {e}", path.display())))?;
    parse(&text).map_err(|e| ParseError::new(format!("{}: {e}", path.display())))
}

/// Parses the lines of a records file.
pub fn parse(text: &str) -> Result<Vec<GameRecord>, ParseError> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, l)| {
            serde_json::from_str(l)
                .map_err(|e| ParseError::new(format!("line {}: not a game record: {e}", i + 1)))
        })
        .collect()
}

/// The positions of a recorded game from its opening, each with the text of
/// the step that led to it (`None` for the opening), after checking every
/// step is legal and, for games the rules ended, that the last position's
/// outcome is the recorded one.
pub fn replay<G: Game>(rec: &GameRecord) -> Result<Vec<(Option<String>, G)>, ParseError> {
    if rec.game != G::ID {
        return Err(ParseError::new(format!(
            "game {} is a {} game, not {}",
            rec.number,
            rec.game,
            G::ID
        )));
    }
    let mut pos = G::parse(&rec.opening)
        .map_err(|e| ParseError::new(format!("game {}: bad opening: {e}", rec.number)))?;
    let mut out = vec![(None, pos.clone())];
    for (i, text) in rec.moves.iter().enumerate() {
        let bad =
            |e: ParseError| ParseError::new(format!("game {} step {}: {e}", rec.number, i + 1));
        pos = match pos.node() {
            NodeKind::Simultaneous => {
                let step = rec
                    .joint
                    .iter()
                    .find(|j| j.step == i)
                    .ok_or_else(|| bad(ParseError::new("no recorded joint action")))?;
                let [a, b] =
                    [0, 1].map(|s| action::<G>(&pos, Player::from_index(s), &step.actions[s]));
                pos.play_joint(a.map_err(bad)?, b.map_err(bad)?)
            }
            NodeKind::Terminal => {
                return Err(bad(ParseError::new("the game was already over")));
            }
            _ => pos.play(pos.parse_move(text).map_err(bad)?),
        };
        out.push((Some(text.clone()), pos.clone()));
    }
    if !rec.adjudicated {
        let winner = rec.winner.map(|w| Player::from_index(w as usize - 1));
        match pos.outcome() {
            Some(o) if o.winner == winner && o.points == rec.points && o.reason == rec.reason => {}
            Some(o) => {
                return Err(ParseError::new(format!(
                    "game {} replays to {o}, not the recorded {} ({})",
                    rec.number, rec.result, rec.reason
                )))
            }
            None => {
                return Err(ParseError::new(format!(
                    "game {} does not end where its record does",
                    rec.number
                )))
            }
        }
    }
    Ok(out)
}

/// Player `side`'s action with text `text` at simultaneous node `pos`.
fn action<G: Game>(pos: &G, side: Player, text: &str) -> Result<G::Move, ParseError> {
    let mut acts = Vec::new();
    pos.actions(side, &mut acts);
    acts.into_iter()
        .find(|&a| pos.move_text(a) == text)
        .ok_or_else(|| ParseError::new(format!("'{text}' is not an action of {side} here")))
}
