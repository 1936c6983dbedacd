//! The four-player Spokes variants checked against a plain reference model
//! (`naive/spokes4.rs`): the spec's count from the start, hand-made rule
//! cases, the counts of `positions/spokes4.naive` and
//! `positions/spokes2v2.naive` against `gamut perft`, and the game's own
//! suites `positions/spokes4.perft` and `positions/spokes2v2.perft`
//! recounted. The checks that need the game in `gamut` are long checks.

use crate::common;
use crate::naive::spokes4 as naive;
use crate::naive::suite;

const START: &str = "1/4/8/16/16 1";

/// The games whose positions files this module reads.
const GAMES: [&str; 2] = ["spokes4", "spokes2v2"];

/// The largest count of the positions files recounted by the quick test.
const QUICK_COUNT: u64 = 50_000;

/// A line of a positions file: line number, position and (depth, count)
/// pairs.
type Entry = (usize, String, Vec<(u32, u64)>);

/// The lines of `positions/<game>.naive`.
fn naive_suite(game: &str) -> Vec<Entry> {
    let path = format!("{}/positions/{game}.naive", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let mut fields = line.split(';');
        let position = fields.next().unwrap().trim().to_string();
        let counts = fields
            .map(|f| {
                let f = f.trim();
                let (d, n) = f
                    .strip_prefix('D')
                    .and_then(|r| r.split_once(' '))
                    .unwrap_or_else(|| panic!("{path}:{}: bad field '{f}'", i + 1));
                (d.parse().unwrap(), n.trim().parse().unwrap())
            })
            .collect();
        out.push((i + 1, position, counts));
    }
    out
}

#[test]
fn the_naive_positions_files_recount() {
    for game in GAMES {
        let mut checked = 0;
        for (line, position, counts) in naive_suite(game) {
            for (depth, expected) in counts {
                if expected <= QUICK_COUNT {
                    let got = naive::perft(game, &position, depth);
                    assert_eq!(got, expected, "{game}.naive:{line} depth {depth}");
                    checked += 1;
                }
            }
        }
        assert!(
            checked > 10,
            "{game}.naive: only {checked} counts recounted"
        );
    }
}

/// Every count of the naive positions files against `gamut perft`, listing
/// every disagreement.
#[test]
#[ignore = "long check"]
fn long_gamut_agrees_with_the_naive_positions_files() {
    let mut wrong = Vec::new();
    for game in GAMES {
        for (line, position, counts) in naive_suite(game) {
            for (depth, expected) in counts {
                let depth_text = depth.to_string();
                let out = common::ok(&["perft", game, "--fen", &position, "--depth", &depth_text]);
                let got: u64 = out
                    .lines()
                    .last()
                    .and_then(|l| l.strip_prefix("nodes "))
                    .and_then(|n| n.trim().parse().ok())
                    .unwrap_or_else(|| panic!("{game} '{position}': no 'nodes' line in {out}"));
                if got != expected {
                    wrong.push(format!(
                        "{game}.naive:{line} '{position}' depth {depth}: naive {expected}, gamut {got}"
                    ));
                }
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// Counts positions by hand: reads the file named by `SPOKES4_POSITIONS`
/// (lines `<position> [;D<n> <count>]…`, `#` comments) for the game
/// `SPOKES4_GAME` (default `spokes4`) and prints each position with its
/// naive counts at depths 1 to `SPOKES4_DEPTH` (default 1), after a
/// comment naming the winner if the game is over; with
/// `SPOKES4_MOVES` set, prints each position's `moves` list instead.
#[test]
#[ignore = "generator run by hand"]
fn count_positions_from_a_file() {
    let path = std::env::var("SPOKES4_POSITIONS").expect("SPOKES4_POSITIONS names a file");
    let game = std::env::var("SPOKES4_GAME").unwrap_or_else(|_| "spokes4".to_string());
    let depth: u32 = std::env::var("SPOKES4_DEPTH").map_or(1, |d| d.parse().expect("a depth"));
    let text = std::fs::read_to_string(&path).expect("a readable file");
    for line in text.lines() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            println!("{line}");
            continue;
        }
        let position = line.split(';').next().unwrap().trim();
        if std::env::var("SPOKES4_MOVES").is_ok() {
            for m in naive::moves(&game, position) {
                println!("{m}");
            }
            continue;
        }
        if let Some(side) = naive::winner(&game, position) {
            println!(
                "# over: {} {side} wins",
                if game == "spokes4" { "player" } else { "team" }
            );
        }
        let mut out = position.to_string();
        for d in 1..=depth {
            let started = std::time::Instant::now();
            out.push_str(&format!(" ;D{d} {}", naive::perft(&game, position, d)));
            eprintln!(
                "{position} depth {d}: {:.1} s",
                started.elapsed().as_secs_f64()
            );
        }
        println!("{out}");
    }
}

#[test]
#[ignore = "long check"]
fn long_naive_spokes4_start() {
    for game in ["spokes4", "spokes2v2"] {
        assert_eq!(naive::perft(game, START, 1), 32_458_792, "{game}");
    }
}

/// The outcomes of a board awaiting resolution, as nodes fields.
fn outcomes(game: &str, nodes: &str) -> Vec<String> {
    naive::moves(game, &format!("{nodes} 1 resolve"))
}

#[test]
fn two_blocks_move_one_block_to_an_empty_neighbour() {
    // [XX] on A: one block goes to any empty B node, the other stays.
    assert_eq!(
        outcomes("spokes4", "[XX]/4/XXXXXXXX/16/16"),
        [
            "X/1X2/XXXXXXXX/16/16",
            "X/2X1/XXXXXXXX/16/16",
            "X/3X/XXXXXXXX/16/16",
            "X/X3/XXXXXXXX/16/16"
        ]
    );
}

#[test]
fn two_blocks_without_an_empty_neighbour_move_onto_a_single() {
    // No empty neighbour: a block lands on the white B1 or B2, whose loose
    // stone then (blocks around) joins the other white single as a double.
    // The crowded step goes first: no push between B1 and B2.
    assert_eq!(
        outcomes("spokes4", "[XX]/wwXX/XXXXXXXX/16/16"),
        ["X/WXXX/XXXXXXXX/16/16", "X/XWXX/XXXXXXXX/16/16"]
    );
    // With an empty neighbour as well, the single is never the target.
    assert_eq!(
        outcomes("spokes4", "[XX]/w1XX/XXXXXXXX/16/16"),
        ["X/wXXX/XXXXXXXX/16/16"]
    );
}

#[test]
fn a_block_with_loose_stones_moves_only_its_loose_stones() {
    // [Xb] on A: the black stone goes to B1 or B3, the block stays on A.
    assert_eq!(
        outcomes("spokes4", "[Xb]/1X1X/XXXXXXXX/16/16"),
        ["X/1XbX/XXXXXXXX/16/16", "X/bX1X/XXXXXXXX/16/16"]
    );
}

#[test]
fn a_quadruple_with_only_a_same_colour_neighbour_becomes_a_triple() {
    // Only B3 (white) is beside A: one stone makes a double there; then
    // neither crowded node has a step and both stay as they are.
    assert_eq!(
        outcomes("spokes4", "[wwww]/XXwX/XXXXXXXX/16/16"),
        ["[www]/XXWX/XXXXXXXX/16/16"]
    );
}

#[test]
fn a_loose_stone_goes_to_the_other_colour_before_its_own() {
    // The black double on A may go onto the white B1 (a block), never onto
    // the black B3. The black singles left on A and B3 can push neither
    // way: an unbreakable loop removes both.
    assert_eq!(
        outcomes("spokes4", "K/wXbX/XXXXXXXX/16/16"),
        ["1/XX1X/XXXXXXXX/16/16 loop"]
    );
}

#[test]
fn a_colour_needs_four_stones_off_the_board() {
    // 40 blocks and a black single: 40 white stones on the board (four
    // off), 41 black (three off). Only white can be placed, on D16.
    let p = "[XX]/[XX][XX][XX][XX]/[XX][XX][XX][XX][XX][XX][XX]X/XXXXXXXXXXXXXXX1/b15 3";
    let texts: Vec<String> = naive::divide("spokes4", p, 1)
        .into_iter()
        .map(|(t, _)| t)
        .collect();
    assert_eq!(texts, ["wD16,wD16,wD16,wD16"]);
    // 41 blocks: nobody can place, though D16 is empty.
    let full = "[XX]/[XX][XX][XX][XX]/[XX][XX][XX][XX][XX][XX][XX][XX]/XXXXXXXXXXXXXXX1/16 9";
    for game in ["spokes4", "spokes2v2"] {
        assert_eq!(naive::perft(game, full, 1), 0, "{game}");
    }
    // No home stones: quadrants hold 20, 20, 20 and 18 stones (D16 is
    // empty), so player 3 wins as the highest-numbered of those tied; the
    // semicircles hold 40 and 38, so team 1 wins.
    assert_eq!(naive::winner("spokes4", full), Some(3));
    assert_eq!(naive::winner("spokes2v2", full), Some(1));
}

#[test]
fn a_player_with_every_home_node_occupied_ends_the_game() {
    // H9-H12 (player 3) are all occupied: over in spokes4; team 2 needs
    // H9-H16, so spokes2v2 goes on.
    let p = "X/XXXX/XXXXXXXX/XXXXXXXXXXXXXX2/8wXwX4 6";
    assert_eq!(naive::perft("spokes4", p, 1), 0);
    assert_eq!(naive::winner("spokes4", p), Some(3));
    assert!(naive::perft("spokes2v2", p, 1) > 0);
    assert_eq!(naive::winner("spokes2v2", p), None);
}

#[test]
fn blocks_around_a_home_end_the_game() {
    // D1-D4, H16 and H5 hold blocks (D1 two): player 1 is walled in.
    // Team 1's wall would need D5-D8 and H9 as well.
    let p = "1/4/X7/[XX]XXX11X/X3X10X 7";
    assert_eq!(naive::perft("spokes4", p, 1), 0);
    assert_eq!(naive::winner("spokes4", p), Some(1));
    assert_eq!(naive::winner("spokes2v2", p), None);
    // A double is not a block.
    assert_eq!(naive::winner("spokes4", "1/4/X7/WXXX11X/X3X10X 7"), None);
}

#[test]
fn an_unbreakable_loop_is_terminal() {
    let p = "X/bX1X/X3b1X1/XbXXX2bXXbXbX1X/6b6bX1 21 loop";
    for game in ["spokes4", "spokes2v2"] {
        assert_eq!(naive::perft(game, p, 1), 0);
        assert!(naive::moves(game, p).is_empty());
    }
}

#[test]
fn scores_and_tie_breaks() {
    let winner = |game: &str, nodes: &str| naive::winner(game, &format!("{nodes} 9 loop"));
    // Most home stones: a block counts two, a triple three.
    assert_eq!(winner("spokes4", "1/4/8/16/X4w4w5"), Some(1));
    assert_eq!(winner("spokes4", "1/4/8/16/X3[www]11"), Some(2));
    // Tied on homes: the quadrant decides (B1 is player 1's).
    assert_eq!(winner("spokes4", "1/w3/8/16/w3w11"), Some(1));
    // Still tied: the highest-numbered of the tied players; players 3 and
    // 4, behind on homes, do not count with their quadrants.
    assert_eq!(winner("spokes4", "1/2XX/8/16/w3w11"), Some(2));
    assert_eq!(winner("spokes4", "1/4/8/16/16"), Some(4));
    // Teams: H1-H8 against H9-H16, then semicircles, then team 2.
    assert_eq!(winner("spokes2v2", "1/4/8/16/w3w11"), Some(1));
    assert_eq!(winner("spokes2v2", "1/4/8/16/w7w7"), Some(2));
    assert_eq!(winner("spokes2v2", "1/w3/8/16/w7w7"), Some(1));
    assert_eq!(winner("spokes2v2", "1/4/8/7X8/w7w7"), Some(1));
}

#[test]
fn position_text_round_trips_through_the_brackets() {
    let p = "[XX]/XXXX/X[www]X[Xbb]XXXX/XXXXXXXXXXXXXXX1/16 8";
    // The only placements are on D16; the bracketed nodes are printed back
    // as they were read.
    let moves = naive::moves("spokes4", p);
    assert!(!moves.is_empty());
    for m in &moves {
        let (joint, nodes) = m.split_once(' ').unwrap();
        assert_eq!(joint.split(',').count(), 4, "{m}");
        assert!(joint.split(',').all(|x| &x[1..] == "D16"), "{m}");
        assert!(nodes.starts_with("[XX]/XXXX/X[www]X[Xbb]XXXX/"), "{m}");
    }
}

/// The game's own suites, `positions/spokes4.perft` and
/// `positions/spokes2v2.perft`, recounted by the naive model where a count
/// is at most a million.
#[test]
#[ignore = "long check"]
fn long_naive_recounts_the_perft_suites() {
    for game in GAMES {
        suite::cross_check(
            game,
            2,
            1_000_000,
            |p, d| naive::perft(game, p, d),
            |p, d| naive::divide(game, p, d),
        );
    }
}
