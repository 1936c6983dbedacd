//! The engines of four-player Spokes: the two-sided view's actions and
//! moves, the paranoid and team searches against values brute-forced here,
//! the sampling search's time and strategies, and a four-seat tournament
//! whose records replay.

use crate::common;
use gamut_core::evaluate::{FullGame, TermMask};
use gamut_core::game::{Game, NodeKind, NodeRules, Notation, Player};
use gamut_games::spokes::{Spokes2v2, Spokes4};
use gamut_players::engine::Engine;
use gamut_players::game::{play_game, Rules, Setup, Sides};
use gamut_players::record::GameRecord;
use gamut_search::matrix;
use gamut_search::mcts::{self, MctsConfig};
use gamut_search::score::WIN;
use gamut_search::sides::{players_of, tuples, TwoSided};
use gamut_search::{self as search, Config, Evaluation, Limits, Table, Verdict};
use gamut_tournament::play::lineups;
use gamut_tournament::records;
use gamut_tournament::report::SideScores;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

/// A late position: three empty placeable nodes (C1, D3, D4), every other
/// placeable node a block, the home nodes empty.
const LATE: &str = "X/XXXX/1XXXXXXX/XX2XXXXXXXXXXXX/16";

fn late<G: Notation>(round: u32) -> G {
    G::parse(&format!("{LATE} {round}")).unwrap()
}

/// Every combination of the players' full action lists, in player order.
fn all_joint<G: Notation>(pos: &G, players: &[Player]) -> Vec<Vec<(Player, G::Move)>> {
    let mut out = vec![Vec::new()];
    let mut acts = Vec::new();
    for &p in players {
        pos.actions(p, &mut acts);
        out = out
            .into_iter()
            .flat_map(|t| {
                acts.iter().map(move |&a| {
                    let mut t = t.clone();
                    t.push((p, a));
                    t
                })
            })
            .collect();
    }
    out
}

/// The value for side `us` of the position after the placement, as a
/// depth-1 search sees it: the resolver's side picks the outcome best for
/// it (the side maximises, the others minimise), each valued by the
/// game's evaluation for `us` or as a win or loss two plies down.
fn after_placement<G: FullGame>(child: &G, us: Player) -> f64 {
    let leaf = |g: &G| match g.outcome() {
        Some(o) if o.winner == Some(us) => f64::from(WIN - 2),
        Some(_) => f64::from(-(WIN - 2)),
        None => f64::from(g.evaluate_for(us, TermMask::ALL)),
    };
    let NodeKind::Decision(side) = child.node() else {
        panic!("a placement leads to a resolution");
    };
    let mut moves = Vec::new();
    child.moves(&mut moves);
    let values = moves.iter().map(|&m| leaf(&child.play(m)));
    if side == us {
        values.fold(f64::NEG_INFINITY, f64::max)
    } else {
        values.fold(f64::INFINITY, f64::min)
    }
}

/// The depth-1 value of `pos` for side `us` by brute force: the full
/// matrix of every joint action of the side against every joint action
/// of the others, solved by linear programming.
fn brute_value<G: FullGame>(pos: &G, us: Player) -> f64 {
    let rows = all_joint(pos, &players_of::<G>(us, false));
    let cols = all_joint(pos, &players_of::<G>(us, true));
    let mut payoff = Vec::new();
    for r in &rows {
        for c in &cols {
            let mut joint: Vec<(Player, G::Move)> = r.iter().chain(c).copied().collect();
            joint.sort_by_key(|(p, _)| p.index());
            let actions: Vec<G::Move> = joint.iter().map(|&(_, a)| a).collect();
            payoff.push(after_placement(&pos.play_joint_all(&actions), us));
        }
    }
    matrix::solve(&payoff, rows.len(), cols.len()).value
}

fn searched_value<G: FullGame>(pos: &G, us: Player) -> f64 {
    let view = TwoSided::new(pos.clone(), us, 100);
    let limits = Limits {
        depth: Some(1),
        ..Limits::default()
    };
    // The brute force scores leaves with the classic evaluation.
    let config = Config::new::<TwoSided<G>>(1, Evaluation::Classic);
    match search::run(&view, &limits, &config, &Table::new(1), None, &mut |_| {}) {
        Verdict::Simultaneous(r) => r.value,
        v => panic!("a placement root gives mixed strategies, not {v:?}"),
    }
}

#[test]
fn the_two_sided_view_offers_legal_tuples_and_plays_them() {
    let pos: Spokes4 = late(9);
    let mut legal = Vec::new();
    pos.actions(Player::nth(1), &mut legal);
    for us in (0..4).map(Player::nth) {
        let view = TwoSided::new(pos.clone(), us, 3);
        let (mut mine, mut theirs) = (Vec::new(), Vec::new());
        view.actions(Player::FIRST, &mut mine);
        view.actions(Player::SECOND, &mut theirs);
        // The side alone keeps all 6 actions; the others combine their 3
        // most promising each, once per multiset (anonymous placements).
        assert_eq!(mine.len(), 6);
        assert!(!theirs.is_empty() && theirs.len() <= 27, "{}", theirs.len());
        for t in mine.iter().chain(&theirs) {
            for (i, a) in t.iter().enumerate() {
                if let Some(a) = a {
                    assert!(legal.contains(a), "player {i}: {a:?}");
                }
            }
        }
        let child = view.play_joint(mine[0], theirs[0]);
        let actions: Vec<_> = (0..4)
            .map(|i| mine[0][i].or(theirs[0][i]).expect("every player acts"))
            .collect();
        assert_eq!(child.pos, pos.play_joint_all(&actions));
        // The resolution belongs to the view's side or to the others.
        let expected = if us == Player::FIRST {
            Player::FIRST
        } else {
            Player::SECOND
        };
        assert_eq!(child.node(), NodeKind::Decision(expected));
        let (mut moves, mut exact) = (Vec::new(), Vec::new());
        child.moves(&mut moves);
        child.pos.moves(&mut exact);
        assert_eq!(moves.len(), exact.len());
        assert!(moves.iter().zip(&exact).all(|(m, e)| m[0] == Some(*e)));
    }
    // A team's choices pair its two players' actions.
    let team: Spokes2v2 = late(9);
    let pairs = tuples(&team, &players_of::<Spokes2v2>(Player::nth(1), false), 6);
    assert_eq!(pairs.len(), 21, "6 actions, unordered pairs with repeats");
    assert!(pairs
        .iter()
        .all(|t| t[0].is_none() && t[1].is_none() && t[2].is_some() && t[3].is_some()));
}

#[test]
fn the_paranoid_search_at_depth_one_is_the_brute_force_value() {
    // Round 9 is resolved by player 1, round 10 by player 2.
    for round in [9, 10] {
        let pos: Spokes4 = late(round);
        for us in [Player::nth(0), Player::nth(1)] {
            let brute = brute_value(&pos, us);
            let searched = searched_value(&pos, us);
            assert!(
                (brute - searched).abs() < 0.51,
                "round {round} side {us}: search {searched}, brute force {brute}"
            );
        }
    }
}

#[test]
fn the_team_search_at_depth_one_is_the_brute_force_value() {
    for round in [9, 11] {
        let pos: Spokes2v2 = late(round);
        for us in [Player::nth(0), Player::nth(1)] {
            let brute = brute_value(&pos, us);
            let searched = searched_value(&pos, us);
            assert!(
                (brute - searched).abs() < 0.51,
                "round {round} team {us}: search {searched}, brute force {brute}"
            );
        }
        // Zero-sum between the teams: one's value is the other's loss.
        let a = searched_value(&pos, Player::nth(0));
        let b = searched_value(&pos, Player::nth(1));
        assert!((a + b).abs() < 1.01, "round {round}: {a} and {b}");
    }
}

#[test]
fn the_sampling_search_gives_legal_mixed_placements_within_its_time() {
    let pos = Spokes4::start();
    let config = MctsConfig {
        iterations: None,
        time: Some(Duration::from_millis(200)),
        width: 4,
        exploration: 0.1,
        seed: 7,
    };
    let started = Instant::now();
    let r = mcts::search(&pos, &config, None, None, &mut |_| {});
    let took = started.elapsed();
    assert!(took < Duration::from_secs(3), "{took:?}");
    assert!(r.iterations > 10, "{} iterations", r.iterations);
    let mut legal = Vec::new();
    pos.actions(Player::FIRST, &mut legal);
    assert_eq!(r.sides.len(), 4);
    let shares: f64 = r.sides.iter().map(|s| s.expected).sum();
    assert!(
        (shares - 1.0).abs() < 1e-6,
        "expected outcomes sum to {shares}"
    );
    for s in &r.sides {
        let total: f64 = s.strategy.iter().map(|x| x.1).sum();
        assert!((total - 1.0).abs() < 1e-9, "side {}: {total}", s.side);
        for (t, _) in &s.strategy {
            let acts: Vec<_> = t.iter().flatten().collect();
            assert_eq!(acts.len(), 1, "one action per player");
            assert!(t[s.side.index()].is_some_and(|a| legal.contains(&a)));
        }
    }
    // At a resolution it names one of the outcomes.
    let resolve = Spokes4::parse("[XX]/w1b1/5b1b/4b2w2K[Xw]4/16 5 resolve").unwrap();
    let config = MctsConfig {
        iterations: Some(200),
        time: None,
        ..config
    };
    let r = mcts::search(&resolve, &config, None, None, &mut |_| {});
    let mut moves = Vec::new();
    resolve.moves(&mut moves);
    assert!(moves.contains(&r.best.expect("a move")));
}

#[test]
fn a_four_seat_tournament_completes_and_its_records_replay() {
    let engines: Vec<Engine> = [
        "name=p,paranoid,depth=1,width=2",
        "name=m,mcts,iterations=30",
        "random",
    ]
    .iter()
    .map(|t| Engine::parse::<Spokes4>(t).unwrap())
    .collect();
    let lineups = lineups(3, 4);
    // Every engine holds one or two of the four seats, each arrangement once.
    assert_eq!(lineups.len(), 36);
    for seat in 0..4 {
        for e in 0..3 {
            let n = lineups.iter().filter(|l| l[seat] == e).count();
            assert_eq!(n, 12, "engine {e} on seat {seat}");
        }
    }
    let stop = AtomicBool::new(false);
    let rules = Rules {
        ply_limit: 1000,
        adjudicate: Default::default(),
        time_margin: std::time::Duration::ZERO,
    };
    let mut records = Vec::new();
    for (k, lineup) in lineups.iter().take(2).enumerate() {
        let setup = Setup {
            number: k as u64 + 1,
            pair: None,
            opening_index: None,
            opening: Spokes4::start(),
            seed: 3,
        };
        let seated: Vec<&Engine> = lineup.iter().map(|&e| &engines[e]).collect();
        let rec = play_game::<Spokes4>(
            &setup,
            Sides::Each(&seated),
            None,
            &rules,
            &stop,
            &mut |_, _, _| {},
        )
        .expect("not interrupted");
        let line = serde_json::to_string(&rec).unwrap();
        let back: GameRecord = serde_json::from_str(&line).unwrap();
        let steps = records::replay(&back).expect("the record replays");
        assert_eq!(steps.len(), rec.moves.len() + 1);
        assert_eq!(steps.last().unwrap().1.node(), NodeKind::Terminal);
        let mut bad = back.clone();
        bad.winner = Some(bad.winner.map_or(1, |w| w % 4 + 1));
        assert!(records::replay(&bad).is_err());
        records.push(rec);
    }
    let names: Vec<String> = engines.iter().map(|e| e.name.clone()).collect();
    let report = SideScores::new(&names, 4, &records);
    let held: u64 = report.standings.iter().map(|s| s.overall.games).sum();
    assert_eq!(held, 8, "two games of four seats");
    let wins: u64 = report.standings.iter().map(|s| s.overall.wins).sum();
    assert_eq!(wins, 2, "each game has one winner");
}

#[test]
fn seat_engine_specs_are_checked() {
    for bad in [
        "name=x",
        "paranoid",
        "mcts",
        "name=x,alphabeta,depth=2",
        "random,time=5",
        "mcts,depth=2,time=5",
        "paranoid,depth=0",
        "mcts,time=5,exploration=2",
    ] {
        assert!(Engine::parse::<Spokes4>(bad).is_err(), "{bad}");
    }
    let e = Engine::parse::<Spokes4>("name=m,search=mcts,time=200,width=4").unwrap();
    assert_eq!(e.name, "m");
}

fn gamut(args: &[&str]) -> std::process::Output {
    crate::common::gamut_command()
        .args(args)
        .output()
        .expect("gamut runs")
}

#[test]
fn the_command_line_analyses_plays_and_replays_four_player_games() {
    let o = gamut(&["analyze", "spokes2v2", "--depth", "1", "--width", "3"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = String::from_utf8(o.stdout).unwrap();
    for side in ["1", "2"] {
        let line = text
            .lines()
            .find(|l| l.starts_with(&format!("strategy {side} ")))
            .unwrap_or_else(|| panic!("no strategy for team {side}: {text}"));
        assert!(line.contains('+'), "a team places two stones: {line}");
        assert!(text.contains(&format!("value {side} ")), "{text}");
    }
    let o = gamut(&[
        "analyze",
        "spokes4",
        "--method",
        "mcts",
        "--iterations",
        "50",
    ]);
    let text = String::from_utf8(o.stdout).unwrap();
    assert_eq!(
        text.lines().filter(|l| l.starts_with("expected ")).count(),
        4,
        "{text}"
    );

    let dir = common::scratch_dir("seats");
    let records = dir.join("seats.jsonl");
    let file = records.to_str().unwrap();
    let o = gamut(&[
        "tournament",
        "spokes2v2",
        "--engine",
        "random",
        "--engine",
        "name=m,mcts,iterations=20",
        "--games",
        "2",
        "--records",
        file,
        "--overwrite",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = String::from_utf8(o.stdout).unwrap();
    assert_eq!(
        text.lines().filter(|l| l.starts_with("game ")).count(),
        2,
        "{text}"
    );
    assert!(text.contains("seat 2"), "{text}");
    let o = gamut(&["replay", file, "--game", "2"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(String::from_utf8(o.stdout)
        .unwrap()
        .contains("\nresult team "));
    let o = gamut(&[
        "tournament",
        "spokes4",
        "--engine",
        "random",
        "--engine",
        "mcts",
        "--games",
        "2",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(String::from_utf8(o.stderr).unwrap().lines().count(), 1);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `analyze spokes4` without a limit deepens the sides in turn, so that
/// when interrupted every side has a strategy, and a `bestmove` (every
/// player's most likely placement) follows them.
#[test]
fn analysing_four_players_without_a_limit_answers_every_side() {
    use std::io::Read;
    let mut child = crate::common::gamut_command()
        .args(["analyze", "spokes4"])
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdout = child.stdout.take().unwrap();
    // Wait until side 4 has completed a depth, then interrupt.
    let mut text = String::new();
    let mut buf = [0u8; 4096];
    while !text.contains("side 4 depth 1 ") {
        let n = stdout.read(&mut buf).unwrap();
        assert!(n > 0, "ended early: {text}");
        text.push_str(&String::from_utf8_lossy(&buf[..n]));
    }
    let kill = std::process::Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(kill.success());
    stdout.read_to_string(&mut text).unwrap();
    child.wait().unwrap();
    for side in 1..=4 {
        assert!(text.contains(&format!("\nstrategy {side} ")), "{text}");
    }
    let last = text.lines().last().unwrap();
    let joint = last.strip_prefix("bestmove ").expect(last);
    let start = Spokes4::start();
    assert!(
        gamut_core::moves::play_moves(start, joint, "the test").is_ok(),
        "{joint}"
    );
}
