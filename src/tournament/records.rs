//! Game records: one JSON object per line, enough to replay every game and
//! rebuild the tournament's report (`gamut tournament merge`).
//!
//! Every line written ends with its checksum, the object's last key:
//! `{…,"crc32":"hhhhhhhh"}`, where `hhhhhhhh` is the CRC-32 (ISO-HDLC, as
//! zlib and the training data files use) in lowercase hex of the record's
//! JSON without it, the line's text before `,"crc32"` closed by `}`
//! ([`seal`]). The reader checks it, and refuses a key no record has, so a
//! record changed after it was written (a score, a depth, a key) is
//! refused where it is read. Files written before records carried a
//! checksum have none on any line: they read as before, and `--resume`
//! refuses them ([`Scanned::unsealed`]); a file's lines all carry one or
//! none do.

use gamut_core::game::{NodeKind, Outcome, ParseError, Player};
use gamut_engine::Position;
use gamut_games::GameId;
use gamut_players::record::{unseal, Adjudication, GameRecord};
use gamut_players::spec::SpecText;
use gamut_search::score::INFINITY;
use rayon::prelude::*;
use std::collections::HashMap;
use std::path::Path;

/// Checks that records read back from a file before a tournament goes on
/// are its games: no number twice, each a game of `game` played with seed
/// `seed` (where the record names one), and each as `fits` says the
/// tournament plays that game (in its schedule, with its engines and
/// opening; `Err` says how it differs). Errors read `line N: game K:
/// problem`.
pub fn check_previous(
    previous: &[Line],
    game: &str,
    seed: u64,
    fits: impl Fn(&GameRecord) -> Result<(), String>,
) -> Result<(), ParseError> {
    let mut seen: HashMap<u64, usize> = HashMap::new();
    for (line, rec) in previous {
        let problem = if let Some(first) = seen.insert(rec.number, *line) {
            Err(format!("appears twice (also line {first})"))
        } else if rec.game != game {
            Err(format!("a {} game, not {game}", rec.game))
        } else {
            fits(rec).and_then(|()| match rec.seed {
                Some(s) if s != seed => Err(format!(
                    "played with seed {s}, not this tournament's {seed}"
                )),
                _ => Ok(()),
            })
        };
        problem
            .map_err(|msg| ParseError::new(format!("line {line}: game {}: {msg}", rec.number)))?;
    }
    Ok(())
}

/// Which games a records file may hold.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Holds {
    /// Finished games only: a tournament's records (`--resume`, `merge`).
    Finished,
    /// Finished games, or one game saved before its end by `gamut play`
    /// as the file's only record (`replay`, `serve`): an unfinished game
    /// among others is a finished set's game edited, and refused.
    Saved,
}

/// The most bytes a line of a records file may take (a record of the
/// longest games with every engine's scores and strategies takes well
/// under a megabyte).
pub const MAX_LINE: usize = 16 << 20;

/// A record as a line of a records file: its line number (from 1) and the
/// record.
pub type Line = (usize, GameRecord);

/// A records file read line by line: every complete record, and where a
/// last line cut off by a crash starts.
#[derive(Clone, Debug)]
pub struct Scan {
    /// The records with their line numbers.
    pub records: Vec<Line>,
    /// A last line with no newline that is not a record (a write cut off
    /// part way): its line number and the byte offset it starts at.
    pub torn: Option<(usize, u64)>,
    /// Whether the file's text ends without a newline after its last
    /// complete record.
    pub unterminated: bool,
    /// The line of the first record without a checksum: a file written
    /// before records carried one (then none of its records has one).
    pub unsealed: Option<usize>,
}

/// What [`scan_each`] found besides the records it handed on.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Scanned {
    /// How many records.
    pub records: usize,
    /// A last line cut off part way: its line number and byte offset.
    pub torn: Option<(usize, u64)>,
    /// Whether the text ends without a newline after its last record.
    pub unterminated: bool,
    /// The line of the first record without a checksum: a file written
    /// before records carried one (then none of its records has one).
    pub unsealed: Option<usize>,
}

/// Reads the lines of a records file: the one check of records, used by
/// `tournament --resume`, `merge`, `replay` and `serve`, through
/// [`scan_each`]; the records are kept in order.
pub fn scan(text: &str, holds: Holds) -> Result<Scan, ParseError> {
    let mut records = Vec::new();
    let found = scan_each(text.as_bytes(), holds, |line| {
        records.push(line);
        Ok(())
    })?;
    Ok(Scan {
        records,
        torn: found.torn,
        unterminated: found.unterminated,
        unsealed: found.unsealed,
    })
}

/// Reads the lines of a records file one at a time, handing each record
/// to `each` as soon as it is checked, so that only one line is held at
/// once: the one check of records. Each line must be at most [`MAX_LINE`]
/// bytes (a longer line is an error as soon as that many bytes are read)
/// of UTF-8 text, its checksum matching where it ends with one (see the
/// module's documentation: every line of a file carries one, or none
/// does), with no key a record lacks, and a record of a known game whose
/// every step replays and whose result is the one its last position (or
/// its adjudication, replayed against the rules and the settings the
/// record keeps) gives ([`verify`]); an unfinished game is refused unless `holds` allows it
/// (then as soon as a second record is seen). Blank lines are skipped. A
/// last line without a newline that is not JSON is reported in
/// [`Scanned::torn`], not as an error. Errors read `line N: problem`, or
/// what `each` returns.
pub fn scan_each(
    input: impl std::io::BufRead,
    holds: Holds,
    each: impl FnMut(Line) -> Result<(), ParseError>,
) -> Result<Scanned, ParseError> {
    scan_in_batches(input, holds, 1, each)
}

/// How many records [`scan_file`] replays at once, on every thread of
/// the pool (a Spokes game's resolutions can take seconds to replay).
const REPLAYED_AT_ONCE: usize = 64;

/// A record read and checked as text, waiting for its replay: its line,
/// the record, and whether its line ended the text without a newline.
type Pending = (usize, GameRecord, bool);

/// [`scan_each`], replaying up to `batch` records at once (in parallel
/// when more than one): records are still checked and handed on in file
/// order, and the first error in the file is the one reported.
fn scan_in_batches(
    mut input: impl std::io::BufRead,
    holds: Holds,
    batch: usize,
    mut each: impl FnMut(Line) -> Result<(), ParseError>,
) -> Result<Scanned, ParseError> {
    use std::io::{BufRead, Read};
    let mut found = Scanned {
        records: 0,
        torn: None,
        unterminated: false,
        unsealed: None,
    };
    // The first record's line and whether it carries a checksum: every
    // other record must agree.
    let mut first: Option<(usize, bool)> = None;
    // The one record of a file that may hold a saved game alone.
    let mut saved: Option<(usize, u64)> = None;
    let mut pending: Vec<Pending> = Vec::with_capacity(batch);
    // Replays the pending records, then checks and hands them on in order.
    let mut flush = |pending: &mut Vec<Pending>, found: &mut Scanned| -> Result<(), ParseError> {
        let replayed: Vec<Result<(), ParseError>> = if pending.len() > 1 {
            pending.par_iter().map(|(_, rec, _)| verify(rec)).collect()
        } else {
            pending.iter().map(|(_, rec, _)| verify(rec)).collect()
        };
        for ((number, rec, last), replay) in pending.drain(..).zip(replayed) {
            replay.map_err(|e| ParseError::new(format!("line {number}: {}", e.0)))?;
            let unfinished = |(line, game): (usize, u64)| {
                ParseError::new(format!(
                    "line {line}: game {game} is unfinished (saved by play): a file of finished games holds none"
                ))
            };
            if rec.is_unfinished() || saved.is_some() {
                if holds == Holds::Finished || found.records > 0 {
                    return Err(unfinished(saved.unwrap_or((number, rec.number))));
                }
                saved = Some((number, rec.number));
            }
            found.records += 1;
            found.unterminated = last;
            each((number, rec))?;
        }
        Ok(())
    };
    let mut raw = Vec::new();
    let mut offset = 0u64;
    for number in 1.. {
        // An error of this line comes after those of the records before it.
        let mut fail = |msg: String| {
            flush(&mut pending, &mut found)?;
            Err(ParseError::new(format!("line {number}: {msg}")))
        };
        raw.clear();
        let n = match (&mut input)
            .take(MAX_LINE as u64 + 1)
            .read_until(b'\n', &mut raw)
        {
            Ok(n) => n,
            Err(e) => return fail(format!("cannot read: {e}")),
        };
        if n == 0 {
            break;
        }
        if n > MAX_LINE {
            return fail(format!("longer than a record may be ({MAX_LINE} bytes)"));
        }
        let start = offset;
        offset += n as u64;
        let last = !raw.ends_with(b"\n");
        let Ok(text) = std::str::from_utf8(&raw) else {
            return fail("not UTF-8 text".into());
        };
        let line = text.trim();
        if line.is_empty() {
            flush(&mut pending, &mut found)?;
            found.unterminated = false;
            continue;
        }
        let json = match unseal(line) {
            Ok(json) => json,
            Err(msg) => return fail(msg),
        };
        let sealed = json.is_some();
        let rec: GameRecord = match serde_json::from_str(json.as_deref().unwrap_or(line)) {
            Ok(r) => r,
            Err(e) if last && e.is_eof() => {
                flush(&mut pending, &mut found)?;
                found.torn = Some((number, start));
                break;
            }
            Err(e) => return fail(format!("not a game record: {e}")),
        };
        match *first.get_or_insert((number, sealed)) {
            (line, kind) if kind != sealed => {
                let verb = |s: bool| if s { "carries" } else { "lacks" };
                return fail(format!(
                    "{} a checksum and line {line} {} one: every line of a records file carries one, or (written before records did) none",
                    verb(sealed),
                    verb(kind)
                ));
            }
            _ => {}
        }
        if !sealed {
            found.unsealed.get_or_insert(number);
        }
        pending.push((number, rec, last));
        if pending.len() >= batch {
            flush(&mut pending, &mut found)?;
        }
    }
    flush(&mut pending, &mut found)?;
    Ok(found)
}

/// Reads the records file at `path` line by line, handing each record to
/// `each` (see [`scan_each`]), the records replayed [`REPLAYED_AT_ONCE`]
/// at a time on every thread of the pool; errors name the file.
pub fn scan_file(
    path: &Path,
    holds: Holds,
    each: impl FnMut(Line) -> Result<(), ParseError>,
) -> Result<Scanned, ParseError> {
    let file = std::fs::File::open(path)
        .map_err(|e| ParseError::new(format!("cannot read {}: {e}", path.display())))?;
    scan_in_batches(std::io::BufReader::new(file), holds, REPLAYED_AT_ONCE, each)
        .map_err(|e| ParseError::new(format!("{} {e}", path.display())))
}

/// Reads a records file for `replay`, which may hold a game saved by
/// `play`: [`read_holding`] with [`Holds::Saved`].
pub fn read(path: &Path) -> Result<Vec<Line>, ParseError> {
    read_holding(path, Holds::Saved)
}

/// Reads a records file for `merge` (`holds` finished games) and `replay`
/// (also a saved game): every line must be a valid record (see
/// [`scan_each`]), a cut-off last line is an error and so is a file
/// without records. Errors name the file and the line.
pub fn read_holding(path: &Path, holds: Holds) -> Result<Vec<Line>, ParseError> {
    let mut records = Vec::new();
    let found = scan_file(path, holds, |line| {
        records.push(line);
        Ok(())
    })?;
    if let Some((line, _)) = found.torn {
        return Err(ParseError::new(format!(
            "{} line {line}: the last record is cut off (the file ends part way through it)",
            path.display()
        )));
    }
    if records.is_empty() {
        return Err(ParseError::new(format!(
            "{}: no game records in the file",
            path.display()
        )));
    }
    Ok(records)
}

/// Checks a record of any game: see [`replay`].
pub fn verify(rec: &GameRecord) -> Result<(), ParseError> {
    replay(rec).map(|_| ())
}

/// Checks the sides of a record: one engine and spec per side, and for a
/// game of two players (`pairs`) its pair (games `2p+1` and `2p+2` are
/// pair `p`, the encounter's first engine first player in the first), its
/// opening index and its result text (which must say what `winner` says);
/// a game of more players (a seats tournament's) has no pair, encounter or
/// result text.
fn check_sides(
    rec: &GameRecord,
    sides: usize,
    pairs: bool,
    winner: Option<Player>,
) -> Result<(), String> {
    let n = rec.number;
    if rec.engines.len() != sides || rec.specs.len() != sides {
        return Err(format!(
            "{} engines and {} specs for {sides} sides",
            rec.engines.len(),
            rec.specs.len()
        ));
    }
    if !pairs {
        if rec.pair.is_some() || rec.encounter.is_some() || rec.result.is_some() {
            return Err("a seats game has no pair, encounter or result text".into());
        }
        return Ok(());
    }
    let (Some(pair), Some(encounter), Some(_), Some(result)) =
        (rec.pair, &rec.encounter, rec.opening_index, &rec.result)
    else {
        return Err(
            "a game of two players needs its pair, encounter, opening index and result".into(),
        );
    };
    if n == 0 || pair != (n - 1) / 2 {
        return Err(format!(
            "pair {pair} does not hold game {n} (pair p holds games 2p+1 and 2p+2)"
        ));
    }
    let expected = if n % 2 == 1 {
        [encounter[0].as_str(), encounter[1].as_str()]
    } else {
        [encounter[1].as_str(), encounter[0].as_str()]
    };
    if rec.engines != expected || encounter[0] == encounter[1] {
        return Err(format!(
            "engines {:?} by side do not match encounter {:?} (first player in the pair's first game)",
            rec.engines, encounter
        ));
    }
    let unfinished = Adjudication::from_reason(&rec.reason) == Some(Adjudication::Unfinished);
    let expected = if unfinished {
        GameRecord::UNFINISHED
    } else {
        GameRecord::result_text(winner)
    };
    if result != expected {
        return Err(format!(
            "result '{result}' does not match winner {:?}",
            rec.winner
        ));
    }
    Ok(())
}

/// The positions of a recorded game from its opening, each with the text of
/// the step that led to it (`None` for the opening), after checking the
/// record throughout: its sides agree (see [`check_sides`]); every step is
/// legal and its chance outcomes and joint actions are the ones listed;
/// the plies are counted right; the winner is a side or none; a game the
/// rules ended replays to the recorded outcome, and a game the tournament
/// ended is not over by the rules and ends as its adjudication does.
pub fn replay(rec: &GameRecord) -> Result<Vec<(Option<String>, Position)>, ParseError> {
    let n = rec.number;
    let fail = |msg: String| Err(ParseError::new(format!("game {n}: {msg}")));
    let id: GameId = rec
        .game
        .parse()
        .map_err(|e: String| ParseError::new(format!("game {n}: {e}")))?;
    let game = gamut_engine::game(id);
    let (info, players) = (game.info(), game.players());
    let sides = info.sides.len();
    let winner = match rec.winner {
        None => None,
        Some(w) if (1..=sides).contains(&(w as usize)) => Some(Player::nth(w as usize - 1)),
        Some(w) => {
            return fail(format!(
                "winner {w} is not a side from 1 to {sides}, or null"
            ))
        }
    };
    if let Err(msg) = check_sides(rec, sides, players == 2, winner) {
        return fail(msg);
    }
    let mut pos = game
        .parse(&rec.opening)
        .map_err(|e| ParseError::new(format!("game {n}: bad opening: {e}")))?;
    let mut out = vec![(None, pos.clone())];
    let (mut plies, mut rolls, mut joints) = (0u32, Vec::new(), 0usize);
    let mut scores = rec.scores.iter().peekable();
    let mut last_scored = None;
    // Every decision ply's score from the first player's view, as the
    // tournament adjudicated on them, and the adjudication they call for
    // after the last step.
    let mut judged: Vec<Option<i32>> = Vec::new();
    let mut called = None;
    let mut last_decided = false;
    for (i, text) in rec.moves.iter().enumerate() {
        let bad = |e: ParseError| ParseError::new(format!("game {n} step {}: {e}", i + 1));
        if let Some(limit) = rec.ply_limit.filter(|&l| plies >= l) {
            return Err(bad(ParseError::new(format!(
                "played past its ply limit {limit}"
            ))));
        }
        let mut score = None;
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
            score = Some(s.score);
        }
        last_decided = false;
        pos = match pos.node() {
            NodeKind::Simultaneous => {
                let step = rec
                    .joint
                    .iter()
                    .find(|j| j.step == i)
                    .ok_or_else(|| bad(ParseError::new("no recorded joint action")))?;
                if step.actions.len() != players {
                    return Err(bad(ParseError::new(format!(
                        "{} actions for {players} players",
                        step.actions.len(),
                    ))));
                }
                let (joint, next) = pos.play_actions(&step.actions).map_err(bad)?;
                if joint != *text {
                    return Err(bad(ParseError::new(format!(
                        "'{text}' is not the joint action {joint}"
                    ))));
                }
                joints += 1;
                next
            }
            NodeKind::Terminal => {
                return Err(bad(ParseError::new("the game was already over")));
            }
            NodeKind::Chance => {
                rolls.push(text.clone());
                pos.play_text(text).map_err(bad)?
            }
            NodeKind::Decision(side) => {
                plies += 1;
                last_decided = true;
                judged.push(score.map(|s| if side == Player::FIRST { s } else { -s }));
                pos.play_text(text).map_err(bad)?
            }
        };
        // The tournament adjudicates after each decision that does not end
        // the game by the rules: a call before the last step would have
        // ended the game there.
        if let (true, None, Some(rules)) = (last_decided, pos.outcome(), rec.adjudicate) {
            if let Some((w, a)) = rules.judge(&judged) {
                if i + 1 < rec.moves.len() {
                    return Err(bad(ParseError::new(format!(
                        "the scores call for {} here (adjudication {rules}), but the game goes on",
                        a.reason()
                    ))));
                }
                called = Some((w, a));
            }
        }
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
    let limit = rec.ply_limit.unwrap_or(info.ply_limit);
    let shown = rec.shown_result(info.sides);
    let points = |p: &Option<Vec<u32>>| p.as_ref().map_or(String::new(), |p| format!("{p:?}"));
    // A seats game keeps no points; its sides are named as the game names
    // them (`team 1`).
    let pairs = players == 2;
    let said = |o: &Outcome| match pairs {
        true => o.to_string(),
        false => o.describe(info.sides),
    };
    let adjudication = match (pos.outcome(), rec.adjudicated) {
        (Some(o), false)
            if o.winner == winner
                && (!pairs || o.points.map(|p| p.to_vec()) == rec.points)
                && o.reason == rec.reason =>
        {
            return Ok(out)
        }
        (Some(o), false) => {
            return fail(format!(
                "replays to {}, not the recorded {shown} ({})",
                said(&o),
                rec.reason
            ))
        }
        (None, false) => return fail("does not end where its record does".into()),
        (Some(o), true) => {
            return fail(format!(
                "recorded as ended by {}, but the rules ended it: {}",
                rec.reason,
                said(&o)
            ))
        }
        (None, true) => match Adjudication::from_reason(&rec.reason) {
            None => return fail(format!("'{}' is not an adjudication", rec.reason)),
            Some(a) if a.has_winner() != winner.is_some() || rec.points.is_some() => {
                return fail(format!(
                    "{shown} {} is not an ending of {}",
                    points(&rec.points),
                    rec.reason
                ))
            }
            Some(a) => a,
        },
    };
    let ending = Ending {
        rec,
        node: pos.node(),
        winner,
        plies,
        limit,
        last_decided,
        judged: &judged,
    };
    ending
        .check(adjudication, called)
        .map_err(|msg| ParseError::new(format!("game {n}: {msg}")))?;
    Ok(out)
}

/// The end of a replayed game the tournament ended, to check against its
/// adjudication: the node the game stopped at, the recorded winner, the
/// decision plies played and the limit they were played under, whether
/// the last step was a decision, and the scores of the decisions (first
/// player's view).
struct Ending<'a> {
    rec: &'a GameRecord,
    node: NodeKind,
    winner: Option<Player>,
    plies: u32,
    limit: u32,
    last_decided: bool,
    judged: &'a [Option<i32>],
}

impl Ending<'_> {
    /// Checks the recorded adjudication `a` (a `ply limit`, `resign` or
    /// `draw` adjudication or a forfeit) against what the game's end
    /// allows: `called` is what the record's adjudication settings call
    /// for after the last step, where the record keeps them.
    fn check(
        &self,
        a: Adjudication,
        called: Option<(Option<Player>, Adjudication)>,
    ) -> Result<(), String> {
        let rec = self.rec;
        let (plies, limit) = (self.plies, self.limit);
        if let Some((w, c)) = called {
            if (w, c) != (self.winner, a) {
                return Err(format!(
                    "the scores of its last moves call for {}{} (adjudication {}), not {}",
                    c.reason(),
                    w.map_or(String::new(), |p| format!(" for {p}")),
                    rec.adjudicate.unwrap_or_default(),
                    rec.reason
                ));
            }
            return Ok(());
        }
        match a {
            Adjudication::PlyLimit if plies != limit => Err(format!(
                "ended by the ply limit after {plies} plies, but its limit is {limit}{}",
                if rec.ply_limit.is_some() {
                    ""
                } else {
                    " (the game's own: the record names no other)"
                }
            )),
            Adjudication::Resign | Adjudication::Draw => match rec.adjudicate {
                Some(rules) => Err(format!(
                    "{}, but the scores of its last moves do not call for it (adjudication {rules})",
                    rec.reason
                )),
                None => self.any_settings(a),
            },
            Adjudication::Forfeit => self.forfeit(),
            _ => Ok(()),
        }
    }

    /// A resign or draw adjudication in a record that does not keep its
    /// settings: the game ended on a decision, and the scores of the last
    /// decision of each side call for it under some settings (resign: both
    /// at least 1 for the winner; draw: both given).
    fn any_settings(&self, a: Adjudication) -> Result<(), String> {
        let last = self
            .judged
            .len()
            .checked_sub(2)
            .filter(|_| self.last_decided)
            .and_then(|from| {
                self.judged[from..]
                    .iter()
                    .copied()
                    .collect::<Option<Vec<_>>>()
            });
        let fits = last.is_some_and(|v| match (a, self.winner) {
            (Adjudication::Resign, Some(Player::FIRST)) => v.iter().all(|&s| s >= 1),
            (Adjudication::Resign, Some(_)) => v.iter().all(|&s| s <= -1),
            _ => true,
        });
        match fits {
            true => Ok(()),
            false => Err(format!(
                "{}, but the scores of its last moves call for it under no settings",
                self.rec.reason
            )),
        }
    }

    /// A forfeit: an engine was to choose (a decision's mover, or any side
    /// at a simultaneous step), the winner is the side after its side, its
    /// ply limit was not reached, and the side that lost could lose so: on
    /// time with a game clock (`tc=`), otherwise as a program (`cmd=`).
    fn forfeit(&self) -> Result<(), String> {
        let rec = self.rec;
        if self.rec.ply_limit.is_some() && self.plies >= self.limit {
            return Err(format!(
                "{} after its ply limit {} was reached",
                rec.reason, self.limit
            ));
        }
        let sides = rec.engines.len();
        let losers: Vec<Player> = match self.node {
            NodeKind::Decision(side) => vec![side],
            NodeKind::Simultaneous => (0..sides).map(Player::nth).collect(),
            _ => return Err(format!("{}, but no engine was to choose", rec.reason)),
        };
        let key = if rec.reason.starts_with("forfeit: time") {
            "tc"
        } else {
            "cmd"
        };
        let could = |p: &Player| {
            Some(p.other()) == self.winner
                && rec.specs.get(p.index()).is_some_and(|spec| {
                    SpecText::parse(spec).is_ok_and(|s| s.options.iter().any(|(k, _)| k == key))
                })
        };
        if losers.iter().any(could) {
            return Ok(());
        }
        Err(format!(
            "{}, but no engine to choose here could lose so (a program, cmd=, or a game clock, tc=) to the recorded winner",
            rec.reason
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use gamut_core::game::{Game, Notation};
    use gamut_games::epaminondas::Epaminondas;
    use gamut_players::record::{seal, Adjudicator};
    use std::io::Read;

    /// A game of Epaminondas saved at its start, as `play` saves one.
    fn saved() -> GameRecord {
        GameRecord {
            game: "epaminondas".into(),
            number: 1,
            pair: Some(0),
            encounter: Some(["a".into(), "b".into()]),
            opening_index: Some(0),
            opening: Epaminondas::start().text(),
            engines: vec!["a".into(), "b".into()],
            specs: vec!["a".into(), "b".into()],
            moves: Vec::new(),
            rolls: Vec::new(),
            joint: Vec::new(),
            scores: Vec::new(),
            result: Some(GameRecord::UNFINISHED.into()),
            winner: None,
            reason: Adjudication::Unfinished.reason().into(),
            adjudicated: true,
            points: None,
            plies: 0,
            ply_limit: None,
            adjudicate: None,
            time_ms: 0,
            seed: None,
        }
    }

    /// A game of Epaminondas drawn at its start by a ply limit of 0, as a
    /// tournament records one.
    fn finished() -> GameRecord {
        let mut finished = saved();
        finished.result = Some("1/2-1/2".into());
        finished.reason = Adjudication::PlyLimit.reason().into();
        finished.ply_limit = Some(0);
        finished.seed = Some(1);
        finished.adjudicate = Some(Adjudicator::default());
        finished
    }

    /// Each record is handed on as soon as its line is read: a record
    /// followed by a line that never ends is handed on, then the endless
    /// line is refused at the cap (read whole, it would never be).
    #[test]
    fn records_are_handed_on_line_by_line() {
        let line = format!("{}\n", saved().to_json());
        let endless = line.as_bytes().chain(std::io::repeat(b'x'));
        let mut seen = Vec::new();
        let err = scan_each(
            std::io::BufReader::new(endless),
            Holds::Saved,
            |(n, rec)| {
                seen.push((n, rec.number));
                Ok(())
            },
        )
        .unwrap_err();
        assert_eq!(seen, [(1, 1)]);
        assert!(
            err.0.starts_with("line 2: longer than a record may be"),
            "{err}"
        );
        // A saved game among other records is refused when the second is
        // read; a tournament's file holds none.
        let twice = line.repeat(2);
        let err = scan(&twice, Holds::Saved).unwrap_err();
        assert!(err.0.starts_with("line 1: game 1 is unfinished"), "{err}");
        assert!(scan(&line, Holds::Finished).is_err());
        assert_eq!(scan(&line, Holds::Saved).unwrap().records.len(), 1);
    }

    /// A line written carries its checksum last and reads back to its
    /// record; any one character of it changed, or its checksum key
    /// renamed, is refused; a file's lines all carry one or none does; a
    /// key no record has is refused, with or without a checksum.
    #[test]
    fn a_line_proves_its_record_by_its_checksum() {
        let rec = saved();
        let line = rec.to_line();
        assert!(line.starts_with(&rec.to_json()[..rec.to_json().len() - 1]));
        let crc = format!("{:08x}", crc32fast::hash(rec.to_json().as_bytes()));
        assert!(line.ends_with(&format!(",\"crc32\":\"{crc}\"}}")), "{line}");
        let read = scan(&format!("{line}\n"), Holds::Saved).unwrap();
        assert_eq!((read.records[0].1.clone(), read.unsealed), (rec, None));
        for (at, c) in line.char_indices() {
            let other = if c == '1' { '2' } else { '1' };
            let bad = format!("{}{other}{}\n", &line[..at], &line[at + 1..]);
            assert!(scan(&bad, Holds::Saved).is_err(), "{bad}");
        }
        let err = scan(&line.replace("crc32", "crc33"), Holds::Saved).unwrap_err();
        assert!(err.0.contains("unknown field `crc33`"), "{err}");
        let upper = format!(
            "{}\n",
            line.to_uppercase().replace("\"CRC32\"", "\"crc32\"")
        );
        assert!(scan(&upper, Holds::Saved).is_err());
        // Without a checksum: a file written before records carried one.
        let old = format!("{}\n", saved().to_json());
        assert_eq!(scan(&old, Holds::Saved).unwrap().unsealed, Some(1));
        let finished = finished();
        let (new, old) = (finished.to_line(), finished.to_json());
        for (text, says) in [
            (
                format!("{new}\n{old}\n"),
                "line 2: lacks a checksum and line 1 carries one",
            ),
            (
                format!("{old}\n{new}\n"),
                "line 2: carries a checksum and line 1 lacks one",
            ),
        ] {
            let err = scan(&text, Holds::Finished).unwrap_err();
            assert!(err.0.starts_with(says), "{err}");
        }
        assert!(scan(&old, Holds::Finished).is_ok());
        for (from, to) in [("\"seed\"", "\"sead\""), ("adjudicate\"", "adjudicade\"")] {
            let renamed = old.replacen(from, to, 1);
            assert_ne!(renamed, old);
            assert!(scan(&renamed, Holds::Finished).is_err(), "{renamed}");
            assert!(
                scan(&seal(renamed.trim()), Holds::Finished).is_err(),
                "{renamed}"
            );
        }
    }

    /// Records replayed in batches on every thread read as they do one at
    /// a time: the same records in order, and the first error of a file
    /// (a record that does not replay before a line that does not read)
    /// named by its line.
    #[test]
    fn records_replayed_in_batches_read_as_one_at_a_time() {
        let finished = finished();
        let lines: Vec<String> = (1..=150)
            .map(|n| {
                let mut r = finished.clone();
                r.number = n;
                r.pair = Some((n - 1) / 2);
                if n % 2 == 0 {
                    // A pair's second game: the sides swapped.
                    r.engines.reverse();
                    r.specs.reverse();
                }
                r.to_line()
            })
            .collect();
        let read = |text: &str, batch: usize| {
            let mut numbers = Vec::new();
            scan_in_batches(text.as_bytes(), Holds::Finished, batch, |(_, r)| {
                numbers.push(r.number);
                Ok(())
            })
            .map(|found| (numbers, found.records))
        };
        let good = lines.join("\n") + "\n";
        let (numbers, records) = read(&good, REPLAYED_AT_ONCE).unwrap();
        assert_eq!(numbers, (1..=150).collect::<Vec<u64>>());
        assert_eq!(records, 150);
        // Line 70 replays past its ply limit; line 100 is not a record.
        let mut bad: Vec<String> = lines.clone();
        let mut past = finished.clone();
        past.number = 70;
        past.pair = Some(34);
        past.engines.reverse();
        past.specs.reverse();
        past.reason = "resignation".into();
        bad[69] = past.to_line();
        bad[99] = "{not json".into();
        let bad = bad.join("\n") + "\n";
        let one = read(&bad, 1).unwrap_err();
        let many = read(&bad, REPLAYED_AT_ONCE).unwrap_err();
        assert!(one.0.starts_with("line 70: "), "{one}");
        assert_eq!(one, many);
    }
}
