//! Game records: one JSON object per line, enough to replay every game and
//! rebuild the tournament's report (`gamut tournament merge`).

use crate::game::{NodeKind, Notation, ParseError, Player};
use crate::games::GameId;
use crate::search::score::INFINITY;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
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

/// The engine's verdict on a decision step it played: its search score for
/// the mover (the unit `analyze` prints; proven wins and losses beyond
/// ±[`crate::search::score::WIN_THRESHOLD`]) and the depth it completed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StepScore {
    /// The index of the step in [`GameRecord::moves`].
    pub step: usize,
    /// The score for the side that moved.
    pub score: i32,
    /// The depth the search completed, where the engine said.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub depth: Option<u32>,
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
    /// The engines' scores of the decision steps they played, in step
    /// order, for engines that give one (records written before scores
    /// were kept have none).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub scores: Vec<StepScore>,
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
    /// The tournament's seed (records written before it was kept, and
    /// games saved by `play`, have none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seed: Option<u64>,
}

impl GameRecord {
    /// The result text of a game saved before its end (`gamut play`).
    pub const UNFINISHED: &'static str = "*";

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
        self.points
            .map(|p| i64::from(p[side]) - i64::from(p[1 - side]))
    }

    /// The record as one JSON line (no newline).
    pub fn to_json(&self) -> String {
        self.line()
    }
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
    pub fn has_winner(self) -> bool {
        matches!(self, Adjudication::Resign | Adjudication::Forfeit)
    }
}

/// A record of a records file: one game of two sides ([`GameRecord`]) or
/// of more than two ([`SeatRecord`](crate::tournament::seats::SeatRecord)),
/// one JSON object per line, checked as it is read.
pub trait Record: Serialize + serde::de::DeserializeOwned {
    /// What a line that is not such a record is not (`a game record`).
    const WHAT: &'static str;
    /// The game's number.
    fn number(&self) -> u64;
    /// The game id (`apart`).
    fn game(&self) -> &str;
    /// The tournament's seed, where the record names it.
    fn seed(&self) -> Option<u64>;
    /// Checks the record: it replays to its recorded end.
    fn check(&self) -> Result<(), ParseError>;
    /// The record as one JSON line (no newline).
    fn line(&self) -> String {
        serde_json::to_string(self).expect("a record serialises")
    }
}

impl Record for GameRecord {
    const WHAT: &'static str = "a game record";
    fn number(&self) -> u64 {
        self.number
    }
    fn game(&self) -> &str {
        &self.game
    }
    fn seed(&self) -> Option<u64> {
        self.seed
    }
    fn check(&self) -> Result<(), ParseError> {
        verify(self)
    }
}

/// Checks that records read back from a file before a tournament goes on
/// are its games: no number twice, each a game of `game` played with seed
/// `seed` (where the record names one), and each as `fits` says the
/// tournament plays that game (in its schedule, with its engines and
/// opening; `Err` says how it differs). Errors read `line N: game K:
/// problem`.
pub fn check_previous<R: Record>(
    previous: &[Line<R>],
    game: &str,
    seed: u64,
    fits: impl Fn(&R) -> Result<(), String>,
) -> Result<(), ParseError> {
    let mut seen: HashMap<u64, usize> = HashMap::new();
    for (line, rec) in previous {
        let problem = if let Some(first) = seen.insert(rec.number(), *line) {
            Err(format!("appears twice (also line {first})"))
        } else if rec.game() != game {
            Err(format!("a {} game, not {game}", rec.game()))
        } else {
            fits(rec).and_then(|()| match rec.seed() {
                Some(s) if s != seed => Err(format!(
                    "played with seed {s}, not this tournament's {seed}"
                )),
                _ => Ok(()),
            })
        };
        problem
            .map_err(|msg| ParseError::new(format!("line {line}: game {}: {msg}", rec.number())))?;
    }
    Ok(())
}

/// A record as a line of a records file: its line number (from 1) and the
/// record.
pub type Line<R = GameRecord> = (usize, R);

/// A records file read line by line: every complete record, and where a
/// last line cut off by a crash starts.
#[derive(Clone, Debug)]
pub struct Scan<R = GameRecord> {
    /// The records with their line numbers.
    pub records: Vec<Line<R>>,
    /// A last line with no newline that is not a record (a write cut off
    /// part way): its line number and the byte offset it starts at.
    pub torn: Option<(usize, u64)>,
    /// Whether the file's text ends without a newline after its last
    /// complete record.
    pub unterminated: bool,
}

/// Reads the lines of a records file, checking that each is a record of a
/// known game whose every step replays and whose result is the one its
/// last position (or its adjudication) gives. Blank lines are skipped. A
/// last line without a newline that is not JSON is reported in
/// [`Scan::torn`], not as an error. Errors read `line N: problem`.
pub fn scan<R: Record>(text: &str) -> Result<Scan<R>, ParseError> {
    let mut records = Vec::new();
    let mut torn = None;
    let mut offset = 0u64;
    let mut lines = text.split_inclusive('\n').enumerate().peekable();
    while let Some((i, raw)) = lines.next() {
        let start = offset;
        offset += raw.len() as u64;
        let line = raw.trim();
        if line.is_empty() {
            continue;
        }
        let fail = |msg: String| ParseError::new(format!("line {}: {msg}", i + 1));
        let last = lines.peek().is_none() && !raw.ends_with('\n');
        let rec: R = match serde_json::from_str(line) {
            Ok(r) => r,
            Err(e) if last && e.is_eof() => {
                torn = Some((i + 1, start));
                break;
            }
            Err(e) => return Err(fail(format!("not {}: {e}", R::WHAT))),
        };
        rec.check().map_err(|e| fail(e.0))?;
        records.push((i + 1, rec));
    }
    let unterminated = torn.is_none() && !text.is_empty() && !text.ends_with('\n');
    Ok(Scan {
        records,
        torn,
        unterminated,
    })
}

/// Reads a records file for `merge` and `replay`: every line must be a
/// valid record (see [`scan`]), a cut-off last line is an error and so is
/// a file without records. Errors name the file and the line.
pub fn read(path: &Path) -> Result<Vec<Line>, ParseError> {
    read_as::<GameRecord>(path)
}

/// [`read`] for records of type `R`.
pub fn read_as<R: Record>(path: &Path) -> Result<Vec<Line<R>>, ParseError> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| ParseError::new(format!("cannot read {}: {e}", path.display())))?;
    let at = |e: ParseError| ParseError::new(format!("{} {e}", path.display()));
    let scan = scan::<R>(&text).map_err(at)?;
    if let Some((line, _)) = scan.torn {
        return Err(at(ParseError::new(format!(
            "line {line}: the last record is cut off (the file ends part way through it)"
        ))));
    }
    if scan.records.is_empty() {
        return Err(ParseError::new(format!(
            "{}: no game records in the file",
            path.display()
        )));
    }
    Ok(scan.records)
}

/// Checks a record of any game: see [`replay`].
pub fn verify(rec: &GameRecord) -> Result<(), ParseError> {
    let id: GameId = rec
        .game
        .parse()
        .map_err(|e: String| ParseError::new(format!("game {}: {e}", rec.number)))?;
    with_game!(id, G => replay::<G>(rec).map(|_| ()))
}

/// The positions of a recorded game from its opening, each with the text of
/// the step that led to it (`None` for the opening), after checking the
/// record throughout: its number, pair and sides agree; every step is legal
/// and its chance outcomes and joint actions are the ones listed; the
/// plies are counted right; the winner is 1, 2 or none and the result text
/// says the same; a game the rules ended replays to the recorded outcome,
/// and a game the tournament ended is not over by the rules and ends as
/// its adjudication does.
pub fn replay<G: Notation>(rec: &GameRecord) -> Result<Vec<(Option<String>, G)>, ParseError> {
    let n = rec.number;
    let fail = |msg: String| Err(ParseError::new(format!("game {n}: {msg}")));
    if rec.game != G::ID {
        return fail(format!("a {} game, not {}", rec.game, G::ID));
    }
    if n == 0 || rec.pair != (n - 1) / 2 {
        return fail(format!(
            "pair {} does not hold game {n} (pair p holds games 2p+1 and 2p+2)",
            rec.pair
        ));
    }
    let swapped = [rec.encounter[1].clone(), rec.encounter[0].clone()];
    let expected = if n % 2 == 1 { &rec.encounter } else { &swapped };
    if rec.engines != *expected || rec.encounter[0] == rec.encounter[1] {
        return fail(format!(
            "engines {:?} by side do not match encounter {:?} (first player in the pair's first game)",
            rec.engines, rec.encounter
        ));
    }
    let winner = match rec.winner {
        None => None,
        Some(w @ (1 | 2)) => Some(Player::from_index(w as usize - 1)),
        Some(w) => return fail(format!("winner {w} is not 1, 2 or null")),
    };
    let unfinished = Adjudication::from_reason(&rec.reason) == Some(Adjudication::Unfinished);
    let result = if unfinished {
        GameRecord::UNFINISHED
    } else {
        GameRecord::result_text(winner)
    };
    if rec.result != result {
        return fail(format!(
            "result '{}' does not match winner {:?}",
            rec.result, rec.winner
        ));
    }
    let mut pos = G::parse(&rec.opening)
        .map_err(|e| ParseError::new(format!("game {n}: bad opening: {e}")))?;
    let mut out = vec![(None, pos.clone())];
    let (mut plies, mut rolls, mut joints) = (0u32, Vec::new(), 0usize);
    let mut scores = rec.scores.iter().peekable();
    let mut last_scored = None;
    for (i, text) in rec.moves.iter().enumerate() {
        let bad = |e: ParseError| ParseError::new(format!("game {n} step {}: {e}", i + 1));
        if let Some(s) = scores.next_if(|s| s.step == i) {
            if !matches!(pos.node(), NodeKind::Decision(_)) {
                return Err(bad(ParseError::new("a score for a step no engine decided")));
            }
            if s.score.abs() >= INFINITY {
                return Err(bad(ParseError::new(format!(
                    "score {} is beyond ±{}",
                    s.score,
                    INFINITY - 1
                ))));
            }
            last_scored = Some(i);
        }
        pos = match pos.node() {
            NodeKind::Simultaneous => {
                let step = rec
                    .joint
                    .iter()
                    .find(|j| j.step == i)
                    .ok_or_else(|| bad(ParseError::new("no recorded joint action")))?;
                let [a, b] =
                    [0, 1].map(|s| action::<G>(&pos, Player::from_index(s), &step.actions[s]));
                let (a, b) = (a.map_err(bad)?, b.map_err(bad)?);
                if pos.joint_text(a, b) != *text {
                    return Err(bad(ParseError::new(format!(
                        "'{text}' is not the joint action {}",
                        pos.joint_text(a, b)
                    ))));
                }
                joints += 1;
                pos.play_joint(a, b)
            }
            NodeKind::Terminal => {
                return Err(bad(ParseError::new("the game was already over")));
            }
            NodeKind::Chance => {
                rolls.push(text.clone());
                pos.play(pos.parse_move(text).map_err(bad)?)
            }
            NodeKind::Decision(_) => {
                plies += 1;
                pos.play(pos.parse_move(text).map_err(bad)?)
            }
        };
        out.push((Some(text.clone()), pos.clone()));
    }
    if let Some(s) = scores.next() {
        return fail(format!(
            "score of step {} is out of order (after step {}) or past the last step",
            s.step,
            last_scored.map_or("none".to_string(), |l: usize| l.to_string())
        ));
    }
    if rolls != rec.rolls {
        return fail(format!(
            "rolls {:?} are not the chance steps {rolls:?}",
            rec.rolls
        ));
    }
    if joints != rec.joint.len() {
        return fail(format!(
            "{} joint entries for {joints} simultaneous steps",
            rec.joint.len()
        ));
    }
    if plies != rec.plies {
        return fail(format!(
            "{} plies recorded, {plies} decision steps played",
            rec.plies
        ));
    }
    match (pos.outcome(), rec.adjudicated) {
        (Some(o), false)
            if o.winner == winner && o.points == rec.points && o.reason == rec.reason => {}
        (Some(o), false) => {
            return fail(format!(
                "replays to {o}, not the recorded {} ({})",
                rec.result, rec.reason
            ))
        }
        (None, false) => return fail("does not end where its record does".into()),
        (Some(o), true) => {
            return fail(format!(
                "recorded as ended by {}, but the rules ended it: {o}",
                rec.reason
            ))
        }
        (None, true) => match Adjudication::from_reason(&rec.reason) {
            None => return fail(format!("'{}' is not an adjudication", rec.reason)),
            Some(a) if a.has_winner() != winner.is_some() || rec.points.is_some() => {
                return fail(format!(
                    "{} {} is not an ending of {}",
                    rec.result,
                    rec.points.map_or(String::new(), |p| format!("{p:?}")),
                    rec.reason
                ))
            }
            Some(_) => {}
        },
    }
    Ok(out)
}
/// Player `side`'s action with text `text` at simultaneous node `pos`.
fn action<G: Notation>(pos: &G, side: Player, text: &str) -> Result<G::Move, ParseError> {
    let mut acts = Vec::new();
    pos.actions(side, &mut acts);
    acts.into_iter()
        .find(|&a| pos.move_text(a) == text)
        .ok_or_else(|| ParseError::new(format!("'{text}' is not an action of {side} here")))
}
