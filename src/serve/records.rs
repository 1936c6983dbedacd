//! Tournament records opened from the page, read-only and only from the
//! server's `--records-dir`: a file is named by its plain name, and a
//! name that leads anywhere else (a path, `..`, a link out) is refused.

use serde_json::{json, Value};
use std::path::{Path, PathBuf};

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

/// The games of a records file (one JSON object per line) as the page
/// lists them: number, game id, opening position, moves, engines by side
/// (`seats` in records of more than two sides written before one record
/// served every game) and result (games of more than two sides have none:
/// their winning side). Blank lines are skipped; a line that is not such a
/// record is an error naming it.
pub fn games(text: &str) -> Result<Value, String> {
    gamut_tournament::records::scan(text, gamut_tournament::records::Holds::Saved)
        .map_err(|e| e.to_string())?;
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let fail = |what: &str| format!("line {}: {what}", i + 1);
        let rec: Value = serde_json::from_str(line).map_err(|e| fail(&e.to_string()))?;
        let field = |k: &str| rec.get(k).cloned().unwrap_or(Value::Null);
        let moves = rec
            .get("moves")
            .and_then(Value::as_array)
            .ok_or_else(|| fail("not a game record (no moves)"))?;
        if !moves.iter().all(Value::is_string) || !field("game").is_string() {
            return Err(fail("not a game record"));
        }
        out.push(json!({
            "number": field("number"),
            "game": field("game"),
            "opening": field("opening"),
            "moves": moves,
            "engines": rec.get("engines").or(rec.get("seats")).cloned().unwrap_or(Value::Null),
            "result": match (field("result"), field("winner")) {
                (Value::Null, Value::Number(w)) => json!(format!("side {w} wins")),
                (r, _) => r,
            },
            "reason": field("reason"),
        }));
    }
    Ok(Value::Array(out))
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
