//! Spokes checked against a plain reference model: the spec's known counts
//! and their breakdown, hand-made rule cases, and every count of the perft
//! suite small enough to recount.

use crate::naive::spokes as naive;

/// The largest suite count the reference model recounts.
const MAX_COUNT: u64 = 1_000_000;
/// The deepest suite depth the reference model recounts.
const MAX_DEPTH: u32 = 2;

const START: &str = "1/4/8/16/16 1";

/// The lines of the board, by node name, written out from the spec's
/// description (independently of the reference model's tables).
fn lines() -> Vec<(String, String)> {
    let mut out = Vec::new();
    for i in 1..=4 {
        out.push(("A".to_string(), format!("B{i}")));
        out.push((format!("B{i}"), format!("C{}", 2 * i - 1)));
        out.push((format!("B{i}"), format!("B{}", i % 4 + 1)));
    }
    for j in 1..=8 {
        out.push((format!("C{j}"), format!("D{}", 2 * j - 1)));
        out.push((format!("C{j}"), format!("C{}", j % 8 + 1)));
    }
    for k in 1..=16 {
        out.push((format!("D{k}"), format!("H{k}")));
        out.push((format!("D{k}"), format!("D{}", k % 16 + 1)));
        out.push((format!("H{k}"), format!("H{}", k % 16 + 1)));
    }
    out
}

/// Splits `wD12` into colour and node name.
fn split_placement(p: &str) -> (char, String) {
    let mut chars = p.chars();
    let colour = chars.next().unwrap();
    (colour, chars.collect())
}

#[test]
fn start_count_and_its_breakdown() {
    let lines = lines();
    assert_eq!(lines.len(), 76);
    let adjacent = |a: &str, b: &str| {
        lines
            .iter()
            .any(|(p, q)| (p == a && q == b) || (p == b && q == a))
    };
    let divide = naive::divide(START, 1);
    assert_eq!(divide.len(), 58 * 58);
    // instant blocks, non-adjacent, pulls, pushes, doubles
    let mut parts = [0u64; 5];
    for (text, n) in &divide {
        let (first, second) = text.split_once(',').unwrap();
        let (c1, n1) = split_placement(first);
        let (c2, n2) = split_placement(second);
        let part = if n1 == n2 {
            if c1 == c2 {
                4
            } else {
                0
            }
        } else if !adjacent(&n1, &n2) {
            1
        } else if c1 != c2 {
            2
        } else {
            3
        };
        parts[part] += n;
    }
    assert_eq!(parts, [58, 2_896, 352, 368, 372]);
    assert_eq!(naive::perft(START, 1), 4_046);
    assert_eq!(naive::moves(START).len(), 4_046);
}

/// The outcomes of one joint placement, as resulting nodes fields.
fn outcomes_of(position: &str, joint: &str) -> Vec<String> {
    naive::moves(position)
        .into_iter()
        .filter_map(|m| m.strip_prefix(&format!("{joint} ")).map(str::to_string))
        .collect()
}

#[test]
fn a_push_straight_on_onto_an_opposite_single_makes_a_block() {
    // B1 pushing C1 sends it onto the black D1 (a block), never sideways to
    // C2 or C8; C1 pushing B1 sends it on to A, then a pull with D1.
    assert_eq!(
        outcomes_of("1/4/8/b15/16 1", "wB1,wC1"),
        [
            "1/w3/8/X15/16",
            "1/w3/X7/16/16",
            "w/4/8/X15/16",
            "w/4/X7/16/16"
        ]
    );
}

#[test]
fn a_position_awaiting_resolution_has_the_outcomes_as_children() {
    let p = "1/w3/w7/b15/16 1 resolve";
    let outcomes = [
        "1/w3/8/X15/16",
        "1/w3/X7/16/16",
        "w/4/8/X15/16",
        "w/4/X7/16/16",
    ];
    assert_eq!(naive::moves(p), outcomes);
    assert_eq!(naive::perft(p, 1), 4);
    let divide = naive::divide(p, 1);
    assert_eq!(divide, outcomes.map(|o| (o.to_string(), 1)).to_vec());
    // the same outcomes as from that joint placement
    assert_eq!(outcomes_of("1/4/8/b15/16 1", "wB1,wC1"), outcomes);
}

#[test]
fn a_push_with_nothing_beyond_goes_sideways() {
    // D1 pushes H1 off the end of its spoke: sideways to H2 or H16; H1
    // pushes D1 inward to C1.
    assert_eq!(
        outcomes_of("1/4/8/16/w15 1", "wD1,bB3"),
        ["1/2b1/8/w15/15w", "1/2b1/8/w15/1w14", "1/2b1/w7/16/w15"]
    );
    // D10 pushed from H10 goes to D9 or D11 (no spoke inward of D10).
    assert_eq!(
        outcomes_of("1/4/8/16/9w6 1", "wD10,bB1").len(),
        4,
        "{:?}",
        outcomes_of("1/4/8/16/9w6 1", "wD10,bB1")
    );
    assert!(outcomes_of("1/4/8/16/9w6 1", "wD10,bB1").contains(&"1/b3/8/8w7/9w6".to_string()));
}

#[test]
fn a_push_through_the_centre_goes_on_to_the_opposite_b() {
    // B1 pushes A on to B3; A pushes B1 out to C1.
    assert_eq!(
        outcomes_of("1/1X1X/8/16/16 1", "wA,wB1"),
        ["1/wXwX/8/16/16", "w/1X1X/w7/16/16"]
    );
    // B3, B2 and B4 blocked: A cannot be pushed at all.
    assert_eq!(
        outcomes_of("1/1XXX/8/16/16 1", "wA,wB1"),
        ["w/1XXX/w7/16/16"]
    );
    // A black single on B3 attracts A when pushed, as a pull would.
    assert_eq!(
        outcomes_of("1/1XbX/8/16/16 1", "wA,wB1"),
        [
            "1/1XXX/w7/16/16",
            "1/wXXX/8/16/16",
            "X/1X1X/w7/16/16",
            "X/wX1X/8/16/16"
        ]
    );
}

#[test]
fn a_double_moves_its_top_stone_first() {
    // From A to any B; then either the centre stone pushes it out to C or
    // it pushes the centre stone through to the opposite B.
    assert_eq!(
        outcomes_of(START, "wA,wA"),
        [
            "1/1w1w/8/16/16",
            "1/w1w1/8/16/16",
            "w/4/2w5/16/16",
            "w/4/4w3/16/16",
            "w/4/6w1/16/16",
            "w/4/w7/16/16"
        ]
    );
    assert_eq!(outcomes_of(START, "wA,bA"), ["X/4/8/16/16"]);
}

#[test]
fn adjacent_singles_that_cannot_act_are_a_loop() {
    // D1 and D2 can push neither way: everything beyond and beside them is
    // blocked. Both stones are removed and the game ends.
    let p = "1/4/X7/2X12X/XX14 1";
    assert_eq!(outcomes_of(p, "wD1,wD2"), ["1/4/X7/2X12X/XX14 loop"]);
    assert_eq!(naive::perft("1/4/X7/2X12X/XX14 2 loop", 1), 0);
    assert_eq!(
        naive::moves("1/4/X7/2X12X/XX14 2 loop"),
        Vec::<String>::new()
    );
}

#[test]
fn a_double_shuttling_between_two_nodes_is_a_loop() {
    // The double on D1 can only step onto the white H1, and back: both
    // states of that cycle are outcomes, each without the double.
    assert_eq!(
        outcomes_of("1/4/X7/1X13X/wX13X 1", "wD1,wD1"),
        ["1/4/X7/1X13X/wX13X loop", "1/4/X7/wX13X/1X13X loop"]
    );
}

#[test]
fn a_colour_with_fewer_than_two_stones_left_cannot_be_chosen() {
    // 23 blocks, 2 stuck white doubles and 16 white singles: 43 white
    // stones on the board, so only black can be placed, on D2 or D4.
    let p = "X/XXXX/XwXwXwXw/X1X1XWXWXwXwXwXw/w1wXwXwXw1wXwXwX 1";
    let texts: Vec<String> = naive::divide(p, 1).into_iter().map(|(t, _)| t).collect();
    assert_eq!(texts, ["bD2,bD2", "bD2,bD4", "bD4,bD2", "bD4,bD4"]);
    // The black double on D2 steps to H2 (its only empty neighbour), whose
    // stone then pulls or is pulled by the white H1 or H3.
    assert_eq!(
        outcomes_of(p, "bD2,bD2"),
        [
            "X/XXXX/XwXwXwXw/XbX1XWXWXwXwXwXw/1XwXwXwXw1wXwXwX",
            "X/XXXX/XwXwXwXw/XbX1XWXWXwXwXwXw/X1wXwXwXw1wXwXwX",
            "X/XXXX/XwXwXwXw/XbX1XWXWXwXwXwXw/w1XXwXwXw1wXwXwX",
            "X/XXXX/XwXwXwXw/XbX1XWXWXwXwXwXw/wX1XwXwXw1wXwXwX"
        ]
    );
}

/// One suite line: position text and (depth, count) pairs.
fn parse_suite_line(line: &str) -> (String, Vec<(u32, u64)>) {
    let mut parts = line.split(';');
    let position = parts.next().unwrap().trim().to_string();
    let counts = parts
        .map(|p| {
            let p = p.trim();
            let rest = p
                .strip_prefix('D')
                .unwrap_or_else(|| panic!("bad field '{p}'"));
            let (d, n) = rest.split_once(' ').unwrap();
            (d.parse().unwrap(), n.trim().parse().unwrap())
        })
        .collect();
    (position, counts)
}

#[test]
fn suite_counts_agree_with_the_reference_model() {
    let path = format!("{}/positions/spokes.perft", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!("{path}: cannot read the Spokes perft suite ({e}); it is written by the game's implementation")
    });
    let mut checked = 0;
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (position, counts) = parse_suite_line(line);
        for (depth, expected) in counts {
            if depth <= MAX_DEPTH && expected <= MAX_COUNT {
                assert_eq!(
                    naive::perft(&position, depth),
                    expected,
                    "{path}:{} '{position}' depth {depth}",
                    i + 1
                );
                checked += 1;
            }
        }
    }
    assert!(checked > 0, "{path}: no count small enough to recount");
}
