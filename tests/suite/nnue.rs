//! Learned evaluation: the training data `gamut datagen` writes.

use crate::common::{ok, rejected, scratch_dir};
use gamut_core::evaluate::EVAL_LIMIT;
use gamut_core::game::{Game, NodeKind, Notation, Player};
use gamut_games::data::{encode_game, read_all, write_header, GameRecord};
use gamut_games::empedocles::Empedocles;
use gamut_games::epaminondas::Epaminondas;
use gamut_games::spokes::Spokes;

fn datagen(out: &std::path::Path, games: &str, extra: &[&str]) -> String {
    datagen_of("epaminondas", out, games, extra)
}

fn datagen_of(game: &str, out: &std::path::Path, games: &str, extra: &[&str]) -> String {
    let mut args = vec![
        "datagen",
        game,
        "--out",
        out.to_str().unwrap(),
        "--games",
        games,
        "--nodes",
        "200",
        "--seed",
        "7",
    ];
    args.extend_from_slice(extra);
    ok(&args)
}

#[test]
fn datagen_resumes_and_shards_to_the_same_games() {
    let dir = scratch_dir("datagen");
    let whole = dir.join("whole.dat");
    datagen(&whole, "3", &[]);
    let resumed = dir.join("resumed.dat");
    datagen(&resumed, "1", &[]);
    // A crash in the middle of a game leaves part of it: resume drops it.
    let mut bytes = std::fs::read(&resumed).unwrap();
    bytes.extend_from_slice(&[9, 0, 1, 0]);
    std::fs::write(&resumed, &bytes).unwrap();
    let line = datagen(&resumed, "3", &["--resume"]);
    assert!(line.starts_with("games 2 positions "), "{line}");
    let whole_bytes = std::fs::read(&whole).unwrap();
    assert_eq!(std::fs::read(&resumed).unwrap(), whole_bytes);

    let games = read_all(&whole_bytes[..], "epaminondas").unwrap();
    assert_eq!(games.len(), 3);
    for g in &games {
        assert!(!g.samples.is_empty());
        for s in &g.samples {
            let pos = Epaminondas::parse(&s.text).unwrap();
            assert_eq!(pos.perspective(), s.side);
            assert!(s.score.abs() <= gamut_core::evaluate::EVAL_LIMIT as i16);
        }
    }
    // Shard 2 of 2 plays game 1 (counted from 0): the whole's second game.
    let part = dir.join("part.dat");
    datagen(&part, "3", &["--shard", "2/2"]);
    let part_games = read_all(&std::fs::read(&part).unwrap()[..], "epaminondas").unwrap();
    assert_eq!(part_games, games[1..2]);
}

/// In a game of more than two players every side's paranoid search scores
/// each round start for that side, so the samples name all four seats of
/// `spokes4` (and only the two teams of `spokes2v2`), and resuming gives
/// the same games.
#[test]
fn datagen_of_four_players_keeps_every_sides_scores() {
    let dir = scratch_dir("datagen-seats");
    for (game, sides) in [("spokes4", 4u8), ("spokes2v2", 2)] {
        let whole = dir.join(format!("{game}.dat"));
        datagen_of(game, &whole, "2", &["--random-plies", "1"]);
        let part = dir.join(format!("{game}-part.dat"));
        datagen_of(game, &part, "1", &["--random-plies", "1"]);
        datagen_of(game, &part, "2", &["--random-plies", "1", "--resume"]);
        let bytes = std::fs::read(&whole).unwrap();
        assert_eq!(std::fs::read(&part).unwrap(), bytes, "{game}");
        let games = read_all(&bytes[..], game).unwrap();
        assert_eq!(games.len(), 2);
        let mut seen = std::collections::BTreeSet::new();
        for g in &games {
            assert!(g.winner.is_none_or(|w| (w.index() as u8) < sides));
            for s in &g.samples {
                assert!(s.score.abs() <= gamut_core::evaluate::EVAL_LIMIT as i16);
                seen.insert(s.side.index() as u8);
                // A decision (a resolution) is scored for the side deciding.
                let id: gamut_games::GameId = game.parse().unwrap();
                let node = gamut_games::with_game!(id, G => G::parse(&s.text).unwrap().node());
                if let NodeKind::Decision(side) = node {
                    assert_eq!(s.side, side, "{game} {}", s.text);
                }
            }
        }
        assert_eq!(seen, (0..sides).collect(), "{game}: sides scored");
    }
}

#[test]
fn datagen_searches_with_the_evaluation_asked() {
    let dir = scratch_dir("datagen-eval");
    let scores = |eval: &str| {
        let file = dir.join(format!("{eval}.dat"));
        datagen(&file, "1", &["--eval", eval]);
        let games = read_all(&std::fs::read(&file).unwrap()[..], "epaminondas").unwrap();
        games[0].samples.iter().map(|s| s.score).collect::<Vec<_>>()
    };
    // The same seed's first game: its random plies alike, its search
    // scores those of the evaluation asked.
    assert_ne!(scores("net"), scores("classic"));
    let file = dir.join("net-none.dat");
    let err = rejected(&[
        "datagen",
        "epaminondas",
        "--out",
        file.to_str().unwrap(),
        "--eval",
        "net",
        "--net",
        "/nonexistent/x.net",
    ]);
    assert!(err.contains("x.net"), "{err}");
    assert!(!file.exists());
}

/// Makes `games` games of `game` whole, as two shards and in two runs
/// (the second resuming); asserts that the shards interleave to the whole,
/// that the resumed file is the whole byte for byte, and that the file
/// written again from what was read is the same bytes. Returns the games.
fn same_games_however_made(game: &str, games: usize) -> Vec<GameRecord> {
    let dir = scratch_dir(&format!("datagen-{game}"));
    let n = games.to_string();
    let whole = dir.join("whole.dat");
    datagen_of(game, &whole, &n, &[]);
    let whole_bytes = std::fs::read(&whole).unwrap();
    let all = read_all(&whole_bytes[..], game).unwrap();
    assert_eq!(all.len(), games);

    let mut again = Vec::new();
    write_header(&mut again, game).unwrap();
    for g in &all {
        again.extend(encode_game(g));
    }
    assert_eq!(again, whole_bytes, "{game}: the data does not round-trip");

    let parts = ["1/2", "2/2"].map(|k| {
        let part = dir.join(format!("part{}.dat", &k[..1]));
        datagen_of(game, &part, &n, &["--shard", k]);
        read_all(&std::fs::read(&part).unwrap()[..], game).unwrap()
    });
    let mut merged = Vec::new();
    for i in 0..games {
        merged.push(parts[i % 2][i / 2].clone());
    }
    assert_eq!(merged, all, "{game}: the shards differ from the whole");

    let resumed = dir.join("resumed.dat");
    datagen_of(game, &resumed, "1", &[]);
    datagen_of(game, &resumed, &n, &["--resume"]);
    assert_eq!(std::fs::read(&resumed).unwrap(), whole_bytes);
    all
}

#[test]
fn datagen_plays_empedocles_through_its_rolls() {
    let games = same_games_however_made("empedocles", 6);
    let samples: Vec<_> = games.iter().flat_map(|g| &g.samples).collect();
    assert!(!samples.is_empty());
    for s in samples {
        // Decisions after the roll, never the roll itself.
        let pos = Empedocles::parse(&s.text).unwrap();
        assert_eq!(pos.node(), NodeKind::Decision(s.side), "{}", s.text);
        assert!(s.score.abs() <= EVAL_LIMIT as i16);
    }
    // The die differs from game to game: the games are not all alike.
    assert!(games.windows(2).any(|w| w[0] != w[1]));
}

#[test]
fn datagen_keeps_spokes_round_starts_for_the_first_player() {
    let games = same_games_however_made("spokes", 2);
    let samples: Vec<_> = games.iter().flat_map(|g| &g.samples).collect();
    assert!(!samples.is_empty());
    for s in samples {
        let pos = Spokes::parse(&s.text).unwrap();
        assert_eq!(pos.node(), NodeKind::Simultaneous, "{}", s.text);
        assert_eq!(s.side, Player::FIRST);
        assert!(s.score.abs() <= EVAL_LIMIT as i16);
    }
}

#[test]
fn datagen_refuses_corrupt_files() {
    let dir = scratch_dir("datagen-bad");
    let file = dir.join("bad.dat");
    datagen(&file, "1", &[]);
    let mut bytes = std::fs::read(&file).unwrap();
    // The first game's result byte: after the 22-byte header, the game's
    // length and its check, and its count; the game's checksum finds it.
    bytes[32] = 5;
    std::fs::write(&file, &bytes).unwrap();
    let err = rejected(&[
        "datagen",
        "epaminondas",
        "--out",
        file.to_str().unwrap(),
        "--resume",
    ]);
    assert!(err.contains("byte 22") && err.contains("checksum"), "{err}");
    let err = rejected(&["datagen", "epaminondas", "--out", file.to_str().unwrap()]);
    assert!(err.contains("--resume"), "{err}");
    // A Spokes file cut inside its header, and one holding another game.
    let spokes = dir.join("spokes.dat");
    std::fs::write(&spokes, b"GAMUTPOS\x01").unwrap();
    let err = rejected(&[
        "datagen",
        "spokes",
        "--out",
        spokes.to_str().unwrap(),
        "--resume",
    ]);
    assert!(err.contains("byte 0"), "{err}");
    let err = rejected(&[
        "datagen",
        "spokes",
        "--out",
        file.to_str().unwrap(),
        "--resume",
    ]);
    assert!(err.contains("epaminondas"), "{err}");
}

mod inference {
    use gamut_core::game::{Game, NodeKind, NodeRules, Notation, Player};
    use gamut_core::nnue::Features;
    use gamut_games::apart::Apart;
    use gamut_games::aporia::Aporia;
    use gamut_games::empedocles::Empedocles;
    use gamut_games::epaminondas::Epaminondas;
    use gamut_games::spokes::Spokes;
    use gamut_search::nnue::network::{FloatNetwork, Network};
    use gamut_search::nnue::{evaluate_from_scratch, refresh, views_for, Evaluator};

    /// Game `G`'s built-in network.
    fn builtin<G: gamut_core::evaluate::Evaluate>() -> Network {
        match gamut_search::Evaluation::builtin::<G>() {
            Some(gamut_search::Evaluation::Net(net)) => (*net).clone(),
            _ => panic!("{} has a network", G::ID),
        }
    }

    /// A side's view of a game ([`TwoSided`]) reads the game's network as
    /// the side's view against its rival's, whoever moves in the view: the
    /// network's value for the side, negated where the others move, and
    /// the game's own value where the side is the game's side to move.
    #[test]
    fn a_sides_view_reads_the_network_for_the_side() {
        use gamut_core::evaluate::{Evaluate, TermMask};
        use gamut_search::nnue::value_from_scratch;
        use gamut_search::sides::TwoSided;
        use gamut_search::Evaluation;
        let net = builtin::<Spokes>();
        let of_view = Evaluation::builtin::<TwoSided<Spokes>>().expect("the game's network");
        let of_game = Evaluation::builtin::<Spokes>().unwrap();
        let mut checked = 0;
        for pos in random_game_of::<Spokes>(5, 80) {
            if pos.node() == NodeKind::Terminal {
                continue;
            }
            for side in Player::BOTH {
                let view = TwoSided::new(pos.clone(), side, 8);
                let mut want = value_from_scratch(&pos, &net, side);
                if net.on_classic {
                    want = (want + pos.evaluate_for(side, TermMask::ALL)).clamp(
                        -gamut_core::evaluate::EVAL_LIMIT,
                        gamut_core::evaluate::EVAL_LIMIT,
                    );
                }
                let sign = if view.perspective() == Player::FIRST {
                    1
                } else {
                    -1
                };
                assert_eq!(
                    of_view.value_once(&view, TermMask::ALL),
                    sign * want,
                    "{}",
                    pos.text()
                );
                if pos.perspective() == side {
                    assert_eq!(of_game.value_once(&pos, TermMask::ALL), want);
                }
                checked += 1;
            }
        }
        assert!(checked > 20, "{checked}");
    }

    /// In `spokes4` and `spokes2v2` each side's paranoid view reads the
    /// built-in network for that side against its rival (the seat across
    /// the table, the other team): one evaluator going from view to view
    /// and position to position gives what a refresh from scratch gives,
    /// negated where the others move.
    #[test]
    fn every_sides_view_of_four_player_spokes_reads_its_network_incrementally() {
        use gamut_games::spokes::{Spokes2v2, Spokes4};
        check_every_sides_view::<Spokes4>();
        check_every_sides_view::<Spokes2v2>();
    }

    fn check_every_sides_view<G: Features + Notation + gamut_core::evaluate::Evaluate>() {
        use gamut_core::evaluate::TermMask;
        use gamut_search::nnue::value_from_scratch;
        use gamut_search::sides::TwoSided;
        use gamut_search::Evaluation;
        let net = builtin::<G>();
        let of_view = Evaluation::builtin::<TwoSided<G>>().expect("the game's network");
        let mut evaluator = Evaluator::default();
        let mut checked = 0;
        for seed in 1..4 {
            for pos in random_game_of::<G>(seed, 6) {
                if pos.node() == NodeKind::Terminal {
                    continue;
                }
                for side in (0..G::INFO.sides.len()).map(Player::nth) {
                    let view = TwoSided::new(pos.clone(), side, 4);
                    let want = value_from_scratch(&pos, &net, side);
                    let sign = if view.perspective() == Player::FIRST {
                        1
                    } else {
                        -1
                    };
                    let got = of_view.value(&view, TermMask::ALL, &mut evaluator);
                    assert_eq!(got, sign * want, "{} {side} {}", G::ID, pos.text());
                    checked += 1;
                }
            }
        }
        assert!(checked >= 12, "{checked}");
    }

    use proptest::prelude::*;
    use rand::rngs::SmallRng;
    use rand::{Rng, SeedableRng};

    /// The positions of a random game of `G` from the start, at most
    /// `plies` long (at a simultaneous node, each player's action drawn
    /// alike).
    fn random_game_of<G: Game>(seed: u64, plies: usize) -> Vec<G> {
        let mut rng = SmallRng::seed_from_u64(seed);
        let mut pos = G::start();
        let mut moves = Vec::new();
        let mut line = vec![pos.clone()];
        for _ in 0..plies {
            pos = match pos.node() {
                NodeKind::Terminal => break,
                NodeKind::Simultaneous => {
                    let joint: Vec<G::Move> = (0..G::players())
                        .map(|p| {
                            pos.actions(Player::nth(p), &mut moves);
                            moves[rng.gen_range(0..moves.len())]
                        })
                        .collect();
                    pos.play_joint_all(&joint)
                }
                _ => {
                    pos.moves(&mut moves);
                    pos.play(moves[rng.gen_range(0..moves.len())])
                }
            };
            line.push(pos.clone());
        }
        line
    }

    /// Along a random game, and jumping between two games, the
    /// accumulators updated from the last position's equal those
    /// refreshed from scratch, and so do the values.
    fn check_incremental_everywhere(a: u64, b: u64) -> Result<(), TestCaseError> {
        check_incremental_with::<Epaminondas>(&builtin::<Epaminondas>(), a, b)?;
        check_incremental_with::<Epaminondas>(&bucketed(builtin::<Epaminondas>()), a, b)?;
        check_incremental_with::<Apart>(&builtin::<Apart>(), a, b)?;
        check_incremental_with::<Apart>(&bucketed(builtin::<Apart>()), a, b)?;
        check_incremental_with::<Aporia>(&builtin::<Aporia>(), a, b)?;
        check_incremental_with::<Empedocles>(&builtin::<Empedocles>(), a, b)?;
        check_incremental_with::<Spokes>(&builtin::<Spokes>(), a, b)?;
        check_incremental_with::<Spokes>(&bucketed(builtin::<Spokes>()), a, b)
    }

    /// Bounds of five output buckets that random games of every game
    /// cross (counts of active features, both halves together).
    const BOUNDS: [u16; 4] = [8, 24, 48, 96];

    /// `net` with five output buckets ([`BOUNDS`]), each its output turned
    /// a different way, so that a position read in the wrong bucket
    /// has another value.
    fn bucketed(mut net: Network) -> Network {
        let one = net.output_weights.clone();
        net.bounds = BOUNDS.to_vec();
        net.output_weights = (0..BOUNDS.len() + 1)
            .flat_map(|k| {
                let mut w = one.clone();
                w.rotate_left(k * 3);
                w
            })
            .collect();
        net.output_bias = (0..=BOUNDS.len() as i32)
            .map(|k| net.output_bias[0] + k * 20_000)
            .collect();
        net
    }

    proptest! {
        #![proptest_config(crate::common::fixed_cases(6))]

        #[test]
        fn incremental_accumulators_equal_a_refresh(a in any::<u64>(), b in any::<u64>()) {
            check_incremental_everywhere(a, b)?;
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(24))]

        #[test]
        #[ignore = "long check"]
        fn long_incremental_accumulators_equal_a_refresh_in_more_games(a in any::<u64>(), b in any::<u64>()) {
            check_incremental_everywhere(a, b)?;
        }
    }

    proptest! {
        #![proptest_config(crate::common::fixed_cases(8))]

        /// Each game's feature set, however it is built, holds exactly the
        /// features its list names, from both views, along random games.
        #[test]
        fn feature_sets_equal_the_lists(seed in any::<u64>()) {
            check_feature_sets(seed)?;
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        #[test]
        #[ignore = "long check"]
        fn long_feature_sets_equal_the_lists_in_more_games(seed in any::<u64>()) {
            check_feature_sets(seed)?;
        }
    }

    fn check_feature_sets(seed: u64) -> Result<(), TestCaseError> {
        check_feature_set::<Epaminondas>(seed)?;
        check_feature_set::<Apart>(seed)?;
        check_feature_set::<Aporia>(seed)?;
        check_feature_set::<Spokes>(seed)
    }

    fn check_feature_set<G: Features + Notation>(seed: u64) -> Result<(), TestCaseError> {
        let (mut list, mut scratch) = (Vec::new(), Vec::new());
        for pos in random_game_of::<G>(seed, 150) {
            for view in Player::BOTH {
                pos.features(view, &mut list);
                list.sort_unstable();
                let set: Vec<u16> = pos.feature_set(view, &mut scratch).iter().collect();
                prop_assert_eq!(&set, &list, "{} {}", G::ID, pos.text());
            }
        }
        Ok(())
    }

    /// Along a random game of `G`, then another backwards, then the first
    /// again in steps of seven, the accumulators updated from the last
    /// position's equal those refreshed from scratch, and so do the values
    /// (by network `net`).
    fn check_incremental_with<G: Features + Notation>(
        net: &Network,
        a: u64,
        b: u64,
    ) -> Result<(), TestCaseError> {
        let mut ev = Evaluator::default();
        let (one, two) = (random_game_of::<G>(a, 150), random_game_of::<G>(b, 150));
        let mut list = Vec::new();
        let mut acc = Vec::new();
        for (i, pos) in one
            .iter()
            .chain(two.iter().rev())
            .chain(one.iter().step_by(7))
            .enumerate()
        {
            let views = views_for::<G>(pos.perspective());
            let v = ev.evaluate(pos, net, G::feature_set, views);
            prop_assert_eq!(
                v,
                evaluate_from_scratch(pos, net),
                "{} position {}: {}",
                G::ID,
                i,
                pos.text()
            );
            for view in views {
                pos.features(view, &mut list);
                refresh(net, &list, &mut acc);
                prop_assert_eq!(ev.accumulator(view), &acc[..]);
            }
        }
        Ok(())
    }

    /// Apart's features: a piece touching one of its own colour is also a
    /// touching feature, a lone one is not; Black sees the board turned.
    #[test]
    fn apart_features_mark_touching_pieces() {
        // White on a1 and b2 (touching) and h8 (alone); Black on d4.
        let p = Apart::parse("7W/8/8/8/3B4/8/1W6/W7 w -").unwrap();
        let mut f = Vec::new();
        p.features(Player::FIRST, &mut f);
        f.sort_unstable();
        assert_eq!(f, vec![0, 9, 63, 64 + 27, 128, 128 + 9]);
        p.features(Player::SECOND, &mut f);
        f.sort_unstable();
        // Black's view: its own d4 turned to d5 (35); White's a1, b2, h8 to
        // a8 (56), b7 (49), h1 (7), the first two touching.
        assert_eq!(f, vec![35, 64 + 7, 64 + 49, 64 + 56, 192 + 49, 192 + 56]);
    }

    /// The side to move's view turns the board: a position and its mirror
    /// with the other side to move have the same features.
    #[test]
    fn features_are_seen_from_either_side() {
        let p = Epaminondas::parse("14/14/14/14/14/14/14/14/14/14/2B11/W13 w").unwrap();
        let q = Epaminondas::parse("B13/2W11/14/14/14/14/14/14/14/14/14/14 b").unwrap();
        let (mut f, mut g) = (Vec::new(), Vec::new());
        p.features(Player::FIRST, &mut f);
        q.features(Player::SECOND, &mut g);
        assert_eq!(f, vec![0, 168 + 14 + 2]);
        assert_eq!(f, g);
        assert_eq!(
            evaluate_from_scratch(&p, &builtin::<Epaminondas>()),
            evaluate_from_scratch(&q, &builtin::<Epaminondas>())
        );
    }

    /// Epaminondas' (or Empedocles') position text mirrored left to right.
    fn mirror_text(text: &str) -> String {
        let (board, side) = text.split_once(' ').unwrap();
        let rows: Vec<String> = board
            .split('/')
            .map(|row| {
                let mut cells = String::new();
                let mut run = 0;
                for c in row.chars() {
                    if let Some(d) = c.to_digit(10) {
                        run = run * 10 + d as usize;
                    } else {
                        cells.push_str(&".".repeat(run));
                        run = 0;
                        cells.push(c);
                    }
                }
                cells.push_str(&".".repeat(run));
                let mut out = String::new();
                let mut empty = 0;
                for c in cells.chars().rev() {
                    if c == '.' {
                        empty += 1;
                    } else {
                        if empty > 0 {
                            out.push_str(&empty.to_string());
                        }
                        empty = 0;
                        out.push(c);
                    }
                }
                if empty > 0 {
                    out.push_str(&empty.to_string());
                }
                out
            })
            .collect();
        format!("{} {side}", rows.join("/"))
    }

    /// The mirror the trainer learns from is a symmetry: along random
    /// games, the mirrored position has as many moves and the same
    /// outcome, and its features are the position's, mirrored.
    #[test]
    fn mirrored_features_are_the_mirrored_positions_features() {
        check_mirror::<Epaminondas>(200, mirror_text);
        check_mirror::<Empedocles>(60, mirror_text);
        check_mirror::<Spokes>(60, colours_swapped);
    }

    /// Spokes' position text with white and black swapped.
    fn colours_swapped(text: &str) -> String {
        let (board, rest) = text.split_once(' ').unwrap();
        let board: String = board
            .chars()
            .map(|c| match c {
                'w' => 'b',
                'b' => 'w',
                'W' => 'K',
                'K' => 'W',
                c => c,
            })
            .collect();
        format!("{board} {rest}")
    }

    fn check_mirror<G: Features + Notation>(plies: usize, mirror_text: fn(&str) -> String) {
        let mirror = G::MIRROR.expect("the game has a mirror");
        let (mut moves, mut mirrored_moves) = (Vec::new(), Vec::new());
        let (mut f, mut g) = (Vec::new(), Vec::new());
        let mut checked = 0;
        for seed in 0..10 {
            for pos in random_game_of::<G>(seed, plies) {
                let m = G::parse(&mirror_text(&pos.text())).unwrap();
                assert_eq!(m.outcome(), pos.outcome(), "{}", pos.text());
                assert_eq!(m.node(), pos.node(), "{}", pos.text());
                pos.moves(&mut moves);
                m.moves(&mut mirrored_moves);
                assert_eq!(moves.len(), mirrored_moves.len(), "{}", pos.text());
                for view in Player::BOTH {
                    pos.features(view, &mut f);
                    m.features(view, &mut g);
                    let mut f: Vec<u16> = f.iter().map(|&x| mirror(x)).collect();
                    f.sort_unstable();
                    g.sort_unstable();
                    assert_eq!(f, g, "{}", pos.text());
                }
                checked += 1;
            }
        }
        assert!(checked > 100, "{} {checked} positions", G::ID);
    }

    /// Empedocles' features: each side's pieces by its element, the other
    /// side's element counted among the three others, the pieces still to
    /// place during setup, and where the turn stands; player 2 sees the
    /// board turned.
    #[test]
    fn empedocles_features_name_elements_hands_and_the_turn() {
        // Setup: fire (player 1) has placed a1, b2 and c3, earth (player
        // 2) h8 and has two to place.
        let p = Empedocles::parse("7e/8/8/8/8/2F5/1F6/F7 2 s2:fire,earth").unwrap();
        let mut f = Vec::new();
        p.features(Player::FIRST, &mut f);
        f.sort_unstable();
        // Fire is element 0; earth is the second of water, earth, air.
        assert_eq!(f, vec![0, 9, 18, 256 + 64 + 63, 448, 452 + 2]);
        p.features(Player::SECOND, &mut f);
        f.sort_unstable();
        // Earth is element 2, fire the first of fire, water, air; the
        // board turned: h8 is h1 (7), a1 a8 (56), b2 b7 (49), c3 c6 (42).
        assert_eq!(f, vec![128 + 7, 256 + 42, 256 + 49, 256 + 56, 448 + 2, 452]);
        let stage = |text: &str| {
            let mut f = Vec::new();
            Empedocles::parse(text)
                .unwrap()
                .features(Player::FIRST, &mut f);
            f.into_iter().filter(|&x| x >= 448).collect::<Vec<_>>()
        };
        let board = "8/8/2e5/2F5/2FF4/8/8/8";
        assert_eq!(stage(&format!("{board} 1 r:fire,earth")), vec![456]);
        assert_eq!(stage(&format!("{board} 1 a1:fire,earth")), vec![457]);
        assert_eq!(stage(&format!("{board} 2 a2:fire,earth")), vec![458]);
        assert_eq!(Empedocles::INPUTS, 459);
    }

    /// How far, in evaluation units (a stone is 100), the quantized
    /// network's value may be from the float network's: a quarter of a
    /// stone. (The shipped network's export check measures its own
    /// difference on validation positions: see docs/nnue.md.)
    const TOLERANCE: f32 = 25.0;

    /// A float network with weights of a trained one's size, quantized:
    /// along random games its values stay within [`TOLERANCE`] of the
    /// float network's, for Epaminondas and Empedocles (whose chance
    /// nodes and setup have features of their own).
    #[test]
    fn quantized_values_are_within_tolerance_of_the_float_network() {
        for worst in [
            worst_quantization_error::<Epaminondas>(),
            worst_quantization_error::<Empedocles>(),
            worst_quantization_error::<Spokes>(),
        ] {
            assert!(worst <= TOLERANCE, "largest difference {worst}");
            assert!(worst > 0.0, "quantization changes something");
        }
    }

    /// A network of output buckets gives a position the value its bucket's
    /// output alone gives, in floats and in integers, along random games
    /// that cross every bucket.
    #[test]
    fn a_position_is_valued_by_its_bucket_s_output() {
        let mut net = bucketed(builtin::<Epaminondas>());
        // Bounds that random Epaminondas games cross (two counts a stone).
        net.bounds = vec![96, 104, 108, 111];
        let float = net.dequantize();
        let alone = |k: usize| {
            let h2 = 2 * net.hidden;
            let mut one = net.clone();
            one.bounds.clear();
            one.output_weights = net.output_weights[k * h2..][..h2].to_vec();
            one.output_bias = vec![net.output_bias[k]];
            one
        };
        let (mut us, mut them) = (Vec::new(), Vec::new());
        let mut seen = std::collections::BTreeSet::new();
        for seed in 0..16 {
            for pos in random_game_of::<Epaminondas>(seed, 600) {
                let side = pos.perspective();
                pos.features(side, &mut us);
                pos.features(side.other(), &mut them);
                let k = net.bucket(us.len() + them.len());
                seen.insert(k);
                let one = alone(k);
                assert_eq!(
                    evaluate_from_scratch(&pos, &net),
                    evaluate_from_scratch(&pos, &one)
                );
                assert_eq!(
                    float.evaluate(&us, &them),
                    one.dequantize().evaluate(&us, &them)
                );
            }
        }
        assert!(seen.len() >= 3, "buckets met: {seen:?}");
    }

    /// The largest difference between a random float network of 128
    /// hidden units for `G` and its quantized form along random games.
    fn worst_quantization_error<G: Features>() -> f32 {
        let mut rng = SmallRng::seed_from_u64(5);
        let hidden = 128;
        let inputs = G::INPUTS;
        let mut u = |n: usize, lo: f32, hi: f32| -> Vec<f32> {
            (0..n).map(|_| rng.gen_range(lo..hi)).collect()
        };
        let float = FloatNetwork {
            game: G::ID.into(),
            inputs,
            hidden,
            scale: 400,
            on_classic: false,
            feature_weights: u(inputs * hidden, -0.3, 0.3),
            feature_bias: u(hidden, 0.0, 0.5),
            bounds: Vec::new(),
            output_weights: u(2 * hidden, -0.3, 0.3),
            output_bias: vec![0.1],
        };
        let net = float.quantize();
        let (mut us, mut them) = (Vec::new(), Vec::new());
        let mut worst = 0f32;
        for seed in 0..8 {
            for pos in random_game_of::<G>(seed, 120) {
                let side = pos.perspective();
                pos.features(side, &mut us);
                pos.features(side.other(), &mut them);
                let f = float.evaluate(&us, &them).clamp(-10_000.0, 10_000.0);
                let q = evaluate_from_scratch(&pos, &net) as f32;
                worst = worst.max((f - q).abs());
            }
        }
        worst
    }
}

/// The error line of `analyze epaminondas` given the network file `path`.
fn refused_network(path: &str) -> String {
    rejected(&[
        "analyze",
        "epaminondas",
        "--depth",
        "1",
        "--eval",
        "net",
        "--net",
        path,
    ])
}

#[test]
fn bad_network_files_are_one_line_errors() {
    let dir = scratch_dir("nets");
    let bad = dir.join("bad.net");
    std::fs::write(&bad, b"GAMUTNET\x01\x00\x0bepaminondas\x50\x01").unwrap();
    let err = refused_network(bad.to_str().unwrap());
    assert!(err.contains("ends inside its header"), "{err}");
    // A network of another game, even a variant of the same rules.
    let teams = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/src/games/spokes/multi/spokes2v2.net"
    );
    let err = rejected(&["analyze", "spokes4", "--depth", "1", "--net", teams]);
    assert!(
        err.contains("spokes2v2") && err.contains("spokes4"),
        "{err}"
    );
    let out = ok(&["analyze", "epaminondas", "--depth", "2", "--eval", "net"]);
    assert!(out.contains("bestmove"), "{out}");
}

/// The depth-1 score `analyze` prints for Epaminondas' start with `extra`.
fn depth_one_score(extra: &[&str]) -> i32 {
    let out = ok(&[
        &["analyze", "epaminondas", "--depth", "1", "--exact"],
        extra,
    ]
    .concat());
    let line = out.lines().rfind(|l| l.starts_with("depth 1 ")).unwrap();
    line.split(' ').nth(3).unwrap().parse().unwrap()
}

/// A network that says "on classic" adds its output to the classic
/// evaluation; one that does not is the evaluation alone; a file of the
/// first format (version 1, without that byte) reads as the second.
#[test]
fn a_network_on_classic_adds_to_the_classic_evaluation() {
    use gamut_search::nnue::network::{FloatNetwork, Network};
    let dir = scratch_dir("nets-on-classic");
    let inputs = <Epaminondas as gamut_core::nnue::Features>::INPUTS;
    // Every weight zero and the output bias a quarter: 100 points for any
    // position, from either side.
    let constant = |on_classic| {
        FloatNetwork {
            game: "epaminondas".into(),
            inputs,
            hidden: 8,
            scale: 400,
            on_classic,
            feature_weights: vec![0.0; inputs * 8],
            feature_bias: vec![0.0; 8],
            bounds: Vec::new(),
            output_weights: vec![0.0; 16],
            output_bias: vec![0.25],
        }
        .quantize()
    };
    let write = |name: &str, bytes: Vec<u8>| {
        let path = dir.join(name);
        std::fs::write(&path, bytes).unwrap();
        path.to_str().unwrap().to_string()
    };
    let alone = write("alone.net", constant(false).to_bytes());
    let on = write("on.net", constant(true).to_bytes());
    // Version 1: the same bytes with version 1 and no "on classic" byte.
    let mut v1 = constant(false).to_bytes();
    v1[8] = 1;
    let header = 11 + "epaminondas".len() + 8;
    v1.remove(header);
    assert_eq!(
        Network::from_bytes(&v1, "epaminondas", inputs).unwrap(),
        constant(false)
    );
    let old = write("v1.net", v1);
    let classic = depth_one_score(&["--eval", "classic"]);
    assert_eq!(depth_one_score(&["--eval", "net", "--net", &alone]), -100);
    assert_eq!(depth_one_score(&["--eval", "net", "--net", &old]), -100);
    assert_eq!(
        depth_one_score(&["--eval", "net", "--net", &on]),
        classic - 100
    );
    let mut bad = constant(true).to_bytes();
    bad[header] = 2;
    let err = refused_network(&write("bad.net", bad));
    assert!(err.contains("base is 2"), "{err}");
}

/// A tournament engine evaluates with the network file `net=` names; an
/// unreadable one is an error of one line.
#[test]
fn tournament_engines_take_a_network_file() {
    let net = concat!(env!("CARGO_MANIFEST_DIR"), "/src/games/apart/apart.net");
    let spec = format!("name=n,eval=net,net={net},depth=1");
    let out = ok(&[
        "tournament",
        "apart",
        "--engine",
        &spec,
        "--engine",
        "name=c,depth=1,eval=classic",
        "--games",
        "2",
        "--quiet",
    ]);
    assert!(out.contains("n vs c (2 games)"), "{out}");
    // Beside an engine on the built-in network (Apart's default): each
    // engine keeps its own network.
    let out = ok(&[
        "tournament",
        "apart",
        "--engine",
        &spec,
        "--engine",
        "name=d,depth=1",
        "--games",
        "2",
        "--quiet",
    ]);
    assert!(out.contains("n vs d (2 games)"), "{out}");
    let err = rejected(&[
        "tournament",
        "apart",
        "--engine",
        "name=n,eval=net,net=/nonexistent/x.net,depth=1",
        "--engine",
        "name=c,depth=1",
        "--games",
        "2",
    ]);
    assert!(err.contains("cannot read /nonexistent/x.net"), "{err}");
}
