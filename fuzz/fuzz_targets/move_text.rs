//! Move text of every game, at its start position and after a few plies:
//! the first byte picks the game, the second how many first moves to play,
//! the rest is the move text. A move that parses prints back to the same
//! text.
#![no_main]

use gamut::game::{Game, NodeKind};
use gamut::games::GameId;
use gamut::perft;
use gamut::with_game;
use libfuzzer_sys::fuzz_target;

fn check<G: Game>(plies: u8, text: &str) {
    let mut pos = G::start();
    for _ in 0..plies % 8 {
        if pos.node() == NodeKind::Terminal {
            break;
        }
        let kids = perft::children(&pos);
        pos = perft::child_position(&pos, &kids[0].1);
    }
    if let Ok(m) = pos.parse_move(text) {
        assert_eq!(pos.move_text(m), text);
    }
}

fuzz_target!(|data: &[u8]| {
    let [pick, plies, rest @ ..] = data else {
        return;
    };
    let Ok(text) = std::str::from_utf8(rest) else {
        return;
    };
    let id = GameId::ALL[*pick as usize % GameId::ALL.len()];
    with_game!(id, G => check::<G>(*plies, text));
});
