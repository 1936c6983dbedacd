//! Move ordering: the table's move first, then captures (largest first),
//! killer moves, and the history heuristic.

use std::hash::{Hash, Hasher};

/// Which ordering heuristics are on (all by default; switched off one at a
/// time to measure what each buys).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Ordering {
    /// Try the transposition table's move first.
    pub tt_move: bool,
    /// Try moves with a positive hint (captures) next, largest first.
    pub captures: bool,
    /// Try the two quiet moves that last cut off at this ply next.
    pub killers: bool,
    /// Order the remaining quiet moves by how often they cut off before.
    pub history: bool,
}

impl Default for Ordering {
    fn default() -> Self {
        Ordering {
            tt_move: true,
            captures: true,
            killers: true,
            history: true,
        }
    }
}

impl Ordering {
    /// Every heuristic on except those of `list` (comma-separated: `tt`,
    /// `captures`, `killers`, `history`).
    pub fn without(list: &str) -> Result<Ordering, gamut_core::game::ParseError> {
        let mut o = Ordering::default();
        for name in list.split(',') {
            match name {
                "tt" => o.tt_move = false,
                "captures" => o.captures = false,
                "killers" => o.killers = false,
                "history" => o.history = false,
                _ => {
                    return Err(gamut_core::game::ParseError::new(format!(
                        "unknown ordering heuristic '{name}' (tt, captures, killers, history)"
                    )))
                }
            }
        }
        Ok(o)
    }
}

const HISTORY_SLOTS: usize = 1 << 14;

/// Killer moves per ply and history counters per (player, move hash).
pub struct Heuristics<M> {
    killers: Vec<[Option<M>; 2]>,
    history: Vec<i32>,
}

/// The slot of a move in the history table.
fn slot<M: Hash>(player: usize, m: &M) -> usize {
    let mut h = rustc_hash::FxHasher::default();
    m.hash(&mut h);
    (h.finish() as usize & (HISTORY_SLOTS - 1)) | (player * HISTORY_SLOTS)
}

impl<M: Copy + Eq + Hash> Heuristics<M> {
    /// Empty tables.
    #[must_use]
    pub fn new() -> Self {
        Heuristics {
            killers: Vec::new(),
            history: vec![0; 2 * HISTORY_SLOTS],
        }
    }

    /// Whether `m` is a killer at `ply`.
    pub fn is_killer(&self, ply: usize, m: M) -> bool {
        self.killers
            .get(ply)
            .is_some_and(|k| k[0] == Some(m) || k[1] == Some(m))
    }

    /// The history score of `m` for `player` (0 or 1).
    pub fn history(&self, player: usize, m: &M) -> i32 {
        self.history[slot(player, m)]
    }

    /// Records that quiet move `m` cut off at `ply` with `depth` plies left.
    pub fn cutoff(&mut self, ply: usize, player: usize, m: M, depth: u32) {
        if self.killers.len() <= ply {
            self.killers.resize(ply + 1, [None, None]);
        }
        let k = &mut self.killers[ply];
        if k[0] != Some(m) {
            k[1] = k[0];
            k[0] = Some(m);
        }
        self.credit(player, m, depth * depth);
    }

    /// Adds `amount` to the history score of `m` for `player`.
    pub fn credit(&mut self, player: usize, m: M, amount: u32) {
        let h = &mut self.history[slot(player, &m)];
        *h += amount as i32;
        if *h > super::params::HISTORY_MAX {
            for v in &mut self.history {
                *v /= 2;
            }
        }
    }
}

impl<M: Copy + Eq + Hash> Default for Heuristics<M> {
    fn default() -> Self {
        Self::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn killers_keep_the_two_latest_distinct_cutoffs() {
        let mut h = Heuristics::<u32>::new();
        h.cutoff(3, 0, 7, 2);
        h.cutoff(3, 0, 7, 2);
        h.cutoff(3, 0, 8, 2);
        assert!(h.is_killer(3, 7) && h.is_killer(3, 8));
        h.cutoff(3, 0, 9, 2);
        assert!(!h.is_killer(3, 7) && h.is_killer(3, 9));
        assert!(!h.is_killer(2, 9));
        assert_eq!(h.history(0, &9), 4);
        assert_eq!(h.history(1, &9), 0);
    }
}
