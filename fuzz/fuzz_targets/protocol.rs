//! Engine protocol lines: the first byte picks the game a `position`
//! command is checked against, the rest is one line. A line either is
//! refused or parses to a command whose canonical text parses back to it;
//! a `position` command builds its position or is refused, never panics.
#![no_main]

use gamut_games::GameId;
use gamut_protocol::Command;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&pick, rest)) = data.split_first() else {
        return;
    };
    let Ok(line) = std::str::from_utf8(rest) else {
        return;
    };
    let Ok(Some(command)) = Command::parse(line) else {
        return;
    };
    let canonical = command.to_string();
    assert_eq!(
        Command::parse(&canonical),
        Ok(Some(command.clone())),
        "'{line}' -> '{canonical}'"
    );
    if let Command::Position { base, moves } = command {
        let id = GameId::ALL[pick as usize % GameId::ALL.len()];
        let _ = base.position(gamut_engine::game(id), moves.as_deref());
    }
});
