//! The search's parameters, in one place. Those that shape the alpha-beta
//! search (aspiration windows, late-move reductions, null-move reductions,
//! futility margins) are [`Tunables`], a value carried in every
//! [`Config`](crate::Config) and set at run time, each with its range and
//! SPSA step in [`TUNABLES`]; the rest are constants: move ordering keys,
//! how often a thread checks the limits, Monte Carlo tree search's
//! constants, the default table sizes, the clock's shares, and which
//! selective features a search uses ([`Selective`]).
//!
//! Margins are in evaluation points (a stone or piece is worth about 100 in
//! the games that count material); a game states its own, in its own
//! units, among its search defaults ([`game_defaults`]).

use gamut_core::evaluate::Evaluate;

/// Rows and columns of the late-move reduction table (depths and move
/// numbers past it use its last row or column).
pub const LMR_TABLE: usize = 64;

/// One tunable parameter of the search, as `gamut params` lists it and
/// `gamut tune` moves it: a whole number from `min` to `max`.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Tunable {
    /// Its name in `--param`, engine specs (`param.<name>=`) and the
    /// protocol's `setoption`.
    pub name: &'static str,
    /// The value every search uses unless told otherwise.
    pub default: i32,
    /// The smallest value allowed.
    pub min: i32,
    /// The largest value allowed.
    pub max: i32,
    /// SPSA's perturbation at the last iteration of a tuning run
    /// (OpenBench's `c_end`), in the parameter's own units.
    pub step: f64,
    /// What it does, in one line.
    pub help: &'static str,
}

/// Declares the tunable parameters once: the fields of [`Tunables`], its
/// defaults and the table [`TUNABLES`] of names, ranges and steps.
macro_rules! tunables {
    ($($(#[doc = $doc:literal])+ $name:ident: $default:literal in $min:literal..=$max:literal, step $step:literal;)+) => {
        /// The search's tunable parameters, read by every search thread (a
        /// copy in each) and set at run time by `--param`, an engine
        /// spec's `param.<name>=` or the protocol's `setoption`. Margins
        /// are in evaluation points (a stone or piece is worth about 100
        /// in the games that count material).
        #[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
        pub struct Tunables {
            $($(#[doc = $doc])+ pub $name: i32,)+
        }

        impl Tunables {
            /// Every parameter at its default.
            pub const DEFAULT: Tunables = Tunables { $($name: $default,)+ };

            /// The parameter called `name`, to read or write.
            fn slot(&mut self, name: &str) -> Option<&mut i32> {
                match name {
                    $(stringify!($name) => Some(&mut self.$name),)+
                    _ => None,
                }
            }
        }

        /// Every tunable parameter, in the order `gamut params` lists them.
        pub const TUNABLES: &[Tunable] = &[$(Tunable {
            name: stringify!($name),
            default: $default,
            min: $min,
            max: $max,
            step: $step,
            help: concat!($($doc),+),
        },)+];
    };
}

tunables! {
    /// First half-width of an aspiration window; doubled at each fail.
    aspiration_delta: 40 in 5..=400, step 5.0;
    /// The first iteration searched with an aspiration window.
    aspiration_min_depth: 4 in 1..=12, step 1.0;
    /// Late-move reductions apply from this depth (plies left) on.
    lmr_min_depth: 3 in 2..=8, step 1.0;
    /// Moves searched at full depth before any is reduced.
    lmr_full_moves: 3 in 1..=16, step 1.0;
    /// The reduction is `lmr_base + ln(depth) ln(move number) / lmr_divisor`, both in hundredths.
    lmr_base: 50 in 0..=300, step 10.0;
    /// See `lmr_base` (hundredths).
    lmr_divisor: 250 in 100..=800, step 20.0;
    /// Null-move pruning applies from this depth on.
    nmp_min_depth: 3 in 1..=8, step 1.0;
    /// The null move's reduction is `nmp_base + depth / nmp_depth_divisor`.
    nmp_base: 2 in 1..=6, step 1.0;
    /// See `nmp_base`.
    nmp_depth_divisor: 4 in 1..=12, step 1.0;
    /// From this depth on, a null-move cutoff is confirmed by a reduced search of the real moves with null moves off (against zugzwang).
    nmp_verify_depth: 8 in 2..=64, step 2.0;
    /// Reverse futility pruning applies up to this depth.
    rfp_max_depth: 4 in 0..=12, step 1.0;
    /// A node whose static value beats beta by this much per ply left fails high without a search.
    rfp_margin: 90 in 5..=5000, step 10.0;
    /// Futility pruning applies up to this depth.
    futility_max_depth: 3 in 0..=12, step 1.0;
    /// Quiet moves are skipped where the static value plus this much per ply left does not reach alpha.
    futility_margin: 110 in 5..=5000, step 10.0;
}

impl Default for Tunables {
    fn default() -> Tunables {
        Tunables::DEFAULT
    }
}

impl Tunables {
    /// The table entry of parameter `name`, if there is one.
    #[must_use]
    pub fn spec(name: &str) -> Option<&'static Tunable> {
        TUNABLES.iter().find(|t| t.name == name)
    }

    /// The value of parameter `name`, if there is one.
    #[must_use]
    pub fn get(&self, name: &str) -> Option<i32> {
        let mut copy = *self;
        copy.slot(name).map(|v| *v)
    }

    /// Sets parameter `name` to `value`; an error, in one line, for a name
    /// it does not know or a value out of the parameter's range.
    pub fn set(&mut self, name: &str, value: i32) -> Result<(), String> {
        let t = Tunable::named(name)?;
        if !(t.min..=t.max).contains(&value) {
            return Err(t.range_error(&value.to_string()));
        }
        *self
            .slot(name)
            .expect("every parameter of the table has a field") = value;
        Ok(())
    }

    /// The late-move reduction of the `n`th move (from 0) at `depth` plies
    /// left, before the checks that keep it inside the tree.
    #[must_use]
    pub fn lmr_reduction(&self, depth: i32, n: usize) -> i32 {
        if depth < 1 || n < 1 {
            return 0;
        }
        let d = f64::from(depth).ln();
        let m = (n as f64 + 1.0).ln();
        let base = f64::from(self.lmr_base) / 100.0;
        let divisor = f64::from(self.lmr_divisor) / 100.0;
        (base + d * m / divisor).max(0.0) as i32
    }

    /// [`lmr_reduction`](Self::lmr_reduction) for every depth and move
    /// number below [`LMR_TABLE`].
    #[must_use]
    pub fn lmr_table(&self) -> Vec<[u8; LMR_TABLE]> {
        (0..LMR_TABLE)
            .map(|d| {
                let mut row = [0u8; LMR_TABLE];
                for (n, r) in row.iter_mut().enumerate() {
                    *r = self.lmr_reduction(d as i32, n).clamp(0, 255) as u8;
                }
                row
            })
            .collect()
    }
}

impl Tunable {
    /// The parameter called `name`, or an error naming the known ones.
    pub fn named(name: &str) -> Result<&'static Tunable, String> {
        Tunables::spec(name).ok_or_else(|| {
            let names: Vec<&str> = TUNABLES.iter().map(|t| t.name).collect();
            format!("unknown parameter '{name}' ({})", names.join(", "))
        })
    }

    /// The error for `value`, out of this parameter's range or not a
    /// number.
    fn range_error(&self, value: &str) -> String {
        format!(
            "{} takes a whole number from {} to {}, not '{value}'",
            self.name, self.min, self.max
        )
    }

    /// `value` read as this parameter's value, or why not.
    pub fn parse(&self, value: &str) -> Result<i32, String> {
        value
            .trim()
            .parse::<i32>()
            .ok()
            .filter(|v| (self.min..=self.max).contains(v))
            .ok_or_else(|| self.range_error(value))
    }

    /// Its line in `gamut params`: name, default, min, max and step.
    #[must_use]
    pub fn line(&self) -> String {
        format!(
            "{} default {} min {} max {} step {}",
            self.name, self.default, self.min, self.max, self.step
        )
    }
}

/// Parses `name=value` into a parameter and its value, or why not.
pub fn parse_setting(text: &str) -> Result<(&'static str, i32), String> {
    let (name, value) = text
        .split_once('=')
        .ok_or_else(|| format!("'{text}' is not NAME=VALUE"))?;
    let t = Tunable::named(name.trim())?;
    Ok((t.name, t.parse(value)?))
}

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

/// The selective (unsound) search features, the searcher's switches; a
/// game names those it plays by default in its
/// [`Evaluate::SEARCH_DEFAULTS`](gamut_core::evaluate::Evaluate::SEARCH_DEFAULTS). Each prunes or reduces moves
/// that plain alpha-beta would search, so a search with any of them on may
/// return another value than minimax at the same depth.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Selective {
    /// Late-move reductions: quiet moves late in the order searched less
    /// deep, and again at full depth only if they beat alpha.
    pub lmr: bool,
    /// Null-move pruning where the game offers a null move
    /// ([`Evaluate::null_move`](gamut_core::evaluate::Evaluate::null_move)).
    pub nmp: bool,
    /// Reverse futility pruning: a node far above beta near the leaves
    /// fails high on its static value.
    pub rfp: bool,
    /// Futility pruning: quiet moves near the leaves skipped where even a
    /// margin above the static value cannot reach alpha.
    pub futility: bool,
    /// Partial move lists: below the root, a move listing that is a search
    /// of its own ends with the moves found after
    /// [`PARTIAL_LISTING_WORK`](PARTIAL_LISTING_WORK) units of work, and gives up (a leaf) after
    /// [`GIVE_UP_LISTING_WORK`](GIVE_UP_LISTING_WORK).
    pub partial: bool,
    /// Narrow matrix games: below a simultaneous root, each player at a
    /// simultaneous node keeps [`SIMULTANEOUS_WIDTH`](SIMULTANEOUS_WIDTH) actions: those that
    /// did best at the root in the last completed iteration, and
    /// [`URGENT_WIDTH`](URGENT_WIDTH) of them with the largest action hints.
    pub narrow: bool,
}

impl Selective {
    /// Every selective feature off: the search returns minimax values.
    pub const NONE: Selective = Selective {
        lmr: false,
        nmp: false,
        rfp: false,
        futility: false,
        partial: false,
        narrow: false,
    };

    /// Every selective feature on.
    pub const ALL: Selective = Selective {
        lmr: true,
        nmp: true,
        rfp: true,
        futility: true,
        partial: true,
        narrow: true,
    };

    /// The features' names, as options and engine specs spell them.
    pub const NAMES: [&'static str; 6] = ["lmr", "nmp", "rfp", "futility", "partial", "narrow"];

    /// The switch of the feature called `name` (one of [`Self::NAMES`]).
    pub fn switch(&mut self, name: &str) -> Option<&mut bool> {
        match name {
            "lmr" => Some(&mut self.lmr),
            "nmp" => Some(&mut self.nmp),
            "rfp" => Some(&mut self.rfp),
            "futility" => Some(&mut self.futility),
            "partial" => Some(&mut self.partial),
            "narrow" => Some(&mut self.narrow),
            _ => None,
        }
    }
}

/// What game `G` searches with by default: no selective feature and every
/// parameter at its default, then the game's
/// [`SEARCH_DEFAULTS`](Evaluate::SEARCH_DEFAULTS) over them, each a
/// feature's name (on; `=off` for off) or `param.<name>=<value>`.
///
/// # Panics
///
/// If the game names a setting this searcher does not know, or a value out
/// of its range: a mistake in the game's folder, which every search of the
/// game meets (the engine's tests start one in every game).
#[must_use]
pub fn game_defaults<G: Evaluate>() -> (Selective, Tunables) {
    let mut selective = Selective::NONE;
    let mut tunables = Tunables::DEFAULT;
    for item in G::SEARCH_DEFAULTS {
        let set = if let Some(setting) = item.strip_prefix("param.") {
            parse_setting(setting).and_then(|(name, value)| tunables.set(name, value))
        } else {
            let (name, on) = item
                .strip_suffix("=off")
                .map_or((*item, true), |name| (name, false));
            selective
                .switch(name)
                .map(|switch| *switch = on)
                .ok_or_else(|| format!("no selective feature is called '{name}'"))
        };
        if let Err(e) = set {
            panic!("{}'s search default '{item}': {e}", G::ID);
        }
    }
    (selective, tunables)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reductions_grow_with_depth_and_move_number() {
        let p = Tunables::DEFAULT;
        assert_eq!(p.lmr_reduction(1, 10), 0);
        assert_eq!(p.lmr_reduction(8, 0), 0);
        assert!(p.lmr_reduction(3, 3) >= 1);
        let t = p.lmr_table();
        for d in 1..LMR_TABLE {
            for n in 1..LMR_TABLE {
                assert!(t[d][n] >= t[d - 1][n] && t[d][n] >= t[d][n - 1]);
            }
        }
        assert!(t[30][40] > t[3][3]);
    }

    #[test]
    fn defaults_are_in_range_and_names_set_their_fields() {
        let mut p = Tunables::DEFAULT;
        for t in TUNABLES {
            assert!(t.min <= t.default && t.default <= t.max, "{}", t.name);
            assert!(t.step > 0.0, "{}", t.name);
            assert_eq!(p.get(t.name), Some(t.default));
            p.set(t.name, t.max).unwrap();
            assert_eq!(p.get(t.name), Some(t.max));
            assert!(p.set(t.name, t.max + 1).is_err());
        }
        assert_ne!(p, Tunables::DEFAULT);
        assert_eq!(parse_setting("rfp_margin=120"), Ok(("rfp_margin", 120)));
        assert!(parse_setting("rfp_margin=1e9").is_err());
        assert!(parse_setting("nope=1").is_err());
        assert!(parse_setting("rfp_margin").is_err());
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
