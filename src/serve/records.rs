//! Tournament records opened from the page, read-only and only from the
//! server's `--records-dir`: a file is named by its plain name, and a
//! name that leads anywhere else (a path, `..`, a link out, a hidden
//! file) is refused, as is a file over [`MAX_FILE`] bytes. A file's games
//! are served once every record in it replays; the folder's list names
//! exactly the files that are served.

use gamut_players::record::GameRecord;
use gamut_tournament::records::{scan_each, Holds};
use serde_json::{json, Value};
use std::collections::HashMap;
use std::io::{BufReader, Read};
use std::path::{Path, PathBuf};
use std::time::SystemTime;

/// The largest records file served, in bytes.
pub const MAX_FILE: u64 = 16 << 20;
/// The most entries of the folder looked at for its list.
pub const MAX_ENTRIES: usize = 10_000;

/// The path of records file `name` inside `dir`, if `name` is a plain
/// file name that leads to a file inside `dir`.
pub fn inside(dir: &Path, name: &str) -> Result<PathBuf, String> {
    let plain = !name.is_empty()
        && name != "."
        && name != ".."
        && !name.contains(['/', '\\', '\0'])
        && !name.starts_with('.');
    let refuse = || format!("'{name}' is not a records file of the records folder");
    if !plain {
        return Err(refuse());
    }
    let root = dir
        .canonicalize()
        .map_err(|e| format!("the records folder: {e}"))?;
    let path = root.join(name).canonicalize().map_err(|_| refuse())?;
    if path.parent() != Some(root.as_path()) || !path.is_file() {
        return Err(refuse());
    }
    Ok(path)
}

/// The names of the files of `dir` that [`open`] serves, sorted: plain
/// names of files inside `dir`, not over [`MAX_FILE`], whose every record
/// replays (each file replayed once, then again only when its size or
/// time changes: `seen` keeps the verdicts). The first [`MAX_ENTRIES`]
/// entries of the folder are looked at.
pub fn list(dir: &Path, seen: &Seen) -> Result<Vec<String>, String> {
    let entries =
        std::fs::read_dir(dir).map_err(|e| format!("cannot list the records folder: {e}"))?;
    let mut names: Vec<String> = entries
        .take(MAX_ENTRIES)
        .filter_map(Result::ok)
        .filter_map(|e| e.file_name().into_string().ok())
        .filter(|name| seen.serves(dir, name))
        .collect();
    names.sort();
    Ok(names)
}

/// A file's size and modification time: when either changes, the file
/// is read again.
type Stamp = (u64, Option<SystemTime>);

/// Whether each records file opened: by path, its [`Stamp`] when it was
/// read, and whether it was served.
#[derive(Default)]
pub struct Seen(std::sync::Mutex<HashMap<PathBuf, (Stamp, bool)>>);

impl Seen {
    /// Whether [`open`] serves file `name` of `dir` now (checked record by
    /// record, nothing kept).
    fn serves(&self, dir: &Path, name: &str) -> bool {
        let Ok(path) = servable(dir, name) else {
            return false;
        };
        let Ok(meta) = path.metadata() else {
            return false;
        };
        let stamp = (meta.len(), meta.modified().ok());
        let mut seen = self.0.lock().expect("never poisoned");
        match seen.get(&path) {
            Some(&(was, ok)) if was == stamp => ok,
            _ => {
                let ok = each_game(&path, name, |_| {}).is_ok();
                seen.insert(path, (stamp, ok));
                ok
            }
        }
    }
}

/// The path of records file `name` of `dir` if it is one to open: a plain
/// name of a file inside `dir` (see [`inside`]), not over [`MAX_FILE`].
fn servable(dir: &Path, name: &str) -> Result<PathBuf, String> {
    let path = inside(dir, name)?;
    let len = path
        .metadata()
        .map_err(|e| format!("cannot read {name}: {e}"))?
        .len();
    if len > MAX_FILE {
        return Err(too_large(name));
    }
    Ok(path)
}

fn too_large(name: &str) -> String {
    format!(
        "{name} is larger than {} MiB: too large to open here",
        MAX_FILE >> 20
    )
}

/// The games of records file `name` of `dir` as the page lists them, as
/// the text of a JSON array: number, game id, opening position, moves,
/// engines by side and result (games of more than two sides have none:
/// their winning side). Every record is checked as `gamut replay` checks
/// it (the one record check, [`scan_each`]: a known game whose every step
/// replays to the result it gives); a line that is not such a record is
/// an error naming it. Blank lines are skipped, and so is a last line cut
/// off part way (a tournament writing it now). The file is read line by
/// line, up to [`MAX_FILE`] bytes, each record written out as it is
/// checked: the memory taken is the answer's and one line's.
pub fn open(dir: &Path, name: &str) -> Result<String, String> {
    let path = servable(dir, name)?;
    let mut out = String::from("[");
    each_game(&path, name, |rec| {
        if out.len() > 1 {
            out.push(',');
        }
        out.push_str(&game(rec).to_string());
    })?;
    out.push(']');
    Ok(out)
}

/// Checks the records file at `path` (named `name`) record by record,
/// handing each to `each`; a file that grew past [`MAX_FILE`] bytes since
/// its size was read is refused.
fn each_game(path: &Path, name: &str, mut each: impl FnMut(&GameRecord)) -> Result<(), String> {
    let file = std::fs::File::open(path).map_err(|e| format!("cannot read {name}: {e}"))?;
    let mut input = BufReader::new(file.take(MAX_FILE + 1));
    let scanned = scan_each(&mut input, Holds::Saved, |(_, rec)| {
        each(&rec);
        Ok(())
    });
    if input.into_inner().limit() == 0 {
        return Err(too_large(name));
    }
    scanned.map(|_| ()).map_err(|e| format!("{name}: {e}"))
}

/// One record as the page lists it.
fn game(rec: &GameRecord) -> Value {
    json!({
        "number": rec.number,
        "game": rec.game,
        "opening": rec.opening,
        "moves": rec.moves,
        "engines": rec.engines,
        "result": rec.result.clone().or(rec.winner.map(|w| format!("side {w} wins"))),
        "reason": rec.reason,
    })
}

#[cfg(test)]
mod tests {
    use super::inside;

    #[test]
    fn only_plain_names_inside_the_folder_are_opened() {
        let dir = std::env::temp_dir().join(format!("gamut-records-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("sub")).unwrap();
        std::fs::write(dir.join("a.jsonl"), "").unwrap();
        assert!(inside(&dir, "a.jsonl").is_ok());
        for bad in [
            "../a.jsonl",
            "sub/../a.jsonl",
            "/etc/passwd",
            "..",
            ".",
            "",
            "sub",
            "b.jsonl",
            ".hidden",
        ] {
            assert!(inside(&dir, bad).is_err(), "{bad}");
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
