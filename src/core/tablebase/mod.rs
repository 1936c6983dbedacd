//! Tablebases: games small enough to be solved outright store the exact
//! value of every state in a file. This module holds what is common to
//! them: the value type, the [`Tablebase`] trait the command line drives
//! (without naming a game), and the file format.
//!
//! File format `GAMUTTB1` (little-endian):
//!
//! | bytes | content |
//! |---|---|
//! | 0..8 | the magic `GAMUTTB1` (format name and version) |
//! | 8..24 | the game id, padded with zero bytes |
//! | 24..32 | the number of entries `n` |
//! | 32..40 | the FNV-1a 64-bit checksum of the entries |
//! | 40..40+n | the entries, one byte each |
//!
//! An entry is a [`Value`] for the side to move: 0 is a draw, `d + 1` is a
//! forced end in `d` plies (a win when `d` is odd, a loss when even).

pub mod agreement;

use crate::evaluate::EVAL_LIMIT;
use std::fmt;
use std::io::Read;
use std::path::{Path, PathBuf};

/// The exact value of a state for the side to move under perfect play:
/// the winner hurries, the loser delays.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Value {
    /// The side to move wins in this many plies.
    Win(u32),
    /// The side to move loses in this many plies (0: the game is over).
    Loss(u32),
    /// Neither side can force a result.
    Draw,
}

impl Value {
    /// The value decoded from a table entry.
    #[must_use]
    pub fn from_entry(e: u8) -> Value {
        match e {
            0 => Value::Draw,
            e if (e - 1) % 2 == 1 => Value::Win(u32::from(e) - 1),
            e => Value::Loss(u32::from(e) - 1),
        }
    }

    /// The table entry of this value; `None` if the distance is too long
    /// for one byte or has the wrong parity.
    #[must_use]
    pub fn entry(self) -> Option<u8> {
        match self {
            Value::Draw => Some(0),
            Value::Win(d) if d % 2 == 1 && d < 255 => Some(d as u8 + 1),
            Value::Loss(d) if d % 2 == 0 && d < 255 => Some(d as u8 + 1),
            _ => None,
        }
    }

    /// The value as an evaluation score for the side to move, within
    /// ±[`EVAL_LIMIT`]: a win in `d` plies is `EVAL_LIMIT - d` (a quick
    /// win above a slow one), a loss in `d` its negation, a draw 0.
    #[must_use]
    pub fn score(self) -> i32 {
        match self {
            Value::Win(d) => EVAL_LIMIT - d.min(255) as i32,
            Value::Loss(d) => -(EVAL_LIMIT - d.min(255) as i32),
            Value::Draw => 0,
        }
    }

    /// The value, for the player who moves into a state of value `self`.
    #[must_use]
    pub fn before_move(self) -> Value {
        match self {
            Value::Win(d) => Value::Loss(d + 1),
            Value::Loss(d) => Value::Win(d + 1),
            Value::Draw => Value::Draw,
        }
    }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Win(d) => write!(f, "win in {d}"),
            Value::Loss(d) => write!(f, "loss in {d}"),
            Value::Draw => f.write_str("draw"),
        }
    }
}

/// What a table says about one position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Probe {
    /// The value for the side to move.
    pub value: Value,
    /// Every move that keeps that value, as move text, sorted.
    pub best: Vec<String>,
}

/// A finished solve: the entries to store and a summary to print.
pub struct Solution {
    /// One entry per state of the game's index.
    pub entries: Vec<u8>,
    /// Lines reporting the state counts and the value distribution.
    pub summary: Vec<String>,
}

/// Reports progress: the stage's name, work done, and the stage's total.
pub type Progress<'a> = &'a (dyn Fn(&str, u64, u64) + Sync);

/// A game that can be solved outright.
pub trait Tablebase: Sync {
    /// The game id, as on the command line.
    fn game(&self) -> &'static str;

    /// Solves every state on `threads` threads.
    fn solve(&self, threads: usize, progress: Progress) -> Result<Solution, String>;

    /// Loads and checks the table at `path`, for many lookups.
    fn open(&self, path: &Path) -> Result<Box<dyn Oracle>, String>;

    /// Loads the table at `path` and looks up the position given as text.
    fn probe(&self, path: &Path, position: &str) -> Result<Probe, String> {
        self.open(path)?.probe(position)
    }
}

/// A loaded table: the exact value of any position of its game.
pub trait Oracle: Send + Sync {
    /// The value of the position given as text, and every move keeping it.
    fn probe(&self, position: &str) -> Result<Probe, String>;

    /// The number of the table's state for the position given as text:
    /// positions the table does not tell apart (images under the game's
    /// symmetries, histories that leave the same future) share it. `None`
    /// where the table numbers no states.
    fn state(&self, position: &str) -> Result<Option<u64>, String> {
        let _ = position;
        Ok(None)
    }
}

/// Where a command finds a game's table: `explicit` if given, else the
/// default location if a table is there; `None` when there is none to use.
#[must_use]
pub fn locate(game: &str, explicit: Option<&Path>) -> Option<PathBuf> {
    match explicit {
        Some(p) => Some(p.to_path_buf()),
        None => default_path(game).filter(|p| p.exists()),
    }
}

const MAGIC: &[u8; 8] = b"GAMUTTB1";
const HEADER: usize = 40;

/// FNV-1a, 64 bits.
#[must_use]
pub fn checksum(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// Where a game's table lives by default: `$XDG_DATA_HOME/gamut/<game>.table`,
/// else `~/.local/share/gamut/<game>.table`.
#[must_use]
pub fn default_path(game: &str) -> Option<PathBuf> {
    let base = match std::env::var_os("XDG_DATA_HOME").filter(|d| !d.is_empty()) {
        Some(d) => PathBuf::from(d),
        None => {
            PathBuf::from(std::env::var_os("HOME").filter(|h| !h.is_empty())?).join(".local/share")
        }
    };
    Some(base.join("gamut").join(format!("{game}.table")))
}

/// Writes `entries` with the header for `game` to `path`, creating its
/// folder.
pub fn write(path: &Path, game: &str, entries: &[u8]) -> Result<(), String> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir)
            .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    }
    let mut bytes = Vec::with_capacity(HEADER + entries.len());
    bytes.extend_from_slice(MAGIC);
    let mut id = [0u8; 16];
    id[..game.len()].copy_from_slice(game.as_bytes());
    bytes.extend_from_slice(&id);
    bytes.extend_from_slice(&(entries.len() as u64).to_le_bytes());
    bytes.extend_from_slice(&checksum(entries).to_le_bytes());
    bytes.extend_from_slice(entries);
    std::fs::write(path, bytes).map_err(|e| format!("cannot write {}: {e}", path.display()))
}

/// Reads the table of `game` at `path`, checking the header, the number of
/// entries (`expected`) and the checksum. No more is read than a table of
/// `expected` entries holds, and one byte, whatever the file's size.
pub fn read(path: &Path, game: &str, expected: usize) -> Result<Vec<u8>, String> {
    let mut bytes = Vec::new();
    std::fs::File::open(path)
        .and_then(|f| {
            f.take((HEADER + expected) as u64 + 1)
                .read_to_end(&mut bytes)
        })
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let bad = |why: &str| format!("{} is not a valid {game} table: {why}", path.display());
    if bytes.len() < HEADER || &bytes[..8] != MAGIC {
        return Err(bad("no GAMUTTB1 header"));
    }
    let id = &bytes[8..24];
    let len = id.iter().position(|&b| b == 0).unwrap_or(id.len());
    if &id[..len] != game.as_bytes() {
        return Err(bad(&format!(
            "it is for game '{}'",
            String::from_utf8_lossy(&id[..len])
        )));
    }
    let word = |at: usize| u64::from_le_bytes(bytes[at..at + 8].try_into().expect("8 bytes"));
    let (count, sum) = (word(24), word(32));
    if count != expected as u64 {
        return Err(bad(&format!("{count} entries, expected {expected}")));
    }
    let entries = &bytes[HEADER..];
    if entries.len() as u64 != count {
        return Err(bad(&format!(
            "{} bytes of entries, header says {count}",
            entries.len()
        )));
    }
    if checksum(entries) != sum {
        return Err(bad("checksum mismatch"));
    }
    Ok(entries.to_vec())
}

/// The peak resident memory of this process in bytes, where the system
/// reports it (Linux).
#[must_use]
pub fn peak_memory() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_round_trip_and_moves_negate() {
        for v in [Value::Draw, Value::Loss(0), Value::Win(1), Value::Loss(40)] {
            assert_eq!(Value::from_entry(v.entry().unwrap()), v);
        }
        assert_eq!(Value::Win(2).entry(), None);
        assert_eq!(Value::Loss(0).before_move(), Value::Win(1));
        assert_eq!(Value::Win(3).before_move(), Value::Loss(4));
        assert_eq!(Value::Win(23).to_string(), "win in 23");
        assert_eq!(Value::Win(1).score(), 9_999);
        assert_eq!(Value::Loss(0).score(), -10_000);
        assert_eq!(Value::Draw.score(), 0);
    }

    #[test]
    fn corrupt_files_are_errors() {
        let dir = std::env::temp_dir().join(format!("gamut-tb-{}", std::process::id()));
        let path = dir.join("t.table");
        write(&path, "aporia", &[0, 1, 2, 3]).unwrap();
        assert_eq!(read(&path, "aporia", 4).unwrap(), [0, 1, 2, 3]);
        assert!(read(&path, "aporia", 5).unwrap_err().contains("entries"));
        assert!(read(&path, "apart", 4).unwrap_err().contains("for game"));
        let mut bytes = std::fs::read(&path).unwrap();
        bytes[41] ^= 1;
        std::fs::write(&path, &bytes).unwrap();
        assert!(read(&path, "aporia", 4).unwrap_err().contains("checksum"));
        std::fs::write(&path, b"GAMUT").unwrap();
        assert!(read(&path, "aporia", 4).unwrap_err().contains("header"));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
