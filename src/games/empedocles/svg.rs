//! The SVG picture of an Empedocles' Stones board: the 8×8 chessboard,
//! each piece in its player's colour with its element's letter and tint,
//! the pairing of elements with their survival ranges, and the die: what
//! the turn's roll left to do.

use super::elements::Element;
use super::{Empedocles, Stage};
use gamut_core::bits::Square;
use gamut_core::game::{Game, Player};
use gamut_core::svg::{colour_class, Grid, Picture, SvgOptions};

const GRID: Grid = Grid {
    files: 8,
    ranks: 8,
    cell: 50.0,
    margin: 26.0,
};

/// Height of the panel below the board for the pairing and the die.
const PANEL: f64 = 70.0;

/// Element `e`'s colour in the picture.
pub const fn tint(e: Element) -> &'static str {
    match e {
        Element::Fire => "#d6452b",
        Element::Water => "#2f6fc4",
        Element::Earth => "#7a5a2e",
        Element::Air => "#8fc9d9",
    }
}

/// The player whose piece stands on `s`, as an index.
fn owner(p: &Empedocles, s: Square) -> Option<usize> {
    Player::BOTH
        .into_iter()
        .find(|&pl| p.pieces(pl).has(s))
        .map(Player::index)
}

/// The die's face and caption for the stage of the turn.
fn die(stage: Stage) -> (&'static str, &'static str) {
    match stage {
        Stage::Setup => ("–", "setup: placing"),
        Stage::Roll => ("?", "to roll"),
        Stage::OneAction => ("1–5", "one action"),
        Stage::TwoActions => ("6", "two actions"),
    }
}

/// The picture of `p`, marking the squares whose content differs from `before`.
pub fn svg(p: &Empedocles, opts: &SvgOptions, before: Option<&Empedocles>) -> String {
    let height = GRID.height() + PANEL;
    let mut pic = Picture::new(GRID.width(), height, "#e6dcc6", opts);
    GRID.draw_cells(&mut pic, |f, r| {
        if (f + r) % 2 == 0 {
            "#9c9c94"
        } else {
            "#ecebe4"
        }
    });
    for s in (0..64).map(Square) {
        if before.is_some_and(|q| owner(q, s) != owner(p, s)) {
            GRID.highlight(&mut pic, s.file(), s.rank());
        }
    }
    let pairing = p.pairing();
    for s in (0..64).map(Square) {
        if let Some(i) = owner(p, s) {
            let e = pairing.of(Player::from_index(i));
            let c = GRID.centre(s.file(), s.rank());
            let r = GRID.cell * 0.38;
            pic.stone(
                c,
                r,
                i,
                &s.to_string(),
                &format!("data-element=\"{}\"", e.name()),
            );
            pic.circle(c.0, c.1, r * 0.62, &format!("fill=\"{}\"", tint(e)));
            let ink = if i == 0 { "#fff" } else { "#000" };
            let letter = if i == 0 {
                e.letter()
            } else {
                e.letter().to_ascii_lowercase()
            };
            pic.text(
                c.0,
                c.1,
                r * 0.9,
                &letter.to_string(),
                &format!("fill=\"{ink}\" font-weight=\"bold\""),
            );
        }
    }
    if opts.coordinates {
        GRID.draw_coordinates(&mut pic);
    }
    // The pairing: each player's stone, element and survival range.
    let top = GRID.height();
    for i in 0..2 {
        let pl = Player::from_index(i);
        let e = pairing.of(pl);
        let (lo, hi) = e.range();
        let y = top + 18.0 + 28.0 * i as f64;
        let x = GRID.margin + 12.0;
        pic.push(&format!(
            "<circle class=\"legend {}\" cx=\"{x:.1}\" cy=\"{y:.1}\" r=\"9\" fill=\"{}\" stroke=\"#222\" stroke-width=\"3\"/>",
            colour_class(i),
            tint(e)
        ));
        let side = Empedocles::INFO.side(pl);
        let mover = if p.side() == pl { " ◀" } else { "" };
        pic.push(&format!(
            "<text class=\"pairing\" x=\"{:.1}\" y=\"{y:.1}\" font-size=\"14\" dominant-baseline=\"central\">{side}: {} (lives with {lo}–{hi}){mover}</text>",
            x + 18.0,
            e.name()
        ));
    }
    // The die.
    let (face, caption) = die(p.stage());
    let d = 40.0;
    let x = GRID.width() - GRID.margin - d - 84.0;
    let y = top + 6.0;
    pic.rect(
        x,
        y,
        d,
        d,
        "class=\"die\" rx=\"7\" fill=\"#fffef8\" stroke=\"#222\" stroke-width=\"2\"",
    );
    pic.text(x + d / 2.0, y + d / 2.0, 16.0, face, "font-weight=\"bold\"");
    pic.push(&format!(
        "<text class=\"die-caption\" x=\"{:.1}\" y=\"{:.1}\" font-size=\"13\" dominant-baseline=\"central\">{caption}</text>",
        x + d + 8.0,
        y + d / 2.0
    ));
    pic.finish()
}
