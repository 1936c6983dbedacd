//! Tournaments of games of more than two sides (four players, or two teams
//! of two): engines for such games, a seating schedule that gives no
//! engine a seat's advantage, playing a game into a
//! [`GameRecord`] (the record every tournament writes, here without a
//! pair's fields), and each engine's score with its error bar, overall and
//! per seat.
//!
//! Each game seats one engine per side (a team's engine chooses both its
//! players' actions). The schedule cycles through every arrangement of the
//! engines on the seats: every ordering of distinct engines when there are
//! at least as many engines as seats, otherwise every ordering in which the
//! engines' seat counts differ by at most one (three engines at four
//! seats: one of them, in turn, holds two). A tournament of a whole number
//! of cycles seats every engine equally often on every seat.

use crate::records::{GameRecord, JointStep};
use crate::schedule::{seed_for, Stream};
use gamut_core::game::{Evaluate, NodeKind, Notation, Player};
use gamut_search::mcts::{self, MctsConfig};
use gamut_search::sides::{players_of, Tuple, TwoSided};
use gamut_search::{self as search, Config, Limits, Table, Verdict};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use serde::Serialize;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

/// How a seat engine plays.
#[derive(Clone, Debug, PartialEq)]
pub enum SeatPlayer {
    /// Uniformly random actions and moves.
    Random,
    /// The exact two-sided search of its side against all the others
    /// ([`TwoSided`]).
    Paranoid {
        /// Depth, time or node limits per move.
        limits: Limits,
        /// Actions kept per player in a coalition's or team's choices.
        width: usize,
        /// Transposition table size in MiB.
        hash_mib: usize,
    },
    /// Simultaneous-move Monte Carlo tree search ([`mcts`]).
    Mcts(MctsConfig),
}

/// An engine of a seats tournament: its name, spec text and player.
#[derive(Clone, Debug, PartialEq)]
pub struct SeatEngine {
    /// The name in tables and records.
    pub name: String,
    /// The spec as given.
    pub spec: String,
    /// How it plays.
    pub player: SeatPlayer,
}

impl SeatEngine {
    /// The engine's choice for side `side` at `pos`: a joint choice of the
    /// side's players (with the strategy it was sampled from) at a
    /// simultaneous node, a move at the side's decision.
    pub fn choose<G: Evaluate>(
        &self,
        pos: &G,
        side: Player,
        rng: &mut StdRng,
        interrupt: Option<&AtomicBool>,
    ) -> Choice<G::Move> {
        let simultaneous = pos.node() == NodeKind::Simultaneous;
        match &self.player {
            SeatPlayer::Random => {
                if simultaneous {
                    let mut t = [None; 4];
                    let mut acts = Vec::new();
                    for p in players_of::<G>(side, false) {
                        pos.actions(p, &mut acts);
                        t[p.index()] = Some(acts[rng.gen_range(0..acts.len())]);
                    }
                    Choice::Joint {
                        actions: t,
                        strategy: Vec::new(),
                    }
                } else {
                    let mut moves = Vec::new();
                    pos.moves(&mut moves);
                    Choice::Move(moves[rng.gen_range(0..moves.len())])
                }
            }
            SeatPlayer::Paranoid {
                limits,
                width,
                hash_mib,
            } => {
                let view = TwoSided::new(pos.clone(), side, *width);
                let config = Config::for_game::<TwoSided<G>>(1);
                let tt = Table::new(*hash_mib);
                match search::run(&view, limits, &config, &tt, interrupt, &mut |_| {}) {
                    Verdict::Simultaneous(r) => {
                        let strategy = r.strategies[0].clone();
                        Choice::Joint {
                            actions: sample(&strategy, rng),
                            strategy,
                        }
                    }
                    Verdict::Decision(r) => Choice::Move(r.best[0].expect("a decision's move")),
                    _ => panic!("a seat engine is asked only at its own nodes"),
                }
            }
            SeatPlayer::Mcts(config) => {
                let config = MctsConfig {
                    seed: rng.gen(),
                    ..config.clone()
                };
                let r = mcts::search(pos, &config, interrupt, None, &mut |_| {});
                if simultaneous {
                    let strategy = r.sides[side.index()].strategy.clone();
                    Choice::Joint {
                        actions: sample(&strategy, rng),
                        strategy,
                    }
                } else {
                    Choice::Move(r.best.expect("a decision has moves"))
                }
            }
        }
    }
}

/// What a seat engine chose.
#[derive(Clone, Debug, PartialEq)]
pub enum Choice<M> {
    /// Its side's players' actions, and the mixed strategy sampled (empty
    /// for uniformly random play).
    Joint {
        /// One action per player of the side.
        actions: Tuple<M>,
        /// The strategy.
        strategy: Vec<(Tuple<M>, f64)>,
    },
    /// A move at its decision.
    Move(M),
}

/// A choice drawn from a mixed strategy.
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

/// Every arrangement of `engines` engines on `seats` seats the schedule
/// cycles through (see the module documentation), in lexicographic order.
#[must_use]
pub fn lineups(engines: usize, seats: usize) -> Vec<Vec<usize>> {
    let (lo, hi) = if engines >= seats {
        (0, 1)
    } else {
        (seats / engines, seats.div_ceil(engines))
    };
    let mut out = Vec::new();
    let total = engines.pow(seats as u32);
    for code in 0..total {
        let lineup: Vec<usize> = (0..seats)
            .map(|s| code / engines.pow((seats - 1 - s) as u32) % engines)
            .collect();
        let fair = (0..engines).all(|e| {
            let n = lineup.iter().filter(|&&x| x == e).count();
            (lo..=hi).contains(&n)
        });
        if fair {
            out.push(lineup);
        }
    }
    out
}

/// Plays game `number` (from 1) with `engines` seated as `lineup` from the
/// start position, at most `ply_limit` decision plies (then a draw).
/// `None` if `interrupt` was raised before it ended.
pub fn play_game<G: Evaluate + Notation>(
    engines: &[SeatEngine],
    lineup: &[usize],
    number: u64,
    seed: u64,
    ply_limit: u32,
    interrupt: &AtomicBool,
) -> Option<GameRecord> {
    let started = Instant::now();
    let start = G::start();
    let mut pos = start.clone();
    let mut rngs: Vec<StdRng> = (0..lineup.len())
        .map(|s| StdRng::seed_from_u64(seed_for(seed, Stream::Engine, number * 8 + s as u64)))
        .collect();
    let mut moves = Vec::new();
    let mut joint = Vec::new();
    let mut plies = 0;
    let stopped = || interrupt.load(std::sync::atomic::Ordering::Relaxed);
    let outcome = loop {
        if stopped() {
            return None;
        }
        match pos.node() {
            NodeKind::Terminal => break pos.outcome(),
            _ if plies >= ply_limit => break None,
            NodeKind::Simultaneous => {
                let mut parts = Vec::new();
                let mut strategies = Vec::new();
                for (s, &e) in lineup.iter().enumerate() {
                    let side = Player::nth(s);
                    match engines[e].choose(&pos, side, &mut rngs[s], Some(interrupt)) {
                        Choice::Joint { actions, strategy } => {
                            parts.push(actions);
                            strategies.push(
                                strategy
                                    .iter()
                                    .take(10)
                                    .map(|(t, p)| (tuple_text(&pos, t), *p))
                                    .collect(),
                            );
                        }
                        Choice::Move(_) => unreachable!("a simultaneous node asks for actions"),
                    }
                }
                let refs: Vec<&Tuple<G::Move>> = parts.iter().collect();
                let actions = gamut_search::sides::merge(&refs, G::players());
                joint.push(JointStep {
                    step: moves.len(),
                    actions: actions.iter().map(|&a| pos.move_text(a)).collect(),
                    strategies,
                });
                moves.push(pos.joint_text_all(&actions));
                pos = pos.play_joint_all(&actions);
            }
            NodeKind::Decision(side) => {
                let e = &engines[lineup[side.index()]];
                let m = match e.choose(&pos, side, &mut rngs[side.index()], Some(interrupt)) {
                    Choice::Move(m) => m,
                    Choice::Joint { .. } => unreachable!("a decision asks for a move"),
                };
                moves.push(pos.move_text(m));
                pos = pos.play(m);
                plies += 1;
            }
            NodeKind::Chance => panic!("{} has chance nodes: no seats tournament", G::ID),
        }
    };
    if stopped() {
        return None;
    }
    let (winner, reason, adjudicated) = match &outcome {
        Some(o) => (
            o.winner.map(|w| w.index() as u8 + 1),
            o.reason.to_string(),
            false,
        ),
        None => (None, "ply limit".to_string(), true),
    };
    Some(GameRecord {
        game: G::ID.to_string(),
        number,
        pair: None,
        encounter: None,
        opening_index: None,
        opening: start.text(),
        engines: lineup.iter().map(|&e| engines[e].name.clone()).collect(),
        specs: lineup.iter().map(|&e| engines[e].spec.clone()).collect(),
        moves,
        rolls: Vec::new(),
        joint,
        scores: Vec::new(),
        result: None,
        winner,
        reason,
        adjudicated,
        points: None,
        plies,
        ply_limit: Some(ply_limit),
        time_ms: started.elapsed().as_millis() as u64,
        seed: Some(seed),
    })
}

/// A joint choice's text: its actions joined by `+`.
pub fn tuple_text<G: Notation>(pos: &G, t: &Tuple<G::Move>) -> String {
    let texts: Vec<String> = t.iter().flatten().map(|&a| pos.move_text(a)).collect();
    texts.join("+")
}

/// A score with its 95% interval: wins (½ for a draw) over seats played.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Score {
    /// Seats played.
    pub games: u64,
    /// Wins.
    pub wins: u64,
    /// Draws.
    pub draws: u64,
    /// The mean score per seat, from 0 to 1.
    pub score: f64,
    /// Half the 95% interval: 1.96 standard errors of the mean.
    pub error: f64,
}

impl Score {
    fn of(results: &[f64]) -> Score {
        let n = results.len() as f64;
        let mean = results.iter().sum::<f64>() / n.max(1.0);
        let var = if n > 1.0 {
            results.iter().map(|r| (r - mean).powi(2)).sum::<f64>() / (n - 1.0)
        } else {
            0.0
        };
        Score {
            games: results.len() as u64,
            wins: results.iter().filter(|&&r| r == 1.0).count() as u64,
            draws: results.iter().filter(|&&r| r == 0.5).count() as u64,
            score: mean,
            error: 1.96 * (var / n.max(1.0)).sqrt(),
        }
    }
}

/// One engine's results in a seats tournament.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Standing {
    /// The engine.
    pub engine: String,
    /// Over every seat it held.
    pub overall: Score,
    /// Per seat (side), first side first.
    pub seats: Vec<Score>,
}

/// The report of a seats tournament.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SeatReport {
    /// Games played.
    pub games: u64,
    /// The score a side gets by chance alone: 1 / sides.
    pub fair_share: f64,
    /// Each engine's standing, in the order given.
    pub standings: Vec<Standing>,
    /// How many games ended for each reason.
    pub endings: Vec<(String, u64)>,
    /// Wins per seat over all engines.
    pub seat_wins: Vec<u64>,
}

/// The report over `records` of engines `names` in a game of `sides` sides.
#[must_use]
pub fn report(names: &[String], sides: usize, records: &[GameRecord]) -> SeatReport {
    let result = |r: &GameRecord, s: usize| match r.winner {
        Some(w) if w as usize == s + 1 => 1.0,
        Some(_) => 0.0,
        None => 0.5,
    };
    let standings = names
        .iter()
        .map(|name| {
            let mut all = Vec::new();
            let mut per_seat = vec![Vec::new(); sides];
            for r in records {
                for (s, seat) in r.engines.iter().enumerate() {
                    if seat == name {
                        all.push(result(r, s));
                        per_seat[s].push(result(r, s));
                    }
                }
            }
            Standing {
                engine: name.clone(),
                overall: Score::of(&all),
                seats: per_seat.iter().map(|v| Score::of(v)).collect(),
            }
        })
        .collect();
    let mut endings: Vec<(String, u64)> = Vec::new();
    for r in records {
        match endings.iter_mut().find(|(k, _)| *k == r.reason) {
            Some(e) => e.1 += 1,
            None => endings.push((r.reason.clone(), 1)),
        }
    }
    SeatReport {
        games: records.len() as u64,
        fair_share: 1.0 / sides as f64,
        standings,
        endings,
        seat_wins: (0..sides)
            .map(|s| {
                records
                    .iter()
                    .filter(|r| r.winner == Some(s as u8 + 1))
                    .count() as u64
            })
            .collect(),
    }
}

impl SeatReport {
    /// The report as a table: per engine its score ± error overall and per
    /// seat.
    #[must_use]
    pub fn table(&self) -> String {
        let sides = self.seat_wins.len();
        let mut s = format!(
            "games {}; a side's fair share {:.3}; score = wins (draws ½) per seat held, ± 95% interval\n",
            self.games, self.fair_share
        );
        s.push_str(&format!("{:<12} {:>6} {:>18}", "engine", "seats", "score"));
        for k in 0..sides {
            s.push_str(&format!(" {:>18}", format!("seat {}", k + 1)));
        }
        s.push('\n');
        for st in &self.standings {
            let cell = |sc: &Score| {
                if sc.games == 0 {
                    "-".to_string()
                } else {
                    format!("{:.3} ± {:.3} ({})", sc.score, sc.error, sc.games)
                }
            };
            s.push_str(&format!(
                "{:<12} {:>6} {:>18}",
                st.engine,
                st.overall.games,
                format!("{:.3} ± {:.3}", st.overall.score, st.overall.error)
            ));
            for sc in &st.seats {
                s.push_str(&format!(" {:>18}", cell(sc)));
            }
            s.push('\n');
        }
        let wins: Vec<String> = self.seat_wins.iter().map(|w| w.to_string()).collect();
        s.push_str(&format!("wins by seat {}\n", wins.join(" ")));
        let ends: Vec<String> = self
            .endings
            .iter()
            .map(|(k, n)| format!("{k} {n}"))
            .collect();
        s.push_str(&format!("endings    {}\n", ends.join(", ")));
        s
    }
}
