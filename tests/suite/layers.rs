//! The layers, checked by the compiler: each layer is a crate of the
//! workspace and may depend only on the crates below it
//! (docs/architecture.md), so an upward import is an unresolved name.
//!
//! The first test reads the dependency graph (`cargo metadata`); the long
//! check copies each layer crate, adds one import of the layer above it,
//! and asserts that the copy no longer compiles, while an unchanged copy
//! does.

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The layer crates from the bottom up: name, folder, and the layer
/// crates it may depend on. The searcher names no game, so it stands
/// beside the games, not above them; the players stand on both, and the
/// game object (the engine) on them; the trainer stands on the game
/// object, beside the tournaments, and only the command line uses it; the
/// board's JSON without a server (gamut-board) stands on the game object
/// and the records, and both the server (gamut-serve) and the browser's
/// module (gamut-web) stand on it.
const LAYERS: [(&str, &str, &[&str]); 12] = [
    ("gamut-core", "src/core", &[]),
    ("gamut-games", "src/games", &["gamut-core"]),
    ("gamut-search", "src/search", &["gamut-core"]),
    (
        "gamut-players",
        "src/players",
        &["gamut-core", "gamut-games", "gamut-search"],
    ),
    (
        "gamut-engine",
        "src/engine",
        &["gamut-core", "gamut-games", "gamut-search", "gamut-players"],
    ),
    (
        "gamut-tournament",
        "src/tournament",
        &[
            "gamut-core",
            "gamut-games",
            "gamut-search",
            "gamut-players",
            "gamut-engine",
        ],
    ),
    (
        "gamut-protocol",
        "src/protocol",
        &["gamut-core", "gamut-games", "gamut-search", "gamut-engine"],
    ),
    (
        "gamut-board",
        "src/board",
        &[
            "gamut-core",
            "gamut-games",
            "gamut-search",
            "gamut-players",
            "gamut-engine",
            "gamut-tournament",
        ],
    ),
    (
        "gamut-serve",
        "src/serve",
        &[
            "gamut-core",
            "gamut-games",
            "gamut-search",
            "gamut-players",
            "gamut-engine",
            "gamut-tournament",
            "gamut-board",
        ],
    ),
    ("gamut-web", "src/web", &["gamut-board"]),
    (
        "gamut-train",
        "tools/train",
        &["gamut-core", "gamut-games", "gamut-search", "gamut-engine"],
    ),
    ("gamut", ".", &[]),
];

/// Imports that must not compile: a layer crate and a crate it may not use.
const FORBIDDEN: [(&str, &str); 10] = [
    ("gamut-core", "gamut-games"),
    ("gamut-games", "gamut-search"),
    ("gamut-games", "gamut-engine"),
    ("gamut-search", "gamut-games"),
    ("gamut-search", "gamut-engine"),
    ("gamut-search", "gamut-tournament"),
    ("gamut-players", "gamut-tournament"),
    ("gamut-tournament", "gamut-protocol"),
    ("gamut-tournament", "gamut-serve"),
    ("gamut-protocol", "gamut-serve"),
];

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The workspace's packages: name and the names of its dependencies.
fn packages() -> Vec<(String, Vec<String>)> {
    let out = Command::new(env!("CARGO"))
        .args([
            "metadata",
            "--format-version",
            "1",
            "--no-deps",
            "--offline",
        ])
        .current_dir(root())
        .output()
        .expect("cargo metadata runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let meta: Value = serde_json::from_slice(&out.stdout).expect("metadata is JSON");
    meta["packages"]
        .as_array()
        .expect("a package list")
        .iter()
        .map(|p| {
            let deps = p["dependencies"]
                .as_array()
                .expect("a dependency list")
                .iter()
                .filter(|d| d["kind"].is_null())
                .map(|d| d["name"].as_str().expect("a name").to_string())
                .collect();
            (p["name"].as_str().expect("a name").to_string(), deps)
        })
        .collect()
}

/// The layer of a package, if it is one.
fn layer(name: &str) -> Option<usize> {
    LAYERS.iter().position(|(n, _, _)| *n == name)
}

#[test]
fn each_layer_is_a_crate_that_depends_only_on_the_layers_below() {
    let packages = packages();
    for (name, _, _) in LAYERS {
        assert!(
            packages.iter().any(|(p, _)| p == name),
            "the workspace has no crate {name}"
        );
    }
    let mut upward = Vec::new();
    for (name, deps) in &packages {
        let Some(own) = layer(name) else {
            // Other tools stand beside the layers, above them all.
            continue;
        };
        let (_, _, allowed) = LAYERS[own];
        for dep in deps {
            // The top (the command line) may use every layer.
            if layer(dep).is_some() && own + 1 < LAYERS.len() && !allowed.contains(&dep.as_str()) {
                upward.push(format!("{name} depends on {dep}"));
            }
        }
    }
    assert!(upward.is_empty(), "upward dependencies: {upward:?}");
}

/// `cargo check`s a copy of the layer crate in `folder` (its path
/// dependencies pointing at the real workspace), with `extra` appended to
/// its `lib.rs`; the compiler's messages on failure.
fn check_copy(name: &str, folder: &str, extra: &str, work: &Path) -> Result<(), String> {
    let copy = work.join(name);
    let _ = std::fs::remove_dir_all(&copy);
    std::fs::create_dir_all(&copy).unwrap();
    let src = root().join(folder);
    copy_tree(&src, &copy);
    // The copy is a workspace of its own whose dependencies are the real
    // crates, versions as the workspace gives them.
    let workspace = std::fs::read_to_string(root().join("Cargo.toml")).unwrap();
    let start = workspace.find("[workspace.dependencies]").unwrap();
    let rest = &workspace[start + "[workspace.dependencies]".len()..];
    let table = &rest[..rest.find("\n[").unwrap_or(rest.len())];
    let table = table.replace(
        "path = \"src/",
        &format!("path = \"{}/src/", root().display()),
    );
    let manifest = std::fs::read_to_string(copy.join("Cargo.toml")).unwrap();
    let manifest = manifest
        .replace("version.workspace = true", "version = \"0.1.0\"")
        .replace("edition.workspace = true", "edition = \"2021\"")
        .replace("license.workspace = true", "license = \"MIT\"")
        .replace("[lints]\nworkspace = true\n", "");
    let manifest = format!("{manifest}\n[workspace]\n\n[workspace.dependencies]{table}\n");
    std::fs::write(copy.join("Cargo.toml"), manifest).unwrap();
    let lib = copy.join("lib.rs");
    let text = std::fs::read_to_string(&lib).unwrap();
    std::fs::write(&lib, format!("{text}\n{extra}\n")).unwrap();
    let out = Command::new(env!("CARGO"))
        .args(["check", "--offline", "--quiet", "--lib"])
        .arg("--target-dir")
        .arg(work.join("target"))
        .env("CARGO_TARGET_DIR", work.join("target"))
        .current_dir(&copy)
        .output()
        .expect("cargo check runs");
    if out.status.success() {
        Ok(())
    } else {
        Err(String::from_utf8_lossy(&out.stderr).into_owned())
    }
}

fn copy_tree(from: &Path, to: &Path) {
    for entry in std::fs::read_dir(from).unwrap() {
        let path = entry.unwrap().path();
        let dest = to.join(path.file_name().unwrap());
        if path.is_dir() {
            std::fs::create_dir_all(&dest).unwrap();
            copy_tree(&path, &dest);
        } else {
            std::fs::copy(&path, &dest).unwrap();
        }
    }
}

#[test]
#[ignore = "long check"]
fn long_an_upward_import_does_not_compile() {
    let work = std::env::temp_dir().join(format!("gamut-layers-{}", std::process::id()));
    std::fs::create_dir_all(&work).unwrap();
    for (name, above) in FORBIDDEN {
        let (_, folder, _) = LAYERS[layer(name).expect("a layer")];
        // The unchanged copy compiles: the harness itself works.
        if let Err(e) = check_copy(name, folder, "", &work) {
            panic!("an unchanged copy of {name} does not compile:\n{e}");
        }
        let import = format!("pub use {} as _above;", above.replace('-', "_"));
        match check_copy(name, folder, &import, &work) {
            Ok(()) => panic!("{name} compiled with `{import}`"),
            Err(e) => assert!(
                e.contains("E0432") || e.contains("E0433") || e.contains("unresolved"),
                "{name} with `{import}` failed for another reason:\n{e}"
            ),
        }
    }
    let _ = std::fs::remove_dir_all(&work);
}

/// The code outside the games layer that must name no game: every Rust
/// file of `src` but `src/games` and of `tools/train/src` (without its
/// `#[cfg(test)]` part, which plays named games on purpose), and the
/// board's scripts (every `.js` file of `src/serve/assets`). A fact of
/// one game belongs in the game's registry entry (its `GameInfo`, network
/// or features), so that adding a game touches no file outside its folder
/// and the registry line.
fn code_outside_the_games() -> Vec<(PathBuf, String)> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                walk(&path, out);
            } else if path.extension().is_some_and(|e| e == "rs") {
                out.push(path);
            }
        }
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    for dir in ["src", "tools/train/src"] {
        walk(&root.join(dir), &mut files);
    }
    files.retain(|f| !f.starts_with(root.join("src/games")));
    let rust = files.len();
    for entry in std::fs::read_dir(root.join("src/serve/assets")).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "js") {
            files.push(path);
        }
    }
    assert!(files.len() - rust > 2, "the page's scripts: {files:?}");
    files
        .into_iter()
        .map(|f| {
            let text = std::fs::read_to_string(&f).unwrap();
            let code = match text.find("#[cfg(test)]") {
                Some(i) => text[..i].to_string(),
                None => text,
            };
            (f, code)
        })
        .collect()
}

#[test]
fn no_game_is_named_outside_the_games_layer() {
    let ids = crate::serve::GAMES;
    let types = [
        "Aporia",
        "Apart",
        "Empedocles",
        "Spokes",
        "Spokes4",
        "Spokes2v2",
        "Epaminondas",
    ];
    let files = code_outside_the_games();
    assert!(files.len() > 50, "{} files", files.len());
    let mut found = Vec::new();
    for (file, code) in &files {
        for (n, line) in code.lines().enumerate() {
            let named = ids.iter().any(|id| {
                [format!("\"{id}\""), format!("'{id}'"), format!("(\"{id}")]
                    .iter()
                    .any(|q| line.contains(q.as_str()))
                    || line.contains(&format!("games::{id}::"))
            }) || types.iter().any(|t| line.contains(&format!("GameId::{t}")));
            if named {
                found.push(format!("{}:{}: {}", file.display(), n + 1, line.trim()));
            }
        }
    }
    assert!(
        found.is_empty(),
        "game ids outside src/games:\n{}",
        found.join("\n")
    );
}

/// Where a game id becomes a game type outside `src/games`, at most: the
/// game object's one dispatch (`gamut_engine::game`) and the
/// evaluation-terms tool's typed records. The number only falls; the goal
/// is the object's alone (docs/architecture.md, "The game object").
const DISPATCHES_AT_MOST: usize = 2;

#[test]
fn a_game_is_chosen_at_run_time_in_few_places() {
    let mut found = Vec::new();
    for (file, code) in code_outside_the_games() {
        for (n, line) in code.lines().enumerate() {
            let line = line.trim();
            if line.contains("with_game!(") && !line.starts_with("//") {
                found.push(format!("{}:{}", file.display(), n + 1));
            }
        }
    }
    assert!(
        found.iter().any(|f| f.contains("src/engine/lib.rs")),
        "the game object dispatches: {found:?}"
    );
    assert!(
        found.len() <= DISPATCHES_AT_MOST,
        "{} places choose a game, more than {DISPATCHES_AT_MOST}:\n{}",
        found.len(),
        found.join("\n")
    );
}
