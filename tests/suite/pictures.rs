//! The board pictures (`show --svg`): every game's SVG parses as XML, draws
//! each stone of the position exactly once inside the cell of the square
//! it stands on, marks the squares the last move changed, and obeys the
//! size and coordinate options.

use crate::common;
use gamut_core::game::{Diagram, Game, NodeKind, Notation};
use gamut_core::svg::SvgOptions;
use gamut_games::apart::Apart;
use gamut_games::aporia::Aporia;
use gamut_games::empedocles::Empedocles;
use gamut_games::epaminondas::Epaminondas;
use gamut_games::spokes::board::Content;
use gamut_games::spokes::Spokes;
use rand::rngs::SmallRng;
use rand::SeedableRng;
use std::collections::BTreeMap;

/// A stone or cell read back from a picture.
#[derive(Debug)]
struct Drawn {
    square: String,
    colour: Option<usize>,
    x: f64,
    y: f64,
    w: f64,
    h: f64,
}

fn attr(n: &roxmltree::Node, name: &str) -> f64 {
    n.attribute(name)
        .unwrap_or_else(|| panic!("{name} missing"))
        .parse()
        .unwrap()
}

fn has_class(n: &roxmltree::Node, class: &str) -> bool {
    n.attribute("class")
        .is_some_and(|c| c.split(' ').any(|x| x == class))
}

/// The elements of class `class` (stones, squares, last-move marks) of an
/// SVG document, which must be well-formed and of the SVG namespace.
fn drawn(svg: &str, class: &str) -> Vec<Drawn> {
    let doc = roxmltree::Document::parse(svg).unwrap_or_else(|e| panic!("bad XML: {e}"));
    let root = doc.root_element();
    assert_eq!(root.tag_name().name(), "svg");
    assert_eq!(
        root.tag_name().namespace(),
        Some("http://www.w3.org/2000/svg")
    );
    doc.descendants()
        .filter(|n| n.is_element() && has_class(n, class))
        .map(|n| {
            let colour = if has_class(&n, "white") {
                Some(0)
            } else if has_class(&n, "black") {
                Some(1)
            } else {
                None
            };
            let square = n.attribute("data-square").unwrap_or("").to_string();
            match n.tag_name().name() {
                "circle" => {
                    let r = attr(&n, "r");
                    Drawn {
                        square,
                        colour,
                        x: attr(&n, "cx") - r,
                        y: attr(&n, "cy") - r,
                        w: 2.0 * r,
                        h: 2.0 * r,
                    }
                }
                "rect" => Drawn {
                    square,
                    colour,
                    x: attr(&n, "x"),
                    y: attr(&n, "y"),
                    w: attr(&n, "width"),
                    h: attr(&n, "height"),
                },
                // The move arrow and the names: no position the tests read.
                t => {
                    assert!(matches!(t, "line" | "polygon" | "text"), "unexpected <{t}>");
                    Drawn {
                        square,
                        colour,
                        x: 0.0,
                        y: 0.0,
                        w: 0.0,
                        h: 0.0,
                    }
                }
            }
        })
        .collect()
}

/// The stones of a grid diagram (`draw_board`'s rows: rank number, then
/// one character per file), by square name, as player indices.
fn diagram_stones(diagram: &str, colour: impl Fn(char) -> usize) -> BTreeMap<String, usize> {
    let mut stones = BTreeMap::new();
    for line in diagram.lines() {
        let mut words = line.split_whitespace();
        let Some(rank) = words.next().and_then(|w| w.parse::<u32>().ok()) else {
            continue;
        };
        for (file, c) in words.enumerate() {
            let c = c.chars().next().unwrap();
            if c != '.' {
                let name = format!("{}{rank}", (b'a' + file as u8) as char);
                stones.insert(name, colour(c));
            }
        }
    }
    stones
}

/// Checks that the stones of `svg` are exactly `expected` (one per
/// square), each inside the cell of its square, and that file `a` is on
/// the left and rank 1 at the bottom.
fn check_grid_picture(svg: &str, expected: &BTreeMap<String, usize>) {
    let cells: BTreeMap<String, Drawn> = drawn(svg, "square")
        .into_iter()
        .map(|d| (d.square.clone(), d))
        .collect();
    assert!(cells["a1"].x < cells["b1"].x && cells["a1"].y > cells["a2"].y);
    let mut seen = BTreeMap::new();
    for s in drawn(svg, "stone") {
        assert!(
            seen.insert(s.square.clone(), s.colour.unwrap()).is_none(),
            "{} drawn twice",
            s.square
        );
        let cell = &cells[&s.square];
        let (cx, cy) = (s.x + s.w / 2.0, s.y + s.h / 2.0);
        assert!(
            cx > cell.x && cx < cell.x + cell.w && cy > cell.y && cy < cell.y + cell.h,
            "stone on {} drawn outside its cell",
            s.square
        );
    }
    assert_eq!(&seen, expected);
}

/// Positions along a few seeded random games: start, middle, and end.
fn sample_positions<G: Notation>(start: G, seed: u64) -> Vec<(G, G)> {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut buf = Vec::new();
    let mut out = Vec::new();
    for _ in 0..3 {
        let mut pos = start.clone();
        for ply in 0..120 {
            if pos.node() == NodeKind::Terminal {
                break;
            }
            let next = common::random_child(&pos, &mut rng, &mut buf);
            if ply % 17 == 0 || next.node() == NodeKind::Terminal {
                out.push((pos.clone(), next.clone()));
            }
            pos = next;
        }
    }
    out
}

/// Checks stones and last-move marks of a grid game over sampled positions;
/// `marks` says whether the game marks changed cells (rather than drawing
/// the move as part of the position).
fn check_grid_game<G: Diagram>(start: G, colour: impl Fn(char) -> usize + Copy, marks: bool) {
    let opts = SvgOptions::default();
    for (before, after) in sample_positions(start, 7) {
        let expected = diagram_stones(&after.diagram(), colour);
        let svg = after.svg(&opts, Some(&before));
        check_grid_picture(&svg, &expected);
        check_grid_picture(&after.svg(&opts, None), &expected);
        assert!(drawn(&after.svg(&opts, None), "last-move").is_empty() || !marks);
        if marks {
            let old = diagram_stones(&before.diagram(), colour);
            let mut changed: Vec<String> = old
                .keys()
                .chain(expected.keys())
                .filter(|k| old.get(*k) != expected.get(*k))
                .cloned()
                .collect();
            changed.sort();
            changed.dedup();
            let mut marked: Vec<String> = drawn(&svg, "last-move")
                .into_iter()
                .map(|d| d.square)
                .collect();
            marked.sort();
            assert_eq!(marked, changed, "{} after {}", after.text(), before.text());
        }
    }
}

fn white_black(c: char) -> usize {
    match c {
        'W' => 0,
        'B' => 1,
        _ => panic!("unexpected '{c}'"),
    }
}

#[test]
fn apart_picture_draws_every_piece_on_its_square() {
    check_grid_game(Apart::start(), white_black, true);
}

#[test]
fn epaminondas_picture_draws_every_stone_on_its_square() {
    check_grid_game(Epaminondas::start(), white_black, true);
}

#[test]
fn empedocles_picture_draws_every_piece_on_its_square() {
    // Player 1's pieces are capitals, player 2's small letters.
    let owner = |c: char| usize::from(c.is_ascii_lowercase());
    check_grid_game(Empedocles::start(), owner, true);
    let svg = Empedocles::start().svg(&SvgOptions::default(), None);
    assert!(svg.contains("class=\"die\""));
}

#[test]
fn aporia_picture_draws_pieces_platforms_and_the_last_move() {
    check_grid_game(Aporia::start(), white_black, false);
    let opts = SvgOptions::default();
    for (_, after) in sample_positions(Aporia::start(), 3) {
        let svg = after.svg(&opts, None);
        let arrows = drawn(&svg, "last-move").len();
        assert_eq!(arrows > 0, after.last().is_some(), "{}", after.text());
        let locked = drawn(&svg, "locked").len();
        assert_eq!(
            locked,
            after.locked().count() as usize / 4,
            "{}",
            after.text()
        );
    }
}

#[test]
fn spokes_picture_draws_every_stone_on_its_node() {
    let opts = SvgOptions::default();
    for (before, after) in sample_positions(Spokes::start(), 5) {
        let svg = after.svg(&opts, Some(&before));
        let nodes: BTreeMap<String, Drawn> = drawn(&svg, "square")
            .into_iter()
            .map(|d| (d.square.clone(), d))
            .collect();
        let mut seen: BTreeMap<String, [u32; 2]> = BTreeMap::new();
        for s in drawn(&svg, "stone") {
            seen.entry(s.square.clone()).or_default()[s.colour.unwrap()] += 1;
            let node = &nodes[&s.square];
            let d = ((s.x - node.x).powi(2) + (s.y - node.y).powi(2)).sqrt();
            assert!(d < 20.0, "stone on {} drawn {d} away", s.square);
        }
        let mut expected: BTreeMap<String, [u32; 2]> = BTreeMap::new();
        let board = after.board();
        let mut marked = Vec::new();
        for name in nodes.keys() {
            let n = gamut_games::spokes::board::Node::parse(name).unwrap();
            let count = match board.content(n) {
                Content::Empty => None,
                Content::Single(c) => Some([1 - c.index() as u32, c.index() as u32]),
                Content::Double(c) => Some([2 * (1 - c.index() as u32), 2 * c.index() as u32]),
                Content::Block => Some([1, 1]),
            };
            if let Some(c) = count {
                expected.insert(name.clone(), c);
            }
            if before.board().content(n) != board.content(n) {
                marked.push(name.clone());
            }
        }
        assert_eq!(seen, expected, "{}", after.text());
        let mut drawn_marks: Vec<String> = drawn(&svg, "last-move")
            .into_iter()
            .map(|d| d.square)
            .collect();
        drawn_marks.sort();
        marked.sort();
        assert_eq!(drawn_marks, marked);
    }
}

#[test]
fn options_set_the_size_and_the_coordinates() {
    let pos = Epaminondas::start();
    let small = SvgOptions {
        size: 300,
        coordinates: false,
    };
    let svg = pos.svg(&small, None);
    let doc = roxmltree::Document::parse(&svg).unwrap();
    assert_eq!(doc.root_element().attribute("width"), Some("300"));
    assert!(drawn(&svg, "coordinate").is_empty());
    assert_eq!(
        drawn(&pos.svg(&SvgOptions::default(), None), "coordinate").len(),
        14 + 12
    );
}

#[test]
fn show_writes_the_picture_with_the_moves_last_move_marked() {
    let dir = common::scratch_dir("pictures");
    let file = dir.join("apart.svg");
    let start = Apart::start();
    let mut moves = Vec::new();
    start.moves(&mut moves);
    let first = start.move_text(moves[0]);
    let o = crate::common::gamut_command()
        .args(["show", "apart", "--moves", &first, "--size", "320", "--svg"])
        .arg(&file)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let svg = std::fs::read_to_string(&file).unwrap();
    assert!(svg.contains("width=\"320\""));
    assert_eq!(drawn(&svg, "last-move").len(), 2, "from and to of {first}");
    let o = crate::common::gamut_command()
        .args(["show", "apart", "--last-move", "z9-z8", "--svg"])
        .arg(&file)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.starts_with("error: ") && err.lines().count() == 1,
        "{err}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
