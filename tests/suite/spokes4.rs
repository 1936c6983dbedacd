//! Spokes for four players (`spokes4`) and two teams (`spokes2v2`): the
//! placement of four stones at once, every crowded-node rule, the rotation
//! of resolvers, each end of the game and each tie-break, position text,
//! and the perft suites.

use crate::common;

use gamut_core::game::{Game, NodeKind, NodeRules, Notation, Player};
use gamut_core::moves::named_children;
use gamut_core::perft::{child_position, children, perft};
use gamut_games::spokes::{Spokes2v2, Spokes4};

/// The outcome texts (sorted) of resolution position `text`.
fn outcomes<G: Notation>(text: &str) -> Vec<String> {
    let pos = G::parse(text).unwrap_or_else(|e| panic!("'{text}': {e}"));
    let mut moves = Vec::new();
    pos.moves(&mut moves);
    let mut texts: Vec<String> = moves.iter().map(|&m| pos.move_text(m)).collect();
    texts.sort();
    texts
}

/// The resolution position after the joint placement `joint` at `text`.
fn placed<G: Notation>(text: &str, joint: &str) -> String {
    let pos = G::parse(text).unwrap();
    gamut_core::moves::play_moves(pos, joint, "the test")
        .unwrap_or_else(|e| panic!("'{joint}' at '{text}': {e}"))
        .text()
}

fn winner<G: Notation>(text: &str) -> (usize, &'static str) {
    let o = G::parse(text).unwrap().outcome().expect("game over");
    (o.winner.expect("a winner").index() + 1, o.reason)
}

// ------------------------------------------------------------- placement

#[test]
fn four_stones_on_one_node_pair_into_blocks() {
    let start = "1/4/8/16/16 1";
    for (joint, node) in [
        ("wA,wA,bA,bA", "[XX]"),
        ("wA,bA,wA,wA", "[Xww]"),
        ("bA,bA,bA,wA", "[Xbb]"),
        ("wA,wA,wA,wA", "[wwww]"),
        ("bA,bA,bA,bB1", "[bbb]"),
        ("wA,bA,bB1,bB1", "X"),
        ("wA,wA,bB1,bB1", "W"),
    ] {
        let after = placed::<Spokes4>(start, joint);
        assert!(after.starts_with(node), "{joint}: {after}");
        assert!(after.ends_with(" 1 resolve"), "{joint}: {after}");
    }
}

#[test]
fn joint_placements_are_every_combination_in_player_order() {
    // Four empty placeable nodes (B2, B4, D14, D16), both colours: 8
    // actions per player.
    let text = "X/X1X1/XXXXXXXX/XXXXXXXXXXXXX1X1/16 6";
    let pos = Spokes4::parse(text).unwrap();
    assert_eq!(pos.node(), NodeKind::Simultaneous);
    let kids = named_children(&pos, children(&pos));
    assert_eq!(kids.len(), 8usize.pow(4));
    let (t, child) = kids
        .iter()
        .find(|(t, _)| t == "wB2,bD14,wD16,bB2")
        .expect("a joint placement");
    assert_eq!(
        child_position(&pos, child).text(),
        placed::<Spokes4>(text, t)
    );
    for bad in [
        "wB2,bD14",
        "wB2,bD14,wD16,bB2,wB2",
        "wB2,bD14,wD16,bH1",
        "wB2,bD14,wD16,bB1",
    ] {
        assert!(
            gamut_core::moves::play_moves(pos.clone(), bad, "the test").is_err(),
            "{bad}"
        );
    }
    for p in 0..4 {
        let mut v = Vec::new();
        pos.actions(Player::nth(p), &mut v);
        assert_eq!(v.len(), 8);
    }
}

#[test]
fn a_colour_needs_four_stones_off_the_board() {
    // 41 white stones on the board (13 doubles, 15 blocks): white is out.
    let text = "W/WWWW/WWWWWWWW/X1XXXXXXXXXXXXXX/16 3";
    let pos = Spokes4::parse(text).unwrap();
    let mut v = Vec::new();
    for p in 0..4 {
        pos.actions(Player::nth(p), &mut v);
        let texts: Vec<String> = v.iter().map(|&m| pos.move_text(m)).collect();
        assert_eq!(texts, ["bD2"], "player {}", p + 1);
    }
    // 40 white stones: both colours.
    let text = "X/WWWW/WWWWWWWW/X1XXXXXXXXXXXXXX/16 3";
    let pos = Spokes4::parse(text).unwrap();
    pos.actions(Player::nth(3), &mut v);
    assert_eq!(v.len(), 2);
}

// ------------------------------------------------------------ crowded nodes

#[test]
fn a_loose_stone_goes_to_an_empty_node_before_a_same_colour_single() {
    // D1 holds a block and a white stone; its neighbours C1 and D16 hold
    // blocks, D2 a white single, H1 is empty: the white stone goes to H1.
    let text = "1/4/X7/[Xw]w13X/16 1 resolve";
    assert_eq!(outcomes::<Spokes4>(text), ["1/4/X7/Xw13X/w15"]);
}

#[test]
fn a_loose_stone_joins_a_same_colour_single_only_when_nothing_else_is_free() {
    // As above with H1 blocked: the white stone joins D2, which becomes a
    // double; its neighbours D1, D3 and H2 hold blocks, so it stays.
    let text = "1/4/X7/[Xw]wX12X/XX14 1 resolve";
    assert_eq!(outcomes::<Spokes4>(text), ["1/4/X7/XWX12X/XX14"]);
}

#[test]
fn a_loose_stone_pairs_with_an_opposite_single() {
    let text = "1/4/X7/[Xb]w13X/X15 1 resolve";
    assert_eq!(outcomes::<Spokes4>(text), ["1/4/X7/XX13X/X15"]);
}

#[test]
fn a_quadruple_sheds_stones_one_at_a_time() {
    // D1 [wwww] with only H1 free; H1's other neighbours hold blocks. One
    // stone to H1, then (H1 now a same-colour single, the only target) one
    // more onto it: two doubles, neither with a step.
    let text = "1/4/X7/[wwww]X13X/1X13X 1 resolve";
    assert_eq!(outcomes::<Spokes4>(text), ["1/4/X7/WX13X/WX13X"]);
}

#[test]
fn two_blocks_move_one_block_to_an_empty_node() {
    // D1 [XX]: D2 is empty, H1 holds a black single: the block goes to D2.
    let text = "1/4/X7/[XX]14X/b15 1 resolve";
    assert_eq!(outcomes::<Spokes4>(text), ["1/4/X7/XX13X/b15"]);
}

#[test]
fn two_blocks_move_onto_a_single_only_when_no_node_is_empty() {
    // D1 [XX] next to a white single on D2 and a black single on H1, every
    // other neighbour blocked: the block lands on either single, which is
    // then a block with a loose stone that has no step.
    let text = "1/4/X7/[XX]wX12X/bX13X 1 resolve";
    assert_eq!(
        outcomes::<Spokes4>(text),
        ["1/4/X7/X[Xw]X12X/bX13X", "1/4/X7/XwX12X/[Xb]X13X"]
    );
}

#[test]
fn a_crowded_node_without_a_step_stays_and_counts() {
    // [www] on D1 surrounded by blocks: no step; the board is at rest and
    // can start a round.
    let text = "1/4/X7/[www]X13X/X15 4";
    let pos = Spokes4::parse(text).unwrap();
    assert_eq!(pos.node(), NodeKind::Simultaneous);
    assert_eq!(
        outcomes::<Spokes4>("1/4/X7/[www]X13X/X15 4 resolve"),
        ["1/4/X7/[www]X13X/X15"]
    );
}

#[test]
fn crowded_steps_come_before_singles_interact() {
    // A white triple on A with the B nodes empty and two adjacent black
    // singles far away: every outcome has resolved the triple; none ends
    // with stones of the triple still together and the blacks untouched.
    let text = "[www]/4/8/bb14/16 2 resolve";
    let outs = outcomes::<Spokes4>(text);
    assert!(!outs.is_empty());
    for o in &outs {
        assert!(!o.starts_with('['), "{o}");
    }
}

#[test]
fn a_round_start_must_be_at_rest() {
    for text in [
        "[www]/4/8/16/16 1",
        "[XX]/4/8/16/16 1",
        "1/ww2/8/16/16 1",
        "[Xw]/4/8/16/16 1",
    ] {
        let e = Spokes4::parse(text).expect_err(text);
        assert!(e.0.contains("not at rest"), "{text}: {e}");
    }
}

#[test]
fn an_unbreakable_loop_removes_stuck_singles_and_keeps_a_stuck_crowded_node() {
    // White singles on D2 and D3 cannot push each other (every other
    // neighbour holds a block): no step, an unbreakable loop at once. The
    // singles go; the [Xw] on H1, surrounded by blocks, stays.
    let text = "1/4/XX6/XwwXX11/[Xw]XXX11X 3 resolve";
    assert_eq!(
        outcomes::<Spokes4>(text),
        ["1/4/XX6/X2XX11/[Xw]XXX11X loop"]
    );
    // With H16 empty the crowded step comes first: the loose stone goes to
    // H16, and then the stuck singles make the loop.
    let text = "1/4/XX6/XwwXX11/[Xw]XXX12 3 resolve";
    assert_eq!(outcomes::<Spokes4>(text), ["1/4/XX6/X2XX11/XXXX11w loop"]);
}

// ---------------------------------------------------------------- resolvers

#[test]
fn resolvers_rotate_over_four_players_and_teams_follow_them() {
    let board = "1/4/8/wb14/16";
    for round in 1..=9u32 {
        let text = format!("{board} {round} resolve");
        let p = (round as usize - 1) % 4;
        assert_eq!(
            Spokes4::parse(&text).unwrap().node(),
            NodeKind::Decision(Player::nth(p))
        );
        assert_eq!(
            Spokes2v2::parse(&text).unwrap().node(),
            NodeKind::Decision(Player::nth(p / 2))
        );
    }
}

// ---------------------------------------------------------------- the end

#[test]
fn end_a_a_side_fills_its_home_nodes() {
    // Player 2's H5–H8 all hold stones: spokes4 is over, player 2 wins
    // with 6 stones. For team 1 (H1–H8) it is not yet over.
    let text = "1/4/8/16/4wXbX8 3";
    assert_eq!(winner::<Spokes4>(text), (2, "home nodes filled"));
    assert_eq!(
        Spokes2v2::parse(text).unwrap().node(),
        NodeKind::Simultaneous
    );
    let full = "1/4/8/16/wXbXwXbX8 3";
    assert_eq!(winner::<Spokes2v2>(full), (1, "home nodes filled"));
}

#[test]
fn end_b_every_approach_holds_a_block() {
    // Player 1's approaches are D1–D4, H16 and H5; a block with a loose
    // stone counts as a block, a double does not.
    let text = "1/4/8/XXX[Xw]X11/3XX10X 2";
    let pos = Spokes4::parse(text).unwrap();
    assert_eq!(pos.node(), NodeKind::Terminal);
    assert_eq!(pos.outcome().unwrap().reason, "home blocked");
    let not = "1/4/8/XXXWX11/3XX10X 2";
    assert_eq!(Spokes4::parse(not).unwrap().node(), NodeKind::Simultaneous);
    // Team 1's approaches are D1–D8, H9 and H16.
    let teams = "1/4/8/XXXXXXXX8/8X6X 2";
    let pos = Spokes2v2::parse(teams).unwrap();
    assert_eq!(pos.outcome().unwrap().reason, "home blocked");
}

#[test]
fn end_c_an_unbreakable_loop_is_terminal() {
    let pos = Spokes4::parse("1/4/XX6/X2XX11/[Xw]XXX11X 4 loop").unwrap();
    assert_eq!(pos.node(), NodeKind::Terminal);
    assert_eq!(pos.outcome().unwrap().reason, "unbreakable loop");
    assert_eq!(perft(&pos, 1), 0);
}

#[test]
fn end_d_nobody_can_place() {
    // Every placeable node full: nobody can place; all players score 0 and
    // have 14 stones in their quadrant, so player 4, the highest-numbered,
    // wins.
    let text = "X/XXXX/XXXXXXXX/XXXXXXXXXXXXXXXX/16 30";
    assert_eq!(winner::<Spokes4>(text), (4, "no placement"));
    // Teams: equal homes, equal semicircles: team 2.
    assert_eq!(winner::<Spokes2v2>(text), (2, "no placement"));
}

// ---------------------------------------------------------------- scoring

#[test]
fn the_most_home_stones_win_and_blocks_count_two() {
    // Player 1: a block on H1 (2); player 3: a single and a block (3);
    // player 4: a block with a loose stone (3). Players 3 and 4 are tied,
    // and player 3 has a stone in the quadrant (C5). With [Xww] player 4
    // has four and wins outright.
    let text = "1/4/4w3/16/X7bX2[Xw]3 5 loop";
    assert_eq!(winner::<Spokes4>(text).0, 3);
    let text = "1/4/4w3/16/X7bX2[Xww]3 5 loop";
    assert_eq!(winner::<Spokes4>(text).0, 4);
}

#[test]
fn the_quadrant_decides_only_among_the_tied() {
    // Players 1 and 3 have one home stone each, player 4 none but the most
    // quadrant stones; player 1's quadrant (C1) beats player 3's (none).
    let text = "1/4/w7/12XX2/w7w7 5 loop";
    assert_eq!(winner::<Spokes4>(text), (1, "unbreakable loop"));
    // Players 1 and 3 tied on both: the higher-numbered, player 3.
    let text = "1/4/8/12XX2/w7w7 5 loop";
    assert_eq!(winner::<Spokes4>(text).0, 3);
}

#[test]
fn teams_score_their_half_then_the_semicircle_then_team_2() {
    let text = "1/4/8/16/w7bb6 5 loop";
    assert_eq!(winner::<Spokes2v2>(text).0, 2);
    let text = "1/4/8/16/wX6bb6 5 loop";
    assert_eq!(winner::<Spokes2v2>(text).0, 1);
    let text = "1/w3/8/16/w7w7 5 loop";
    assert_eq!(winner::<Spokes2v2>(text).0, 1);
    let text = "1/4/8/16/w7w7 5 loop";
    assert_eq!(winner::<Spokes2v2>(text).0, 2);
    let o = Spokes2v2::parse("1/4/8/16/wX6bb6 5 loop")
        .unwrap()
        .outcome()
        .unwrap();
    assert_eq!(o.points, Some([3, 2]));
}

// ---------------------------------------------------------------- text

#[test]
fn position_text_round_trips_and_rejects_bad_brackets() {
    for text in [
        "[XX]/w1b1/5b1b/4b2w2K[Xw]4/16 5 resolve",
        "1/4/X7/[www]X13X/X15 4",
        "1/4/XX6/X2XX11/[Xw]XXX11X 4 loop",
    ] {
        assert_eq!(Spokes4::parse(text).unwrap().text(), text);
        assert_eq!(Spokes2v2::parse(text).unwrap().text(), text);
    }
    for bad in [
        "[ww]/4/8/16/16 1",
        "[X]/4/8/16/16 1",
        "[wX]/4/8/16/16 1 resolve",
    ] {
        assert!(Spokes4::parse(bad).is_err(), "{bad}");
    }
}

// ---------------------------------------------------------------- perft

#[test]
fn perft_suites() {
    assert!(common::check_suite::<Spokes4>("spokes4.perft", 3_000_000) >= 8);
    assert!(common::check_suite::<Spokes2v2>("spokes2v2.perft", 3_000_000) >= 8);
}

#[test]
#[ignore = "long check"]
fn long_perft_from_the_start() {
    assert_eq!(perft(&Spokes4::start(), 1), 32_458_792);
    assert_eq!(perft(&Spokes2v2::start(), 1), 32_458_792);
}

// ---------------------------------------------------------------- command line

#[test]
fn the_command_line_counts_shows_and_refuses_what_it_cannot_play() {
    let fen = "X/XXXw/[Xb]KXXXXXX/XwXXXXwXXXwXwXX1/9X5X 15";
    let o = common::gamut(&["perft", "spokes4", "--fen", fen, "--depth", "1"]);
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(String::from_utf8_lossy(&o.stdout), "nodes 16\n");
    let o = common::gamut(&["moves", "spokes4", "--fen", fen]);
    let lines = String::from_utf8_lossy(&o.stdout).lines().count();
    assert_eq!(lines, 16);
    // A list of millions says so first, with its count.
    let mut child = common::gamut_command()
        .args(["moves", "spokes4"])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("gamut runs");
    let mut first = String::new();
    std::io::BufRead::read_line(
        &mut std::io::BufReader::new(child.stderr.take().unwrap()),
        &mut first,
    )
    .unwrap();
    child.kill().ok();
    child.wait().ok();
    assert!(first.starts_with("listing 32458792 moves"), "{first}");
    let few = common::gamut(&["moves", "spokes4", "--fen", fen]);
    assert!(few.stderr.is_empty());
    let o = common::gamut(&["show", "spokes2v2", "--moves", "wA,wA,bA,bA"]);
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.contains("position [XX]/4/8/16/16 1 resolve"), "{out}");
    assert!(out.contains("team 1 to move"), "{out}");
    // Bench searches each side's paranoid view in turn.
    let o = common::gamut(&["bench", "spokes2v2", "--runs", "1"]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let out = String::from_utf8_lossy(&o.stdout);
    let row = out
        .lines()
        .find(|l| l.starts_with("spokes2v2 "))
        .expect("a row");
    let nodes: u64 = row.split_whitespace().nth(5).unwrap().parse().unwrap();
    assert!(nodes > 0, "{out}");
    // Seat tournaments have engines of their own: no two-player greedy.
    let o = common::gamut(&[
        "tournament",
        "spokes2v2",
        "--engine",
        "random",
        "--engine",
        "greedy",
    ]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.lines().count() == 1 && err.contains("'greedy'"),
        "{err}"
    );
}
