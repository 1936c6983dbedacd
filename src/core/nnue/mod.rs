//! What a game gives a learned evaluation (an efficiently updatable
//! network, NNUE): its input features ([`Features`]) and its built-in
//! network file ([`BuiltinNetwork`]). The data self-play writes for
//! training is `gamut_games::data`, which checks positions by their game. The network itself, its file and its inference belong to
//! the searcher (`gamut_search::nnue`); a network is a value handed to a
//! search, never process-wide state.

use crate::game::{Game, Player};

/// A game's built-in network: the file compiled into the binary, and how
/// a network reads the game's positions.
pub struct BuiltinNetwork<G> {
    /// The game id the file must name.
    pub game: &'static str,
    /// Input features per perspective (at most [`MAX_INPUTS`]).
    pub inputs: usize,
    /// The network file's bytes.
    pub bytes: &'static [u8],
    /// Whether the network is the game's default evaluation: where matches
    /// showed it stronger than the classic terms (docs/results.md).
    pub played_by_default: bool,
    /// The features active in a position seen from a side
    /// ([`Features::feature_set`]).
    pub features: fn(&G, Player, &mut Vec<u16>) -> FeatureSet,
    /// The side whose value the network gives at a position: the side to
    /// move ([`Game::perspective`]) unless a view of the game says
    /// otherwise.
    pub view: fn(&G) -> Player,
    /// The side whose view fills the network's second half ([`Features::rival`]).
    pub rival: fn(Player) -> Player,
}

impl<G: Features> BuiltinNetwork<G> {
    /// The built-in network `bytes` of game `G`, read through its
    /// [`Features`]; `played_by_default` as [`BuiltinNetwork`] says.
    #[must_use]
    pub const fn new(bytes: &'static [u8], played_by_default: bool) -> BuiltinNetwork<G> {
        BuiltinNetwork {
            game: G::ID,
            inputs: G::INPUTS,
            bytes,
            played_by_default,
            features: G::feature_set,
            view: G::perspective,
            rival: G::rival,
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

    /// The side whose view fills a network's second half when `view`'s
    /// fills the first: the other player, or in a game of more than two
    /// sides the one the game names (the side across the table).
    #[must_use]
    fn rival(view: Player) -> Player {
        view.other()
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
    /// No feature.
    pub const EMPTY: FeatureSet = FeatureSet([0; MAX_INPUTS / 64]);

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
    pub fn minus(&self, other: &FeatureSet) -> impl Iterator<Item = u16> + '_ {
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

    /// How many features are in the set.
    #[must_use]
    pub fn count(&self) -> u32 {
        self.0.iter().map(|w| w.count_ones()).sum()
    }

    /// How many features are in exactly one of the two sets.
    #[must_use]
    pub fn changes(&self, other: &FeatureSet) -> u32 {
        self.0
            .iter()
            .zip(&other.0)
            .map(|(a, b)| (a ^ b).count_ones())
            .sum()
    }
}
