//! The SVG picture of an Epaminondas board: 14×12 chequered squares with
//! both home rows tinted in their owner's colour, the stones, and the
//! squares the last move changed.

use super::board::{Square, FILES, RANKS};
use super::Epaminondas;
use gamut_core::game::Player;
use gamut_core::svg::{Grid, Picture, SvgOptions};

const GRID: Grid = Grid {
    files: FILES,
    ranks: RANKS,
    cell: 40.0,
    margin: 30.0,
};

/// The player whose stone stands on `s`, as an index.
fn owner(p: &Epaminondas, s: Square) -> Option<usize> {
    Player::BOTH
        .into_iter()
        .find(|&pl| p.stones(pl).has(s))
        .map(Player::index)
}

/// The picture of `p`, marking the squares whose content differs from `before`.
pub fn svg(p: &Epaminondas, opts: &SvgOptions, before: Option<&Epaminondas>) -> String {
    let mut pic = Picture::new(GRID.width(), GRID.height(), "#cdb48a", opts);
    GRID.draw_cells(&mut pic, |f, r| {
        let dark = (f + r) % 2 == 0;
        let home = [0, RANKS - 1].iter().position(|&h| h == r);
        match (home, dark) {
            (Some(0), true) => "#c9b27c",
            (Some(0), false) => "#f7ecc8",
            (Some(_), true) => "#6f5a3c",
            (Some(_), false) => "#9a8563",
            (None, true) => "#a8875e",
            (None, false) => "#e4cfa4",
        }
    });
    for i in Player::BOTH.map(Player::index) {
        let r = if i == 0 { 0 } else { RANKS - 1 };
        let (x, y) = GRID.corner(0, r);
        let colour = if i == 0 { "#f4f1e8" } else { "#1c1c1c" };
        pic.rect(
            x,
            y,
            GRID.cell * f64::from(FILES),
            GRID.cell,
            &format!("class=\"home-row\" fill=\"none\" stroke=\"{colour}\" stroke-width=\"3\""),
        );
    }
    let at = |q: &Epaminondas, f: u8, r: u8| owner(q, Square::new(f, r));
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
