//! The library's layers, checked: a module may use its own layer and the
//! layers below it, never one above (docs/architecture.md).
//!
//! | layer | modules |
//! |---|---|
//! | 0 pictures | `svg` |
//! | 1 the traits | `game` |
//! | 2 generic machinery | `bits`, `moves`, `nnue`, `perft`, `search`, `tablebase` |
//! | 3 the games | `games` (and its `with_game!`), `suite` |
//! | 4 tournaments | `tournament`, `soak` |
//! | 5 command line | `protocol`, `console`, `serve` (and the binary's `cli`) |
//!
//! So the traits name no machinery, and the machinery (bitboards, search,
//! perft, the networks, tablebases) names no game.
//!
//! Each source file's `crate::…` paths outside comments are read (with
//! `crate::{a, b}` groups); a path to a module of a higher layer fails the
//! test, naming the file and the path.

use std::path::{Path, PathBuf};

/// The layer of top-level library module `name`.
fn layer(name: &str) -> Option<u8> {
    match name {
        "svg" => Some(0),
        "game" => Some(1),
        "bits" | "moves" | "nnue" | "perft" | "search" | "tablebase" => Some(2),
        "games" | "with_game" | "suite" => Some(3),
        "tournament" | "soak" => Some(4),
        "protocol" | "console" | "serve" => Some(5),
        _ => None,
    }
}

/// The top-level module a source file belongs to (`src/search/tt.rs`:
/// `search`).
fn module_of(src: &Path, file: &Path) -> String {
    let rel = file.strip_prefix(src).expect("under src");
    let first = rel.components().next().expect("a path");
    let name = first.as_os_str().to_string_lossy();
    name.trim_end_matches(".rs").to_string()
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("src reads") {
        let path = entry.expect("an entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The code of `text` without line comments (doc comments included).
fn code(text: &str) -> String {
    text.lines()
        .map(|l| match l.find("//") {
            Some(i) => &l[..i],
            None => l,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The top-level modules that the `crate::` paths of `code` name.
fn crate_paths(code: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = code;
    while let Some(i) = rest.find("crate::") {
        rest = &rest[i + "crate::".len()..];
        if let Some(group) = rest.strip_prefix('{') {
            let mut depth = 0;
            let end = group
                .char_indices()
                .find(|&(_, c)| {
                    match c {
                        '{' => depth += 1,
                        '}' if depth == 0 => return true,
                        '}' => depth -= 1,
                        _ => {}
                    }
                    false
                })
                .map_or(group.len(), |(i, _)| i);
            let mut depth = 0;
            let mut start = 0;
            let inner = &group[..end];
            for (i, c) in inner.char_indices().chain([(inner.len(), ',')]) {
                match c {
                    '{' => depth += 1,
                    '}' => depth -= 1,
                    ',' if depth == 0 => {
                        let item = inner[start..i].trim();
                        let name: String = item
                            .chars()
                            .take_while(|c| c.is_alphanumeric() || *c == '_')
                            .collect();
                        if !name.is_empty() {
                            out.push(name);
                        }
                        start = i + 1;
                    }
                    _ => {}
                }
            }
        } else {
            let name: String = rest
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            out.push(name);
        }
    }
    out
}

#[test]
fn no_module_uses_a_layer_above_its_own() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let mut upward = Vec::new();
    let mut checked = 0;
    for file in &files {
        let module = module_of(&src, file);
        // The binary's own modules (main.rs, cli/) are the top layer.
        let Some(own) = layer(&module) else {
            assert!(
                ["main", "cli", "lib"].contains(&module.as_str()),
                "{}: module '{module}' has no layer in this test",
                file.display()
            );
            continue;
        };
        checked += 1;
        let text = std::fs::read_to_string(file).expect("a source file reads");
        for name in crate_paths(&code(&text)) {
            match layer(&name) {
                Some(l) if l > own => upward.push(format!(
                    "{} (layer {own}) uses crate::{name} (layer {l})",
                    file.display()
                )),
                Some(_) => {}
                None => panic!("{}: crate::{name} has no layer", file.display()),
            }
        }
    }
    assert!(checked > 50, "only {checked} files checked");
    assert!(upward.is_empty(), "upward imports:\n{}", upward.join("\n"));
}

#[test]
fn crate_paths_are_read_from_groups_and_paths() {
    let text = "use crate::game::{Game, Player};\nuse crate::{search::{tt, Limits}, svg};\nlet x = crate::perft::perft(p, 1);";
    assert_eq!(crate_paths(text), ["game", "search", "svg", "perft"]);
    assert_eq!(code("a // crate::search\nb"), "a \nb");
}
