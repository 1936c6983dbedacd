//! Empedocles' Stones checked against a plain reference model: the spec's
//! known counts, hand-made rule cases, and every count of the perft suite
//! small enough to recount.

use crate::naive::empedocles as naive;

/// The largest suite count the reference model recounts.
const MAX_COUNT: u64 = 1_000_000;
/// The deepest suite depth the reference model recounts.
const MAX_DEPTH: u32 = 3;

fn texts(list: &[&str]) -> Vec<String> {
    list.iter().map(|s| s.to_string()).collect()
}

#[test]
fn start_counts_for_two_pairings() {
    for pairing in ["fire,earth", "water,air"] {
        let start = format!("8/8/8/8/8/8/8/8 1 s1:{pairing}");
        let counts: Vec<u64> = (1..=3).map(|d| naive::perft(&start, d)).collect();
        assert_eq!(counts, vec![64, 4_032, 249_984], "{pairing}");
    }
}

#[test]
fn spec_middle_position_counts() {
    let p = "8/8/3ee3/3Fe3/3FF3/8/8/8 1 r:fire,earth";
    assert_eq!(naive::perft(p, 1), 55);
    assert_eq!(naive::perft(p, 2), 2_003);
    assert_eq!(naive::perft(p, 3), 78_033);
    assert_eq!(naive::perft(p, 4), 2_984_316);
    let d = naive::divide(p, 2);
    assert_eq!(
        d.iter().map(|(t, _)| t.as_str()).collect::<Vec<_>>(),
        ["D", "N", "T"]
    );
    assert_eq!(d.iter().map(|(_, n)| n).sum::<u64>(), 2_003);
}

#[test]
fn setup_hands_over_after_three_placements() {
    // Player 2's last setup placement starts the first turn: an `r` node,
    // whose die classes use no depth.
    let p = "8/8/8/8/8/8/8/FFF2ee1 2 s2:fire,earth";
    let m = naive::moves(p);
    assert_eq!(m.len(), 59);
    assert_eq!(m[0], "@a2");
    assert_eq!(naive::perft(p, 0), 1);
    assert!(naive::perft(p, 2) > 59);
}

#[test]
fn transmutation_counts_neighbours_before_any_removal() {
    // The fire on d4 keeps its two neighbours (c3, e5) for the count even
    // though both earths die; it survives and then has its eight steps.
    let p = "6ee/7e/8/4e3/3F4/2e5/8/8 1 r:fire,earth";
    let d = naive::divide(p, 1);
    assert_eq!(d[2], ("T".to_string(), 8));
    // Without a transmutation the fire also has its two captures.
    assert_eq!(d[1], ("N".to_string(), 8));
    let n = naive::moves("6ee/7e/8/4e3/3F4/2e5/8/8 1 a1:fire,earth");
    assert!(n.contains(&"d4xc3".to_string()) && n.contains(&"d4xe5".to_string()));
}

#[test]
fn pyrrhic_transmutation_ends_the_game() {
    // Air with one neighbour survives, water with one dies: player 2 is
    // wiped out, so the `T` class is terminal.
    let d = naive::divide("8/8/8/8/3Aw3/8/8/8 1 r:air,water", 1);
    assert_eq!(d[2], ("T".to_string(), 0));
    assert!(d[1].1 > 0);
}

#[test]
fn earth_captures_only_with_hammer_and_anvil() {
    // Board edge behind the victim.
    assert_eq!(
        naive::moves("8/8/8/8/8/8/8/6Ef 1 a1:earth,fire"),
        texts(&["g1-f1", "g1-f2", "g1-g2", "g1-h2", "g1xh1"])
    );
    // Empty square behind: no capture.
    let m = naive::moves("8/8/8/8/3Ef1E1/8/8/8 1 a1:earth,fire");
    assert!(!m.iter().any(|t| t.contains('x')), "{m:?}");
    // Own piece behind, from both sides.
    let m = naive::moves("8/8/8/8/3EfE2/8/8/8 1 a1:earth,fire");
    let captures: Vec<&String> = m.iter().filter(|t| t.contains('x')).collect();
    assert_eq!(captures, ["d4xe4", "f4xe4"]);
    // Diagonal: anvil on h1 behind g2 from f3.
    let m = naive::moves("8/8/8/8/8/5E2/6f1/7E 1 a1:earth,fire");
    assert!(m.contains(&"f3xg2".to_string()) && m.contains(&"h1xg2".to_string()));
}

#[test]
fn air_first_step_must_be_empty_and_captures_end_the_move() {
    // c3 could only be reached through the earth on b2.
    assert_eq!(
        naive::moves("8/8/8/8/8/2e5/1e6/A7 1 a1:air,earth"),
        texts(&["a1-a2", "a1-a3", "a1-b1", "a1-b3", "a1-c1", "a1-c2", "a1xb2"])
    );
}

#[test]
fn water_runs_along_chains_and_captures_only_fire() {
    assert_eq!(
        naive::moves("8/8/8/8/8/8/8/WWf5 1 a1:water,fire"),
        texts(&["@b2", "a1-a2", "a1-b2", "a1-c2", "a1xc1", "b1-a2", "b1-b2", "b1-c2", "b1xc1"])
    );
    // Against air, water cannot capture.
    let m = naive::moves("8/8/8/8/8/8/8/WWa5 1 a1:water,air");
    assert!(!m.iter().any(|t| t.contains('x')), "{m:?}");
}

#[test]
fn a_player_without_actions_passes() {
    // The earth on a1 is boxed in by fire without an anvil behind.
    let p = "8/8/8/8/8/8/ff6/Ef6 1 a2:earth,fire";
    assert_eq!(naive::moves(p), texts(&["pass"]));
    assert_eq!(naive::perft(p, 2), 1);
}

#[test]
fn nobody_able_to_act_ends_the_game_but_not_at_the_die() {
    let full = "wwwwwwww/wwwwwwww/wwwwwwww/wwwwwwww/wwwEwwww/wwwwwwww/wwwwwwww/wwwwwwww";
    let a1 = format!("{full} 1 a1:earth,water");
    assert!(naive::moves(&a1).is_empty());
    assert_eq!(naive::perft(&a1, 1), 0);
    // At the die a transmutation clears all but the corners: eight steps.
    let d = naive::divide(&format!("{full} 1 r:earth,water"), 1);
    assert_eq!(
        d,
        vec![
            ("D".to_string(), 0),
            ("N".to_string(), 0),
            ("T".to_string(), 8)
        ]
    );
}

#[test]
fn capturing_the_last_enemy_piece_ends_the_game() {
    let p = "8/8/8/4e3/3F4/8/8/8 1 a2:fire,earth";
    let d = naive::divide(p, 2);
    let capture = d.iter().find(|(t, _)| t == "d4xe5").unwrap();
    assert_eq!(capture.1, 0);
    assert_eq!(d.len(), 8);
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
    let path = format!("{}/positions/empedocles.perft", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!("{path}: cannot read the Empedocles perft suite ({e}); it is written by the game's implementation")
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
