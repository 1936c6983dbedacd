//! Empedocles' Stones: the perft suite, the spec's counts, each rule at a
//! concrete position, text and parsing, and random games.

use crate::common;

use crate::naive::empedocles as naive;

use gamut_core::evaluate::{Evaluate, TermMask, EVAL_LIMIT};
use gamut_core::game::{Diagram, Game, NodeKind, NodeRules, Notation, Player};
use gamut_core::moves::named_children;
use gamut_core::perft::{children, divide, perft};
use gamut_games::empedocles::elements::Pairing;
use gamut_games::empedocles::{Empedocles, Move, Stage};

/// Suite counts above this are left to `gamut perft`: the test recounts 295
/// of the 309 counts, about 100 million leaves.
const SUITE_BUDGET: u64 = 10_000_000;

fn pos(text: &str) -> Empedocles {
    Empedocles::parse(text).unwrap_or_else(|e| panic!("'{text}': {e}"))
}

/// The sorted texts of the children of `text`.
fn moves(text: &str) -> Vec<String> {
    let p = pos(text);
    let mut v = Vec::new();
    p.moves(&mut v);
    let mut t: Vec<String> = v.into_iter().map(|m| p.move_text(m)).collect();
    t.sort();
    t
}

fn texts(list: &[&str]) -> Vec<String> {
    list.iter().map(|s| s.to_string()).collect()
}

/// The position after playing the given move texts from `text`.
fn after(text: &str, line: &[&str]) -> Empedocles {
    line.iter().fold(pos(text), |p, m| {
        let mv = p
            .parse_move(m)
            .unwrap_or_else(|e| panic!("{m} at '{}': {e}", p.text()));
        p.play(mv)
    })
}

#[test]
fn suite_counts_hold() {
    let checked = common::check_suite::<Empedocles>("empedocles.perft", SUITE_BUDGET);
    assert!(checked >= 290, "only {checked} counts checked");
}

#[test]
fn spec_counts_from_the_start_and_the_mid_game_position() {
    let start = Empedocles::start();
    let counts: Vec<u64> = (1..=4).map(|d| perft(&start, d)).collect();
    assert_eq!(counts, [64, 4_032, 249_984, 15_249_024]);
    let mid = pos("8/8/3ee3/3Fe3/3FF3/8/8/8 1 r:fire,earth");
    let counts: Vec<u64> = (1..=4).map(|d| perft(&mid, d)).collect();
    assert_eq!(counts, [55, 2_003, 78_033, 2_984_316]);
    // The die classes use no depth: depth 1 sums the actions after each.
    let d = divide(&mid, named_children(&mid, children(&mid)), 1, 1);
    let names: Vec<&str> = d.iter().map(|(t, _)| t.as_str()).collect();
    assert_eq!(names, ["D", "N", "T"]);
    assert_eq!(d.iter().map(|(_, n)| n).sum::<u64>(), 55);
}

#[test]
fn fire_steps_and_captures_any_enemy() {
    assert_eq!(
        moves("8/8/8/3e4/3F4/8/8/8 1 a1:fire,earth"),
        texts(&["d4-c3", "d4-c4", "d4-c5", "d4-d3", "d4-e3", "d4-e4", "d4-e5", "d4xd5"])
    );
    // Surrounded by air: eight captures.
    let m = moves("8/8/8/2aaa3/2aFa3/2aaa3/8/8 1 a2:fire,air");
    assert_eq!(m.len(), 8);
    assert!(m.iter().all(|t| t.starts_with("d4x")));
}

#[test]
fn water_chains_through_its_own_pieces_and_captures_only_fire() {
    let m = moves("8/8/8/8/2WWWf2/8/8/8 1 a1:water,fire");
    // Every water piece reaches f4 along the chain and captures the fire.
    for from in ["c4", "d4", "e4"] {
        assert!(m.contains(&format!("{from}xf4")), "{from}: {m:?}");
        // ... and the far end of the chain, but never its own square.
        assert!(m.contains(&format!("{from}-b5")), "{from}: {m:?}");
        assert!(!m.iter().any(|t| t[3..] == *from && t.starts_with(from)));
    }
    // A lone water piece only steps.
    assert_eq!(
        moves("8/8/8/3f4/3W4/8/8/4W3 1 a1:water,fire")
            .iter()
            .filter(|t| t.starts_with("e1"))
            .count(),
        5
    );
    // Water cannot capture earth or air.
    assert!(!moves("8/8/2WWW3/2WeW3/2WWW3/8/8/8 1 a1:water,earth")
        .iter()
        .any(|t| t.contains('x')));
    assert!(!moves("8/8/8/8/2Wa4/2W5/8/8 1 a1:water,air")
        .iter()
        .any(|t| t.contains('x')));
}

#[test]
fn earth_captures_only_with_hammer_and_anvil() {
    // The board edge behind the victim.
    assert_eq!(
        moves("8/8/8/8/8/8/8/6Ea 1 a1:earth,air"),
        texts(&["g1-f1", "g1-f2", "g1-g2", "g1-h2", "g1xh1"])
    );
    assert!(moves("F7/1e6/8/8/8/8/8/8 2 a1:fire,earth").contains(&"b7xa8".to_string()));
    assert!(moves("8/8/8/8/wE6/8/8/8 1 a1:earth,water").contains(&"b4xa4".to_string()));
    // An own piece behind the victim, from both sides.
    let m = moves("8/8/8/8/2EaE3/8/8/8 1 a2:earth,air");
    let captures: Vec<&String> = m.iter().filter(|t| t.contains('x')).collect();
    assert_eq!(captures, ["c4xd4", "e4xd4"]);
    // An empty square behind: no capture.
    assert!(!moves("8/8/8/8/2Ew4/8/8/8 1 a1:earth,water")
        .iter()
        .any(|t| t.contains('x')));
    // d4 takes d3 against d2, d2 takes d3 against d4; d5 has no anvil.
    let m = moves("8/8/8/3f4/3E4/3f4/3E4/8 1 a1:earth,fire");
    let captures: Vec<&String> = m.iter().filter(|t| t.contains('x')).collect();
    assert_eq!(captures, ["d2xd3", "d4xd3"]);
}

#[test]
fn air_takes_two_steps_through_empty_squares_and_captures_only_earth() {
    // c3 is reachable only through the earth on b2: not at all.
    assert_eq!(
        moves("8/8/8/8/8/2e5/1e6/A7 1 a1:air,earth"),
        texts(&["a1-a2", "a1-a3", "a1-b1", "a1-b3", "a1-c1", "a1-c2", "a1xb2"])
    );
    // A two-step capture, and eighteen plain ends within two steps.
    let m = moves("8/8/8/8/3e4/8/3A4/8 1 a1:air,earth");
    assert!(m.contains(&"d2xd4".to_string()));
    assert_eq!(m.len(), 19);
    // Against water: no captures, and boxed-in air has only its jumps out.
    let m = moves("8/8/8/3w4/2wAw3/3w4/8/8 1 a2:air,water");
    assert!(!m.iter().any(|t| t.contains('x')));
    assert!(m.contains(&"d4-b2".to_string()));
    assert!(!m.contains(&"d4-d4".to_string()));
}

#[test]
fn transmutation_removes_all_at_once_with_counts_taken_before() {
    // The corner fires keep 3 neighbours, the edge fires have 5 and die, the
    // earth has 8 and lives. Removing one by one would save some edges.
    let p = after("8/8/2FFF3/2FeF3/2FFF3/8/8/8 2 r:fire,earth", &["T"]);
    assert_eq!(p.text(), "8/8/2F1F3/3e4/2F1F3/8/8/8 2 a1:fire,earth");
    // The other die classes leave the board alone.
    let p = after("8/8/2FFF3/2FeF3/2FFF3/8/8/8 2 r:fire,earth", &["N"]);
    assert_eq!(p.text(), "8/8/2FFF3/2FeF3/2FFF3/8/8/8 2 a1:fire,earth");
    let p = after("8/8/2FFF3/2FeF3/2FFF3/8/8/8 2 r:fire,earth", &["D"]);
    assert_eq!(p.text(), "8/8/2FFF3/2FeF3/2FFF3/8/8/8 2 a2:fire,earth");
    // Both lone pieces die: a draw.
    let p = after("8/8/8/8/3F1e2/8/8/8 1 r:fire,earth", &["T"]);
    assert_eq!(p.node(), NodeKind::Terminal);
    assert_eq!(p.outcome().unwrap().winner, None);
}

#[test]
fn placement_needs_exactly_three_neighbours_one_of_them_own() {
    let m = moves("8/8/8/2F1e3/3eF3/2F5/8/8 1 a2:fire,earth");
    let places: Vec<&String> = m.iter().filter(|t| t.starts_with('@')).collect();
    // c4 (c5, d4, c3) and d3 (d4, e4, c3) have three neighbours; d5 has
    // four (c5, e5, d4, e4) and b4 two (c5, c3).
    assert_eq!(places, ["@c4", "@d3"]);
    // A square next to three enemy pieces only is not a placement.
    let m = moves("8/8/8/8/8/8/ee6/e6F 1 a1:fire,earth");
    assert!(!m.contains(&"@b1".to_string()));
    // After a 6, place and then move the new piece.
    let p = after(
        "8/8/8/2F1e3/3eF3/2F5/8/8 1 a2:fire,earth",
        &["@d3", "d3-d2"],
    );
    assert_eq!(p.text(), "8/8/8/2F1e3/3eF3/2F5/3F4/8 2 r:fire,earth");
}

#[test]
fn a_player_without_actions_passes_each_action() {
    let start = "8/8/8/8/8/8/ff6/Ef6 1 a2:earth,fire";
    assert_eq!(moves(start), ["pass"]);
    let p = after(start, &["pass"]);
    assert_eq!(p.text(), "8/8/8/8/8/8/ff6/Ef6 1 a1:earth,fire");
    assert_eq!(moves(&p.text()), ["pass"]);
    let p = after(start, &["pass", "pass"]);
    assert_eq!(p.text(), "8/8/8/8/8/8/ff6/Ef6 2 r:earth,fire");
    // Passing is only possible without another action.
    assert!(pos("8/8/8/3e4/3F4/8/8/8 1 a1:fire,earth")
        .parse_move("pass")
        .is_err());
}

#[test]
fn nobody_able_to_act_ends_the_game_at_an_action_node_only() {
    let full = "wwwwwwww/wwwwwwww/wwwwwwww/wwwwwwww/wwwEwwww/wwwwwwww/wwwwwwww/wwwwwwww";
    let p = pos(&format!("{full} 1 a1:earth,water"));
    assert_eq!(p.node(), NodeKind::Terminal);
    let o = p.outcome().unwrap();
    assert_eq!(o.winner, Some(Player::SECOND));
    assert_eq!(o.reason, "no actions, most pieces");
    let r = pos(&format!("{full} 1 r:earth,water"));
    assert_eq!(r.node(), NodeKind::Chance);
    // Only the transmutation opens the board: the earth survives (8
    // neighbours), the edge and inner water dies, the corners live.
    assert_eq!(
        divide(&r, named_children(&r, children(&r)), 1, 1),
        [
            ("D".to_string(), 0),
            ("N".to_string(), 0),
            ("T".to_string(), 8)
        ]
    );
}

#[test]
fn wins_are_reported_pyrrhic_when_the_winner_would_die_next() {
    // Air with one neighbour survives, water with one dies; then the lone
    // air has no neighbour and would die at the next transmutation.
    let p = after("8/8/8/3Aw3/8/8/8/8 1 r:air,water", &["T"]);
    assert_eq!(p.text(), "8/8/8/3A4/8/8/8/8 1 a1:air,water");
    let o = p.outcome().unwrap();
    assert_eq!(o.winner, Some(Player::FIRST));
    assert_eq!(o.reason, "pyrrhic: opponent has no pieces");
    assert!(p.diagram().contains("game over: player 1 wins (pyrrhic"));
    // Three earths in a corner shape each keep two neighbours: a plain win.
    let o = pos("8/8/8/8/3EE3/3E4/8/8 2 r:earth,fire")
        .outcome()
        .unwrap();
    assert_eq!(o.winner, Some(Player::FIRST));
    assert_eq!(o.reason, "opponent has no pieces");
    // Capturing the last enemy piece ends the game at once, even after a 6.
    let p = after("8/8/8/4e3/3F4/8/8/8 1 a2:fire,earth", &["d4xe5"]);
    assert_eq!(p.node(), NodeKind::Terminal);
    assert_eq!(
        p.outcome().unwrap().reason,
        "pyrrhic: opponent has no pieces"
    );
    assert_eq!(
        pos("8/8/8/8/8/8/8/8 1 r:fire,earth")
            .outcome()
            .unwrap()
            .reason,
        "no pieces left"
    );
}

#[test]
fn setup_places_three_each_then_the_first_turn_starts() {
    let p = after(
        "8/8/8/8/8/8/8/8 1 s1:water,air",
        &["@a1", "@b1", "@c1", "@h8", "@g8"],
    );
    assert_eq!(p.text(), "6aa/8/8/8/8/8/8/WWW5 2 s2:water,air");
    assert_eq!((p.side(), p.stage()), (Player::SECOND, Stage::Setup));
    // Setup is never over, even though a piece is alone on the board.
    assert_eq!(p.node(), NodeKind::Decision(Player::SECOND));
    let p = after(&p.text(), &["@a8"]);
    assert_eq!(p.text(), "a5aa/8/8/8/8/8/8/WWW5 1 r:water,air");
    assert_eq!((p.side(), p.stage()), (Player::FIRST, Stage::Roll));
    assert_eq!(p.node(), NodeKind::Chance);
    let mut dice = Vec::new();
    p.moves(&mut dice);
    let probabilities: Vec<f64> = dice.iter().map(|&m| p.probability(m)).collect();
    assert_eq!(probabilities, [1.0 / 3.0, 1.0 / 2.0, 1.0 / 6.0]);
    assert_eq!(p.perspective(), Player::FIRST);
    // Setup placements need no neighbours but an empty square.
    assert!(p.parse_move("@a1").is_err());
}

#[test]
fn start_with_honours_every_pairing_and_rejects_bad_ones() {
    let mut seen = Vec::new();
    for pairing in Pairing::all() {
        let p = Empedocles::start_with(&pairing.to_string()).unwrap();
        assert_eq!(p.text(), format!("8/8/8/8/8/8/8/8 1 s1:{pairing}"));
        assert_eq!(p.pairing(), pairing);
        assert!(!seen.contains(&p.hash()), "hash repeats for {pairing}");
        seen.push(p.hash());
    }
    assert_eq!(seen.len(), 12);
    let default = Empedocles::start();
    assert_eq!(Empedocles::start_with("fire,earth"), Ok(default.clone()));
    assert_eq!(default.text(), "8/8/8/8/8/8/8/8 1 s1:fire,earth");
    for (bad, says) in [
        ("fire,fire", "must differ"),
        ("fire,mud", "unknown element 'mud'"),
        ("fire", "separated by a comma"),
        ("fire,earth,air", "unknown element 'earth,air'"),
    ] {
        let e = Empedocles::start_with(bad).unwrap_err();
        assert!(e.0.contains(says), "'{bad}': {e}");
        assert!(!e.0.contains('\n'));
    }
}

#[test]
fn bad_position_text_is_rejected_with_the_reason() {
    for (bad, says) in [
        ("8/8/8/8/8/8/8/8 1", "found 2 fields"),
        ("8/8/8/8/8/8/8/8  1 r:fire,earth", "found 4 fields"),
        ("8/8/8/8/8/8/8/8 3 r:fire,earth", "side '3'"),
        ("8/8/8/8/8/8/8/8 1 r", "lacks the element pairing"),
        ("8/8/8/8/8/8/8/8 1 a3:fire,earth", "state 'a3'"),
        ("8/8/8/8/8/8/8/8 1 r:fire,fire", "must differ"),
        ("8/8/8/8/8/8/8/8 1 r:fire,lava", "unknown element 'lava'"),
        ("8/8/8/8/8/8/8 1 r:fire,earth", "7 ranks"),
        (
            "8/8/8/8/8/8/8/7X 1 r:fire,earth",
            "unexpected character 'X'",
        ),
        ("8/8/8/8/8/8/8/9 1 r:fire,earth", "longer than 8"),
        (
            "8/8/8/8/8/8/8/W7 1 r:fire,earth",
            "'W' on a1: player 1 plays fire",
        ),
        (
            "8/8/8/8/8/8/8/f7 1 r:fire,earth",
            "'f' on a1: player 2 plays earth",
        ),
        ("8/8/8/8/8/8/8/8 2 s1:fire,earth", "state s1 needs side 1"),
        (
            "8/8/8/8/8/8/8/FFF5 1 s1:fire,earth",
            "the board has 3 and 0",
        ),
        (
            "8/8/8/8/8/8/8/FF1e4 1 s1:fire,earth",
            "the board has 2 and 1",
        ),
        ("8/8/8/8/8/8/8/FF6 2 s2:fire,earth", "the board has 2 and 0"),
        (
            "8/8/8/8/8/8/eee5/FFF5 2 s2:fire,earth",
            "the board has 3 and 3",
        ),
    ] {
        let e = Empedocles::parse(bad).unwrap_err();
        assert!(e.0.contains(says), "'{bad}': got '{e}'");
        assert!(!e.0.contains('\n'));
    }
}

#[test]
fn move_text_is_canonical_and_strict() {
    let p = pos("8/8/8/3e4/3F4/8/8/8 1 a1:fire,earth");
    assert_eq!(p.parse_move("d4xd5"), Ok(Move::Step(sq("d4"), sq("d5"))));
    for (bad, says) in [
        ("d4-d5", "must be written 'd4xd5'"),
        ("d4xe4", "must be written 'd4-e4'"),
        ("d4-d6", "no such action"),
        ("d4d5", "is not a move"),
        ("i4-d5", "'i4' is not a square"),
        ("@z9", "'z9' is not a square"),
        ("T", "no such action"),
        ("", "is not a move"),
        ("d4-é5", "'é5' is not a square"),
    ] {
        let e = p.parse_move(bad).unwrap_err();
        assert!(e.0.contains(says), "'{bad}': got '{e}'");
    }
    let r = pos("8/8/3ee3/3Fe3/3FF3/8/8/8 1 r:fire,earth");
    assert!(r.parse_move("d4-c3").unwrap_err().0.contains("rolled"));
    let over = pos("8/8/8/8/3F4/8/8/8 2 r:fire,earth");
    assert!(over.parse_move("T").unwrap_err().0.contains("over"));
}

fn sq(name: &str) -> gamut_core::bits::Square {
    gamut_core::bits::Square::parse(name).unwrap()
}

#[test]
fn hash_tells_side_stage_and_pairing_apart() {
    let texts = [
        "8/8/3ee3/3Fe3/3FF3/8/8/8 1 r:fire,earth",
        "8/8/3ee3/3Fe3/3FF3/8/8/8 2 r:fire,earth",
        "8/8/3ee3/3Fe3/3FF3/8/8/8 1 a1:fire,earth",
        "8/8/3ee3/3Fe3/3FF3/8/8/8 1 a2:fire,earth",
        "8/8/3ee3/3Fe3/3FF3/8/8/8 1 r:fire,earth",
    ];
    let hashes: Vec<u64> = texts.iter().map(|t| pos(t).hash()).collect();
    assert_eq!(hashes[0], hashes[4]);
    for i in 0..4 {
        for j in i + 1..4 {
            assert_ne!(hashes[i], hashes[j], "{} / {}", texts[i], texts[j]);
        }
    }
    let a = pos("8/8/8/8/8/8/8/8 1 r:fire,earth");
    let b = pos("8/8/8/8/8/8/8/8 1 r:earth,fire");
    assert_ne!(a.hash(), b.hash());
    // Hash after a transmutation equals the hash of the parsed result.
    let t = after("8/8/2FFF3/2FeF3/2FFF3/8/8/8 2 r:fire,earth", &["T"]);
    assert_eq!(t.hash(), t.hash_from_scratch());
}

#[test]
fn evaluation_terms_switch_and_stay_bounded() {
    // Player 1 (fire) to move, two pieces up, with two survivors to none,
    // four placements to two, and the earth on d5 under threat.
    let p = pos("8/8/8/3e4/3F4/3F4/3F4/8 1 a1:fire,earth");
    let all = p.evaluate(TermMask::ALL);
    assert!(all > 0);
    assert_eq!(Empedocles::TERMS.len(), 4);
    for i in 0..Empedocles::TERMS.len() {
        let only = TermMask(1 << i);
        let without = TermMask::ALL.without(i);
        // Each term contributes here, and the terms add up.
        assert_ne!(p.evaluate(only), 0, "{}", Empedocles::TERMS[i]);
        assert_eq!(
            p.evaluate(only) + p.evaluate(without),
            all,
            "{}",
            Empedocles::TERMS[i]
        );
    }
    // The same board seen by player 2 is worth the opposite.
    let q = pos("8/8/8/3e4/3F4/3F4/3F4/8 2 a1:fire,earth");
    assert_eq!(q.evaluate(TermMask(1)), -p.evaluate(TermMask(1)));
    // A crowded board stays within the limit.
    let full = pos(
        "FFFFFFFF/FFFFFFFF/FFFFFFFF/FFFFFFFF/FFFFFFFF/FFFFFFFF/FFFFFFFF/FFFFFFFe 1 r:fire,earth",
    );
    assert!(full.evaluate(TermMask::ALL).abs() < EVAL_LIMIT);
    // Captures are hinted first, placements next.
    let capture = p.parse_move("d4xd5").unwrap();
    let quiet = p.parse_move("d4-c4").unwrap();
    assert!(p.move_hint(capture) > p.move_hint(quiet));
}

#[test]
fn random_games_keep_every_invariant() {
    // 2,000 games under all twelve pairings, every position checked: text
    // round trip, incremental hash, outcome only at terminal nodes,
    // move count and move text of every move, evaluation within its limit.
    let mut finished = 0;
    for (i, pairing) in Pairing::all().enumerate() {
        let start = Empedocles::new(pairing);
        let games = if i < 8 { 167 } else { 166 };
        finished += common::random_games(&start, games, 2_000, 100 + i as u64, true);
    }
    assert_eq!(finished, 2_000);
    let mid = pos("8/8/3ee3/3Fe3/3FF3/8/8/8 1 r:fire,earth");
    assert_eq!(common::random_games(&mid, 200, 2_000, 7, true), 200);
}

/// Along random games from the start, from the spec's mid-game position and
/// from a block of six pieces, the children (texts, sorted) equal those of
/// the plain reference model in `tests/suite/naive/empedocles.rs`.
#[test]
fn random_positions_have_the_reference_model_children() {
    use rand::SeedableRng;
    let mut rng = rand::rngs::SmallRng::seed_from_u64(11);
    let mut buf = Vec::new();
    let mut compared = 0;
    let pairings: Vec<Pairing> = Pairing::all().collect();
    for (i, &pairing) in pairings.iter().cycle().take(600).enumerate() {
        let [l1, l2] = [Player::FIRST, Player::SECOND].map(|p| pairing.of(p).letter());
        let l2 = l2.to_ascii_lowercase();
        let mut p = match i % 3 {
            0 => pos("8/8/3ee3/3Fe3/3FF3/8/8/8 1 r:fire,earth"),
            1 => Empedocles::new(pairing),
            _ => pos(&format!(
                "8/8/8/2{l2}{l2}{l2}3/2{l1}{l1}{l1}3/8/8/8 1 r:{pairing}"
            )),
        };
        loop {
            let mine: Vec<String> = divide(&p, named_children(&p, children(&p)), 1, 1)
                .into_iter()
                .map(|(t, _)| t)
                .collect();
            assert_eq!(mine, naive::moves(&p.text()), "at '{}'", p.text());
            compared += 1;
            if p.node() == NodeKind::Terminal {
                break;
            }
            p = common::random_child(&p, &mut rng, &mut buf);
        }
    }
    assert!(compared > 5_000, "{compared}");
}

#[test]
fn evaluation_is_bounded_along_random_games() {
    use rand::SeedableRng;
    let mut rng = rand::rngs::SmallRng::seed_from_u64(3);
    let mut buf = Vec::new();
    let mut seen = 0;
    for pairing in Pairing::all() {
        for _ in 0..20 {
            let mut p = Empedocles::new(pairing);
            while p.node() != NodeKind::Terminal {
                let v = p.evaluate(TermMask::ALL);
                assert!(v.abs() < EVAL_LIMIT, "{v} at {}", p.text());
                seen += 1;
                p = common::random_child(&p, &mut rng, &mut buf);
            }
        }
    }
    assert!(seen > 1_000);
}

/// Random games end quickly (a transmutation usually thins the board): of
/// 20,000 games the longest took 83 plies from the start and 133 from the
/// spec's mid-game position. A cap of 2,000 plies is fifteen times that, so
/// a game hitting it means the rules loop, and the soak fails.
#[test]
fn soak_ten_thousand_random_games_all_finish() {
    let mut finished = 0;
    for (i, pairing) in Pairing::all().enumerate() {
        finished += common::random_games(&Empedocles::new(pairing), 750, 2_000, i as u64, false);
    }
    let mid = pos("8/8/3ee3/3Fe3/3FF3/8/8/8 1 r:fire,earth");
    finished += common::random_games(&mid, 1_000, 2_000, 99, false);
    assert_eq!(finished, 10_000);
}
