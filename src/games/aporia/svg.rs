//! The SVG picture of an Aporia board: four raised 2×2 platforms with a
//! gap between them, locked platforms filled in the locking colour, the
//! pieces on their nodes, and the last move (part of the position) as an
//! arrow.

use super::board::{Node, PLATFORMS, PLATFORM_NAMES};
use super::Aporia;
use gamut_core::svg::{Picture, SvgOptions};

const CELL: f64 = 70.0;
const GAP: f64 = 26.0;
const MARGIN: f64 = 30.0;
const SIDE: f64 = 2.0 * MARGIN + 4.0 * CELL + GAP;

/// The top-left corner of a node's cell.
fn corner(f: u8, r: u8) -> (f64, f64) {
    let gap = |i: u8| if i >= 2 { GAP } else { 0.0 };
    let row = 3 - r;
    (
        MARGIN + f64::from(f) * CELL + gap(f),
        MARGIN + f64::from(row) * CELL + gap(row),
    )
}

fn centre(n: Node) -> (f64, f64) {
    let (x, y) = corner(n.file(), n.rank());
    (x + CELL / 2.0, y + CELL / 2.0)
}

/// The picture of `p`. Aporia positions hold their last move, so the
/// arrow is drawn from the position itself and `_before` adds nothing.
pub fn svg(p: &Aporia, opts: &SvgOptions, _before: Option<&Aporia>) -> String {
    let mut pic = Picture::new(SIDE, SIDE, "#d8d2c4", opts);
    for (platform, name) in PLATFORMS.iter().zip(PLATFORM_NAMES) {
        let first = platform.first();
        let (f, r) = (first.file(), first.rank());
        let (x, y) = corner(f, r + 1);
        let (fill, class) = if p.white.contains(*platform) {
            ("#f5efd9", "platform locked white")
        } else if p.black.contains(*platform) {
            ("#3a3a3a", "platform locked black")
        } else {
            ("#9fb6c9", "platform")
        };
        pic.rect(
            x + 4.0,
            y + 6.0,
            2.0 * CELL,
            2.0 * CELL,
            "rx=\"10\" fill=\"#000\" fill-opacity=\"0.25\"",
        );
        pic.rect(
            x,
            y,
            2.0 * CELL,
            2.0 * CELL,
            &format!(
                "class=\"{class}\" data-platform=\"{name}\" rx=\"10\" fill=\"{fill}\" stroke=\"#4b5b68\" stroke-width=\"2.5\""
            ),
        );
        if class.contains("locked") {
            let (cx, cy) = (x + CELL, y + CELL);
            pic.text(
                cx,
                cy,
                13.0,
                "LOCKED",
                "fill=\"#c0392b\" font-weight=\"bold\"",
            );
        }
    }
    for n in (0..16).map(Node) {
        let (x, y) = corner(n.file(), n.rank());
        pic.rect(
            x + 6.0,
            y + 6.0,
            CELL - 12.0,
            CELL - 12.0,
            &format!("class=\"square\" data-square=\"{n}\" rx=\"6\" fill=\"none\" stroke=\"#4b5b68\" stroke-opacity=\"0.35\""),
        );
    }
    for n in (0..16).map(Node) {
        let index = if p.white.has(n) {
            0
        } else if p.black.has(n) {
            1
        } else {
            continue;
        };
        pic.stone(centre(n), CELL * 0.32, index, &n.to_string(), "");
    }
    if let Some(m) = p.last() {
        pic.arrow(centre(m.from), centre(m.to), 5.0);
    }
    if opts.coordinates {
        for i in 0..4u8 {
            let (x, _) = centre(Node::new(i, 0));
            let name = ((b'a' + i) as char).to_string();
            pic.text(
                x,
                SIDE - MARGIN / 2.0,
                14.0,
                &name,
                "class=\"coordinate\" fill=\"#333\"",
            );
            let (_, y) = centre(Node::new(0, i));
            pic.text(
                MARGIN / 2.0,
                y,
                14.0,
                &(i + 1).to_string(),
                "class=\"coordinate\" fill=\"#333\"",
            );
        }
    }
    pic.finish()
}
