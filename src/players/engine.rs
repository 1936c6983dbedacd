//! An engine: how it chooses ([`Kind`]), and an engine playing one side of
//! one game ([`Instance`]: its transposition table and random stream).

use crate::clock::TimeControl;
use crate::exact::ExactTable;
use crate::external::{External, Forfeit, Process, Reported, LISTING_ALLOWANCE};
use gamut_core::evaluate::{Evaluate, TermMask};
use gamut_core::game::{Game, NodeKind, NodeRules, Notation, Player};
use gamut_core::platform::Instant;
use gamut_search::draw::pick;
use gamut_search::mcts::{self, MctsConfig};
use gamut_search::score::outcome_score;
use gamut_search::sides::{players_of, Tuple, TwoSided, MAX_PLAYERS};
use gamut_search::{
    self as search, Clock, Config, Evaluation, Limits, MixedResult, Table, Verdict,
};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::any::Any;
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

/// How an engine chooses.
#[derive(Clone, Debug, PartialEq)]
pub enum Kind {
    /// The searcher with its configuration, limits and table size.
    Search {
        /// Threads, evaluation terms, ordering and the rest.
        config: Config,
        /// Depth, time or nodes per move.
        limits: Limits,
        /// Transposition table size in MiB.
        hash_mib: usize,
        /// A table of exact values to play from instead of searching,
        /// where it knows the position.
        exact: Option<ExactTable>,
    },
    /// A uniformly random legal move (or action).
    Random,
    /// The move whose child evaluates best for the mover, ties broken at
    /// random; at simultaneous nodes the action with the best mean over the
    /// opponent's actions.
    Greedy {
        /// The evaluation terms switched on.
        terms: TermMask,
    },
    /// Another program speaking the engine protocol (`cmd=`).
    External(External),
    /// The exact two-sided search of the engine's side against all the
    /// others ([`TwoSided`]), in games of more than two sides; a fresh
    /// table for every choice (one for the game where one instance plays
    /// every side, [`Instance::keeping_table`]).
    Paranoid {
        /// Depth, time or node limits per move.
        limits: Limits,
        /// Actions kept per player in a coalition's or team's choices.
        width: usize,
        /// Transposition table size in MiB.
        hash_mib: usize,
        /// The static evaluation of the side's view.
        eval: Evaluation,
    },
    /// Simultaneous-move Monte Carlo tree search ([`mcts`]), in games of
    /// more than two sides.
    Mcts(MctsConfig),
}

/// A tournament engine: its name, its spec as given, and how it plays.
#[derive(Clone, Debug, PartialEq)]
pub struct Engine {
    /// The name in tables and records.
    pub name: String,
    /// The spec text it was made from.
    pub spec: String,
    /// How it chooses.
    pub kind: Kind,
    /// Its game clock (`tc=`), if it plays under one.
    pub tc: Option<TimeControl>,
    /// The files it reads (its network, `net=`, and its table, `table=`),
    /// each with the spec item that names it.
    pub reads: Vec<(&'static str, PathBuf)>,
}

/// A move chosen at a decision node, with the engine's score for the mover
/// where it has one (searchers only).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Choice<M> {
    /// The move.
    pub mv: M,
    /// The search score for the side to move.
    pub score: Option<i32>,
    /// The depth the search completed, where the engine says.
    pub depth: Option<u32>,
}

/// What an engine's last search said of the position it chose at: the
/// score for `side` (in evaluation points, a proven result beyond
/// [`EVAL_LIMIT`](gamut_core::evaluate::EVAL_LIMIT)) and the depth it
/// completed. Self-play keeps these as training data.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Evaluated {
    /// The side the score is for.
    pub side: Player,
    /// The search's score or matrix game value.
    pub score: f64,
    /// The last depth completed (0 if none was).
    pub depth: u32,
}

/// An engine playing one side of one game, or every side of a self-play
/// game: a fresh table (so a game does not depend on the games played
/// before it) and its own random stream.
pub struct Instance<'e> {
    engine: &'e Engine,
    table: Option<Table>,
    rng: StdRng,
    seed: u64,
    process: Option<Process>,
    clocks: Vec<Option<Clock>>,
    interrupt: Option<&'e AtomicBool>,
    evaluated: Option<Evaluated>,
    /// The last simultaneous node searched and its result (a `(G,
    /// MixedResult<G::Move>)`), so that an instance playing both sides
    /// searches each round start once.
    round: Option<Box<dyn Any + Send>>,
}

impl<'e> Instance<'e> {
    /// The engine ready for a new game, its random stream seeded with `seed`.
    #[must_use]
    pub fn new(engine: &'e Engine, seed: u64) -> Self {
        let table = match &engine.kind {
            Kind::Search { hash_mib, .. } => Some(Table::new(*hash_mib)),
            _ => None,
        };
        Instance {
            engine,
            table,
            rng: StdRng::seed_from_u64(seed),
            seed,
            process: None,
            clocks: Vec::new(),
            interrupt: None,
            evaluated: None,
            round: None,
        }
    }

    /// What the engine's last search said, taken (`None` for engines that
    /// do not search, or after it was taken).
    pub fn take_evaluated(&mut self) -> Option<Evaluated> {
        self.evaluated.take()
    }

    /// The engine stopped mid-choice when `stop` is raised: the paranoid
    /// search and MCTS give up their search then (the searcher of two
    /// sides always finishes its move).
    #[must_use]
    pub fn interruptible(self, stop: &'e AtomicBool) -> Self {
        Instance {
            interrupt: Some(stop),
            ..self
        }
    }

    /// The engine keeping one table for the whole game, the paranoid
    /// search's too (which otherwise starts every choice with a fresh one):
    /// one instance playing every side of a self-play game, whose sides'
    /// views hash apart ([`TwoSided`]).
    #[must_use]
    pub fn keeping_table(self) -> Self {
        let table = match &self.engine.kind {
            Kind::Paranoid { hash_mib, .. } => Some(Table::new(*hash_mib)),
            _ => self.table,
        };
        Instance { table, ..self }
    }

    /// The game clocks of each side (`None`: no clock) for the next
    /// choice: the searcher spends its side's clock, an external engine is
    /// sent the first two as `wtime`/`btime`.
    pub fn set_clocks(&mut self, clocks: &[Option<Clock>]) {
        self.clocks = clocks.to_vec();
    }

    /// The clock of the side choosing at `pos` (`side` at a simultaneous
    /// node).
    fn own_clock<G: Game>(&self, pos: &G, side: Option<Player>) -> Option<Clock> {
        let side = side.or(match pos.node() {
            NodeKind::Decision(s) => Some(s),
            _ => None,
        })?;
        self.clocks.get(side.index()).copied().flatten()
    }

    /// The search limits for a choice at `pos`: the spec's, under the
    /// side's clock if it has one.
    fn limits_at<G: Game>(&self, limits: &Limits, pos: &G, side: Option<Player>) -> Limits {
        Limits {
            clock: self.own_clock(pos, side).or(limits.clock),
            ..limits.clone()
        }
    }

    /// An external engine's answer at `pos` (`side` at a simultaneous
    /// node), started at its first move of the game: the move it names,
    /// which must be among `legal` (listed by the referee in `listing`).
    fn ask<G: Evaluate + Notation>(
        &mut self,
        spec: &External,
        pos: &G,
        side: Option<Player>,
        legal: &[G::Move],
        listing: Duration,
    ) -> Result<(G::Move, Option<Reported>), Forfeit> {
        if self.process.is_none() {
            self.process = Some(Process::start(spec, G::ID, self.seed)?);
        }
        let mut go = spec.go.clone();
        let mut allowance = spec.allowance_after(listing);
        if let Some(own) = self.own_clock(pos, side) {
            let ms = |d: Duration| d.as_millis();
            for (c, (time, inc)) in self
                .clocks
                .iter()
                .zip([("wtime", "winc"), ("btime", "binc")])
            {
                if let Some(c) = c {
                    go.push_str(&format!(
                        " {time} {} {inc} {}",
                        ms(c.remaining),
                        ms(c.increment)
                    ));
                }
            }
            if let Some(n) = own.moves_to_go {
                go.push_str(&format!(" movestogo {n}"));
            }
            allowance = own.remaining + spec.allowance + listing * LISTING_ALLOWANCE;
        }
        let process = self.process.as_mut().expect("started above");
        let answer = process.best(
            go.trim(),
            &pos.text(),
            side.map(|p| p.index() + 1),
            allowance,
        );
        let answer = match answer {
            Ok(a) => a,
            Err(f) => {
                // A program that failed is not asked again.
                self.process = None;
                return Err(f);
            }
        };
        let (answer, reported) = answer;
        legal
            .iter()
            .copied()
            .find(|&m| pos.move_text(m) == answer)
            .map(|m| (m, reported))
            .ok_or_else(|| Forfeit(format!("illegal move '{answer}'")))
    }

    /// The engine's move at decision node `pos` (which has moves); an
    /// external engine may forfeit instead.
    pub fn decide<G: Evaluate + Notation>(&mut self, pos: &G) -> Result<Choice<G::Move>, Forfeit> {
        if let Kind::Search { exact: Some(t), .. } = &self.engine.kind {
            if let Some((mv, score)) = t.choose(pos, &mut self.rng) {
                return Ok(Choice {
                    mv,
                    score: Some(score),
                    depth: None,
                });
            }
        }
        let engine = self.engine;
        if let (Kind::Paranoid { .. } | Kind::Mcts(_), NodeKind::Decision(side)) =
            (&engine.kind, pos.node())
        {
            return Ok(match self.seated(pos, side) {
                Seated::Move(mv) => Choice {
                    mv,
                    score: None,
                    depth: None,
                },
                Seated::Joint(_) => unreachable!("a decision asks for a move"),
            });
        }
        if let (Kind::Search { config, limits, .. }, Some(tt)) = (&engine.kind, &self.table) {
            let limits = self.limits_at(limits, pos, None);
            let Verdict::Decision(r) = search::run(pos, &limits, config, tt, None, &mut |_| {})
            else {
                unreachable!("a decision node searches to a move")
            };
            self.evaluated = Some(Evaluated {
                side: pos.perspective(),
                score: f64::from(r.score),
                depth: r.depth,
            });
            return Ok(Choice {
                mv: r.best,
                score: Some(r.score),
                depth: Some(r.depth),
            });
        }
        let mut moves = Vec::new();
        let listed = Instant::now();
        pos.moves(&mut moves);
        let listing = listed.elapsed();
        if let Kind::External(spec) = &engine.kind {
            let (mv, reported) = self.ask(spec, pos, None, &moves, listing)?;
            return Ok(Choice {
                mv,
                score: reported.map(|r| r.score),
                depth: reported.map(|r| r.depth),
            });
        }
        Ok(match (&self.engine.kind, &self.table) {
            (Kind::Greedy { terms }, _) => {
                let me = pos.perspective();
                let values: Vec<i32> = moves
                    .iter()
                    .map(|&m| one_ply_value(&pos.play(m), me, *terms))
                    .collect();
                let best = *values.iter().max().expect("a decision node has moves");
                let ties: Vec<usize> = (0..moves.len()).filter(|&i| values[i] == best).collect();
                Choice {
                    mv: moves[ties[self.rng.gen_range(0..ties.len())]],
                    score: None,
                    depth: None,
                }
            }
            _ => Choice {
                mv: moves[self.rng.gen_range(0..moves.len())],
                score: None,
                depth: None,
            },
        })
    }

    /// The engine's mixed strategy for `side` at simultaneous node `pos`:
    /// the searcher's optimal strategy, uniform for `random`, uniform over
    /// the best actions for `greedy`, and for an external engine the action
    /// it drew from its own strategy, with probability 1 (or a forfeit).
    pub fn strategy<G: Evaluate + Notation>(
        &mut self,
        pos: &G,
        side: Player,
    ) -> Result<Vec<(G::Move, f64)>, Forfeit> {
        let mut own = Vec::new();
        let listed = Instant::now();
        pos.actions(side, &mut own);
        let listing = listed.elapsed();
        let engine = self.engine;
        if let Kind::External(spec) = &engine.kind {
            let (action, _) = self.ask(spec, pos, Some(side), &own, listing)?;
            return Ok(vec![(action, 1.0)]);
        }
        let uniform = |acts: &[G::Move]| {
            let p = 1.0 / acts.len() as f64;
            acts.iter().map(|&a| (a, p)).collect()
        };
        Ok(match (&self.engine.kind, &self.table) {
            (Kind::Search { config, limits, .. }, Some(tt)) => {
                let known = self
                    .round
                    .take()
                    .and_then(|b| b.downcast::<(G, MixedResult<G::Move>)>().ok())
                    .filter(|b| b.0 == *pos);
                let r = match known {
                    Some(b) => b.1,
                    None => {
                        let limits = self.limits_at(limits, pos, Some(side));
                        let Verdict::Simultaneous(r) =
                            search::run(pos, &limits, config, tt, None, &mut |_| {})
                        else {
                            unreachable!("a simultaneous node searches to strategies")
                        };
                        self.evaluated = Some(Evaluated {
                            side: Player::FIRST,
                            score: r.value,
                            depth: r.depth,
                        });
                        r
                    }
                };
                let strategy = r.strategies[side.index()].clone();
                self.round = Some(Box::new((pos.clone(), r)));
                strategy
            }
            (Kind::Greedy { terms }, _) => {
                let mut theirs = Vec::new();
                pos.actions(side.other(), &mut theirs);
                let values: Vec<i64> = own
                    .iter()
                    .map(|&a| {
                        theirs
                            .iter()
                            .map(|&b| {
                                let child = if side == Player::FIRST {
                                    pos.play_joint(a, b)
                                } else {
                                    pos.play_joint(b, a)
                                };
                                i64::from(one_ply_value(&child, side, *terms))
                            })
                            .sum()
                    })
                    .collect();
                let best = *values.iter().max().expect("both players have actions");
                let ties: Vec<G::Move> = (0..own.len())
                    .filter(|&i| values[i] == best)
                    .map(|i| own[i])
                    .collect();
                uniform(&ties)
            }
            _ => uniform(&own),
        })
    }

    /// Draws one action from `strategy` with the engine's random stream.
    pub fn sample<M: Copy>(&mut self, strategy: &[(M, f64)]) -> M {
        pick(&mut self.rng, strategy.iter().copied())
    }

    /// The engine's part of simultaneous node `pos` for side `side`: one
    /// action for each player of the side, and the mixed strategy it was
    /// drawn from (empty for the uniformly random player of a game of more
    /// than two sides, which draws each player's action on its own).
    pub fn joint<G: Evaluate + Notation>(
        &mut self,
        pos: &G,
        side: Player,
    ) -> Result<Joint<G::Move>, Forfeit> {
        if G::players() == 2 {
            let strategy = self.strategy(pos, side)?;
            let one = |m| {
                let mut t = [None; MAX_PLAYERS];
                t[side.index()] = Some(m);
                t
            };
            let action = self.sample(&strategy);
            return Ok(Joint {
                actions: one(action),
                strategy: strategy.into_iter().map(|(m, p)| (one(m), p)).collect(),
            });
        }
        match self.seated(pos, side) {
            Seated::Joint(j) => Ok(j),
            Seated::Move(_) => unreachable!("a simultaneous node asks for actions"),
        }
    }

    /// The choice of an engine of a game of more than two sides (the
    /// paranoid search, MCTS, random) for side `side` at `pos`.
    fn seated<G: Evaluate>(&mut self, pos: &G, side: Player) -> Seated<G::Move> {
        let simultaneous = pos.node() == NodeKind::Simultaneous;
        let rng = &mut self.rng;
        match &self.engine.kind {
            Kind::Paranoid {
                limits,
                width,
                hash_mib,
                eval,
            } => {
                let view = TwoSided::new(pos.clone(), side, *width);
                let config = Config::new::<TwoSided<G>>(1, eval.clone());
                let fresh;
                let tt = match &self.table {
                    Some(kept) => kept,
                    None => {
                        fresh = Table::new(*hash_mib);
                        &fresh
                    }
                };
                let verdict = search::run(&view, limits, &config, tt, self.interrupt, &mut |_| {});
                let said = |score, depth| Evaluated { side, score, depth };
                match verdict {
                    Verdict::Simultaneous(r) => {
                        self.evaluated = Some(said(r.value, r.depth));
                        let strategy = r.strategies[0].clone();
                        Seated::Joint(Joint {
                            actions: sample(&strategy, rng),
                            strategy,
                        })
                    }
                    Verdict::Decision(r) => {
                        self.evaluated = Some(said(f64::from(r.score), r.depth));
                        Seated::Move(r.best[0].expect("a decision's move"))
                    }
                    _ => panic!("an engine is asked only at its own nodes"),
                }
            }
            Kind::Mcts(config) => {
                let config = MctsConfig {
                    seed: rng.gen(),
                    ..config.clone()
                };
                let r = mcts::search(pos, &config, self.interrupt, None, &mut |_| {});
                if simultaneous {
                    let strategy = r.sides[side.index()].strategy.clone();
                    Seated::Joint(Joint {
                        actions: sample(&strategy, rng),
                        strategy,
                    })
                } else {
                    Seated::Move(r.best.expect("a decision has moves"))
                }
            }
            _ if simultaneous => {
                let mut t = [None; MAX_PLAYERS];
                let mut acts = Vec::new();
                for p in players_of::<G>(side, false) {
                    pos.actions(p, &mut acts);
                    t[p.index()] = Some(acts[rng.gen_range(0..acts.len())]);
                }
                Seated::Joint(Joint {
                    actions: t,
                    strategy: Vec::new(),
                })
            }
            _ => {
                let mut moves = Vec::new();
                pos.moves(&mut moves);
                Seated::Move(moves[rng.gen_range(0..moves.len())])
            }
        }
    }
}

/// What an engine plays for its side at a simultaneous node.
#[derive(Clone, Debug, PartialEq)]
pub struct Joint<M> {
    /// One action per player of the side.
    pub actions: Tuple<M>,
    /// The mixed strategy the actions were drawn from.
    pub strategy: Vec<(Tuple<M>, f64)>,
}

/// The choice of an engine of a game of more than two sides.
enum Seated<M> {
    /// Its side's actions at a simultaneous node.
    Joint(Joint<M>),
    /// A move at its decision.
    Move(M),
}

/// A joint choice drawn from a mixed strategy of a game of more than two
/// sides.
fn sample<M: Copy>(strategy: &[(Tuple<M>, f64)], rng: &mut StdRng) -> Tuple<M> {
    let mut x: f64 = rng.gen::<f64>() * strategy.iter().map(|s| s.1).sum::<f64>();
    for &(t, p) in strategy {
        if x < p {
            return t;
        }
        x -= p;
    }
    strategy.last().expect("a strategy has a choice").0
}

/// The value of `child` for `me` by one look: the result if it is over,
/// else its static evaluation turned to `me`'s side.
fn one_ply_value<G: Evaluate>(child: &G, me: Player, terms: TermMask) -> i32 {
    match child.node() {
        NodeKind::Terminal => child.outcome().map_or(0, |o| outcome_score(&o, me, 1)),
        _ => {
            let v = child.evaluate(terms);
            if child.perspective() == me {
                v
            } else {
                -v
            }
        }
    }
}
