//! Aporia solved outright by retrograde analysis over every state of
//! [`StateSpace`], and the table that stores the result.
//!
//! The value of a state is the same for both players (both move both
//! colours), so the table stores one [`Value`] per state for the side to
//! move: `Win(n)` / `Loss(n)` with `n` plies to the end under perfect play
//! (the winner hurries, the loser delays), or `Draw` when neither side can
//! force an end and the game can go on forever. A game ends with a win
//! either way (a second lock scores 3 points, a blockade 2); the table
//! stores who wins and when, not how.
//!
//! The analysis links every state to the states it comes from (a reverse
//! move graph built from the forward moves, no unmoves needed), then works
//! back from the finished states one distance at a time: a state with a
//! move to a state lost in `d` plies is won in `d + 1`; a state whose last
//! unresolved move leads to a state won in `d` plies is lost in `d + 1`.

use super::board::Move;
use super::states::{Key, StateSpace};
use super::Aporia;
use gamut_core::game::{Game, Notation, Player};
use gamut_core::tablebase::{self, Oracle, Probe, Progress, Solution, Tablebase, Value};
use rayon::prelude::*;
use std::path::Path;
use std::sync::atomic::{AtomicU32, AtomicU64, AtomicU8, Ordering::Relaxed};

/// Calls `f` with the number of the state each legal move of `key` leads to.
#[inline]
fn for_each_child(space: &StateSpace, key: &Key, mut f: impl FnMut(u64)) {
    let pos = key.position(Player::FIRST);
    pos.for_each_move(|m| f(space.index(&Key::of(&pos.play(m)))));
}

/// Runs `f` on every state in parallel, reporting progress as `stage`.
fn each_state(space: &StateSpace, stage: &str, progress: Progress, f: impl Fn(u64, &Key) + Sync) {
    let done = AtomicU64::new(0);
    space.boards.par_iter().enumerate().for_each(|(i, board)| {
        for local in 0..board.states() {
            f(board.first + local, &board.key(local));
        }
        let n = done.fetch_add(board.states(), Relaxed) + board.states();
        if i % 64 == 0 {
            progress(stage, n, space.total);
        }
    });
    progress(stage, space.total, space.total);
}

/// Concatenates per-thread vectors.
fn gather(parts: impl ParallelIterator<Item = Vec<u32>>) -> Vec<u32> {
    parts.reduce(Vec::new, |mut a, mut b| {
        if a.len() < b.len() {
            std::mem::swap(&mut a, &mut b);
        }
        a.extend(b);
        a
    })
}

/// The value of every state, as table entries (see [`Value::entry`]).
pub fn retrograde(space: &StateSpace, progress: Progress) -> Result<Vec<u8>, String> {
    let n = space.total as usize;
    if n >= u32::MAX as usize {
        return Err(format!("{n} states do not fit 32-bit state numbers"));
    }
    // Count the moves out of and into every state.
    let moves: Vec<AtomicU8> = (0..n).map(|_| AtomicU8::new(0)).collect();
    let into: Vec<AtomicU32> = (0..n + 1).map(|_| AtomicU32::new(0)).collect();
    each_state(space, "counting moves", progress, |s, key| {
        let mut count = 0u8;
        for_each_child(space, key, |t| {
            count += 1;
            into[t as usize].fetch_add(1, Relaxed);
        });
        moves[s as usize].store(count, Relaxed);
    });
    // Where each state's predecessors start in `from`.
    let mut start = Vec::with_capacity(n + 1);
    let mut edges = 0u64;
    for c in &into {
        start.push(edges as u32);
        edges += u64::from(c.load(Relaxed));
    }
    if edges >= u64::from(u32::MAX) {
        return Err(format!("{edges} moves do not fit 32-bit links"));
    }
    drop(into);
    let cursor: Vec<AtomicU32> = start.iter().map(|&s| AtomicU32::new(s)).collect();
    let from: Vec<AtomicU32> = (0..edges).map(|_| AtomicU32::new(0)).collect();
    each_state(space, "linking moves", progress, |s, key| {
        for_each_child(space, key, |t| {
            let at = cursor[t as usize].fetch_add(1, Relaxed);
            from[at as usize].store(s as u32, Relaxed);
        });
    });
    drop(cursor);
    let from: Vec<u32> = from.into_iter().map(AtomicU32::into_inner).collect();

    // Distance 0: no legal move, the side to move has lost.
    let entry: Vec<AtomicU8> = (0..n).map(|_| AtomicU8::new(0)).collect();
    let mut layer: Vec<u32> = (0..n as u32)
        .into_par_iter()
        .filter(|&s| moves[s as usize].load(Relaxed) == 0)
        .collect();
    for &s in &layer {
        entry[s as usize].store(1, Relaxed);
    }
    let mut resolved = layer.len() as u64;
    let mut distance = 0u32;
    while !layer.is_empty() {
        progress("retrograde", resolved, space.total);
        // States resolved now end in `distance + 1` plies: entry `distance + 2`.
        let next_entry = u8::try_from(distance + 2)
            .map_err(|_| format!("distances beyond {distance} plies do not fit a byte"))?;
        let lost = distance.is_multiple_of(2);
        let next = gather(layer.par_iter().fold(Vec::new, |mut out, &s| {
            let preds = &from[start[s as usize] as usize..start[s as usize + 1] as usize];
            for &p in preds {
                let e = &entry[p as usize];
                if lost {
                    if e.compare_exchange(0, next_entry, Relaxed, Relaxed).is_ok() {
                        out.push(p);
                    }
                } else if e.load(Relaxed) == 0 && moves[p as usize].fetch_sub(1, Relaxed) == 1 {
                    e.store(next_entry, Relaxed);
                    out.push(p);
                }
            }
            out
        }));
        resolved += next.len() as u64;
        layer = next;
        distance += 1;
    }
    progress("retrograde", space.total, space.total);
    Ok(entry.into_iter().map(AtomicU8::into_inner).collect())
}

/// The states reachable from the start, as a bit per state.
pub fn reachable(space: &StateSpace, progress: Progress) -> Vec<u64> {
    let seen: Vec<AtomicU64> = (0..space.total.div_ceil(64))
        .map(|_| AtomicU64::new(0))
        .collect();
    let mark = |s: u64| {
        let bit = 1u64 << (s % 64);
        seen[(s / 64) as usize].fetch_or(bit, Relaxed) & bit == 0
    };
    let start = space.index(&Key::of(&Aporia::start()));
    mark(start);
    let mut layer = vec![start as u32];
    let mut count = 1u64;
    while !layer.is_empty() {
        progress("reachable", count, space.total);
        let next = gather(layer.par_iter().fold(Vec::new, |mut out, &s| {
            for_each_child(space, &space.key(u64::from(s)), |t| {
                if mark(t) {
                    out.push(t as u32);
                }
            });
            out
        }));
        count += next.len() as u64;
        layer = next;
    }
    seen.into_iter().map(AtomicU64::into_inner).collect()
}

/// Counts of values over a set of states.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Distribution {
    /// States won by the side to move.
    pub wins: u64,
    /// States lost by the side to move.
    pub losses: u64,
    /// Drawn states.
    pub draws: u64,
    /// The longest forced win, in plies.
    pub longest_win: u32,
    /// The longest forced loss, in plies.
    pub longest_loss: u32,
    /// Decisive states by plies to the end (index 0: games over).
    pub by_distance: Vec<u64>,
}

impl Distribution {
    fn add(&mut self, v: Value) {
        if let Value::Win(d) | Value::Loss(d) = v {
            let d = d as usize;
            if self.by_distance.len() <= d {
                self.by_distance.resize(d + 1, 0);
            }
            self.by_distance[d] += 1;
        }
        match v {
            Value::Win(d) => {
                self.wins += 1;
                self.longest_win = self.longest_win.max(d);
            }
            Value::Loss(d) => {
                self.losses += 1;
                self.longest_loss = self.longest_loss.max(d);
            }
            Value::Draw => self.draws += 1,
        }
    }

    fn line(&self, what: &str) -> String {
        let total = (self.wins + self.losses + self.draws).max(1) as f64;
        let pct = |x: u64| 100.0 * x as f64 / total;
        format!(
            "{what}: {} won ({:.2}%), {} lost ({:.2}%), {} drawn ({:.2}%); longest win {} plies, longest loss {} plies",
            self.wins,
            pct(self.wins),
            self.losses,
            pct(self.losses),
            self.draws,
            pct(self.draws),
            self.longest_win,
            self.longest_loss
        )
    }

    fn distances(&self, what: &str) -> String {
        let counts: Vec<String> = self
            .by_distance
            .iter()
            .enumerate()
            .map(|(d, n)| format!("{d}:{n}"))
            .collect();
        format!("{what} by plies to the end: {}", counts.join(" "))
    }
}

/// The solved game: the value of every state.
pub struct SolvedTable {
    space: StateSpace,
    entries: Vec<u8>,
}

impl SolvedTable {
    /// Solves the game on the current rayon pool, returning the table and a
    /// summary (state counts, value distributions).
    pub fn solve(progress: Progress) -> Result<(SolvedTable, Vec<String>), String> {
        let space = StateSpace::new();
        let entries = retrograde(&space, progress)?;
        let seen = reachable(&space, progress);
        let canonical: u64 = (0..space.total)
            .into_par_iter()
            .filter(|&s| space.is_canonical(s))
            .count() as u64;
        let table = SolvedTable { space, entries };
        let (mut all, mut reach) = (Distribution::default(), Distribution::default());
        for s in 0..table.space.total {
            let v = Value::from_entry(table.entries[s as usize]);
            if table.space.is_canonical(s) {
                all.add(v);
            }
            if seen[(s / 64) as usize] >> (s % 64) & 1 == 1 {
                reach.add(v);
            }
        }
        let start = table.value(&Aporia::start());
        let summary = vec![
            format!(
                "boards {} ({} up to symmetry)",
                super::states::BOARDS,
                table.space.boards.len()
            ),
            format!(
                "states: {} raw, {} canonical, {} reachable from the start; {} table entries",
                table.space.raw_count(),
                canonical,
                reach.wins + reach.losses + reach.draws,
                table.space.total
            ),
            all.line("canonical states"),
            reach.line("reachable states"),
            reach.distances("reachable decisive states"),
            format!("start position: {start}"),
        ];
        Ok((table, summary))
    }

    /// Loads a table written by [`SolvedTable::save`], checking it.
    pub fn load(path: &Path) -> Result<SolvedTable, String> {
        let space = StateSpace::new();
        let entries = tablebase::read(path, Aporia::ID, space.total as usize)?;
        Ok(SolvedTable { space, entries })
    }

    /// Loads the table from its default location
    /// ([`tablebase::default_path`]); `None` when no table is there.
    #[must_use]
    pub fn load_default() -> Option<Result<SolvedTable, String>> {
        let path = tablebase::default_path(Aporia::ID).filter(|p| p.exists())?;
        Some(SolvedTable::load(&path))
    }

    /// Writes the table to `path`.
    pub fn save(&self, path: &Path) -> Result<(), String> {
        tablebase::write(path, Aporia::ID, &self.entries)
    }

    /// The table entries, one per state.
    #[must_use]
    pub fn entries(&self) -> &[u8] {
        &self.entries
    }

    /// The state space the entries are numbered in.
    #[must_use]
    pub fn space(&self) -> &StateSpace {
        &self.space
    }

    /// The value of `pos` for its side to move.
    #[must_use]
    pub fn value(&self, pos: &Aporia) -> Value {
        let s = self.space.index(&Key::of(pos));
        Value::from_entry(self.entries[s as usize])
    }

    /// Every legal move of `pos` with its value for the mover.
    #[must_use]
    pub fn move_values(&self, pos: &Aporia) -> Vec<(Move, Value)> {
        let mut out = Vec::new();
        pos.for_each_move(|m| out.push((m, self.value(&pos.play(m)).before_move())));
        out
    }

    /// Every legal move of `pos` that keeps its value.
    #[must_use]
    pub fn best_moves(&self, pos: &Aporia) -> Vec<Move> {
        let value = self.value(pos);
        self.move_values(pos)
            .into_iter()
            .filter(|&(_, v)| v == value)
            .map(|(m, _)| m)
            .collect()
    }
}

/// Aporia's entry in the tablebase registry.
pub struct AporiaTablebase;

impl Tablebase for AporiaTablebase {
    fn game(&self) -> &'static str {
        Aporia::ID
    }

    fn solve(&self, threads: usize, progress: Progress) -> Result<Solution, String> {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .map_err(|e| format!("cannot start {threads} threads: {e}"))?;
        let (table, summary) = pool.install(|| SolvedTable::solve(progress))?;
        Ok(Solution {
            entries: table.entries,
            summary,
        })
    }

    fn open(&self, path: &Path) -> Result<Box<dyn Oracle>, String> {
        Ok(Box::new(SolvedTable::load(path)?))
    }
}

impl Oracle for SolvedTable {
    fn probe(&self, position: &str) -> Result<Probe, String> {
        let pos = Aporia::parse(position).map_err(|e| e.to_string())?;
        let mut best: Vec<String> = self.best_moves(&pos).iter().map(Move::to_string).collect();
        best.sort();
        Ok(Probe {
            value: self.value(&pos),
            best,
        })
    }

    /// The state number: the position reduced to what its future depends
    /// on, the smallest under the board's eight symmetries (the side to
    /// move plays either colour, so it is not part of the state).
    fn state(&self, position: &str) -> Result<Option<u64>, String> {
        let pos = Aporia::parse(position).map_err(|e| e.to_string())?;
        Ok(Some(self.space.index(&Key::of(&pos))))
    }
}
