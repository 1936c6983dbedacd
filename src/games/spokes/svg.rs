//! The SVG picture of a Spokes board: the five circles, the spokes, the
//! node names, and the stones (a block as one white and one black stone
//! side by side, a double as two stones of one colour).

use super::board::{Colour, Content, Node, NodeSet, CIRCLE_LEN, CIRCLE_START};
use super::tables::ADJACENT;
use super::Spokes;
use crate::game::Game;
use crate::svg::{Picture, SvgOptions};

const RADIUS: [f64; 5] = [0.0, 60.0, 120.0, 180.0, 240.0];
const CENTRE: f64 = 280.0;
const STONE: f64 = 10.0;

fn point(n: Node) -> (f64, f64) {
    let c = n.circle();
    let angle = (n.index() - CIRCLE_START[c]) as f64 * 360.0 / CIRCLE_LEN[c] as f64;
    let (sin, cos) = angle.to_radians().sin_cos();
    (CENTRE + RADIUS[c] * sin, CENTRE - RADIUS[c] * cos)
}

/// The stones on a node as (colour index, x offset) pairs.
fn stones(content: Content) -> Vec<(usize, f64)> {
    match content {
        Content::Empty => vec![],
        Content::Single(c) => vec![(c.index(), 0.0)],
        Content::Double(c) => vec![(c.index(), -STONE * 0.45), (c.index(), STONE * 0.45)],
        Content::Block => vec![
            (Colour::White.index(), -STONE * 0.45),
            (Colour::Black.index(), STONE * 0.45),
        ],
    }
}

/// The picture of `p`, marking the nodes whose content differs from `before`.
pub fn svg(p: &Spokes, opts: &SvgOptions, before: Option<&Spokes>) -> String {
    let b = p.board();
    let size = 2.0 * CENTRE;
    let mut pic = Picture::new(size, size + 24.0, "#e8d3a8", opts);
    for r in &RADIUS[1..] {
        pic.circle(
            CENTRE,
            CENTRE,
            *r,
            "fill=\"none\" stroke=\"#555\" stroke-width=\"1.5\"",
        );
    }
    for n in NodeSet::ALL.iter() {
        for m in ADJACENT[n.index()].iter() {
            if m.circle() > n.circle() {
                pic.line(point(n), point(m), "stroke=\"#555\" stroke-width=\"1.5\"");
            }
        }
    }
    for n in NodeSet::ALL.iter() {
        let (x, y) = point(n);
        if before.is_some_and(|q| q.board().content(n) != b.content(n)) {
            pic.circle(
                x,
                y,
                STONE * 1.9,
                &format!(
                    "class=\"last-move\" data-square=\"{n}\" fill=\"#f2d22e\" fill-opacity=\"0.6\""
                ),
            );
        }
        let home = if n.is_home() { "#7a1f1f" } else { "#555" };
        pic.circle(
            x,
            y,
            3.0,
            &format!("class=\"square\" data-square=\"{n}\" fill=\"{home}\""),
        );
        for (colour, dx) in stones(b.content(n)) {
            pic.stone((x + dx, y), STONE, colour, &n.to_string(), "");
        }
        if opts.coordinates {
            pic.push(&format!(
                "<text class=\"coordinate\" x=\"{:.1}\" y=\"{:.1}\" font-size=\"10\" fill=\"#1a3d7a\">{n}</text>",
                x + 9.0,
                y - 9.0
            ));
        }
    }
    pic.push(&format!(
        "<text x=\"8\" y=\"{:.1}\" font-size=\"12\">{}</text>",
        size + 12.0,
        crate::svg::escape(&p.text())
    ));
    pic.finish()
}
