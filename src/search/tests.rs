//! The searcher on a game small enough to solve by plain minimax:
//! tic-tac-toe, optionally with a die before each move (a third of the time
//! the player to move must pass, and the opponent then moves without a
//! roll), which exercises chance nodes.

use super::score::{outcome_score, Score, INFINITY, WIN, WIN_THRESHOLD};
use super::*;
use alphabeta::Worker;
use gamut_core::evaluate::EVAL_LIMIT;
use gamut_core::game::{
    ChanceRules, Game, GameInfo, NoChance, NoSimultaneous, NodeKind, Outcome, Player,
    SimultaneousRules,
};

const LINES: [u16; 8] = [
    0b000_000_111,
    0b000_111_000,
    0b111_000_000,
    0b001_001_001,
    0b010_010_010,
    0b100_100_100,
    0b100_010_001,
    0b001_010_100,
];
const ACT: u8 = 100;
const PASS: u8 = 101;

#[derive(Clone, Debug, PartialEq, Eq)]
struct Ttt {
    marks: [u16; 2],
    side: Player,
    dice: bool,
    rolled: bool,
}

impl Ttt {
    fn new(dice: bool) -> Ttt {
        Ttt {
            marks: [0, 0],
            side: Player::FIRST,
            dice,
            rolled: false,
        }
    }

    fn winner(&self) -> Option<Player> {
        Player::BOTH
            .into_iter()
            .find(|p| LINES.iter().any(|&l| self.marks[p.index()] & l == l))
    }

    fn full(&self) -> bool {
        self.marks[0] | self.marks[1] == 0x1ff
    }
}

impl Game for Ttt {
    type Move = u8;
    type Chance = Self;
    type Simultaneous = NoSimultaneous;
    type Scratch = ();
    const ID: &'static str = "ttt";
    const INFO: GameInfo = GameInfo {
        name: "tic-tac-toe",
        sides: &["X", "O"],
        setup: None,
        ply_limit: 20,
        score_unit: "points",
        bench: &[],
    };

    fn start() -> Self {
        Ttt::new(false)
    }
    fn node(&self) -> NodeKind {
        if self.winner().is_some() || self.full() {
            NodeKind::Terminal
        } else if self.dice && !self.rolled {
            NodeKind::Chance
        } else {
            NodeKind::Decision(self.side)
        }
    }
    fn perspective(&self) -> Player {
        self.side
    }
    fn outcome(&self) -> Option<Outcome> {
        match self.winner() {
            Some(p) => Some(Outcome::win(p, "three in a row")),
            None if self.full() => Some(Outcome::draw("full board")),
            None => None,
        }
    }
    fn moves(&self, out: &mut Vec<u8>) {
        out.clear();
        match self.node() {
            NodeKind::Chance => out.extend([ACT, PASS]),
            NodeKind::Decision(_) => {
                let taken = self.marks[0] | self.marks[1];
                out.extend((0..9).filter(|c| taken >> c & 1 == 0));
            }
            _ => {}
        }
    }
    fn play(&self, m: u8) -> Self {
        let mut next = self.clone();
        match m {
            ACT => next.rolled = true,
            PASS => {
                // The opponent moves next without a roll.
                next.side = self.side.other();
                next.rolled = true;
            }
            c => {
                next.marks[self.side.index()] |= 1 << c;
                next.side = self.side.other();
                next.rolled = false;
            }
        }
        next
    }
    fn hash(&self) -> u64 {
        self.hash_from_scratch()
    }
    fn hash_from_scratch(&self) -> u64 {
        gamut_core::bits::splitmix64(
            u64::from(self.marks[0])
                | u64::from(self.marks[1]) << 9
                | (self.side.index() as u64) << 18
                | u64::from(self.rolled) << 19
                | u64::from(self.dice) << 20,
        )
    }
}

impl ChanceRules<Ttt> for Ttt {
    fn probability(_: &Ttt, m: u8) -> f64 {
        if m == ACT {
            2.0 / 3.0
        } else {
            1.0 / 3.0
        }
    }
}

impl Evaluate for Ttt {
    const TERMS: &'static [&'static str] = &["open lines"];

    /// Lines still open for the player to move minus the opponent's.
    fn evaluate(&self, terms: TermMask) -> i32 {
        if !terms.has(0) {
            return 0;
        }
        let me = self.side.index();
        let open = |p: usize| {
            LINES
                .iter()
                .filter(|&&l| self.marks[1 - p] & l == 0)
                .count() as i32
        };
        10 * (open(me) - open(1 - me))
    }
}

/// Plain minimax / expectimax with the same evaluation and depth rules as
/// the searcher, and no pruning.
fn minimax(pos: &Ttt, depth: i32, ply: usize) -> f64 {
    match pos.node() {
        NodeKind::Terminal => f64::from(outcome_score(
            &pos.outcome().unwrap(),
            pos.perspective(),
            ply,
        )),
        NodeKind::Decision(me) => {
            if depth <= 0 {
                return f64::from(pos.evaluate(TermMask::ALL));
            }
            let mut moves = Vec::new();
            pos.moves(&mut moves);
            moves
                .iter()
                .map(|&m| {
                    let c = pos.play(m);
                    let v = minimax(&c, depth - 1, ply + 1);
                    if c.perspective() == me {
                        v
                    } else {
                        -v
                    }
                })
                .fold(f64::NEG_INFINITY, f64::max)
        }
        NodeKind::Chance => {
            // All wins: the slowest; all losses: the slowest; else the mean
            // with proven results counted as the evaluation limit.
            let me = pos.perspective();
            let values: Vec<(f64, f64)> = [ACT, PASS]
                .iter()
                .map(|&m| {
                    let c = pos.play(m);
                    let v = minimax(&c, depth, ply + 1).round();
                    (
                        pos.probability(m),
                        if c.perspective() == me { v } else { -v },
                    )
                })
                .collect();
            let proven = f64::from(WIN_THRESHOLD);
            let limit = f64::from(EVAL_LIMIT);
            if values.iter().all(|&(_, v)| v > proven) {
                values.iter().map(|&(_, v)| v).fold(f64::INFINITY, f64::min)
            } else if values.iter().all(|&(_, v)| v < -proven) {
                values
                    .iter()
                    .map(|&(_, v)| v)
                    .fold(f64::NEG_INFINITY, f64::max)
            } else {
                values
                    .iter()
                    .map(|&(p, v)| p * v.clamp(-limit, limit))
                    .sum::<f64>()
                    .round()
            }
        }
        NodeKind::Simultaneous => unreachable!(),
    }
}

fn config(threads: usize) -> Config {
    Config {
        threads,
        terms: TermMask::ALL,
        ordering: ordering::Ordering::default(),
        quiescence: false,
        aspiration: true,
        star1: true,
        parallel: Parallel::LazySmp,
        full_matrix: false,
        selective: super::params::Selective::NONE,
        eval: crate::Evaluation::Classic,
        multipv: 1,
        multipv_margin: None,
        tunables: super::params::Tunables::DEFAULT,
    }
}

fn depth_search(pos: &Ttt, depth: u32, cfg: &Config) -> SearchResult<u8> {
    let tt = Table::new(1);
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    search(pos, &limits, cfg, &tt, |_| {})
}

/// Positions reached by a few random moves from the start.
fn positions(dice: bool, n: usize) -> Vec<Ttt> {
    let mut seed = 7u64;
    let mut out = Vec::new();
    while out.len() < n {
        let mut p = Ttt::new(dice);
        seed = gamut_core::bits::splitmix64(seed);
        let plies = seed % 6;
        for k in 0..plies {
            if p.node() == NodeKind::Terminal {
                break;
            }
            let mut moves = Vec::new();
            p.moves(&mut moves);
            let r = gamut_core::bits::splitmix64(seed ^ k) as usize;
            p = p.play(moves[r % moves.len()]);
        }
        if let NodeKind::Decision(_) = p.node() {
            out.push(p);
        }
    }
    out
}

#[test]
fn the_empty_board_is_a_draw() {
    let r = depth_search(&Ttt::new(false), 9, &config(1));
    assert_eq!(r.score, 0);
}

#[test]
fn a_win_in_one_is_found_and_reported_as_such() {
    // X on 0 and 1, O on 3 and 4, X to move: 2 wins at once.
    let p = Ttt {
        marks: [0b11, 0b11000],
        side: Player::FIRST,
        dice: false,
        rolled: false,
    };
    let r = depth_search(&p, 5, &config(1));
    assert_eq!(r.best, 2);
    assert_eq!(r.score, WIN - 1);
    assert_eq!(Score(r.score).to_string(), "win in 1");
}

#[test]
fn a_forced_loss_is_reported_with_its_distance() {
    // X on 0, 2 and 4 threatens both 1 and 6; O (on 8, to move) can block
    // only one, so O loses in two plies.
    let p = Ttt {
        marks: [0b000_010_101, 0b100_000_000],
        side: Player::SECOND,
        dice: false,
        rolled: false,
    };
    let r = depth_search(&p, 6, &config(1));
    assert_eq!(Score(r.score).to_string(), "loss in 2");
}

#[test]
fn alpha_beta_equals_minimax_on_random_positions() {
    for dice in [false, true] {
        for p in positions(dice, 60) {
            for depth in 1..=4 {
                let m = minimax(&p, depth as i32, 0);
                for star1 in [false, true] {
                    let mut cfg = config(1);
                    cfg.star1 = star1;
                    let r = depth_search(&p, depth, &cfg);
                    assert_eq!(f64::from(r.score), m, "{p:?} depth {depth} star1 {star1}");
                }
            }
        }
    }
}

#[test]
fn every_ordering_switch_keeps_the_value() {
    for p in positions(false, 30) {
        let full = depth_search(&p, 4, &config(1)).score;
        for off in 0..4 {
            let mut cfg = config(1);
            let o = &mut cfg.ordering;
            match off {
                0 => o.tt_move = false,
                1 => o.captures = false,
                2 => o.killers = false,
                _ => o.history = false,
            }
            cfg.aspiration = off % 2 == 0;
            assert_eq!(depth_search(&p, 4, &cfg).score, full);
        }
    }
}

#[test]
fn one_thread_is_deterministic() {
    let p = &positions(false, 1)[0];
    let a = depth_search(p, 6, &config(1));
    let b = depth_search(p, 6, &config(1));
    assert_eq!((a.best, a.score, a.nodes), (b.best, b.score, b.nodes));
}

#[test]
fn parallel_searches_find_the_same_value() {
    for p in positions(false, 10) {
        let one = depth_search(&p, 9, &config(1)).score;
        for parallel in [Parallel::LazySmp, Parallel::RootSplit] {
            let mut cfg = config(2);
            cfg.parallel = parallel;
            assert_eq!(depth_search(&p, 9, &cfg).score, one, "{parallel:?}");
        }
    }
}

/// Whichever thread completes an iteration first, the main thread reports
/// it: depths rise, the last one reported is the limit (or a proven
/// result), and the result is that iteration's.
#[test]
fn parallel_searches_report_each_deepest_iteration_and_return_it() {
    for p in positions(false, 10) {
        for threads in [2, 3] {
            for _ in 0..5 {
                let tt = Table::new(1);
                let limits = Limits {
                    depth: Some(6),
                    ..Limits::default()
                };
                let mut seen = Vec::new();
                let r = search(&p, &limits, &config(threads), &tt, |i| {
                    seen.push((i.depth, i.score, i.pv[0]))
                });
                assert!(seen.windows(2).all(|w| w[0].0 < w[1].0), "{seen:?}");
                let &(depth, score, best) = seen.last().expect("an iteration");
                assert!(depth == 6 || score.abs() > WIN_THRESHOLD, "{seen:?}");
                assert_eq!((r.depth, r.score, r.best), (depth, score, best));
            }
        }
    }
}

#[test]
fn node_and_time_limits_stop_the_search_with_a_legal_move() {
    let tt = Table::new(1);
    let limits = Limits {
        nodes: Some(500),
        ..Limits::default()
    };
    let p = Ttt::new(false);
    let r = search(&p, &limits, &config(1), &tt, |_| {});
    assert!(r.best < 9);
    assert!(r.nodes < 500 + 2048, "{}", r.nodes);
    assert!(r.score.abs() < INFINITY);
}

/// Matching pennies as a one-round game: both show a side at once; the
/// first player wins on a match, the second on a mismatch.
#[derive(Clone, Debug, PartialEq)]
struct Pennies {
    shown: Option<(u8, u8)>,
}

impl Game for Pennies {
    type Move = u8;
    type Chance = NoChance;
    type Simultaneous = Self;
    type Scratch = ();
    const ID: &'static str = "pennies";
    const INFO: GameInfo = GameInfo {
        name: "matching pennies",
        sides: &["even", "odd"],
        setup: None,
        ply_limit: 1,
        score_unit: "points",
        bench: &[],
    };

    fn start() -> Self {
        Pennies { shown: None }
    }
    fn node(&self) -> NodeKind {
        match self.shown {
            None => NodeKind::Simultaneous,
            Some(_) => NodeKind::Terminal,
        }
    }
    fn perspective(&self) -> Player {
        Player::FIRST
    }
    fn outcome(&self) -> Option<Outcome> {
        self.shown.map(|(a, b)| {
            Outcome::win(
                if a == b {
                    Player::FIRST
                } else {
                    Player::SECOND
                },
                "pennies",
            )
        })
    }
    fn moves(&self, out: &mut Vec<u8>) {
        out.clear();
    }
    fn play(&self, _: u8) -> Self {
        unreachable!("pennies has no sequential moves")
    }
    fn hash(&self) -> u64 {
        self.hash_from_scratch()
    }
    fn hash_from_scratch(&self) -> u64 {
        self.shown
            .map_or(0, |(a, b)| 1 + u64::from(a) * 2 + u64::from(b))
    }
}

impl SimultaneousRules<Pennies> for Pennies {
    fn actions(pos: &Pennies, _: Player, out: &mut Vec<u8>) {
        out.clear();
        if pos.shown.is_none() {
            out.extend([0, 1]);
        }
    }
    fn play_joint(_: &Pennies, a: u8, b: u8) -> Pennies {
        Pennies {
            shown: Some((a, b)),
        }
    }
}

/// The action the pennies' hint calls urgent.
const URGENT_PENNY: u8 = 2;

impl Evaluate for Pennies {
    const TERMS: &'static [&'static str] = &[];
    fn evaluate(&self, _: TermMask) -> i32 {
        0
    }
    fn action_hint(&self, _: Player, m: u8) -> i32 {
        i32::from(m == URGENT_PENNY)
    }
}

#[test]
fn a_simultaneous_node_is_solved_as_a_matrix_game() {
    let tt = Table::new(1);
    let limits = Limits {
        depth: Some(1),
        ..Limits::default()
    };
    let cfg = config(1);
    let r = search_simultaneous(&Pennies::start(), &limits, &cfg, &tt, |_| {});
    assert!(r.value.abs() < 1e-6, "{}", r.value);
    for s in &r.strategies {
        assert_eq!(s.len(), 2);
        assert!(s.iter().all(|&(_, p)| (p - 0.5).abs() < 1e-6));
    }
    // Inside the tree the same node is valued by the same matrix game.
    let shared = Shared::new(&tt, &limits, None);
    let mut w = Worker::<Pennies>::new(&shared, &cfg);
    assert_eq!(w.negamax(&Pennies::start(), 1, -INFINITY, INFINITY, 0), 0);
}

#[test]
fn narrow_matrix_games_keep_the_actions_that_did_best_at_the_root() {
    use super::matrix::{LazySolution, MatrixSolution};
    let tt = Table::new(1);
    let limits = Limits::default();
    let cfg = config(1);
    let shared = Shared::new(&tt, &limits, None);
    let mut w = Worker::<Pennies>::new(&shared, &cfg);
    let pos = Pennies::start();
    let all: Vec<u8> = (0..20).collect();
    // Before the root's first iteration every action is kept.
    let mut rows = all.clone();
    w.narrow(&pos, Player::FIRST, &mut rows);
    assert_eq!(rows, all);
    // The row player does better with larger actions, the column player
    // (who minimises) with smaller ones.
    let solution = LazySolution {
        solution: MatrixSolution {
            value: 19.0,
            row: vec![0.0; 20],
            col: vec![0.0; 20],
        },
        evaluated: 400,
        row_payoffs: (0..20).map(f64::from).collect(),
        col_payoffs: (0..20).map(f64::from).collect(),
    };
    w.rank_root_actions(&solution, &all, &all);
    let width = params::SIMULTANEOUS_WIDTH as u8;
    let ranked = width - params::URGENT_WIDTH as u8;
    assert!(
        URGENT_PENNY < 20 - ranked,
        "the urgent action must rank too low to be kept by its rank"
    );
    let (mut rows, mut cols) = (all.clone(), all.clone());
    w.narrow(&pos, Player::FIRST, &mut rows);
    w.narrow(&pos, Player::SECOND, &mut cols);
    // The first player keeps its best-ranked actions, then the urgent one
    // (ranked too low to be kept otherwise), then the next best ranks.
    let mut expected: Vec<u8> = (20 - width + 1..20).collect();
    expected.insert(0, URGENT_PENNY);
    assert_eq!(rows, expected);
    // The second player's urgent action is among its best ranks anyway.
    assert_eq!(cols, (0..width).collect::<Vec<u8>>());
    // Few actions: all kept.
    let mut few: Vec<u8> = (0..3).collect();
    w.narrow(&pos, Player::FIRST, &mut few);
    assert_eq!(few, vec![0, 1, 2]);
}

/// The value of root move `m` of `pos` searched `depth` plies deep (the
/// move included), for the side to move at `pos`, by plain minimax.
fn move_value(pos: &Ttt, m: u8, depth: u32) -> i32 {
    let c = pos.play(m);
    let v = minimax(&c, depth as i32 - 1, 1) as i32;
    if c.perspective() == pos.perspective() {
        v
    } else {
        -v
    }
}

/// The iterations a search to `depth` reports.
fn iterations(pos: &Ttt, depth: u32, cfg: &Config) -> Vec<Iteration<u8>> {
    let tt = Table::new(1);
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    let mut all = Vec::new();
    search(pos, &limits, cfg, &tt, |it| all.push(it.clone()));
    all
}

/// The last iteration a search to `depth` reports.
fn last_iteration(pos: &Ttt, depth: u32, cfg: &Config) -> Iteration<u8> {
    iterations(pos, depth, cfg).pop().expect("an iteration")
}

#[test]
fn multipv_with_every_move_lists_each_root_move_once_with_its_value() {
    for p in positions(false, 30) {
        let mut moves = Vec::new();
        p.moves(&mut moves);
        for threads in [1, 2] {
            for parallel in [Parallel::LazySmp, Parallel::RootSplit] {
                let mut cfg = config(threads);
                cfg.parallel = parallel;
                cfg.multipv = moves.len();
                let it = last_iteration(&p, 4, &cfg);
                let mut firsts: Vec<u8> = it.lines.iter().map(|l| l.pv[0]).collect();
                firsts.sort_unstable();
                let mut all = moves.clone();
                all.sort_unstable();
                assert_eq!(firsts, all, "{p:?}");
                assert_eq!((it.lines[0].score, &it.lines[0].pv), (it.score, &it.pv));
                for line in &it.lines {
                    assert_eq!(
                        line.score,
                        move_value(&p, line.pv[0], it.depth),
                        "{p:?} {threads} {parallel:?} {:?}",
                        it.lines
                    );
                }
                assert!(
                    it.lines.windows(2).all(|w| w[0].score >= w[1].score),
                    "{:?}",
                    it.lines
                );
            }
        }
    }
}

#[test]
fn multipv_with_a_margin_lists_exactly_the_moves_near_the_best() {
    for p in positions(false, 30) {
        let mut moves = Vec::new();
        p.moves(&mut moves);
        for margin in [0, 1, 3, 1_000, 100_000] {
            for threads in [1, 2] {
                let mut cfg = config(threads);
                cfg.multipv = moves.len();
                cfg.multipv_margin = Some(margin);
                let it = last_iteration(&p, 4, &cfg);
                let values: Vec<(u8, i32)> = moves
                    .iter()
                    .map(|&m| (m, move_value(&p, m, it.depth)))
                    .collect();
                let best = values.iter().map(|&(_, v)| v).max().unwrap();
                let mut listed: Vec<(u8, i32)> =
                    it.lines.iter().map(|l| (l.pv[0], l.score)).collect();
                listed.sort_unstable();
                let mut near: Vec<(u8, i32)> = values
                    .iter()
                    .copied()
                    .filter(|&(_, v)| i64::from(best) - i64::from(v) <= i64::from(margin))
                    .collect();
                near.sort_unstable();
                assert_eq!(listed, near, "{p:?} margin {margin} threads {threads}");
            }
        }
    }
}

#[test]
fn multipv_asks_for_at_most_the_moves_there_are_and_one_line_by_default() {
    let p = &positions(false, 1)[0];
    let mut moves = Vec::new();
    p.moves(&mut moves);
    let mut cfg = config(1);
    assert_eq!(last_iteration(p, 3, &cfg).lines.len(), 1);
    cfg.multipv = 256;
    assert_eq!(last_iteration(p, 3, &cfg).lines.len(), moves.len());
}

#[test]
fn the_first_of_several_lines_is_the_single_line_search() {
    for p in positions(false, 30) {
        for depth in 1..=5 {
            let one = last_iteration(&p, depth, &config(1));
            let mut cfg = config(1);
            cfg.multipv = 3;
            // One line may be proven (ending the search) before three are.
            let three = iterations(&p, depth, &cfg)
                .into_iter()
                .find(|it| it.depth == one.depth)
                .expect("the same depth");
            assert_eq!(three.score, one.score, "{p:?} depth {depth}");
            // Equal scores may be different moves; each is worth the score.
            assert_eq!(move_value(&p, three.pv[0], three.depth), one.score);
            assert_eq!(
                one.lines,
                vec![Line {
                    score: one.score,
                    pv: one.pv.clone()
                }]
            );
            assert!(three.lines.windows(2).all(|w| w[0].score >= w[1].score));
        }
    }
}

#[test]
fn time_management_shrinks_the_budget_on_a_stable_move_and_stretches_it_on_a_drop() {
    use super::params::{TM_DROP_SCALE, TM_STABLE_ITERATIONS, TM_STABLE_SCALE, TM_UNSTABLE_SCALE};
    let it = |depth: u32, best: u8, score: i32| Iteration {
        depth,
        score,
        nodes: 0,
        time: Duration::ZERO,
        hashfull: 0,
        pv: vec![best],
        lines: Vec::new(),
    };
    let mut tm = root::TimeManager::default();
    let mut scales = Vec::new();
    for depth in 1..=TM_STABLE_ITERATIONS + 1 {
        scales.push(tm.scale(&it(depth, 4, 10)));
    }
    let (stable, before) = scales.split_last().unwrap();
    assert!(before.iter().all(|&s| s == 1.0), "{scales:?}");
    assert_eq!(*stable, TM_STABLE_SCALE);
    // A new best move: longer, and the count starts again.
    assert_eq!(tm.scale(&it(10, 5, 10)), TM_UNSTABLE_SCALE);
    assert_eq!(tm.scale(&it(11, 5, 10)), 1.0);
    // The score drops: longer still, even with the same move.
    assert_eq!(tm.scale(&it(12, 5, -100)), TM_DROP_SCALE);
    // The same move a third time after it changed: shorter again.
    assert_eq!(tm.scale(&it(13, 5, -90)), TM_STABLE_SCALE);
}

/// What a sides' analysis of the tic-tac-toe start by both sides reports,
/// as `(side, depth)` for an iteration and `(side, 0)` for the end of a
/// completed search; `hook` sees each report and says whether to go on.
fn sides_reports(
    analysis: &mut sides_analysis::SidesAnalysis<Ttt>,
    stop: &AtomicBool,
    mut hook: impl FnMut(&[(usize, u32)]) -> bool,
) -> (sides_analysis::Ended, Vec<(usize, u32)>) {
    use sides_analysis::SidesReport;
    let tt = Table::new(1);
    let mut seen = Vec::new();
    let ended = analysis.run(&config(1), &tt, Some(stop), &mut |r| {
        match r {
            SidesReport::Iteration { view, progress } => {
                let Progress::Decision(it) = progress else {
                    panic!("a decision root")
                };
                seen.push((view.us.index(), it.depth));
            }
            SidesReport::Searched {
                view, completed, ..
            } => {
                assert!(completed, "{seen:?}");
                seen.push((view.us.index(), 0));
            }
        }
        hook(&seen)
    });
    (ended, seen)
}

/// `SidesAnalysis`: in rounds every side reports every depth up to the
/// limit, in order; in turn each side reports all its iterations before
/// the next side; a raised stop flag cuts the rounds short and running
/// again goes on where they stopped; a report can end the analysis.
#[test]
fn a_sides_analysis_reports_each_side_at_each_depth_in_its_schedule_and_resumes() {
    use sides_analysis::{Ended, Schedule, SidesAnalysis};
    let pos = Ttt::new(false);
    let both = vec![Player::FIRST, Player::SECOND];
    let limits = Limits {
        depth: Some(3),
        ..Limits::default()
    };
    let new = |schedule| SidesAnalysis::new(pos.clone(), both.clone(), 8, schedule, limits.clone());
    let stop = AtomicBool::new(false);
    // In rounds: every side at depth 1, then every side at depth 2, ...,
    // each search reporting only its round's iteration, then its end.
    let rounds: Vec<(usize, u32)> = (1..=3)
        .flat_map(|d| (0..2).flat_map(move |s| [(s, d), (s, 0)]))
        .collect();
    let mut analysis = new(Schedule::Rounds);
    assert_eq!(
        sides_reports(&mut analysis, &stop, |_| true),
        (Ended::Done, rounds.clone())
    );
    for (k, (side, v)) in analysis.verdicts().iter().enumerate() {
        assert_eq!(side.index(), k);
        assert!(matches!(v, Verdict::Decision(r) if r.depth == 3), "{v:?}");
    }
    // In turn: each side's every iteration before the next side's.
    let in_turn: Vec<(usize, u32)> = (0..2)
        .flat_map(|s| [(s, 1), (s, 2), (s, 3), (s, 0)])
        .collect();
    let mut analysis = new(Schedule::InTurn);
    assert_eq!(
        sides_reports(&mut analysis, &stop, |_| true),
        (Ended::Done, in_turn)
    );
    assert_eq!(analysis.verdicts().len(), 2);
    // Stopped from outside after the second side's depth 2, the rounds are
    // cut short there and resume with the first side's depth 3.
    let mut analysis = new(Schedule::Rounds);
    let (ended, before) = sides_reports(&mut analysis, &stop, |seen| {
        if seen.ends_with(&[(1, 2), (1, 0)]) {
            stop.store(true, Relaxed);
        }
        true
    });
    assert_eq!((ended, &before[..]), (Ended::CutShort, &rounds[..8]));
    stop.store(false, Relaxed);
    let (ended, after) = sides_reports(&mut analysis, &stop, |_| true);
    assert_eq!((ended, &after[..]), (Ended::Done, &rounds[8..]));
    // A report that says stop ends the analysis after its search.
    let mut analysis = new(Schedule::Rounds);
    let (ended, seen) = sides_reports(&mut analysis, &stop, |seen| seen.len() < 3);
    assert_eq!((ended, &seen[..]), (Ended::Done, &rounds[..4]));
    assert_eq!(analysis.verdicts().len(), 2);
}
