//! Position text of every game: the first byte picks the game, the rest is
//! the text. A text either is refused or parses to a position whose
//! canonical text parses back to it.
#![no_main]

use gamut::game::Game;
use gamut::games::GameId;
use gamut::with_game;
use libfuzzer_sys::fuzz_target;

fn check<G: Game>(text: &str) {
    if let Ok(pos) = G::parse(text) {
        let canonical = pos.text();
        let back = G::parse(&canonical).expect("a canonical text parses");
        assert_eq!(back, pos, "'{text}' -> '{canonical}'");
        assert_eq!(back.text(), canonical);
        assert_eq!(pos.hash(), pos.hash_from_scratch());
        let _ = pos.node();
        let _ = pos.outcome();
        let _ = gamut::perft::perft(&pos, 1);
    }
    let _ = G::start_with(text);
}

fuzz_target!(|data: &[u8]| {
    let Some((&pick, rest)) = data.split_first() else {
        return;
    };
    let Ok(text) = std::str::from_utf8(rest) else {
        return;
    };
    let id = GameId::ALL[pick as usize % GameId::ALL.len()];
    with_game!(id, G => check::<G>(text));
});
