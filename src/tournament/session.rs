//! A tournament session: plays what remains of a plan, appending each
//! finished game to the records file and counting it in the running tally
//! as soon as it ends, until the plan is done, the SPRT decides or the
//! session is interrupted.

use crate::play::Plan;
use crate::records::{self, Line};
use crate::report::Tally;
use gamut_core::game::ParseError;
use gamut_players::engine::Engine;
use gamut_players::record::GameRecord;
use std::collections::BTreeSet;
use std::fs::{File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering::SeqCst};

/// Why a session stopped.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Ended {
    /// Every game of the plan was played.
    Complete,
    /// The SPRT accepted a hypothesis.
    Sprt,
    /// Stopped from outside before the plan was done.
    Interrupted,
    /// Not played here: the report of records files merged.
    Merged,
}

impl Ended {
    /// The word the report uses (`"ended"` in JSON).
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            Ended::Complete => "complete",
            Ended::Sprt => "sprt",
            Ended::Interrupted => "interrupted",
            Ended::Merged => "merged",
        }
    }
}

/// A records file open for appending: each game is written as one line and
/// flushed as soon as it finishes, so a crash loses at most the line being
/// written.
#[derive(Debug)]
pub struct RecordsFile {
    file: File,
    path: PathBuf,
}

/// A records file reopened to continue a tournament.
#[derive(Debug)]
pub struct Reopened {
    /// The file, positioned after its last complete record.
    pub file: RecordsFile,
    /// The records already in it, checked, with their line numbers.
    pub previous: Vec<Line>,
    /// The line number of a cut-off last record that was dropped (its game
    /// is played again).
    pub dropped: Option<usize>,
}

impl RecordsFile {
    /// Creates the file, replacing any file of that name.
    pub fn create(path: &Path) -> Result<RecordsFile, ParseError> {
        let file = File::create(path).map_err(|e| cannot_write(path, e))?;
        Ok(RecordsFile {
            file,
            path: path.to_path_buf(),
        })
    }

    /// Opens the file to continue it: every record is checked as
    /// [`records::scan_each`] checks them, and must carry its checksum (a
    /// file written before records carried one is refused: appended to, it
    /// would mix lines with and without), then by `check` (against the plan);
    /// only then is a last line cut off by a crash cut from the file (and
    /// reported in [`Reopened::dropped`]). A missing file is created empty.
    pub fn reopen(
        path: &Path,
        check: impl FnOnce(&[Line]) -> Result<(), ParseError>,
    ) -> Result<Reopened, ParseError> {
        let mut previous = Vec::new();
        let scan = match path.try_exists() {
            Ok(false) => records::Scanned {
                records: 0,
                torn: None,
                unterminated: false,
                unsealed: None,
            },
            _ => records::scan_file(path, records::Holds::Finished, |line| {
                previous.push(line);
                Ok(())
            })?,
        };
        if let Some(line) = scan.unsealed {
            return Err(ParseError::new(format!(
                "{} line {line}: a record without a checksum (written before records carried one): --resume appends only to a file whose records carry one (merge, replay, serve and balance still read it; --overwrite starts afresh)",
                path.display()
            )));
        }
        check(&previous).map_err(|e| ParseError::new(format!("{} {e}", path.display())))?;
        let mut file = OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .map_err(|e| cannot_write(path, e))?;
        if let Some((_, start)) = scan.torn {
            file.set_len(start).map_err(|e| cannot_write(path, e))?;
        }
        if scan.unterminated {
            file.write_all(b"\n").map_err(|e| cannot_write(path, e))?;
        }
        Ok(Reopened {
            file: RecordsFile {
                file,
                path: path.to_path_buf(),
            },
            previous,
            dropped: scan.torn.map(|(line, _)| line),
        })
    }

    /// Appends one record as a line, its checksum last, and flushes it.
    pub fn append(&mut self, rec: &GameRecord) -> Result<(), ParseError> {
        let mut line = rec.to_line();
        line.push('\n');
        self.file
            .write_all(line.as_bytes())
            .and_then(|_| self.file.flush())
            .map_err(|e| cannot_write(&self.path, e))
    }
}

fn cannot_write(path: &Path, e: io::Error) -> ParseError {
    ParseError::new(format!("cannot write {}: {e}", path.display()))
}

/// Checks that records read back from a file are games of `plan`: each
/// number is in its schedule once, with its engines, specs, ply limit,
/// score adjudication and opening (so the seed, engines and openings are the ones it was started
/// with). Errors read `line N: problem`.
pub fn check_previous(plan: &Plan, previous: &[Line]) -> Result<(), ParseError> {
    records::check_previous(previous, plan.game.id().name(), plan.seed, |rec| {
        let Some(i) = plan.index_of(rec.number) else {
            return Err("is not in this tournament's schedule".into());
        };
        let seating = plan.seating(i);
        let engines: Vec<&Engine> = seating.engines.iter().map(|&e| &plan.engines[e]).collect();
        let names: Vec<&str> = engines.iter().map(|e| e.name.as_str()).collect();
        let specs: Vec<&str> = engines.iter().map(|e| e.spec.as_str()).collect();
        if rec.engines != names || rec.specs != specs {
            return Err(format!(
                "played by {}, not by this tournament's {}",
                rec.specs.join(" vs "),
                specs.join(" vs ")
            ));
        }
        if let Some(limit) = rec.ply_limit.filter(|&l| l != plan.rules.ply_limit) {
            return Err(format!(
                "played to a ply limit of {limit}, not this tournament's {}",
                plan.rules.ply_limit
            ));
        }
        if let Some(rules) = rec.adjudicate.filter(|&a| a != plan.rules.adjudicate) {
            return Err(format!(
                "played under adjudication {rules}, not this tournament's {}",
                plan.rules.adjudicate
            ));
        }
        let opening = plan.opening(&seating).map_err(|e| e.to_string())?.text();
        if rec.opening_index != plan.recorded_opening(&seating) || rec.opening != opening {
            return Err(format!(
                "opening {} '{}' is not this tournament's opening {} '{opening}' (another seed or openings file?)",
                rec.opening_index.unwrap_or_default(),
                rec.opening,
                seating.opening
            ));
        }
        Ok(())
    })
}

/// How a session ended: the tally of every game (the previous ones and
/// those played now) and why it stopped.
#[derive(Clone, Debug)]
pub struct Finished {
    /// Every game counted.
    pub tally: Tally,
    /// Why the session stopped.
    pub ended: Ended,
}

/// Plays the games of `plan` not among `previous` on `concurrency`
/// threads. Each finished game is appended to `records` (if any), counted
/// in `tally` (which starts empty) and handed with the tally to `each` at
/// once, on the calling thread. Stops starting games when `stop` is raised
/// (from outside, or here when the SPRT decides or a write fails).
/// `previous` must have passed [`check_previous`].
pub fn run(
    plan: &Plan,
    concurrency: usize,
    mut tally: Tally,
    previous: &[GameRecord],
    mut records: Option<&mut RecordsFile>,
    stop: &AtomicBool,
    each: &mut dyn FnMut(&GameRecord, &Tally) -> io::Result<()>,
) -> Result<Finished, ParseError> {
    for rec in previous {
        tally.add(rec);
    }
    if tally.sprt_decided() {
        return Ok(Finished {
            tally,
            ended: Ended::Sprt,
        });
    }
    let skip: BTreeSet<u64> = previous.iter().map(|r| r.number).collect();
    let mut failure: Option<ParseError> = None;
    let mut done = |rec: GameRecord| {
        if failure.is_some() {
            return;
        }
        let written = match records.as_deref_mut() {
            Some(f) => f.append(&rec),
            None => Ok(()),
        };
        tally.add(&rec);
        let shown = written.and_then(|_| {
            each(&rec, &tally).map_err(|e| ParseError::new(format!("cannot write the output: {e}")))
        });
        if let Err(e) = shown {
            failure = Some(e);
            stop.store(true, SeqCst);
        } else if tally.sprt_decided() {
            stop.store(true, SeqCst);
        }
    };
    let played = plan.run(concurrency, &skip, stop, &mut done);
    if let Some(e) = failure {
        return Err(e);
    }
    played?;
    let ended = if tally.sprt_decided() {
        Ended::Sprt
    } else if tally.games() < plan.game_count() as u64 {
        Ended::Interrupted
    } else {
        Ended::Complete
    };
    Ok(Finished { tally, ended })
}
