//! A learning run's files: outputs written under a temporary name, synced
//! and renamed, and the built-in network's slot.

use crate::cli::CliError;
use std::fs::File;
use std::path::{Path, PathBuf};

/// The temporary name an output is written under before it is renamed.
pub(super) fn temp_name(path: &Path) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(".tmp");
    PathBuf::from(name)
}

/// Flushes a file's contents to the disk.
pub(super) fn sync(path: &Path) -> Result<(), CliError> {
    File::open(path)
        .and_then(|f| f.sync_all())
        .map_err(|e| CliError(format!("cannot sync {}: {e}", path.display())))
}

/// Renames `from` to `to` and syncs their folder, so that the new name
/// survives a crash.
pub(super) fn rename(from: &Path, to: &Path) -> Result<(), CliError> {
    std::fs::rename(from, to).map_err(|e| {
        CliError(format!(
            "cannot rename {} to {}: {e}",
            from.display(),
            to.display()
        ))
    })?;
    if let Some(folder) = to.parent() {
        let folder = if folder.as_os_str().is_empty() {
            Path::new(".")
        } else {
            folder
        };
        File::open(folder)
            .and_then(|f| f.sync_all())
            .map_err(|e| CliError(format!("cannot sync {}: {e}", folder.display())))?;
    }
    Ok(())
}

/// The one file named `name` under `dir` (searched to any depth): a
/// game's built-in network, wherever its game keeps it.
pub(super) fn builtin_slot(dir: &Path, name: &str) -> Option<PathBuf> {
    let mut found = Vec::new();
    let mut folders = vec![dir.to_path_buf()];
    while let Some(folder) = folders.pop() {
        for entry in std::fs::read_dir(&folder).ok()?.flatten() {
            let path = entry.path();
            if path.is_dir() {
                folders.push(path);
            } else if entry.file_name() == name {
                found.push(path);
            }
        }
    }
    (found.len() == 1).then(|| found.remove(0))
}
