//! The search's tunable parameters, in one place: aspiration windows, the
//! late-move reduction table, null-move reductions, futility margins, move
//! ordering keys, how often a thread checks the limits, Monte Carlo tree
//! search's constants, the default table sizes, and which selective
//! features a search uses ([`Selective`]).
//!
//! Margins are in evaluation points (a stone or piece is worth about 100 in
//! the games that count material).

/// First half-width of an aspiration window; doubled at each fail.
pub const ASPIRATION_DELTA: i32 = 40;
/// The first iteration searched with an aspiration window.
pub const ASPIRATION_MIN_DEPTH: u32 = 4;

/// Late-move reductions apply from this depth (plies left) on.
pub const LMR_MIN_DEPTH: i32 = 3;
/// Moves searched at full depth before any is reduced.
pub const LMR_FULL_MOVES: usize = 3;
/// The reduction is `LMR_BASE + ln(depth) · ln(move number) / LMR_DIVISOR`.
pub const LMR_BASE: f64 = 0.5;
/// See [`LMR_BASE`].
pub const LMR_DIVISOR: f64 = 2.5;
/// Rows and columns of the reduction table (depths and move numbers past
/// it use its last row or column).
pub const LMR_TABLE: usize = 64;

/// Null-move pruning applies from this depth on.
pub const NMP_MIN_DEPTH: i32 = 3;
/// The null move's reduction is `NMP_BASE + depth / NMP_DEPTH_DIVISOR`.
pub const NMP_BASE: i32 = 2;
/// See [`NMP_BASE`].
pub const NMP_DEPTH_DIVISOR: i32 = 4;
/// From this depth on, a null-move cutoff is confirmed by a reduced search
/// of the real moves with null moves off (against zugzwang).
pub const NMP_VERIFY_DEPTH: i32 = 8;

/// Reverse futility pruning applies up to this depth.
pub const RFP_MAX_DEPTH: i32 = 4;
/// A node whose static value beats beta by this much per ply left fails
/// high without a search.
pub const RFP_MARGIN: i32 = 90;

/// Futility pruning applies up to this depth.
pub const FUTILITY_MAX_DEPTH: i32 = 3;
/// Quiet moves are skipped where the static value plus this much per ply
/// left does not reach alpha.
pub const FUTILITY_MARGIN: i32 = 110;

/// Ordering keys (larger is searched first): the table's move.
pub const TT_MOVE_KEY: i64 = 1 << 40;
/// Base key of a move with a positive hint (plus the hint, scaled).
pub const CAPTURE_KEY: i64 = 1 << 36;
/// Key of a killer move.
pub const KILLER_KEY: i64 = 1 << 32;
/// A history score past this halves every history score.
pub const HISTORY_MAX: i32 = 1 << 24;

/// Nodes a search thread visits between two reports to the shared count
/// (and checks of the limits): often enough for games whose nodes are
/// costly (a Spokes node may resolve a hundred boards) to stop within a few
/// milliseconds.
pub const NODES_PER_CHECK: u64 = 256;

/// The transposition table of a search a user starts (`analyze`, `bench`,
/// the engine protocol), in MiB.
pub const DEFAULT_HASH_MIB: usize = 64;
/// The table of each engine of a tournament, in MiB: several games run at
/// once.
pub const TOURNAMENT_HASH_MIB: usize = 16;
/// The table of the shallow searches of `openings`, in MiB.
pub const OPENINGS_HASH_MIB: usize = 16;

/// Lines a search reports by default (MultiPV): the best move's only.
pub const DEFAULT_MULTIPV: usize = 1;
/// The most lines a search may be asked for.
pub const MAX_MULTIPV: usize = 256;

/// Monte Carlo tree search: the evaluation difference that multiplies a
/// side's share of a leaf's reward by e.
pub const MCTS_SCALE: f64 = 150.0;
/// Monte Carlo tree search: UCB1's exploration constant at decision nodes
/// (rewards in [0, 1]).
pub const MCTS_UCB: f64 = 0.7;
/// Monte Carlo tree search: nodes the tree may hold; beyond, iterations
/// stop at the leaves.
pub const MCTS_MAX_NODES: usize = 400_000;
/// Monte Carlo tree search: the weight of uniform exploration mixed into
/// each strategy, by default.
pub const MCTS_EXPLORATION: f64 = 0.1;

/// With [`Selective::partial`], a listing of moves that is a search of its
/// own (a Spokes resolution) below the root ends with the moves found once
/// it has visited this many boards.
pub const PARTIAL_LISTING_WORK: usize = 100;

/// With [`Selective::partial`], a listing of moves below the root that
/// needs more than this much work (boards a Spokes resolution visits
/// without finding an outcome) gives up: the node is valued statically.
pub const GIVE_UP_LISTING_WORK: usize = 1_000;

/// With [`Selective::narrow`], each player's actions kept at a simultaneous
/// node below the root.
pub const SIMULTANEOUS_WIDTH: usize = 16;

/// Games of more than two players: actions kept per player where several
/// players choose together (a coalition or a team) in the paranoid search.
pub const COALITION_WIDTH: usize = 8;

/// Of the [`SIMULTANEOUS_WIDTH`] actions kept, how many go to the actions
/// with the largest action hint rather than the best root ranks.
pub const URGENT_WIDTH: usize = 6;

/// Under a game clock without a moves-to-go count, the time left is shared
/// as if this many moves were still to play.
pub const CLOCK_MOVES_LEFT: u32 = 30;
/// The share of the increment a move under a clock may spend on top.
pub const CLOCK_INCREMENT_SHARE: f64 = 0.75;
/// A hard budget is this many soft budgets ...
pub const CLOCK_HARD_FACTOR: u32 = 4;
/// ... and never more than this share of the time left.
pub const CLOCK_HARD_SHARE: f64 = 0.5;
/// Under a clock, once the best move has stayed the same for this many
/// completed iterations in a row ...
pub const TM_STABLE_ITERATIONS: u32 = 3;
/// ... the soft budget shrinks to this share of itself: the time saved is
/// left on the clock for the moves where the search hesitates.
pub const TM_STABLE_SCALE: f64 = 0.5;
/// Under a clock, an iteration whose best move changed stretches the soft
/// budget by this factor.
pub const TM_UNSTABLE_SCALE: f64 = 1.3;
/// Under a clock, a best score this much below the last iteration's ...
pub const TM_DROP_MARGIN: i32 = 30;
/// ... stretches the soft budget by this factor (the hard limit holds).
pub const TM_DROP_SCALE: f64 = 1.6;
/// Time kept back from every clock for the process's own overhead.
pub const CLOCK_MARGIN: std::time::Duration = std::time::Duration::from_millis(20);

pub use gamut_core::game::Selective;

/// The late-move reduction of the `n`th move (from 0) at `depth` plies
/// left, before the checks that keep it inside the tree.
#[must_use]
pub fn lmr_reduction(depth: i32, n: usize) -> i32 {
    if depth < 1 || n < 1 {
        return 0;
    }
    let d = f64::from(depth).ln();
    let m = (n as f64 + 1.0).ln();
    (LMR_BASE + d * m / LMR_DIVISOR).max(0.0) as i32
}

/// [`lmr_reduction`] for every depth and move number below [`LMR_TABLE`].
#[must_use]
pub fn lmr_table() -> Vec<[u8; LMR_TABLE]> {
    (0..LMR_TABLE)
        .map(|d| {
            let mut row = [0u8; LMR_TABLE];
            for (n, r) in row.iter_mut().enumerate() {
                *r = lmr_reduction(d as i32, n).clamp(0, 255) as u8;
            }
            row
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reductions_grow_with_depth_and_move_number() {
        assert_eq!(lmr_reduction(1, 10), 0);
        assert_eq!(lmr_reduction(8, 0), 0);
        assert!(lmr_reduction(3, 3) >= 1);
        let t = lmr_table();
        for d in 1..LMR_TABLE {
            for n in 1..LMR_TABLE {
                assert!(t[d][n] >= t[d - 1][n] && t[d][n] >= t[d][n - 1]);
            }
        }
        assert!(t[30][40] > t[3][3]);
    }

    #[test]
    fn every_name_has_a_switch() {
        let mut s = Selective::NONE;
        for name in Selective::NAMES {
            *s.switch(name).unwrap() = true;
        }
        assert_eq!(s, Selective::ALL);
        assert!(s.switch("nope").is_none());
    }
}
