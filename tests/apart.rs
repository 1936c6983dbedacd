//! Apart: perft suite, rule tests, random games.

mod common;

use gamut::game::{Game, NodeKind, Player};
use gamut::games::apart::Apart;
use gamut::perft::perft;

#[test]
fn start_counts() {
    let p = Apart::start();
    assert_eq!(perft(&p, 1), 40);
    assert_eq!(perft(&p, 2), 3280);
    assert_eq!(perft(&p, 3), 434388);
}
