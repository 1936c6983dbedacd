//! Spokes: tables, resolution, text, end of game, perft suite and random games.

mod common;

use gamut::game::Game;
use gamut::games::spokes::Spokes;
use gamut::perft::perft;

#[test]
fn perft_start() {
    let p = Spokes::start();
    assert_eq!(perft(&p, 1), 4046);
}
