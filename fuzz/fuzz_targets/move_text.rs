//! Move text of every game, at its start position and after a few plies:
//! the first byte picks the game, the second how many first moves to play
//! (each the first move, or every player's first action; in games of two
//! players only),
//! the rest is the move text. A move that parses prints a canonical text
//! and a short text (the same text in every game but Spokes, whose short
//! outcome form names what a resolution changed), and both read back to that
//! move (input may spell a move in other ways, such as a Spokes nodes field
//! with dots).
#![no_main]

use gamut_core::game::{Game, NodeKind, NodeRules, Notation, Player};
use gamut_games::GameId;
use gamut_games::with_game;
use libfuzzer_sys::fuzz_target;

/// The child after the first move (at a simultaneous node: every player's
/// first action) without listing every joint action, of which a
/// four-player Spokes start has 32 million; `None` at the end of the game.
fn first_child<G: Game>(pos: &G) -> Option<G> {
    let mut moves = Vec::new();
    match pos.node() {
        NodeKind::Terminal => None,
        NodeKind::Simultaneous => {
            let mut joint = Vec::new();
            for p in 0..G::players() {
                pos.actions(Player::nth(p), &mut moves);
                joint.push(*moves.first()?);
            }
            Some(pos.play_joint_all(&joint))
        }
        NodeKind::Decision(_) | NodeKind::Chance => {
            pos.moves(&mut moves);
            Some(pos.play(*moves.first()?))
        }
    }
}

fn check<G: Notation>(plies: u8, text: &str) {
    let mut pos = G::start();
    // A resolution of a game of more than two players can take a minute
    // (a graph of millions of boards): those games are read at the start.
    let plies = if G::players() > 2 { 0 } else { plies % 8 };
    for _ in 0..plies {
        match first_child(&pos) {
            Some(child) => pos = child,
            None => break,
        }
    }
    if let Ok(m) = pos.parse_move(text) {
        let canonical = pos.move_text(m);
        let short = pos.short_move_text(m);
        assert!(
            pos.parse_move(&canonical).is_ok_and(|n| n == m),
            "{canonical}"
        );
        assert!(pos.parse_move(&short).is_ok_and(|n| n == m), "{short}");
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
