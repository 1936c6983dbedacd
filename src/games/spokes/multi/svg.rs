//! The SVG picture of a four-player board: the two-player drawing with each
//! side's home nodes in its own colour, and up to four stones on a node (a
//! block as a white and a black stone side by side).

use super::board::Cell;
use super::score::homes;
use super::SpokesMulti;
use crate::game::Game;
use crate::games::spokes::board::{Colour, Node, NodeSet, CIRCLE_LEN, CIRCLE_START};
use crate::games::spokes::tables::ADJACENT;
use crate::svg::{Picture, SvgOptions};

const RADIUS: [f64; 5] = [0.0, 60.0, 120.0, 180.0, 240.0];
const CENTRE: f64 = 280.0;
const STONE: f64 = 10.0;
/// The home colour of each side, in side order.
const HOME_COLOURS: [&str; 4] = ["#7a1f1f", "#1f4f7a", "#2f6b2a", "#7a5a1f"];

fn point(n: Node) -> (f64, f64) {
    let c = n.circle();
    let angle = (n.index() - CIRCLE_START[c]) as f64 * 360.0 / CIRCLE_LEN[c] as f64;
    let (sin, cos) = angle.to_radians().sin_cos();
    (CENTRE + RADIUS[c] * sin, CENTRE - RADIUS[c] * cos)
}

/// The stones on a node as (colour index, x offset, y offset): blocks'
/// white and black side by side in the top row, loose stones below.
fn stones(cell: Cell) -> Vec<(usize, f64, f64)> {
    let mut colours = Vec::new();
    for _ in 0..cell.blocks() {
        colours.extend([Colour::White.index(), Colour::Black.index()]);
    }
    for _ in 0..cell.loose() {
        colours.push(cell.colour().index());
    }
    let d = STONE * 0.45;
    let spots: &[(f64, f64)] = match colours.len() {
        0 => &[],
        1 => &[(0.0, 0.0)],
        2 => &[(-d, 0.0), (d, 0.0)],
        3 => &[(-d, -d), (d, -d), (0.0, d)],
        _ => &[(-d, -d), (d, -d), (-d, d), (d, d)],
    };
    colours
        .into_iter()
        .zip(spots)
        .map(|(c, &(x, y))| (c, x, y))
        .collect()
}

/// The picture of `p`, marking the nodes whose content differs from `before`.
pub fn svg<const TEAMS: bool>(
    p: &SpokesMulti<TEAMS>,
    opts: &SvgOptions,
    before: Option<&SpokesMulti<TEAMS>>,
) -> String {
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
    let sides = homes(TEAMS);
    for n in NodeSet::ALL.iter() {
        let (x, y) = point(n);
        if before.is_some_and(|q| q.board().get(n) != b.get(n)) {
            pic.circle(
                x,
                y,
                STONE * 1.9,
                &format!(
                    "class=\"last-move\" data-square=\"{n}\" fill=\"#f2d22e\" fill-opacity=\"0.6\""
                ),
            );
        }
        let fill = sides
            .iter()
            .position(|h| h.has(n))
            .map_or("#555", |s| HOME_COLOURS[s]);
        pic.circle(
            x,
            y,
            if n.is_home() { 5.0 } else { 3.0 },
            &format!("class=\"square\" data-square=\"{n}\" fill=\"{fill}\""),
        );
        for (colour, dx, dy) in stones(b.get(n)) {
            pic.stone((x + dx, y + dy), STONE, colour, &n.to_string(), "");
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
