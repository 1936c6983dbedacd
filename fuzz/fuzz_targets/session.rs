//! Whole engine protocol sessions: the first byte picks the game the
//! session starts with (or none), the rest is its input, one command per
//! line, answered by the session `gamut engine` runs
//! (`gamut_protocol::server::session`). Each line that
//! parses as a command is first bounded so that every execution takes
//! milliseconds: `go` gets at most depth 2, 100 nodes, 1 ms per move, 10
//! ms clocks and perft 1 (in games of two players; in the others a perft
//! count of the start's 32 million joint placements takes gigabytes, so
//! `go perft` becomes a search there); `setoption` at most 1 MiB of table
//! and 2 threads. A session starts with a table of one bucket (a
//! megabyte's mapping and unmapping cost more than the rest of a short
//! session). Other lines (refused ones too) go in as they are. The session
//! must not panic, and every search or perft count it started must have
//! written exactly one last line (`bestmove …` or `Nodes searched: …`),
//! except a perft count that `quit` left running (the target waits for
//! it before the next session). Run with `-detect_leaks=0` (as `.ci/run`
//! does): threads that end on their own after a session (rayon's pool
//! threads, an input reader after `quit`) still hold memory when the run
//! ends, which LeakSanitizer reports as leaks.
#![no_main]

use gamut_core::game::NodeRules;
use gamut_games::GameId;
use gamut_protocol::Command;
use gamut_games::with_game;
use libfuzzer_sys::fuzz_target;
use std::io::Cursor;

/// The bounds a session's commands are held to.
const DEPTH: u32 = 2;
const NODES: u64 = 100;
const MOVETIME: u64 = 1;
const CLOCK: u64 = 10;
const INCREMENT: u64 = 1;
const PERFT: u32 = 1;
const THREADS: u64 = 2;

/// `line` with its limits bounded, if it is a command with limits; `many`
/// says whether the session has chosen a game of more than two players
/// (at the start or by a `game` line, even one the session refused while
/// searching), and then perft counts are searches for the rest of it.
fn bounded(line: &str, many: &mut bool) -> String {
    let Ok(Some(command)) = Command::parse(line) else {
        return line.to_string();
    };
    let command = match command {
        Command::Game(id) => {
            *many |= more_than_two(id);
            Command::Game(id)
        }
        Command::Go(mut go) => {
            if *many {
                go.perft = None;
            }
            go.depth = go.depth.map(|d| d.min(DEPTH));
            go.movetime = go.movetime.map(|t| t.min(MOVETIME));
            go.perft = go.perft.map(|d| d.min(PERFT));
            go.time = go.time.map(|t| t.map(|t| t.min(CLOCK)));
            go.inc = go.inc.map(|t| t.map(|t| t.min(INCREMENT)));
            if go.perft.is_none() && !go.infinite {
                go.nodes = Some(go.nodes.map_or(NODES, |n| n.min(NODES)));
            }
            Command::Go(go)
        }
        Command::SetOption { name, value } => {
            let value = match name.to_ascii_lowercase().as_str() {
                "hash" if value.parse::<u64>().is_ok() => "1".to_string(),
                "threads" => match value.parse::<u64>() {
                    Ok(n) => n.min(THREADS).to_string(),
                    Err(_) => value,
                },
                _ => value,
            };
            Command::SetOption { name, value }
        }
        other => other,
    };
    command.to_string()
}

/// Whether game `id` has more than two players.
fn more_than_two(id: GameId) -> bool {
    with_game!(id, G => G::players() > 2)
}

fuzz_target!(|data: &[u8]| {
    let Some((&pick, rest)) = data.split_first() else {
        return;
    };
    let game = GameId::ALL
        .get(pick as usize % (GameId::ALL.len() + 1))
        .copied();
    let mut many = game.is_some_and(more_than_two);
    let mut input = Vec::with_capacity(rest.len() + 16);
    for line in rest.split(|&b| b == b'\n') {
        match std::str::from_utf8(line) {
            Ok(text) => input.extend_from_slice(bounded(text, &mut many).as_bytes()),
            Err(_) => input.extend_from_slice(line),
        }
        input.push(b'\n');
    }
    let mut out = Vec::new();
    let (started, perft_left) =
        gamut_protocol::server::session(game, 1, 0, Cursor::new(input), &mut out)
            .unwrap_or_else(|e| panic!("the session failed: {e}"));
    // A perft count that `quit` left running (bounded to depth 1 here)
    // ends before the next session starts, so that counts do not pile up
    // and none is still allocating when the fuzzer exits.
    let perft_left = perft_left.map(|h| h.join().expect("the perft count panicked"));
    let text = String::from_utf8_lossy(&out);
    let last_lines = text
        .lines()
        .filter(|l| l.starts_with("bestmove ") || l.starts_with("Nodes searched: "))
        .count() as u64;
    assert_eq!(
        last_lines + u64::from(perft_left.is_some()),
        started,
        "{started} searches started, {last_lines} bestmove lines:\n{text}"
    );
});
