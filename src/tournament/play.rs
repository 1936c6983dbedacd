//! Playing games: one game between engines, one per side, from an opening,
//! with adjudication, and a whole schedule on a pool of threads: pairs of
//! games with the sides swapped in a game of two sides, every arrangement
//! of the engines on the seats in turn in a game of more (a team's engine
//! chooses both its players' actions).

use crate::schedule::{Openings, Pairing, Pairings, Seatings};
use gamut_core::game::ParseError;
use gamut_engine::{AnyGame, Position};
use gamut_players::engine::Engine;
use gamut_players::game::{Rules, Setup};
use gamut_players::record::GameRecord;
use std::collections::BTreeSet;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering::Relaxed};
use std::sync::{mpsc, Mutex};

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
#[derive(Clone)]
pub struct Plan {
    /// The game.
    pub game: &'static dyn AnyGame,
    /// The engines.
    pub engines: Vec<Engine>,
    /// The games to play.
    pub schedule: Schedule,
    /// Where games start.
    pub openings: Openings,
    /// Adjudication.
    pub rules: Rules,
    /// The seed every random choice derives from.
    pub seed: u64,
}

impl Plan {
    /// The `i`-th game of the plan (from 0): of pairs, both games of each
    /// pair in turn, the second with the sides swapped.
    #[must_use]
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
    #[must_use]
    pub fn game_count(&self) -> usize {
        match &self.schedule {
            Schedule::Pairs(pairs) => 2 * pairs.len() as usize,
            Schedule::Firsts(pairs) => pairs.len() as usize,
            Schedule::Seats(seatings) => seatings.len() as usize,
        }
    }

    /// Where game number `number` is in the plan (the `i` of
    /// [`Plan::seating`]), if the plan has it.
    #[must_use]
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
    #[must_use]
    pub fn encounter(&self, seating: &Seating) -> Option<[&Engine; 2]> {
        seating.pairing.map(|p| p.engines.map(|e| &self.engines[e]))
    }

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
    pub fn starting_from(mut self, start: Position) -> Self {
        if let Openings::Random { plies, .. } = self.openings {
            self.openings = Openings::Random { start, plies };
        }
        self
    }

    /// The opening of a game.
    pub fn opening(&self, seating: &Seating) -> Result<Position, ParseError> {
        self.openings.get(seating.opening, self.seed)
    }

    /// The opening index a game's record keeps: a pair's always; a seats
    /// game's when the tournament has openings (a file, or random plies),
    /// so that seats games from the start position are recorded as they
    /// were before seats games had openings.
    #[must_use]
    pub fn recorded_opening(&self, seating: &Seating) -> Option<u64> {
        let from_start = matches!(self.openings, Openings::Random { plies: 0, .. });
        (seating.pairing.is_some() || !from_start).then_some(seating.opening)
    }

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
                pair: seating.pairing.map(|p| p.pair),
                opening_index: self.recorded_opening(&seating),
                opening,
                seed: self.seed,
            };
            let encounter = self.encounter(&seating);
            match self
                .game
                .play(&setup, &engines, encounter, &self.rules, stop)
            {
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
