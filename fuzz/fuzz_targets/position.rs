//! Position text of every game: the first byte picks the game, the rest is
//! the text. A text either is refused or parses to a position whose
//! canonical text parses back to it.
#![no_main]

use gamut_core::game::{Game, NodeKind, NodeRules, Notation, Player};
use gamut_games::GameId;
use gamut_games::with_game;
use libfuzzer_sys::fuzz_target;

/// At a simultaneous node, the child after every player's first action
/// (one resolution: listing every joint action of a late Spokes round
/// resolves thousands of placements, seconds for one input); elsewhere
/// every child, by perft(1).
fn play_children<G: Game>(pos: &G) {
    if pos.node() != NodeKind::Simultaneous {
        let _ = gamut_core::perft::perft(pos, 1);
        return;
    }
    let mut actions = Vec::new();
    let mut joint = Vec::new();
    for p in 0..G::players() {
        pos.actions(Player::nth(p), &mut actions);
        match actions.first() {
            Some(&a) => joint.push(a),
            None => return,
        }
    }
    let child = pos.play_joint_all(&joint);
    assert_eq!(child.hash(), child.hash_from_scratch());
}

fn check<G: Notation>(text: &str) {
    if let Ok(pos) = G::parse(text) {
        let canonical = pos.text();
        let back = G::parse(&canonical).expect("a canonical text parses");
        assert_eq!(back, pos, "'{text}' -> '{canonical}'");
        assert_eq!(back.text(), canonical);
        assert_eq!(pos.hash(), pos.hash_from_scratch());
        let _ = pos.node();
        let _ = pos.outcome();
        play_children(&pos);
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
