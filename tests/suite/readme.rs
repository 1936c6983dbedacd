//! Every command example in the README's code blocks runs and exits 0.
//!
//! An example is a line of a fenced code block that starts with `gamut `
//! (or `cargo run --release -- `, run as the built binary). Lines with
//! `<…>` placeholders are the command synopsis, not examples. `serve`
//! examples are skipped: a server runs until it is stopped (the serve
//! tests start it and talk to it). No other example in a code block needs
//! a file, and the longest (the quick start's `analyze epaminondas --time
//! 5000`) takes five seconds.
//! Examples in running text (`gamut solve aporia`, the tournaments) are not
//! run: they take minutes or need records files.

use crate::common;

/// The command examples of the README's fenced code blocks, as argument
/// lists (double quotes group words).
fn examples(readme: &str) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    let mut in_block = false;
    for line in readme.lines() {
        if line.trim_start().starts_with("```") {
            in_block = !in_block;
            continue;
        }
        if !in_block {
            continue;
        }
        let line = line.trim();
        let Some(command) = line
            .strip_prefix("gamut ")
            .or_else(|| line.strip_prefix("cargo run --release -- "))
        else {
            continue;
        };
        if command.contains('<') || command.starts_with("serve") {
            continue;
        }
        out.push(words(command));
    }
    out
}

/// Splits a command line into words; double quotes group words.
fn words(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut word = String::new();
    let (mut quoted, mut any) = (false, false);
    for c in line.chars() {
        match c {
            '"' => {
                quoted = !quoted;
                any = true;
            }
            ' ' if !quoted => {
                if any {
                    out.push(std::mem::take(&mut word));
                    any = false;
                }
            }
            _ => {
                word.push(c);
                any = true;
            }
        }
    }
    if any {
        out.push(word);
    }
    out
}

#[test]
fn every_readme_command_example_exits_0() {
    let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md"))
        .expect("the README reads");
    let all = examples(&readme);
    assert!(all.len() >= 3, "examples found: {all:?}");
    for args in &all {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        common::ok(&args);
    }
}

#[test]
fn words_keep_quoted_groups() {
    assert_eq!(
        words(r#"show spokes --moves "wA,bB1; XB1""#),
        ["show", "spokes", "--moves", "wA,bB1; XB1"]
    );
    assert_eq!(words(r#"moves x --fen """#), ["moves", "x", "--fen", ""]);
}
