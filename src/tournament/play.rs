//! Playing games: one game between two engines from an opening, with
//! adjudication, and a whole schedule on a pool of threads.

use crate::engine::{Engine, Instance, TimeControl};
use crate::external::Forfeit;
use crate::records::{Adjudication, GameRecord, JointStep, StepScore};
use crate::schedule::pick;
use crate::schedule::{seed_for, Openings, Pairing, Stream};
use gamut_core::game::{Evaluate, NodeKind, Notation, ParseError, Player};
use gamut_search::Clock;
use rand::rngs::StdRng;
use rand::SeedableRng;
use std::collections::BTreeSet;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering::Relaxed};
use std::sync::{mpsc, Mutex};
use std::time::{Duration, Instant};

/// Ends a game when both engines agree on the score for long enough.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Threshold {
    /// The score (engine units) the agreement is about.
    pub score: i32,
    /// How many consecutive decisions of each side must agree.
    pub moves: u32,
}

/// How games end besides the rules.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Rules {
    /// Decision plies after which the game is a draw (`ply limit`).
    pub ply_limit: u32,
    /// Resign adjudication: the last `moves` decisions of each side all
    /// scored at least `score` for the same player (each engine from its
    /// own side: one at least `score`, the other at most `-score`) → that
    /// player wins.
    pub resign: Option<Threshold>,
    /// Draw adjudication: after `draw_after` plies, the last `moves`
    /// decisions of each side all scored within ±`score` → draw.
    pub draw: Option<Threshold>,
    /// The ply from which draw adjudication applies.
    pub draw_after: u32,
    /// How far past its clock an engine with a `tc=` may go before it
    /// loses on time.
    pub time_margin: Duration,
}

/// What one game needs besides the engines.
#[derive(Clone, Debug)]
pub struct Setup<G> {
    /// The game's number (from 1).
    pub number: u64,
    /// The pair.
    pub pairing: Pairing,
    /// The opening position.
    pub opening: G,
    /// The tournament seed.
    pub seed: u64,
}

/// Plays game `setup.number` between `engines` (by side: first player,
/// second player). Returns `None` if `stop` was raised before it ended.
pub fn play_game<G: Evaluate + Notation>(
    setup: &Setup<G>,
    engines: [&Engine; 2],
    encounter: [&Engine; 2],
    rules: &Rules,
    stop: &AtomicBool,
) -> Option<GameRecord> {
    let started = Instant::now();
    let mut players = [0, 1].map(|s| {
        Instance::new(
            engines[s],
            seed_for(setup.seed, Stream::Engine, 2 * setup.number + s as u64),
        )
    });
    let mut chance =
        StdRng::seed_from_u64(seed_for(setup.seed, Stream::Chance, setup.pairing.opening));
    let mut pos = setup.opening.clone();
    let mut moves = Vec::new();
    let mut rolls = Vec::new();
    let mut joint = Vec::new();
    let mut scored = Vec::new();
    // Decision scores from the first player's view, `None` for engines
    // without a score.
    let mut scores: Vec<Option<i32>> = Vec::new();
    let mut buf = Vec::new();
    let tcs = engines.map(|e| e.tc);
    let mut clocks = tcs.map(|tc| tc.map(|tc| tc.start()));
    let margin = rules.time_margin;
    let (winner, reason, points, adjudicated) = loop {
        if let Some(o) = pos.outcome() {
            break (o.winner, o.reason.to_string(), o.points, false);
        }
        if scores.len() as u32 >= rules.ply_limit {
            break (None, "ply limit".to_string(), None, true);
        }
        if stop.load(Relaxed) {
            return None;
        }
        match pos.node() {
            NodeKind::Decision(side) => {
                let player = &mut players[side.index()];
                player.set_clocks(clocks);
                let thinking = Instant::now();
                let c = match player.decide(&pos) {
                    Ok(c) => c,
                    Err(f) => break forfeit(side, &f),
                };
                let s = side.index();
                let took = thinking.elapsed();
                if let Some(lost) = charge(tcs[s], &mut clocks[s], side, took, margin) {
                    break lost;
                }
                if let Some(score) = c.score {
                    scored.push(StepScore {
                        step: moves.len(),
                        score,
                        depth: c.depth,
                        time_ms: Some(u64::try_from(took.as_millis()).unwrap_or(u64::MAX)),
                    });
                }
                moves.push(pos.move_text(c.mv));
                scores.push(c.score.map(|s| if side == Player::FIRST { s } else { -s }));
                pos = pos.play(c.mv);
                // A move that ends the game by the rules is not adjudicated.
                if pos.outcome().is_none() {
                    if let Some(w) = adjudicate(&scores, rules) {
                        break w;
                    }
                }
            }
            NodeKind::Chance => {
                pos.moves(&mut buf);
                let m = pick(&mut chance, buf.iter().map(|&m| (m, pos.probability(m))));
                let text = pos.move_text(m);
                rolls.push(text.clone());
                moves.push(text);
                pos = pos.play(m);
            }
            NodeKind::Simultaneous => {
                let mut spent = [Duration::ZERO; 2];
                let answers = [0, 1].map(|s| {
                    players[s].set_clocks(clocks);
                    let thinking = Instant::now();
                    let answer = players[s].strategy(&pos, Player::from_index(s));
                    spent[s] = thinking.elapsed();
                    answer
                });
                let strategies = match answers {
                    [Ok(a), Ok(b)] => [a, b],
                    [Err(f), _] => break forfeit(Player::FIRST, &f),
                    [_, Err(f)] => break forfeit(Player::SECOND, &f),
                };
                let lost = charge(tcs[0], &mut clocks[0], Player::FIRST, spent[0], margin);
                let lost = lost
                    .or_else(|| charge(tcs[1], &mut clocks[1], Player::SECOND, spent[1], margin));
                if let Some(lost) = lost {
                    break lost;
                }
                let [a, b] = [0, 1].map(|s| players[s].sample(&strategies[s]));
                let text_of = |m| pos.move_text(m);
                joint.push(JointStep {
                    step: moves.len(),
                    actions: vec![text_of(a), text_of(b)],
                    strategies: strategies
                        .map(|st| st.iter().map(|&(m, p)| (text_of(m), p)).collect())
                        .to_vec(),
                });
                moves.push(pos.joint_text(a, b));
                pos = pos.play_joint(a, b);
            }
            NodeKind::Terminal => unreachable!("terminal positions have an outcome"),
        }
    };
    Some(GameRecord {
        game: G::ID.to_string(),
        number: setup.number,
        pair: Some(setup.pairing.pair),
        encounter: Some(encounter.map(|e| e.name.clone())),
        opening_index: Some(setup.pairing.opening),
        opening: setup.opening.text(),
        engines: engines.map(|e| e.name.clone()).to_vec(),
        specs: engines.map(|e| e.spec.clone()).to_vec(),
        moves,
        rolls,
        joint,
        scores: scored,
        result: Some(GameRecord::result_text(winner).to_string()),
        winner: winner.map(|p| p.index() as u8 + 1),
        reason,
        adjudicated,
        points: points.map(|p| p.to_vec()),
        plies: scores.len() as u32,
        ply_limit: Some(rules.ply_limit),
        time_ms: started.elapsed().as_millis() as u64,
        seed: Some(setup.seed),
    })
}

type Ending = (Option<Player>, String, Option<[u32; 2]>, bool);

/// Charges `side`, under time control `tc` with `clock`, for a choice that
/// took `spent`: the ending if it ran out of time (past `margin`), else
/// its clock runs on.
fn charge(
    tc: Option<TimeControl>,
    clock: &mut Option<Clock>,
    side: Player,
    spent: Duration,
    margin: Duration,
) -> Option<Ending> {
    let (Some(tc), Some(c)) = (tc, *clock) else {
        return None;
    };
    if spent > c.remaining + margin {
        let f = Forfeit(format!(
            "time: {} ms spent with {} ms left",
            spent.as_millis(),
            c.remaining.as_millis()
        ));
        return Some(forfeit(side, &f));
    }
    *clock = Some(tc.after_move(c, spent));
    None
}

/// The ending of a game `loser` forfeited: a win for the other side.
fn forfeit(loser: Player, f: &Forfeit) -> Ending {
    (Some(loser.other()), f.reason(), None, true)
}

/// Resign or draw adjudication on the scores so far (first player's view).
fn adjudicate(scores: &[Option<i32>], rules: &Rules) -> Option<Ending> {
    let last = |t: Threshold| -> Option<Vec<i32>> {
        let n = 2 * t.moves as usize;
        if n == 0 || scores.len() < n {
            return None;
        }
        scores[scores.len() - n..].iter().copied().collect()
    };
    if let Some(t) = rules.resign {
        if let Some(v) = last(t) {
            if v.iter().all(|&s| s >= t.score) {
                return Some((
                    Some(Player::FIRST),
                    Adjudication::Resign.reason().into(),
                    None,
                    true,
                ));
            }
            if v.iter().all(|&s| s <= -t.score) {
                return Some((
                    Some(Player::SECOND),
                    Adjudication::Resign.reason().into(),
                    None,
                    true,
                ));
            }
        }
    }
    if let Some(t) = rules.draw {
        if scores.len() as u32 >= rules.draw_after {
            if let Some(v) = last(t) {
                if v.iter().all(|&s| s.abs() <= t.score) {
                    return Some((None, Adjudication::Draw.reason().into(), None, true));
                }
            }
        }
    }
    None
}

/// Everything a tournament plays, on any machine that plays a share of it.
#[derive(Clone, Debug)]
pub struct Plan<G> {
    /// The engines.
    pub engines: Vec<Engine>,
    /// The pairs to play (all of them, or one shard's).
    pub pairs: Vec<Pairing>,
    /// Where games start.
    pub openings: Openings<G>,
    /// Adjudication.
    pub rules: Rules,
    /// The seed every random choice derives from.
    pub seed: u64,
}

impl<G> Plan<G> {
    /// The number of the `i`-th game of the plan (from 0): both games of
    /// each pair in turn.
    pub fn number(&self, i: usize) -> u64 {
        2 * self.pairs[i / 2].pair + 1 + (i % 2) as u64
    }

    /// The number of games in the plan.
    pub fn game_count(&self) -> usize {
        2 * self.pairs.len()
    }
}

impl<G: Evaluate + Notation> Plan<G> {
    /// Plays both games of every pair (in order of game number) except
    /// those `skip` holds, on `concurrency` threads, handing each finished
    /// game to `done` on the calling thread in the order they finish. Stops
    /// starting games when `stop` is raised (by `done` or from outside);
    /// games in progress then end unfinished and are dropped. Fails if an
    /// opening cannot be made.
    pub fn run(
        &self,
        concurrency: usize,
        skip: &BTreeSet<u64>,
        stop: &AtomicBool,
        done: &mut dyn FnMut(GameRecord),
    ) -> Result<(), ParseError> {
        let next = AtomicUsize::new(0);
        let error = Mutex::new(None);
        let (send, receive) = mpsc::channel();
        let worker = |finished: mpsc::Sender<GameRecord>| loop {
            let i = next.fetch_add(1, Relaxed);
            if i >= self.game_count() || stop.load(Relaxed) {
                return;
            }
            let number = self.number(i);
            if skip.contains(&number) {
                continue;
            }
            let pairing = self.pairs[i / 2];
            let opening = match self.openings.get(pairing.opening, self.seed) {
                Ok(p) => p,
                Err(e) => {
                    *error.lock().expect("the error slot") = Some(e);
                    stop.store(true, Relaxed);
                    return;
                }
            };
            let encounter = pairing.engines.map(|e| &self.engines[e]);
            let by_side = if i.is_multiple_of(2) {
                encounter
            } else {
                [encounter[1], encounter[0]]
            };
            let setup = Setup {
                number,
                pairing,
                opening,
                seed: self.seed,
            };
            if let Some(rec) = play_game(&setup, by_side, encounter, &self.rules, stop) {
                if finished.send(rec).is_err() {
                    return;
                }
            }
        };
        let worker = &worker;
        std::thread::scope(|s| {
            for _ in 0..concurrency.max(1) {
                let send = send.clone();
                s.spawn(move || worker(send));
            }
            drop(send);
            for rec in receive {
                done(rec);
            }
        });
        match error.into_inner().expect("the error slot") {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }
}
