//! Engines: what a `--engine` spec says, and an engine playing one side of
//! one game (its transposition table and random stream).

use crate::game::{Evaluate, Game, NodeKind, ParseError, Player, TermMask};
use crate::search::score::{outcome_score, WIN};
use crate::search::{self, Clock, Config, Limits, Table, Verdict};
use crate::tablebase::{Oracle, Value};
use crate::tournament::external::{External, Forfeit, Process, Reported, LISTING_ALLOWANCE};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// A spec split into its parts, before the game gives the options meaning:
/// `name=d4,search=alphabeta,depth=4`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SpecText {
    /// The engine's name (`name=`), or the spec text itself.
    pub name: String,
    /// The player (`search=`, or a bare `alphabeta`, `random`, `greedy`).
    pub player: PlayerKind,
    /// The other `key=value` options in order (a bare key has no value).
    pub options: Vec<(String, Option<String>)>,
    /// The whole spec as given.
    pub text: String,
}

/// Which kind of player a spec names.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum PlayerKind {
    /// The searcher (the default).
    AlphaBeta,
    /// Uniformly random legal moves.
    Random,
    /// The move with the best one-ply evaluation.
    Greedy,
}

impl SpecText {
    /// Splits a spec at commas into `key=value` items, taking out `name=`
    /// and `search=`; rejects empty items and repeated keys.
    pub fn parse(text: &str) -> Result<SpecText, ParseError> {
        let mut name = None;
        let mut player = None;
        let mut options: Vec<(String, Option<String>)> = Vec::new();
        for item in text.split(',') {
            let item = item.trim();
            let (key, value) = match item.split_once('=') {
                Some((k, v)) => (k.trim(), Some(v.trim().to_string())),
                None => (item, None),
            };
            if key.is_empty() || value.as_deref() == Some("") {
                return Err(ParseError::new(format!(
                    "engine '{text}': empty option '{item}'"
                )));
            }
            let seen = match key {
                "name" => name.is_some(),
                "search" | "alphabeta" | "random" | "greedy" => player.is_some(),
                _ => options.iter().any(|(k, _)| k == key),
            };
            if seen {
                return Err(ParseError::new(format!(
                    "engine '{text}': '{key}' given twice"
                )));
            }
            match (key, value) {
                ("name", Some(v)) => name = Some(v),
                ("search", Some(v)) => player = Some(Self::kind(text, &v)?),
                ("alphabeta" | "random" | "greedy", None) => player = Some(Self::kind(text, key)?),
                ("name" | "search", None) => {
                    return Err(ParseError::new(format!(
                        "engine '{text}': '{key}' needs a value"
                    )))
                }
                (k, v) => options.push((k.to_string(), v)),
            }
        }
        Ok(SpecText {
            name: name.unwrap_or_else(|| text.to_string()),
            player: player.unwrap_or(PlayerKind::AlphaBeta),
            options,
            text: text.to_string(),
        })
    }

    fn kind(text: &str, v: &str) -> Result<PlayerKind, ParseError> {
        match v {
            "alphabeta" => Ok(PlayerKind::AlphaBeta),
            "random" => Ok(PlayerKind::Random),
            "greedy" => Ok(PlayerKind::Greedy),
            _ => Err(ParseError::new(format!(
                "engine '{text}': unknown search '{v}' (alphabeta, random, greedy)"
            ))),
        }
    }
}

/// A game clock: `tc=[<moves>/]<base>+<increment>` in seconds, as
/// fastchess and cutechess write it (`tc=10+0.1`, `tc=40/60+0`): `base` at
/// the start, `increment` added after each move, and with `moves` the base
/// added again after every `moves` moves of the side.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct TimeControl {
    /// Moves per period, if the clock has periods.
    pub moves: Option<u32>,
    /// The time of a period (of the game, without periods).
    pub base: Duration,
    /// Time added after each move.
    pub increment: Duration,
}

impl TimeControl {
    /// Parses `[moves/]base[+increment]`, times in seconds.
    pub fn parse(text: &str) -> Result<TimeControl, ParseError> {
        let fail = || {
            ParseError::new(format!(
                "tc={text}: not [moves/]base+increment in seconds (tc=10+0.1, tc=40/60+0)"
            ))
        };
        let (moves, rest) = match text.split_once('/') {
            Some((m, r)) => (
                Some(m.parse::<u32>().ok().filter(|&m| m > 0).ok_or_else(fail)?),
                r,
            ),
            None => (None, text),
        };
        let (base, increment) = rest.split_once('+').unwrap_or((rest, "0"));
        let seconds = |s: &str| {
            s.parse::<f64>()
                .ok()
                .filter(|x| x.is_finite() && (0.0..1e7).contains(x))
                .map(Duration::from_secs_f64)
                .ok_or_else(fail)
        };
        let base = seconds(base)?;
        if base.is_zero() {
            return Err(fail());
        }
        Ok(TimeControl {
            moves,
            base,
            increment: seconds(increment)?,
        })
    }

    /// A full clock at the start of a game.
    pub fn start(&self) -> Clock {
        Clock {
            remaining: self.base,
            increment: self.increment,
            moves_to_go: self.moves,
        }
    }

    /// `clock` after a move that took `spent` (the caller has checked it
    /// was not more than the time left): the time taken off, the increment
    /// added, and at the end of a period the base added again.
    pub fn after_move(&self, clock: Clock, spent: Duration) -> Clock {
        let mut remaining = clock.remaining.saturating_sub(spent) + self.increment;
        let moves_to_go = match (self.moves, clock.moves_to_go) {
            (Some(period), Some(1)) => {
                remaining += self.base;
                Some(period)
            }
            (_, left) => left.map(|n| n - 1),
        };
        Clock {
            remaining,
            increment: self.increment,
            moves_to_go,
        }
    }
}

/// A loaded table of exact values (`gamut solve`), shared by every game
/// of an engine.
#[derive(Clone)]
pub struct ExactTable(pub Arc<dyn Oracle>);

impl std::fmt::Debug for ExactTable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("ExactTable")
    }
}

impl PartialEq for ExactTable {
    fn eq(&self, other: &ExactTable) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

impl ExactTable {
    /// A move keeping the exact value of decision node `pos`, chosen among
    /// all such moves by `rng`, with its score; `None` if the table does not
    /// know the position.
    fn choose<G: Game>(&self, pos: &G, rng: &mut StdRng) -> Option<Choice<G::Move>> {
        let probe = self.0.probe(&pos.text()).ok()?;
        let text = probe.best.get(rng.gen_range(0..probe.best.len().max(1)))?;
        let mv = pos.parse_move(text).ok()?;
        let score = match probe.value {
            Value::Win(n) => WIN - n as i32,
            Value::Loss(n) => -(WIN - n as i32),
            Value::Draw => 0,
        };
        Some(Choice {
            mv,
            score: Some(score),
            depth: None,
        })
    }
}

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

/// An engine playing one side of one game: a fresh table (so a game does
/// not depend on the games played before it) and its own random stream.
pub struct Instance<'e> {
    engine: &'e Engine,
    table: Option<Table>,
    rng: StdRng,
    seed: u64,
    process: Option<Process>,
    clocks: [Option<Clock>; 2],
}

impl<'e> Instance<'e> {
    /// The engine ready for a new game, its random stream seeded with `seed`.
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
            clocks: [None; 2],
        }
    }

    /// The game clocks of the first and second player (`None`: no clock)
    /// for the next choice: the searcher spends its side's clock, an
    /// external engine is sent both as `wtime`/`btime`.
    pub fn set_clocks(&mut self, clocks: [Option<Clock>; 2]) {
        self.clocks = clocks;
    }

    /// The clock of the side choosing at `pos` (`side` at a simultaneous
    /// node).
    fn own_clock<G: Game>(&self, pos: &G, side: Option<Player>) -> Option<Clock> {
        let side = side.or(match pos.node() {
            NodeKind::Decision(s) => Some(s),
            _ => None,
        })?;
        self.clocks[side.index()]
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
    fn ask<G: Evaluate>(
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
    pub fn decide<G: Evaluate>(&mut self, pos: &G) -> Result<Choice<G::Move>, Forfeit> {
        if let Kind::Search { exact: Some(t), .. } = &self.engine.kind {
            if let Some(choice) = t.choose(pos, &mut self.rng) {
                return Ok(choice);
            }
        }
        let mut moves = Vec::new();
        let listed = Instant::now();
        pos.moves(&mut moves);
        let listing = listed.elapsed();
        let engine = self.engine;
        if let Kind::External(spec) = &engine.kind {
            let (mv, reported) = self.ask(spec, pos, None, &moves, listing)?;
            return Ok(Choice {
                mv,
                score: reported.map(|r| r.score),
                depth: reported.map(|r| r.depth),
            });
        }
        Ok(match (&self.engine.kind, &self.table) {
            (Kind::Search { config, limits, .. }, Some(tt)) => {
                let limits = self.limits_at(limits, pos, None);
                match search::run(pos, &limits, config, tt, None, &mut |_| {}) {
                    Verdict::Decision(r) => Choice {
                        mv: r.best,
                        score: Some(r.score),
                        depth: Some(r.depth),
                    },
                    _ => unreachable!("a decision node searches to a move"),
                }
            }
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
    pub fn strategy<G: Evaluate>(
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
                let limits = self.limits_at(limits, pos, Some(side));
                match search::run(pos, &limits, config, tt, None, &mut |_| {}) {
                    Verdict::Simultaneous(r) => r.strategies[side.index()].clone(),
                    _ => unreachable!("a simultaneous node searches to strategies"),
                }
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
                                one_ply_value(&child, side, *terms) as i64
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
}

/// Draws one item by its probability from a uniform number of `rng`
/// (cumulative order; the last item takes any rounding remainder).
pub fn pick<M: Copy>(rng: &mut StdRng, items: impl Iterator<Item = (M, f64)>) -> M {
    let u: f64 = rng.gen();
    let mut acc = 0.0;
    let mut last = None;
    for (m, p) in items {
        acc += p;
        last = Some(m);
        if u < acc {
            return m;
        }
    }
    last.expect("at least one item to pick from")
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

/// Checks that engine names are unique.
pub fn check_names(engines: &[Engine]) -> Result<(), ParseError> {
    for (i, e) in engines.iter().enumerate() {
        if engines[..i].iter().any(|f| f.name == e.name) {
            return Err(ParseError::new(format!(
                "two engines are named '{}'; give each a name=",
                e.name
            )));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn a_time_control_reads_as_fastchess_writes_it_and_runs_by_periods() {
        let tc = TimeControl::parse("10+0.1").unwrap();
        assert_eq!(
            (tc.moves, tc.base, tc.increment),
            (None, ms(10_000), ms(100))
        );
        assert_eq!(TimeControl::parse("2").unwrap().increment, Duration::ZERO);
        for bad in ["0+1", "x", "1+", "0/5+1", "-1+0", "1+inf", "/1+0"] {
            assert!(TimeControl::parse(bad).is_err(), "{bad}");
        }
        let c = tc.after_move(tc.start(), ms(400));
        assert_eq!((c.remaining, c.moves_to_go), (ms(9_700), None));
        let tc = TimeControl::parse("2/1+0").unwrap();
        let c = tc.after_move(tc.start(), ms(300));
        assert_eq!((c.remaining, c.moves_to_go), (ms(700), Some(1)));
        // The period's last move: the base comes back, two moves to go.
        let c = tc.after_move(c, ms(200));
        assert_eq!((c.remaining, c.moves_to_go), (ms(1_500), Some(2)));
    }
}
