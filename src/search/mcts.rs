//! Simultaneous-move Monte Carlo tree search with decoupled regret
//! matching (Lanctot, Lisý and Winands 2013; Lisý, Kovařík, Lanctot and
//! Bošanský 2013), for games of any number of sides.
//!
//! Every iteration walks down the tree from the root. At a simultaneous
//! node each side (a player, or a team choosing its players' actions
//! together) samples a joint choice from its own regret-matching strategy
//! mixed with a little uniform exploration, knowing nothing of the others'
//! choices; at a decision node the mover picks by UCB1 on its own reward.
//! The first node not yet in the tree is added and valued statically, and
//! the value, one reward in [0, 1] per side, goes back up: at each
//! simultaneous node every side updates the regrets of all its choices
//! from the sampled reward (importance-weighted) and adds its current
//! strategy to its running sum. The strategy each side should play is its
//! average strategy at the root.
//!
//! Every child in the tree is an exact position of the game: a new leaf is
//! valued by the static evaluation ([`Evaluate::evaluate_for`] each side,
//! made shares of a win that sum to 1 by a softmax), a decision leaf by its mover's statically best
//! move, a finished game by its winner.

use super::params::{MCTS_MAX_NODES, MCTS_SCALE, MCTS_UCB};
use super::sides::{choices, players_of, Choices, Pick, Tuple, SEARCH_WORK_LIMIT};
use gamut_core::evaluate::{Evaluate, TermMask};
use gamut_core::game::{Listing, ListingBudget, NodeKind, NodeRules, Player};
use gamut_core::platform::Instant;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::time::Duration;

/// How to search.
#[derive(Clone, Debug, PartialEq)]
pub struct MctsConfig {
    /// Iterations to run at most.
    pub iterations: Option<u64>,
    /// Wall-clock time at most.
    pub time: Option<Duration>,
    /// Actions kept per player in a team's joint choices.
    pub width: usize,
    /// The weight of uniform exploration mixed into each strategy.
    pub exploration: f64,
    /// The seed of the sampling.
    pub seed: u64,
}

/// One side's result at the root.
#[derive(Clone, Debug, PartialEq)]
pub struct SideResult<M> {
    /// The side (an index into the game's sides).
    pub side: Player,
    /// Its average strategy at a simultaneous root, most likely choice
    /// first, choices below 1% left out; empty at other roots.
    pub strategy: Vec<(Tuple<M>, f64)>,
    /// Its mean reward over the iterations: the expected outcome in
    /// [0, 1] (1 is a sure win).
    pub expected: f64,
}

/// What a search found.
#[derive(Clone, Debug, PartialEq)]
pub struct MctsResult<M> {
    /// Iterations run.
    pub iterations: u64,
    /// Nodes in the tree.
    pub nodes: usize,
    /// Time taken.
    pub time: Duration,
    /// Every side's strategy and expected outcome.
    pub sides: Vec<SideResult<M>>,
    /// At a decision root, the mover's most visited move.
    pub best: Option<M>,
}

/// One side's learning at a simultaneous node.
struct Agent {
    side: Player,
    picks: Vec<Pick>,
    regret: Vec<f32>,
    sum: Vec<f32>,
}

impl Agent {
    /// The current strategy: regret matching mixed with `gamma` uniform.
    fn strategy(&self, gamma: f64, out: &mut Vec<f64>) {
        let n = self.regret.len() as f64;
        let pos: f64 = self.regret.iter().map(|&r| f64::from(r.max(0.0))).sum();
        out.clear();
        out.extend(self.regret.iter().map(|&r| {
            let rm = if pos > 0.0 {
                f64::from(r.max(0.0)) / pos
            } else {
                1.0 / n
            };
            (1.0 - gamma) * rm + gamma / n
        }));
    }
}

enum Kind<M> {
    Simultaneous {
        agents: Vec<Agent>,
        children: HashMap<Pick, usize>,
    },
    Decision {
        side: Player,
        moves: Vec<M>,
        children: Vec<Option<usize>>,
        visits: Vec<u32>,
        reward: Vec<f64>,
    },
    /// A finished game, or a decision too costly to list below the root:
    /// fixed rewards.
    Over(Vec<f64>),
}

struct Node<G: Evaluate> {
    pos: G,
    kind: Kind<G::Move>,
    visits: u64,
    sum: Vec<f64>,
}

/// The search tree and its working state.
struct Tree<'a, G: Evaluate> {
    nodes: Vec<Node<G>>,
    config: &'a MctsConfig,
    sides: usize,
    rng: StdRng,
    scratch: G::Scratch,
    buf: Vec<G::Move>,
    strategy: Vec<f64>,
}

/// Searches `pos` within the limits of `config` (at least one iteration
/// unless `interrupt` is raised first) and returns every side's strategy
/// and expected outcome, calling `observe` every `report_every`.
pub fn search<G: Evaluate>(
    pos: &G,
    config: &MctsConfig,
    interrupt: Option<&AtomicBool>,
    report_every: Option<Duration>,
    observe: &mut dyn FnMut(&MctsResult<G::Move>),
) -> MctsResult<G::Move> {
    let start = Instant::now();
    let mut tree = Tree {
        nodes: Vec::new(),
        config,
        sides: G::INFO.sides.len(),
        rng: StdRng::seed_from_u64(config.seed),
        scratch: G::Scratch::default(),
        buf: Vec::new(),
        strategy: Vec::new(),
    };
    tree.add(pos.clone());
    let mut iterations = 0u64;
    let mut next_report = report_every;
    loop {
        if config.iterations.is_some_and(|n| iterations >= n)
            || (iterations > 0 && config.time.is_some_and(|t| start.elapsed() >= t))
            || interrupt.is_some_and(|i| i.load(Relaxed))
            || matches!(tree.nodes[0].kind, Kind::Over(_))
        {
            break;
        }
        tree.iterate(0);
        iterations += 1;
        if let Some(at) = next_report.filter(|&at| start.elapsed() >= at) {
            observe(&tree.result(iterations, start.elapsed()));
            next_report = Some(at + report_every.unwrap_or(at));
        }
    }
    tree.result(iterations, start.elapsed())
}

impl<G: Evaluate> Tree<'_, G> {
    /// Adds the node of `pos` and returns its index.
    fn add(&mut self, pos: G) -> usize {
        let kind = match pos.node() {
            NodeKind::Terminal => {
                let o = pos.outcome().expect("a terminal position has an outcome");
                Kind::Over(
                    (0..self.sides)
                        .map(|s| f64::from(o.winner == Some(Player::nth(s))))
                        .collect(),
                )
            }
            NodeKind::Simultaneous => Kind::Simultaneous {
                agents: (0..self.sides)
                    .map(|s| {
                        let side = Player::nth(s);
                        let c = self.choices(&pos, side);
                        let n = c.picks.len();
                        Agent {
                            side,
                            picks: c.picks,
                            regret: vec![0.0; n],
                            sum: vec![0.0; n],
                        }
                    })
                    .collect(),
                children: HashMap::new(),
            },
            NodeKind::Decision(side) => {
                let mut moves = Vec::new();
                let limit = if self.nodes.is_empty() {
                    usize::MAX
                } else {
                    SEARCH_WORK_LIMIT
                };
                let budget = ListingBudget::capped(limit);
                if pos.moves_within(&mut moves, &mut self.scratch, &budget) == Listing::GaveUp {
                    // Too costly to list below the root: a leaf for good.
                    let r = self.static_value(&pos);
                    return self.push(pos, Kind::Over(r));
                }
                let n = moves.len();
                Kind::Decision {
                    side,
                    moves,
                    children: vec![None; n],
                    visits: vec![0; n],
                    reward: vec![0.0; n],
                }
            }
            NodeKind::Chance => panic!("{} has chance nodes: no sampling search", G::ID),
        };
        self.push(pos, kind)
    }

    fn push(&mut self, pos: G, kind: Kind<G::Move>) -> usize {
        self.nodes.push(Node {
            pos,
            kind,
            visits: 0,
            sum: vec![0.0; self.sides],
        });
        self.nodes.len() - 1
    }

    fn choices(&self, pos: &G, side: Player) -> Choices<G::Move> {
        choices(pos, &players_of::<G>(side, false), self.config.width)
    }

    /// Each side's reward at a new leaf.
    fn leaf_value(&mut self, pos: &G) -> Vec<f64> {
        match pos.node() {
            NodeKind::Terminal => {
                let o = pos.outcome().expect("a terminal position has an outcome");
                (0..self.sides)
                    .map(|s| f64::from(o.winner == Some(Player::nth(s))))
                    .collect()
            }
            NodeKind::Decision(side) => {
                let budget = ListingBudget::capped(SEARCH_WORK_LIMIT);
                if pos.moves_within(&mut self.buf, &mut self.scratch, &budget) == Listing::GaveUp {
                    return self.static_value(pos);
                }
                let best =
                    self.buf
                        .iter()
                        .map(|&m| pos.play(m))
                        .max_by_key(|c| match c.outcome() {
                            Some(o) if o.winner == Some(side) => i32::MAX,
                            Some(_) => i32::MIN,
                            None => c.evaluate_for(side, TermMask::ALL),
                        });
                match best {
                    Some(c) if c.node() != NodeKind::Terminal => self.static_value(&c),
                    Some(c) => self.leaf_value(&c),
                    None => self.static_value(pos),
                }
            }
            _ => self.static_value(pos),
        }
    }

    /// Each side's share of a win by the static evaluation: the softmax
    /// of the sides' values, which sums to 1 as the winners of finished
    /// games do.
    fn static_value(&self, pos: &G) -> Vec<f64> {
        let w: Vec<f64> = (0..self.sides)
            .map(|s| {
                (f64::from(pos.evaluate_for(Player::nth(s), TermMask::ALL)) / MCTS_SCALE).exp()
            })
            .collect();
        let total: f64 = w.iter().sum();
        w.iter().map(|x| x / total).collect()
    }

    /// One iteration below node `at`: its rewards per side.
    fn iterate(&mut self, at: usize) -> Vec<f64> {
        let r = match self.nodes[at].kind {
            Kind::Over(ref r) => r.clone(),
            Kind::Simultaneous { .. } => self.simultaneous(at),
            Kind::Decision { .. } => self.decision(at),
        };
        let node = &mut self.nodes[at];
        node.visits += 1;
        for (s, v) in node.sum.iter_mut().zip(&r) {
            *s += v;
        }
        r
    }

    /// The child `pos` leads to: a new leaf's value, or an iteration below
    /// an existing child.
    fn enter(&mut self, child: Option<usize>, new: Option<G>) -> (Option<usize>, Vec<f64>) {
        match (child, new) {
            (Some(c), _) => (Some(c), self.iterate(c)),
            (None, None) => unreachable!("a new child comes with its position"),
            (None, Some(pos)) => {
                let r = self.leaf_value(&pos);
                if self.nodes.len() >= MCTS_MAX_NODES {
                    return (None, r);
                }
                let c = self.add(pos);
                let node = &mut self.nodes[c];
                node.visits = 1;
                node.sum.clone_from(&r);
                (Some(c), r)
            }
        }
    }

    fn simultaneous(&mut self, at: usize) -> Vec<f64> {
        let gamma = self.config.exploration;
        let Kind::Simultaneous { ref agents, .. } = self.nodes[at].kind else {
            unreachable!()
        };
        let mut sampled = Vec::with_capacity(agents.len());
        let mut pick: Pick = [super::sides::NONE; super::sides::MAX_PLAYERS];
        for a in agents {
            a.strategy(gamma, &mut self.strategy);
            let mut x: f64 = self.rng.gen();
            let mut k = self.strategy.len() - 1;
            for (i, &p) in self.strategy.iter().enumerate() {
                if x < p {
                    k = i;
                    break;
                }
                x -= p;
            }
            sampled.push((k, self.strategy[k]));
            for (slot, &v) in pick.iter_mut().zip(&a.picks[k]) {
                if v != super::sides::NONE {
                    *slot = v;
                }
            }
        }
        let child = match self.nodes[at].kind {
            Kind::Simultaneous { ref children, .. } => children.get(&pick).copied(),
            _ => unreachable!(),
        };
        let new = child.is_none().then(|| {
            let pos = &self.nodes[at].pos;
            pos.play_joint_all(&self.joint(pos, &pick))
        });
        let (child, r) = self.enter(child, new);
        let Kind::Simultaneous {
            ref mut agents,
            ref mut children,
        } = self.nodes[at].kind
        else {
            unreachable!()
        };
        if let Some(c) = child {
            children.insert(pick, c);
        }
        for (a, &(k, p)) in agents.iter_mut().zip(&sampled) {
            let u = r[a.side.index()];
            a.strategy(gamma, &mut self.strategy);
            for (i, reg) in a.regret.iter_mut().enumerate() {
                let x = if i == k { u / p } else { 0.0 };
                *reg += (x - u) as f32;
            }
            for (s, &q) in a.sum.iter_mut().zip(&self.strategy) {
                *s += q as f32;
            }
        }
        r
    }

    /// Every player's action of joint choice `pick` at `pos`.
    fn joint(&self, pos: &G, pick: &Pick) -> Vec<G::Move> {
        let lists: Vec<Choices<G::Move>> = (0..self.sides)
            .map(|s| self.choices(pos, Player::nth(s)))
            .collect();
        (0..G::players())
            .map(|i| {
                let side = G::side_of(Player::nth(i)).index();
                lists[side].lists[i][pick[i] as usize]
            })
            .collect()
    }

    fn decision(&mut self, at: usize) -> Vec<f64> {
        let Kind::Decision {
            side,
            ref children,
            ref visits,
            ref reward,
            ..
        } = self.nodes[at].kind
        else {
            unreachable!()
        };
        let total = self.nodes[at].visits.max(1) as f64;
        let k = match visits.iter().position(|&v| v == 0) {
            Some(k) => k,
            None => (0..visits.len())
                .max_by(|&a, &b| {
                    let ucb = |i: usize| {
                        reward[i] / f64::from(visits[i])
                            + MCTS_UCB * (total.ln() / f64::from(visits[i])).sqrt()
                    };
                    ucb(a).total_cmp(&ucb(b))
                })
                .expect("a decision has moves"),
        };
        let child = children[k];
        let new = child.is_none().then(|| {
            let Kind::Decision { ref moves, .. } = self.nodes[at].kind else {
                unreachable!()
            };
            self.nodes[at].pos.play(moves[k])
        });
        let (child, r) = self.enter(child, new);
        let Kind::Decision {
            ref mut children,
            ref mut visits,
            ref mut reward,
            ..
        } = self.nodes[at].kind
        else {
            unreachable!()
        };
        children[k] = child;
        visits[k] += 1;
        reward[k] += r[side.index()];
        r
    }

    fn result(&self, iterations: u64, time: Duration) -> MctsResult<G::Move> {
        let root = &self.nodes[0];
        let n = root.visits.max(1) as f64;
        let mut sides: Vec<SideResult<G::Move>> = (0..self.sides)
            .map(|s| SideResult {
                side: Player::nth(s),
                strategy: Vec::new(),
                expected: root.sum[s] / n,
            })
            .collect();
        let mut best = None;
        match &root.kind {
            Kind::Simultaneous { agents, .. } => {
                for a in agents {
                    let c = self.choices(&root.pos, a.side);
                    let total: f64 = a.sum.iter().map(|&x| f64::from(x)).sum();
                    let mut v: Vec<(Tuple<G::Move>, f64)> = if total > 0.0 {
                        a.picks
                            .iter()
                            .zip(&a.sum)
                            .map(|(p, &x)| (c.tuple(p), f64::from(x) / total))
                            .filter(|&(_, q)| q >= 0.01)
                            .collect()
                    } else {
                        a.picks
                            .iter()
                            .map(|p| (c.tuple(p), 1.0 / a.picks.len() as f64))
                            .collect()
                    };
                    let kept: f64 = v.iter().map(|x| x.1).sum();
                    for x in &mut v {
                        x.1 /= kept;
                    }
                    v.sort_by(|x, y| y.1.total_cmp(&x.1));
                    sides[a.side.index()].strategy = v;
                }
            }
            Kind::Decision { moves, visits, .. } => {
                best = (0..moves.len())
                    .max_by_key(|&i| visits[i])
                    .map(|i| moves[i]);
            }
            Kind::Over(_) => {}
        }
        if let Kind::Over(r) = &root.kind {
            for (s, &v) in sides.iter_mut().zip(r) {
                s.expected = v;
            }
        }
        MctsResult {
            iterations,
            nodes: self.nodes.len(),
            time,
            sides,
            best,
        }
    }
}
