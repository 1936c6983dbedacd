//! Epaminondas: perft suite, rule cases, random games.

mod common;

use gamut::game::Game;
use gamut::games::epaminondas::Epaminondas;
use gamut::perft::perft;

#[test]
fn start_counts() {
    let p = Epaminondas::start();
    for (d, n) in [(1, 114), (2, 12996), (3, 1787292)] {
        assert_eq!(perft(&p, d), n, "depth {d}");
    }
}
