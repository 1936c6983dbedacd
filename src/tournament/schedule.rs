//! Which games a tournament plays: encounters by format, game pairs over
//! openings, shards, and the seeds every random choice is drawn from.

use gamut_core::game::{NodeKind, ParseError};
use gamut_engine::{AnyGame, Position};
use gamut_players::seed::{seed_for, Stream};
use rand::rngs::StdRng;
use rand::SeedableRng;

/// Who meets whom when there are more than two engines.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Format {
    /// Every engine against every other.
    RoundRobin,
    /// The first engine against each of the others.
    Gauntlet,
}

/// One pair of games: the same opening, each engine first player once.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Pairing {
    /// The pair's number, from 0; its games are numbers `2p+1` and `2p+2`.
    pub pair: u64,
    /// The engines (indices into the engine list); `engines[0]` is first
    /// player in the pair's first game.
    pub engines: [usize; 2],
    /// The opening's index.
    pub opening: u64,
}

/// The most games a tournament, a balance run, datagen or learn plays:
/// 2^40, some thirty years of games of a millisecond. Game numbers and
/// counts stay far from overflowing below it; more is refused.
pub const MAX_GAMES: u64 = 1 << 40;

/// Every pair of a tournament of `n` engines with `rounds` pairs per
/// encounter, or one shard's share of them: round by round (one opening
/// per round), every encounter in each round, so a stopped tournament has
/// played the encounters evenly. Pairs are made when asked for, so a
/// schedule takes the same memory whatever its length.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pairings {
    /// Who meets whom, in each round's order.
    encounters: Vec<[usize; 2]>,
    /// Pairs in all, over every shard.
    all: u64,
    /// The share played (every pair without one).
    shard: Shard,
}

impl Pairings {
    /// The pairs of `n` engines meeting as `format` says, `rounds` pairs
    /// per encounter, those of `shard` (all without one); refused when
    /// they would be more than [`MAX_GAMES`] games.
    pub fn new(
        n: usize,
        format: Format,
        rounds: u64,
        shard: Option<Shard>,
    ) -> Result<Pairings, ParseError> {
        let encounters: Vec<[usize; 2]> = match format {
            Format::RoundRobin => (0..n)
                .flat_map(|i| (i + 1..n).map(move |j| [i, j]))
                .collect(),
            Format::Gauntlet => (1..n).map(|j| [0, j]).collect(),
        };
        let all = rounds
            .checked_mul(encounters.len() as u64)
            .filter(|&pairs| pairs <= MAX_GAMES / 2)
            .ok_or_else(|| {
                ParseError::new(format!(
                    "{rounds} pairs of games for each of {} encounters is more than the {MAX_GAMES} games a tournament may have",
                    encounters.len()
                ))
            })?;
        Ok(Pairings {
            encounters,
            all,
            shard: shard.unwrap_or(Shard { index: 0, count: 1 }),
        })
    }

    /// The number of pairs in the share.
    #[must_use]
    pub fn len(&self) -> u64 {
        match self.all.checked_sub(self.shard.index) {
            Some(rest) if rest > 0 => (rest - 1) / self.shard.count + 1,
            _ => 0,
        }
    }

    /// Whether the share has no pair.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The share's `i`-th pair (from 0; below [`Pairings::len`]).
    #[must_use]
    pub fn get(&self, i: u64) -> Pairing {
        let pair = self.shard.index + i * self.shard.count;
        let e = self.encounters.len() as u64;
        Pairing {
            pair,
            engines: self.encounters[(pair % e) as usize],
            opening: pair / e,
        }
    }

    /// Where pair number `pair` is in the share, if it is in it.
    #[must_use]
    pub fn position(&self, pair: u64) -> Option<u64> {
        (pair < self.all && self.shard.has(pair)).then(|| pair / self.shard.count)
    }
}

/// Every game of a tournament of a game of more than two sides, or one
/// shard's share of them: game `n` (from 1) seats the engines as the
/// `(n - 1)`-th lineup, cycled, and a cycle of lineups is the unit a shard
/// takes, so that each lineup of a cycle plays its cycle's opening on the
/// same machine. Games are made when asked for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Seatings {
    /// The arrangements of engines on the seats, in each cycle's order.
    lineups: Vec<Vec<usize>>,
    /// Games in all, over every shard.
    all: u64,
    /// The share played (every cycle without one).
    shard: Shard,
}

/// One game of [`Seatings`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeatGame {
    /// The game's number (from 1).
    pub number: u64,
    /// The engines by seat.
    pub engines: Vec<usize>,
    /// The cycle of lineups it belongs to (from 0): its opening's index.
    pub cycle: u64,
}

impl Seatings {
    /// `games` games over `lineups` (at least one), those of `shard`'s
    /// cycles (all without one).
    #[must_use]
    pub fn new(lineups: Vec<Vec<usize>>, games: u64, shard: Option<Shard>) -> Seatings {
        assert!(!lineups.is_empty(), "a tournament of seats has a lineup");
        Seatings {
            lineups,
            all: games,
            shard: shard.unwrap_or(Shard { index: 0, count: 1 }),
        }
    }

    fn cycle_len(&self) -> u64 {
        self.lineups.len() as u64
    }

    /// The number of games in the share: its whole cycles, and the last
    /// cycle's games if the share has that cycle and it is cut short.
    #[must_use]
    pub fn len(&self) -> u64 {
        let l = self.cycle_len();
        let cycles = self.all.div_ceil(l);
        let mine = match cycles.checked_sub(self.shard.index) {
            Some(rest) if rest > 0 => (rest - 1) / self.shard.count + 1,
            _ => return 0,
        };
        let short = cycles * l - self.all;
        if self.shard.has(cycles - 1) {
            mine * l - short
        } else {
            mine * l
        }
    }

    /// Whether the share has no game.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The share's `i`-th game (from 0; below [`Seatings::len`]).
    #[must_use]
    pub fn get(&self, i: u64) -> SeatGame {
        let l = self.cycle_len();
        let cycle = self.shard.index + (i / l) * self.shard.count;
        let at = i % l;
        SeatGame {
            number: cycle * l + at + 1,
            engines: self.lineups[at as usize].clone(),
            cycle,
        }
    }

    /// Where game number `number` is in the share, if it is in it.
    #[must_use]
    pub fn position(&self, number: u64) -> Option<u64> {
        let n = number.checked_sub(1).filter(|&n| n < self.all)?;
        let l = self.cycle_len();
        let cycle = n / l;
        self.shard
            .has(cycle)
            .then(|| (cycle / self.shard.count) * l + n % l)
    }
}

/// This machine's share of the pairs: `--shard K/N` plays the pairs whose
/// number is `K-1` modulo `N` (in a game of more than two sides, the
/// cycles of lineups, [`Seatings`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Shard {
    /// K - 1.
    pub index: u64,
    /// N.
    pub count: u64,
}

impl Shard {
    /// Parses `K/N` with 1 ≤ K ≤ N.
    pub fn parse(text: &str) -> Result<Shard, ParseError> {
        let bad = || ParseError::new(format!("--shard '{text}' is not K/N with 1 <= K <= N"));
        let (k, n) = text.split_once('/').ok_or_else(bad)?;
        let (k, n): (u64, u64) = (k.parse().map_err(|_| bad())?, n.parse().map_err(|_| bad())?);
        if k == 0 || k > n {
            return Err(bad());
        }
        Ok(Shard {
            index: k - 1,
            count: n,
        })
    }

    /// Whether pair `pair` is in this shard.
    #[must_use]
    pub fn has(&self, pair: u64) -> bool {
        pair % self.count == self.index
    }
}

/// Where the games start.
#[derive(Clone, Debug)]
pub enum Openings {
    /// Positions read from a file, used in turn (opening `i` is line
    /// `i mod len`).
    List(Vec<Position>),
    /// `plies` random decision plies from the start position, drawn from
    /// the opening stream; chance outcomes and joint actions on the way
    /// are random too and use no ply.
    Random {
        /// The start position.
        start: Position,
        /// Decision plies to play.
        plies: u32,
    },
}

/// How often a random opening that ended the game is drawn again.
const OPENING_ATTEMPTS: u64 = 1000;

impl Openings {
    /// Opening number `index` for tournament seed `seed`.
    pub fn get(&self, index: u64, seed: u64) -> Result<Position, ParseError> {
        match self {
            Openings::List(list) => Ok(list[(index % list.len() as u64) as usize].clone()),
            Openings::Random { start, plies } => {
                for attempt in 0..OPENING_ATTEMPTS {
                    let s = seed_for(
                        seed,
                        Stream::Opening,
                        index.wrapping_mul(OPENING_ATTEMPTS) + attempt,
                    );
                    if let Some(p) = start.random_walk(*plies, &mut StdRng::seed_from_u64(s)) {
                        return Ok(p);
                    }
                }
                Err(ParseError::new(format!(
                    "no game lasts {plies} random plies from the start ({OPENING_ATTEMPTS} tries); use fewer --random-plies"
                )))
            }
        }
    }
}

/// Reads openings: one position text per line; text after a `;` (perft
/// suite counts) is dropped, and blank lines and lines starting with `#`
/// are skipped, and so are positions where the game is over (suites hold
/// some). A line that does not parse is an error.
pub fn parse_openings(game: &dyn AnyGame, text: &str) -> Result<Vec<Position>, ParseError> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let body = line.split(';').next().unwrap_or("").trim();
        if body.is_empty() || body.starts_with('#') {
            continue;
        }
        let pos = game
            .parse(body)
            .map_err(|e| ParseError::new(format!("line {}: {e}", i + 1)))?;
        if pos.node() != NodeKind::Terminal {
            out.push(pos);
        }
    }
    if out.is_empty() {
        return Err(ParseError::new(
            "no position of a game in progress in the openings file",
        ));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every game of a tournament of seats is in exactly one shard, each
    /// shard's games are whole cycles (the last one cut short where the
    /// count is), and `position` finds each game where `get` put it.
    #[test]
    fn seat_shards_share_out_whole_cycles() {
        for cycle in 1..=4usize {
            let lineups: Vec<Vec<usize>> = (0..cycle).map(|i| vec![i, i + 1]).collect();
            for games in 0..=13u64 {
                for count in 1..=5u64 {
                    let mut seen = vec![0u32; games as usize];
                    for index in 0..count {
                        let shard = Shard { index, count };
                        let s = Seatings::new(lineups.clone(), games, Some(shard));
                        for i in 0..s.len() {
                            let g = s.get(i);
                            assert!(g.number >= 1 && g.number <= games, "{g:?}");
                            let n = g.number - 1;
                            assert_eq!(g.cycle, n / cycle as u64);
                            assert!(shard.has(g.cycle), "{g:?} in shard {index}/{count}");
                            assert_eq!(g.engines, lineups[(n % cycle as u64) as usize]);
                            assert_eq!(s.position(g.number), Some(i));
                            seen[n as usize] += 1;
                        }
                        let outside = (1..=games + 1).filter(|&n| s.position(n).is_some()).count();
                        assert_eq!(outside as u64, s.len(), "no position outside the share");
                    }
                    assert!(
                        seen.iter().all(|&k| k == 1),
                        "{cycle} lineups, {games} games, {count} shards: {seen:?}"
                    );
                }
            }
        }
    }

    /// Without a shard the games are 1 to `games` in order.
    #[test]
    fn unsharded_seatings_are_every_game_in_order() {
        let s = Seatings::new(vec![vec![0, 1], vec![1, 0], vec![0, 0]], 7, None);
        let numbers: Vec<u64> = (0..s.len()).map(|i| s.get(i).number).collect();
        assert_eq!(numbers, [1, 2, 3, 4, 5, 6, 7]);
        assert_eq!(s.get(4).cycle, 1);
        assert_eq!(s.position(8), None);
        assert_eq!(s.position(0), None);
    }
}
