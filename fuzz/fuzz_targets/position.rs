//! Position text of every game: the first byte picks the game, the rest is
//! the text. A text either is refused or parses to a position whose
//! canonical text parses back to it.
#![no_main]

use gamut::game::{Game, NodeKind, Player};
use gamut::games::GameId;
use gamut::with_game;
use libfuzzer_sys::fuzz_target;

/// The most joint actions a simultaneous node may have for its children
/// to be counted: a four-player Spokes start has 32 million, which would
/// make one input take seconds.
const MAX_JOINT_ACTIONS: u64 = 10_000;

/// How many joint actions simultaneous node `pos` has (the product of every
/// player's actions); 1 at any other node.
fn joint_actions<G: Game>(pos: &G) -> u64 {
    if pos.node() != NodeKind::Simultaneous {
        return 1;
    }
    let mut actions = Vec::new();
    (0..G::players())
        .map(|p| {
            pos.actions(Player::nth(p), &mut actions);
            actions.len() as u64
        })
        .product()
}

fn check<G: Game>(text: &str) {
    if let Ok(pos) = G::parse(text) {
        let canonical = pos.text();
        let back = G::parse(&canonical).expect("a canonical text parses");
        assert_eq!(back, pos, "'{text}' -> '{canonical}'");
        assert_eq!(back.text(), canonical);
        assert_eq!(pos.hash(), pos.hash_from_scratch());
        let _ = pos.node();
        let _ = pos.outcome();
        if joint_actions(&pos) <= MAX_JOINT_ACTIONS {
            let _ = gamut::perft::perft(&pos, 1);
        }
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
