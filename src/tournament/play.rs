//! Playing games: one game between engines, one per side, from an opening,
//! with adjudication, and a whole schedule on a pool of threads: pairs of
//! games with the sides swapped in a game of two sides, every arrangement
//! of the engines on the seats in turn in a game of more (a team's engine
//! chooses both its players' actions).

use crate::engine::{Engine, Instance, TimeControl};
use crate::external::Forfeit;
use crate::records::{Adjudicator, GameRecord, JointStep, StepScore};
use crate::schedule::{seed_for, Openings, Pairing, Pairings, Seatings, Stream};
use gamut_core::game::{Evaluate, Game, NodeKind, NodeRules, Notation, ParseError, Player};
use gamut_search::draw::pick;
use gamut_search::sides::{merge, tuple_text, Tuple};
use gamut_search::Clock;
use rand::rngs::StdRng;
use rand::SeedableRng;
use std::collections::BTreeSet;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering::Relaxed};
use std::sync::{mpsc, Mutex};
use std::time::{Duration, Instant};

/// How games end besides the rules.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Rules {
    /// Decision plies after which the game is a draw (`ply limit`).
    pub ply_limit: u32,
    /// Resign and draw adjudication on the engines' scores (kept in each
    /// record, which is checked against it).
    pub adjudicate: Adjudicator,
    /// How far past its clock an engine with a `tc=` may go before it
    /// loses on time.
    pub time_margin: Duration,
}

/// What one game needs besides the engines.
#[derive(Clone, Debug)]
pub struct Setup<G> {
    /// The game's number (from 1).
    pub number: u64,
    /// The pair, in a game of two sides.
    pub pairing: Option<Pairing>,
    /// The opening's index as the record keeps it ([`Plan::recorded_opening`]).
    pub opening_index: Option<u64>,
    /// The opening position.
    pub opening: G,
    /// The tournament seed.
    pub seed: u64,
}

/// How many engine streams each game number has room for: one per side,
/// two in a game of two players, up to eight in a game of more.
fn streams<G: Game>() -> u64 {
    if G::players() == 2 {
        2
    } else {
        8
    }
}

/// How many of a side's mixed strategy's choices a record keeps in a game
/// of more than two players (a team's joint choices multiply).
const STRATEGY_KEPT: usize = 10;

/// Plays game `setup.number` between `engines`, one per side in the
/// order of the sides; `encounter` is the pair's two engines in a game of
/// two sides. Returns `None` if `stop` was raised before it ended.
pub fn play_game<G: Evaluate + Notation>(
    setup: &Setup<G>,
    engines: &[&Engine],
    encounter: Option<[&Engine; 2]>,
    rules: &Rules,
    stop: &AtomicBool,
) -> Option<GameRecord> {
    let started = Instant::now();
    let two = G::players() == 2;
    let mut players: Vec<Instance> = engines
        .iter()
        .enumerate()
        .map(|(s, e)| {
            let seed = seed_for(
                setup.seed,
                Stream::Engine,
                streams::<G>() * setup.number + s as u64,
            );
            Instance::new(e, seed).interruptible(stop)
        })
        .collect();
    let mut chance = StdRng::seed_from_u64(seed_for(
        setup.seed,
        Stream::Chance,
        setup.opening_index.unwrap_or(0),
    ));
    let mut pos = setup.opening.clone();
    let mut moves = Vec::new();
    let mut rolls = Vec::new();
    let mut joint = Vec::new();
    let mut scored = Vec::new();
    // Decision scores from the first player's view, `None` for engines
    // without a score.
    let mut scores: Vec<Option<i32>> = Vec::new();
    let mut buf = Vec::new();
    let tcs: Vec<Option<TimeControl>> = engines.iter().map(|e| e.tc).collect();
    let mut clocks: Vec<Option<Clock>> = tcs.iter().map(|tc| tc.map(|tc| tc.start())).collect();
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
                player.set_clocks(&clocks);
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
                    if let Some((w, a)) = rules.adjudicate.judge(&scores) {
                        break (w, a.reason().into(), None, true);
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
                let mut spent = Vec::new();
                let mut answers = Vec::new();
                for player in &mut players {
                    player.set_clocks(&clocks);
                    let thinking = Instant::now();
                    answers.push(player.joint(&pos, Player::nth(spent.len())));
                    spent.push(thinking.elapsed());
                }
                let mut parts = Vec::new();
                let mut lost = None;
                for (s, answer) in answers.into_iter().enumerate() {
                    match answer {
                        Ok(j) => parts.push(j),
                        Err(f) => {
                            lost = Some(forfeit(Player::nth(s), &f));
                            break;
                        }
                    }
                }
                for s in 0..parts.len() {
                    if lost.is_some() {
                        break;
                    }
                    lost = charge(tcs[s], &mut clocks[s], Player::nth(s), spent[s], margin);
                }
                if let Some(lost) = lost {
                    break lost;
                }
                let tuples: Vec<&Tuple<G::Move>> = parts.iter().map(|j| &j.actions).collect();
                let actions = merge(&tuples, G::players());
                let kept = if two { usize::MAX } else { STRATEGY_KEPT };
                joint.push(JointStep {
                    step: moves.len(),
                    actions: actions.iter().map(|&a| pos.move_text(a)).collect(),
                    strategies: parts
                        .iter()
                        .map(|j| {
                            j.strategy
                                .iter()
                                .take(kept)
                                .map(|(t, p)| (tuple_text(&pos, t), *p))
                                .collect()
                        })
                        .collect(),
                });
                moves.push(pos.joint_text_all(&actions));
                pos = pos.play_joint_all(&actions);
            }
            NodeKind::Terminal => unreachable!("terminal positions have an outcome"),
        }
    };
    Some(GameRecord {
        game: G::ID.to_string(),
        number: setup.number,
        pair: setup.pairing.map(|p| p.pair),
        encounter: encounter.map(|pair| pair.map(|e| e.name.clone())),
        opening_index: setup.opening_index,
        opening: setup.opening.text(),
        engines: engines.iter().map(|e| e.name.clone()).collect(),
        specs: engines.iter().map(|e| e.spec.clone()).collect(),
        moves,
        rolls,
        joint,
        scores: scored,
        result: two.then(|| GameRecord::result_text(winner).to_string()),
        winner: winner.map(|p| p.index() as u8 + 1),
        reason,
        adjudicated,
        // Points are a pair's: games of more than two players score none.
        points: points.filter(|_| two).map(|p| p.to_vec()),
        plies: scores.len() as u32,
        ply_limit: Some(rules.ply_limit),
        // Games of more than two sides are not adjudicated on scores.
        adjudicate: two.then_some(rules.adjudicate),
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

/// Who meets whom: pairs of games with the sides swapped in a game of two
/// sides, seatings in a game of more.
#[derive(Clone, Debug)]
pub enum Schedule {
    /// The pairs to play (all of them, or one shard's), both games of
    /// each: games `2p + 1` and `2p + 2` of pair `p`.
    Pairs(Pairings),
    /// Only the first game of each pair (game `2p + 1`, the pair's first
    /// engine first player): self-play of one setting under two names,
    /// where the second game, sides swapped, would play the same engine
    /// on the same opening again (`gamut balance`).
    Firsts(Pairings),
    /// The games of a game of more than two sides (all of them, or one
    /// shard's), game `n` seating the engines as the `(n - 1)`-th of the
    /// lineups ([`lineups`]), cycled.
    Seats(Seatings),
}

/// One game of a plan: its number, its engines by side, its opening and,
/// in a game of two sides, its pair.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Seating {
    /// The game's number (from 1).
    pub number: u64,
    /// The engines by side, as indices into the plan's engines.
    pub engines: Vec<usize>,
    /// The opening's index: the pair's in a game of two sides; in a game
    /// of more, the cycle of lineups the game belongs to, so that every
    /// lineup of a cycle plays the same opening.
    pub opening: u64,
    /// The pair, in a game of two sides.
    pub pairing: Option<Pairing>,
}

/// Everything a tournament plays, on any machine that plays a share of it.
#[derive(Clone, Debug)]
pub struct Plan<G> {
    /// The engines.
    pub engines: Vec<Engine>,
    /// The games to play.
    pub schedule: Schedule,
    /// Where games start.
    pub openings: Openings<G>,
    /// Adjudication.
    pub rules: Rules,
    /// The seed every random choice derives from.
    pub seed: u64,
}

impl<G> Plan<G> {
    /// The `i`-th game of the plan (from 0): of pairs, both games of each
    /// pair in turn, the second with the sides swapped.
    pub fn seating(&self, i: usize) -> Seating {
        match &self.schedule {
            Schedule::Pairs(pairs) => {
                let pairing = pairs.get((i / 2) as u64);
                let [a, b] = pairing.engines;
                Seating {
                    number: 2 * pairing.pair + 1 + (i % 2) as u64,
                    engines: if i.is_multiple_of(2) {
                        vec![a, b]
                    } else {
                        vec![b, a]
                    },
                    opening: pairing.opening,
                    pairing: Some(pairing),
                }
            }
            Schedule::Firsts(pairs) => {
                let pairing = pairs.get(i as u64);
                Seating {
                    number: 2 * pairing.pair + 1,
                    engines: pairing.engines.to_vec(),
                    opening: pairing.opening,
                    pairing: Some(pairing),
                }
            }
            Schedule::Seats(seatings) => {
                let game = seatings.get(i as u64);
                Seating {
                    number: game.number,
                    engines: game.engines,
                    opening: game.cycle,
                    pairing: None,
                }
            }
        }
    }

    /// The number of games in the plan.
    pub fn game_count(&self) -> usize {
        match &self.schedule {
            Schedule::Pairs(pairs) => 2 * pairs.len() as usize,
            Schedule::Firsts(pairs) => pairs.len() as usize,
            Schedule::Seats(seatings) => seatings.len() as usize,
        }
    }

    /// Where game number `number` is in the plan (the `i` of
    /// [`Plan::seating`]), if the plan has it.
    pub fn index_of(&self, number: u64) -> Option<usize> {
        let pair = number.checked_sub(1)? / 2;
        let second = number.checked_sub(1)? % 2;
        match &self.schedule {
            Schedule::Pairs(pairs) => Some((2 * pairs.position(pair)? + second) as usize),
            Schedule::Firsts(pairs) if second == 0 => Some(pairs.position(pair)? as usize),
            Schedule::Firsts(_) => None,
            Schedule::Seats(seatings) => seatings.position(number).map(|i| i as usize),
        }
    }

    /// The pair's two engines of a game of two sides.
    pub fn encounter(&self, seating: &Seating) -> Option<[&Engine; 2]> {
        seating.pairing.map(|p| p.engines.map(|e| &self.engines[e]))
    }
}

impl<G: Game> Plan<G> {
    /// The plan playing only the first game of each of its pairs
    /// ([`Schedule::Firsts`]); a plan of seatings stays as it is.
    #[must_use]
    pub fn first_games_only(mut self) -> Self {
        if let Schedule::Pairs(pairs) = self.schedule {
            self.schedule = Schedule::Firsts(pairs);
        }
        self
    }

    /// The plan with its random openings walked from `start` instead of
    /// the game's start position (an openings file stays as it is).
    #[must_use]
    pub fn starting_from(mut self, start: G) -> Self {
        if let Openings::Random { plies, .. } = self.openings {
            self.openings = Openings::Random { start, plies };
        }
        self
    }

    /// The opening of a game.
    pub fn opening(&self, seating: &Seating) -> Result<G, ParseError> {
        self.openings.get(seating.opening, self.seed)
    }

    /// The opening index a game's record keeps: a pair's always; a seats
    /// game's when the tournament has openings (a file, or random plies),
    /// so that seats games from the start position are recorded as they
    /// were before seats games had openings.
    pub fn recorded_opening(&self, seating: &Seating) -> Option<u64> {
        let from_start = matches!(self.openings, Openings::Random { plies: 0, .. });
        (seating.pairing.is_some() || !from_start).then_some(seating.opening)
    }
}

impl<G: Evaluate + Notation> Plan<G> {
    /// Plays every game of the plan (in order of game number) except those
    /// `skip` holds, on `concurrency` threads (no more than there are
    /// games), handing each finished game to `done` on the calling thread
    /// in the order they finish. Stops starting games when `stop` is
    /// raised (by `done` or from outside); games in progress then end
    /// unfinished and are dropped. Fails if an opening cannot be made.
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
            let seating = self.seating(i);
            if skip.contains(&seating.number) {
                continue;
            }
            let opening = match self.opening(&seating) {
                Ok(p) => p,
                Err(e) => {
                    *error.lock().expect("the error slot") = Some(e);
                    stop.store(true, Relaxed);
                    return;
                }
            };
            let engines: Vec<&Engine> = seating.engines.iter().map(|&e| &self.engines[e]).collect();
            let setup = Setup {
                number: seating.number,
                pairing: seating.pairing,
                opening_index: self.recorded_opening(&seating),
                opening,
                seed: self.seed,
            };
            let encounter = self.encounter(&seating);
            match play_game(&setup, &engines, encounter, &self.rules, stop) {
                Some(rec) => {
                    if finished.send(rec).is_err() {
                        return;
                    }
                }
                None => return,
            }
        };
        let worker = &worker;
        let threads = concurrency.clamp(1, self.game_count().max(1));
        std::thread::scope(|s| {
            for _ in 0..threads {
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

/// Every arrangement of `engines` engines on `seats` seats a tournament of
/// more than two sides cycles through, in lexicographic order: every
/// ordering of distinct engines when there are at least as many engines as
/// seats, otherwise every ordering in which the engines' seat counts
/// differ by at most one (three engines at four seats: one of them, in
/// turn, holds two). A tournament of a whole number of cycles seats every
/// engine equally often on every seat.
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
