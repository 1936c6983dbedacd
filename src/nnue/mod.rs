//! Learned evaluation (an efficiently updatable network, NNUE): the data
//! self-play writes for training ([`data`]), the quantized network and its
//! file ([`network`]), and inference shared by every game that has one.
//!
//! A game supplies its input features ([`Features`]): which are active in
//! a position seen from either side. The network keeps one accumulator per
//! side (the feature transformer's output, in i16), and evaluates from the
//! side to move's accumulator and the other's.
//!
//! Positions are copy-make and the search generic, so the accumulators do
//! not live in the positions: each thread keeps an [`Evaluator`] holding
//! the accumulators of the last position it evaluated, with that
//! position's active features. The next position is evaluated by
//! subtracting the rows of the features that went and adding those that
//! came: consecutive leaves of a depth-first search are a few moves apart,
//! so that is a few rows, and a full refresh happens only where the
//! difference is larger than the position itself.

pub mod data;
mod kernels;
pub mod network;

use crate::game::{Evaluate, Game, LearnedNetwork, Player, EVAL_LIMIT};
use kernels::{add, sub};
use network::{NetError, Network};
use std::cell::RefCell;
use std::sync::OnceLock;

/// Which static evaluation a search uses.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub enum Eval {
    /// The game's own choice: its network where matches showed it the
    /// stronger ([`Slot::played_by_default`]), else the classic terms.
    #[default]
    Game,
    /// The game's hand-written terms ([`Evaluate::evaluate`]).
    Classic,
    /// The game's network ([`Evaluate::evaluate_net`]).
    Net,
}

impl Eval {
    /// The evaluation that `self` means in game `G`: `Classic` or `Net`.
    #[must_use]
    pub fn resolve<G: Evaluate>(self) -> Eval {
        match self {
            Eval::Game if G::network().is_some_and(|s| s.played_by_default()) => Eval::Net,
            Eval::Game => Eval::Classic,
            e => e,
        }
    }

    /// `game`, `classic` or `net`, as the options name it.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Eval::Game => "game",
            Eval::Classic => "classic",
            Eval::Net => "net",
        }
    }
}

/// The most input features per perspective a game may have.
pub const MAX_INPUTS: usize = 512;

/// A game's input features for a network.
pub trait Features: Game {
    /// Input features per perspective (at most [`MAX_INPUTS`]).
    const INPUTS: usize;

    /// Writes into `out` (cleared first) the features active in this
    /// position seen from side `view`: `view`'s own pieces first, each
    /// square as `view` sees the board.
    fn features(&self, view: Player, out: &mut Vec<u16>);

    /// The same features as a set: by default from [`Features::features`]
    /// written into `scratch`; games whose features are bitboards build
    /// the set from their words directly, which is what inference calls
    /// at every evaluation.
    fn feature_set(&self, view: Player, scratch: &mut Vec<u16>) -> FeatureSet {
        self.features(view, scratch);
        FeatureSet::from_list(scratch)
    }

    /// Where feature `f` goes when the board is mirrored by a symmetry of
    /// the rules (one that maps every position to one of equal value), if
    /// the game has one: the trainer learns each position and its mirror
    /// image.
    const MIRROR: Option<fn(u16) -> u16> = None;
}

/// A set of active features: feature `f` is bit `f % 64` of word `f / 64`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct FeatureSet([u64; MAX_INPUTS / 64]);

impl FeatureSet {
    const EMPTY: FeatureSet = FeatureSet([0; MAX_INPUTS / 64]);

    /// The set whose word `i` is `words[i]` (features `64 i` to `64 i + 63`).
    #[must_use]
    pub const fn from_words(words: [u64; MAX_INPUTS / 64]) -> FeatureSet {
        FeatureSet(words)
    }

    /// The set of the features in `list`.
    #[must_use]
    pub fn from_list(list: &[u16]) -> FeatureSet {
        let mut s = FeatureSet::EMPTY;
        for &f in list {
            s.0[f as usize / 64] |= 1 << (f % 64);
        }
        s
    }

    /// The features of `self` not in `other`.
    fn minus(&self, other: &FeatureSet) -> impl Iterator<Item = u16> + '_ {
        let other = other.0;
        self.0.iter().enumerate().flat_map(move |(i, &w)| {
            let mut bits = w & !other[i];
            std::iter::from_fn(move || {
                (bits != 0).then(|| {
                    let b = bits.trailing_zeros();
                    bits &= bits - 1;
                    (i * 64) as u16 + b as u16
                })
            })
        })
    }

    /// The features in the set, in increasing order.
    pub fn iter(&self) -> impl Iterator<Item = u16> + '_ {
        self.minus(&FeatureSet::EMPTY)
    }

    fn count(&self) -> u32 {
        self.0.iter().map(|w| w.count_ones()).sum()
    }

    /// How many features are in exactly one of the two sets.
    fn changes(&self, other: &FeatureSet) -> u32 {
        self.0
            .iter()
            .zip(&other.0)
            .map(|(a, b)| (a ^ b).count_ones())
            .sum()
    }
}

/// The accumulator of `active` features: the biases plus their rows.
pub fn refresh(net: &Network, active: &[u16], acc: &mut Vec<i16>) {
    refresh_from(net, active.iter().copied(), acc);
}

/// The accumulator of the features `active` yields.
fn refresh_from(net: &Network, active: impl Iterator<Item = u16>, acc: &mut Vec<i16>) {
    acc.clear();
    acc.extend_from_slice(&net.feature_bias);
    for f in active {
        add(acc, net.row(f));
    }
}

/// One thread's incremental evaluation state: the accumulators of the last
/// position evaluated, per side, and its active features.
#[derive(Default)]
pub struct Evaluator {
    /// The network the accumulators belong to (its address).
    net: usize,
    sets: [Option<FeatureSet>; 2],
    acc: [Vec<i16>; 2],
    list: Vec<u16>,
}

impl Evaluator {
    /// `pos`'s value for its side to move by `net`, updating the
    /// accumulators from the last position's.
    pub fn evaluate<G: Features>(&mut self, pos: &G, net: &Network) -> i32 {
        if self.net != net as *const Network as usize {
            *self = Evaluator {
                net: net as *const Network as usize,
                ..Evaluator::default()
            };
        }
        for view in Player::BOTH {
            let v = view.index();
            let now = pos.feature_set(view, &mut self.list);
            match &self.sets[v] {
                Some(before) if before.changes(&now) < now.count() => {
                    for f in before.minus(&now) {
                        sub(&mut self.acc[v], net.row(f));
                    }
                    for f in now.minus(before) {
                        add(&mut self.acc[v], net.row(f));
                    }
                }
                _ => refresh_from(net, now.iter(), &mut self.acc[v]),
            }
            self.sets[v] = Some(now);
        }
        let us = pos.perspective().index();
        net.output(&self.acc[us], &self.acc[us ^ 1])
            .clamp(-EVAL_LIMIT, EVAL_LIMIT)
    }

    /// The accumulators of the last position evaluated, per side.
    #[must_use]
    pub fn accumulators(&self) -> [&[i16]; 2] {
        [&self.acc[0], &self.acc[1]]
    }
}

thread_local! {
    static EVALUATOR: RefCell<Evaluator> = RefCell::new(Evaluator::default());
}

/// `pos`'s value for its side to move by `net`, with this thread's
/// [`Evaluator`].
pub fn evaluate<G: Features>(pos: &G, net: &Network) -> i32 {
    EVALUATOR.with(|e| e.borrow_mut().evaluate(pos, net))
}

/// `pos`'s value by `net` from accumulators refreshed from scratch.
pub fn evaluate_from_scratch<G: Features>(pos: &G, net: &Network) -> i32 {
    let mut list = Vec::new();
    let mut acc = [Vec::new(), Vec::new()];
    for view in Player::BOTH {
        pos.features(view, &mut list);
        refresh(net, &list, &mut acc[view.index()]);
    }
    let us = pos.perspective().index();
    net.output(&acc[us], &acc[us ^ 1])
        .clamp(-EVAL_LIMIT, EVAL_LIMIT)
}

/// The network a game evaluates with: the one built into the binary, or
/// one loaded from a file (`--net`) before the first evaluation.
pub struct Slot {
    game: &'static str,
    inputs: usize,
    embedded: &'static [u8],
    by_default: bool,
    net: OnceLock<Network>,
}

impl Slot {
    /// A slot for `game`'s network of `inputs` features, by default the
    /// file `embedded`.
    #[must_use]
    pub const fn new(game: &'static str, inputs: usize, embedded: &'static [u8]) -> Slot {
        Slot {
            game,
            inputs,
            embedded,
            by_default: false,
            net: OnceLock::new(),
        }
    }

    /// A slot like [`Slot::new`] whose network is the game's default
    /// evaluation ([`Eval::Game`]): for a game whose matches show the
    /// network stronger than the classic terms (docs/results.md).
    #[must_use]
    pub const fn played_by_default(
        game: &'static str,
        inputs: usize,
        embedded: &'static [u8],
    ) -> Slot {
        Slot {
            game,
            inputs,
            embedded,
            by_default: true,
            net: OnceLock::new(),
        }
    }

    /// The network in use.
    pub fn get(&self) -> &Network {
        self.net.get_or_init(|| {
            Network::from_bytes(self.embedded, self.game, self.inputs)
                .expect("the built-in network is well-formed")
        })
    }

    /// Uses the network file `bytes` instead of the built-in one; an error
    /// if it is malformed or another network is in use already.
    pub fn load(&self, bytes: &[u8]) -> Result<(), NetError> {
        self.set(Network::from_bytes(bytes, self.game, self.inputs)?)
    }

    /// Uses `net` instead of the built-in network; an error if another
    /// network is in use already.
    fn set(&self, net: Network) -> Result<(), NetError> {
        let mut given = Some(net);
        let used = self.net.get_or_init(|| given.take().expect("set once"));
        match given {
            Some(n) if n != *used => Err(NetError(
                "another network is in use already in this process".into(),
            )),
            _ => Ok(()),
        }
    }
}

impl LearnedNetwork for Slot {
    fn played_by_default(&self) -> bool {
        self.by_default
    }

    /// Reads the file's header first, and the rest only when the file's
    /// size is the one the header implies ([`network::read_network`]).
    fn load_file(&self, path: &std::path::Path) -> Result<(), String> {
        let cannot = |e: std::io::Error| format!("cannot read {}: {e}", path.display());
        let mut file = std::fs::File::open(path).map_err(cannot)?;
        let len = file.metadata().map_err(cannot)?.len();
        let net = network::read_network(&mut file, len, self.game, self.inputs)
            .map_err(|e| format!("{}: {}", path.display(), e.0))?;
        self.set(net)
            .map_err(|e| format!("{}: {}", path.display(), e.0))
    }
}

/// The two [`Evaluate`] items of a game whose network is the [`Slot`]
/// `$slot`: [`Evaluate::network`] and [`Evaluate::evaluate_net`], written
/// inside the game's `impl Evaluate`.
macro_rules! learned_evaluation {
    ($slot:path) => {
        fn network() -> Option<&'static dyn $crate::game::LearnedNetwork> {
            Some(&$slot)
        }

        fn evaluate_net(&self) -> Option<i32> {
            let net = $slot.get();
            let learned = $crate::nnue::evaluate(self, net);
            Some(if net.on_classic {
                let classic = self.evaluate($crate::game::TermMask::ALL);
                (learned + classic).clamp(-$crate::game::EVAL_LIMIT, $crate::game::EVAL_LIMIT)
            } else {
                learned
            })
        }
    };
}
pub(crate) use learned_evaluation;

/// The static value of `pos` by evaluation `eval` (the classic terms
/// `terms`, or the game's network where it has one).
pub fn static_value<G: Evaluate>(pos: &G, eval: Eval, terms: crate::game::TermMask) -> i32 {
    match eval.resolve::<G>() {
        Eval::Net => pos.evaluate_net().unwrap_or_else(|| pos.evaluate(terms)),
        _ => pos.evaluate(terms),
    }
}
