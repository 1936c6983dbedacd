//! `--moves` lists of every game from its start position: the first byte
//! picks the game, the rest is the list. A list that plays leads to a
//! position whose text round-trips.
#![no_main]

use gamut_core::game::Notation;
use gamut_games::GameId;
use gamut_core::moves::play_moves;
use gamut_games::with_game;
use libfuzzer_sys::fuzz_target;

fn check<G: Notation>(list: &str) {
    if let Ok(pos) = play_moves(G::start(), list, "--moves") {
        assert_eq!(G::parse(&pos.text()).as_ref(), Ok(&pos));
        assert_eq!(pos.hash(), pos.hash_from_scratch());
    }
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
