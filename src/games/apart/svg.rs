//! The SVG picture of an Apart board: 8×8 chequered squares, white and
//! black pieces, and the squares the last move changed.

use super::Apart;
use gamut_core::bits::Square;
use gamut_core::game::Player;
use gamut_core::svg::{Grid, Picture, SvgOptions};

const GRID: Grid = Grid {
    files: 8,
    ranks: 8,
    cell: 50.0,
    margin: 26.0,
};

/// The player whose piece stands on `s`, as an index.
fn owner(p: &Apart, s: Square) -> Option<usize> {
    Player::BOTH
        .into_iter()
        .find(|&pl| p.pieces(pl).has(s))
        .map(Player::index)
}

/// The picture of `p`, marking the squares whose content differs from `before`.
pub fn svg(p: &Apart, opts: &SvgOptions, before: Option<&Apart>) -> String {
    let mut pic = Picture::new(GRID.width(), GRID.height(), "#d9c7a0", opts);
    GRID.draw_cells(&mut pic, |f, r| {
        if (f + r) % 2 == 0 {
            "#b58863"
        } else {
            "#f0d9b5"
        }
    });
    let at = |q: &Apart, f: u8, r: u8| owner(q, Square(r * 8 + f));
    let before = before.map(|q| move |f, r| at(q, f, r));
    GRID.draw_pieces(
        &mut pic,
        opts,
        |f, r| at(p, f, r),
        before
            .as_ref()
            .map(|b| b as &dyn Fn(u8, u8) -> Option<usize>),
    );
    pic.finish()
}
