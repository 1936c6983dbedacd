//! The SVG picture of a Spokes board, for any number of sides: the five
//! circles, the spokes, each side's home nodes in its colour, the node
//! names, and the stones (up to four on a node; a block as one white and
//! one black stone side by side, a double as two stones of one colour).

use super::board::{Board, Colour, Content, Node, NodeSet, CIRCLE_LEN, CIRCLE_START};
use super::node_text::NodeText;
use super::tables::ADJACENT;
use gamut_core::svg::{Picture, SvgOptions};

const RADIUS: [f64; 5] = [0.0, 60.0, 120.0, 180.0, 240.0];
const CENTRE: f64 = 280.0;
const STONE: f64 = 10.0;

/// A board as the picture draws it.
pub trait Drawn: NodeText {
    /// The stones on node `n`: a block's white and black first, then loose
    /// stones.
    fn colours(&self, n: Node) -> Vec<Colour>;
}

/// How the home nodes are drawn: each side's nodes, name and colour, and
/// the radius of a home node's dot.
pub struct Homes<'a> {
    /// Each side's home nodes.
    pub nodes: &'a [NodeSet],
    /// Each side's name, for the legend.
    pub names: &'a [&'a str],
    /// Each side's colour.
    pub colours: &'a [&'a str],
    /// The radius of a home node's dot (other nodes: 3).
    pub radius: f64,
}

fn point(n: Node) -> (f64, f64) {
    let c = n.circle();
    let angle = (n.index() - CIRCLE_START[c]) as f64 * 360.0 / CIRCLE_LEN[c] as f64;
    let (sin, cos) = angle.to_radians().sin_cos();
    (CENTRE + RADIUS[c] * sin, CENTRE - RADIUS[c] * cos)
}

/// The stones on a node as (colour index, x offset, y offset): two side by
/// side, three or four in two rows.
fn stones(colours: Vec<Colour>) -> Vec<(usize, f64, f64)> {
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
        .map(|(c, &(x, y))| (c.index(), x, y))
        .collect()
}

/// The home nodes of a side as the legend names them: runs of
/// consecutive nodes as `H1–H8`.
fn home_names(set: NodeSet) -> String {
    let nodes: Vec<Node> = set.iter().collect();
    let mut parts = Vec::new();
    let mut i = 0;
    while i < nodes.len() {
        let mut j = i;
        while j + 1 < nodes.len() && nodes[j + 1].index() == nodes[j].index() + 1 {
            j += 1;
        }
        parts.push(if j > i {
            format!("{}–{}", nodes[i], nodes[j])
        } else {
            nodes[i].to_string()
        });
        i = j + 1;
    }
    parts.join(", ")
}

/// The picture of board `b` captioned `text`, marking the nodes whose
/// content differs from `before`; below the board a legend: each side's
/// colour, name and home nodes, and the stones of each colour still off
/// the board (`left`: white, black).
pub fn svg<B: Drawn>(
    b: &B,
    text: &str,
    before: Option<&B>,
    opts: &SvgOptions,
    homes: &Homes<'_>,
    left: [usize; 2],
) -> String {
    let size = 2.0 * CENTRE;
    let rows = homes.nodes.len().div_ceil(2) as f64;
    let legend = 8.0 + 20.0 * rows;
    let mut pic = Picture::new(size, size + legend + 24.0, "#e8d3a8", opts);
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
        if before.is_some_and(|q| q.node_text(n) != b.node_text(n)) {
            pic.circle(
                x,
                y,
                STONE * 1.9,
                &format!(
                    "class=\"last-move\" data-square=\"{n}\" fill=\"#f2d22e\" fill-opacity=\"0.6\""
                ),
            );
        }
        let fill = homes
            .nodes
            .iter()
            .position(|h| h.has(n))
            .map_or("#555", |s| homes.colours[s]);
        if n.is_home() {
            // The owner's ring, seen around a stone standing on the node.
            pic.circle(
                x,
                y,
                STONE * 1.45,
                &format!("class=\"home\" fill=\"none\" stroke=\"{fill}\" stroke-width=\"3\""),
            );
        }
        pic.circle(
            x,
            y,
            if n.is_home() { homes.radius } else { 3.0 },
            &format!("class=\"square\" data-square=\"{n}\" fill=\"{fill}\""),
        );
        for (colour, dx, dy) in stones(b.colours(n)) {
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
    for (k, ((set, name), colour)) in homes
        .nodes
        .iter()
        .zip(homes.names)
        .zip(homes.colours)
        .enumerate()
    {
        let x = 12.0 + (k % 2) as f64 * size / 2.0;
        let y = size + 8.0 + 20.0 * (k / 2) as f64;
        pic.push(&format!(
            "<g class=\"legend\" data-side=\"{k}\"><rect x=\"{x:.1}\" y=\"{:.1}\" width=\"14\" height=\"14\" fill=\"{colour}\"/>\
             <text x=\"{:.1}\" y=\"{:.1}\" font-size=\"14\">{}: home {}</text></g>",
            y,
            x + 20.0,
            y + 12.0,
            gamut_core::svg::escape(name),
            home_names(*set)
        ));
    }
    let y = size + legend + 14.0;
    pic.circle(16.0, y - 4.0, 6.0, "fill=\"#f4f1e8\" stroke=\"#222\"");
    pic.circle(120.0, y - 4.0, 6.0, "fill=\"#1c1c1c\" stroke=\"#000\"");
    pic.push(&format!(
        "<text class=\"reserve\" x=\"26\" y=\"{y:.1}\" font-size=\"13\">{} white left</text>\
         <text class=\"reserve\" x=\"130\" y=\"{y:.1}\" font-size=\"13\">{} black left</text>\
         <text x=\"240\" y=\"{y:.1}\" font-size=\"12\">{}</text>",
        left[0],
        left[1],
        gamut_core::svg::escape(text)
    ));
    pic.finish()
}

impl Drawn for Board {
    fn colours(&self, n: Node) -> Vec<Colour> {
        match self.content(n) {
            Content::Empty => vec![],
            Content::Single(c) => vec![c],
            Content::Double(c) => vec![c, c],
            Content::Block => vec![Colour::White, Colour::Black],
        }
    }
}
