//! The root of a simultaneous-move search: the matrix game of the root's
//! joint actions, solved by the double oracle with each batch of entries
//! it asks for searched by all threads at once.

use super::alphabeta::{matrix_start, Worker};
use super::matrix::{solve_lazy, LazyGame, LazyOutcome, LazySolution};
use super::{Config, Shared};
use gamut_core::evaluate::Evaluate;
use gamut_core::game::{NodeRules, Player};
use rayon::prelude::*;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering::Relaxed};

/// The search threads of a simultaneous root, each with its own worker, and
/// the pool they run on (built once per search).
pub struct RootSolver<'a, G: Evaluate> {
    workers: Vec<Worker<'a, G>>,
    pool: Option<rayon::ThreadPool>,
}

impl<'a, G: Evaluate> RootSolver<'a, G> {
    /// `config.threads` workers on the shared table and clock.
    pub fn new(shared: &'a Shared<'a>, config: &'a Config) -> Self {
        let threads = config.threads.max(1);
        RootSolver {
            workers: (0..threads).map(|_| Worker::new(shared, config)).collect(),
            pool: (threads > 1).then(|| {
                rayon::ThreadPoolBuilder::new()
                    .num_threads(threads)
                    .build()
                    .expect("a rayon pool of the requested size")
            }),
        }
    }

    /// Solves the matrix game of simultaneous node `pos` with every entry
    /// searched `depth` deep: the exact solution (`None` if the search was
    /// stopped) and both players' actions.
    pub fn solve(&mut self, pos: &G, depth: i32) -> (Option<LazySolution>, [Vec<G::Move>; 2]) {
        let mut rows = Vec::new();
        let mut cols = Vec::new();
        pos.actions(Player::FIRST, &mut rows);
        pos.actions(Player::SECOND, &mut cols);
        assert!(
            !rows.is_empty() && !cols.is_empty(),
            "both players need actions"
        );
        let key = pos.hash();
        let seed = self.workers[0].shared().tt.probe(key);
        let game = LazyGame {
            start: matrix_start(seed.and_then(|e| e.move_index), rows.len(), cols.len()),
            full: self.workers[0].config().full_matrix,
            ..LazyGame::new(rows.len(), cols.len())
        };
        let outcome = solve_lazy(&game, |cells| self.cells(pos, &rows, &cols, cells, depth));
        for w in &mut self.workers {
            w.flush_nodes();
        }
        let solution = match outcome {
            Some(o) => {
                self.workers[0].store_matrix(key, depth, 0, &game, &o);
                match o {
                    LazyOutcome::Solved(s) => {
                        for w in &mut self.workers {
                            w.rank_root_actions(&s, &rows, &cols);
                        }
                        Some(s)
                    }
                    _ => unreachable!("a full window always solves"),
                }
            }
            None => None,
        };
        (solution, [rows, cols])
    }

    /// The values of joint actions `cells` (indices into `rows` and `cols`),
    /// shared out among the threads one at a time; `None` if stopped.
    fn cells(
        &mut self,
        pos: &G,
        rows: &[G::Move],
        cols: &[G::Move],
        cells: &[(usize, usize)],
        depth: i32,
    ) -> Option<Vec<f64>> {
        let Some(pool) = self.pool.as_ref().filter(|_| cells.len() > 1) else {
            let w = &mut self.workers[0];
            return cells
                .iter()
                .map(|&(i, j)| w.cell(pos, rows[i], cols[j], depth, 0))
                .collect();
        };
        let next = AtomicUsize::new(0);
        let values: Vec<AtomicU64> = cells.iter().map(|_| AtomicU64::new(0)).collect();
        pool.install(|| {
            self.workers.par_iter_mut().for_each(|w| loop {
                let k = next.fetch_add(1, Relaxed);
                let Some(&(i, j)) = cells.get(k) else {
                    break;
                };
                match w.cell(pos, rows[i], cols[j], depth, 0) {
                    Some(v) => values[k].store(v.to_bits(), Relaxed),
                    None => break,
                }
            })
        });
        if self.workers[0].stopped() {
            return None;
        }
        Some(
            values
                .iter()
                .map(|v| f64::from_bits(v.load(Relaxed)))
                .collect(),
        )
    }

    /// Entries of all matrix games solved so far, and how many of them
    /// were searched, over all threads.
    #[must_use]
    pub fn matrix_counts(&self) -> (u64, u64) {
        self.workers.iter().fold((0, 0), |(e, v), w| {
            (e + w.matrix_entries, v + w.matrix_evaluated)
        })
    }
}
