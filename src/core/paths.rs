//! Output files that must not replace input files: the one guard of every
//! command that reads files and writes files (tables, records, networks,
//! openings, training data, pictures, pages, PGN). Every path a command
//! writes is compared with every path it reads and with every other path
//! it writes, as the files they name (through symbolic links, resolving
//! the directory of an output not yet there, and for existing files hard
//! links), before anything is written, so no output option can overwrite
//! an input; and every output is proven writable then, so that none is
//! found unwritable after the work.

use crate::game::ParseError;
use std::path::{Path, PathBuf};

/// The file `path` names: its canonical path if it exists, otherwise its
/// directory's canonical path joined with its file name.
fn resolved(path: &Path) -> PathBuf {
    if let Ok(p) = path.canonicalize() {
        return p;
    }
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    match (dir.canonicalize(), path.file_name()) {
        (Ok(d), Some(name)) => d.join(name),
        _ => path.to_path_buf(),
    }
}

/// Whether `a` and `b` name the same file.
#[must_use]
pub fn same_file(a: &Path, b: &Path) -> bool {
    if resolved(a) == resolved(b) {
        return true;
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        if let (Ok(x), Ok(y)) = (std::fs::metadata(a), std::fs::metadata(b)) {
            return x.dev() == y.dev() && x.ino() == y.ino();
        }
    }
    false
}

/// Fails if an output names the same file as an input or as another
/// output; each path comes with the option that gave it, for the message.
pub fn check_outputs(
    inputs: &[(&str, &Path)],
    outputs: &[(&str, &Path)],
) -> Result<(), ParseError> {
    for (i, (opt, out)) in outputs.iter().enumerate() {
        let clash = inputs
            .iter()
            .map(|(o, p)| (o, p, "reads"))
            .chain(outputs[..i].iter().map(|(o, p)| (o, p, "writes")))
            .find(|(_, p, _)| same_file(out, p));
        if let Some((other, p, verb)) = clash {
            return Err(ParseError::new(format!(
                "{opt} {} is the file {other} {} {verb}: choose another file",
                out.display(),
                p.display()
            )));
        }
    }
    for (opt, out) in outputs {
        check_writable(opt, out)?;
    }
    Ok(())
}

/// Fails unless the file at `path` (given by option `opt`) can be written:
/// not a directory, in a directory that exists, and open for writing. An
/// existing file is opened without being changed; a new one is created and
/// removed again, so nothing is left behind. Commands call it (through
/// [`check_outputs`]) before their work, so that an output that cannot be
/// written is refused at once rather than after hours of games or a solve.
pub fn check_writable(opt: &str, path: &Path) -> Result<(), ParseError> {
    let fail = |why: String| {
        ParseError::new(format!(
            "{opt} {}: cannot write there: {why}",
            path.display()
        ))
    };
    if path.is_dir() {
        return Err(fail("it is a directory".into()));
    }
    let mut open = std::fs::OpenOptions::new();
    open.write(true);
    if path.exists() {
        open.open(path).map_err(|e| fail(e.to_string()))?;
    } else {
        open.create_new(true)
            .open(path)
            .map_err(|e| fail(e.to_string()))?;
        std::fs::remove_file(path).map_err(|e| fail(e.to_string()))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_is_found_through_a_symlink_and_a_new_file_by_its_directory() {
        let dir = std::env::temp_dir().join(format!("gamut-paths-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let records = dir.join("r.jsonl");
        std::fs::write(&records, "").unwrap();
        let link = dir.join("link.html");
        let _ = std::fs::remove_file(&link);
        #[cfg(unix)]
        std::os::unix::fs::symlink(&records, &link).unwrap();
        #[cfg(unix)]
        assert!(same_file(&link, &records));
        assert!(same_file(&dir.join(".").join("r.jsonl"), &records));
        assert!(same_file(&dir.join("new.html"), &dir.join("./new.html")));
        assert!(!same_file(&dir.join("new.html"), &records));
        let err = check_outputs(&[], &[("--records", &records), ("--html", &records)]);
        assert!(err.unwrap_err().0.contains("--html"));
        assert!(check_outputs(&[("FILE", &records)], &[("--html", &dir.join("p.html"))]).is_ok());
        assert!(!dir.join("p.html").exists(), "the proof leaves no file");
        let err = check_outputs(&[], &[("--out", &dir)]).unwrap_err();
        assert!(err.0.contains("directory"), "{}", err.0);
        let err = check_outputs(&[], &[("--html", &dir.join("no/p.html"))]).unwrap_err();
        assert!(err.0.starts_with("--html"), "{}", err.0);
        std::fs::write(&records, "kept").unwrap();
        check_writable("--records", &records).unwrap();
        assert_eq!(std::fs::read_to_string(&records).unwrap(), "kept");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
