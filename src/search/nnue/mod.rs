//! A learned evaluation's network and its inference (an efficiently
//! updatable network, NNUE): the quantized network and its file
//! ([`network`]), and the incremental evaluation each search thread keeps
//! ([`Evaluator`]). A game supplies its input features
//! ([`gamut_core::nnue::Features`]); the network keeps one accumulator per
//! side (the feature transformer's output, in i16), and evaluates from the
//! side to move's accumulator and the other's.
//!
//! Positions are copy-make and the search generic, so the accumulators do
//! not live in the positions: each search thread keeps an [`Evaluator`]
//! holding the accumulators of the last position it evaluated, with that
//! position's active features. The next position is evaluated by
//! subtracting the rows of the features that went and adding those that
//! came: consecutive leaves of a depth-first search are a few moves apart,
//! so that is a few rows, and a full refresh happens only where the
//! difference is larger than the position itself.

mod kernels;
pub mod network;

use gamut_core::evaluate::EVAL_LIMIT;
use gamut_core::game::{Game, Player};
use gamut_core::nnue::{FeatureSet, Features};
use kernels::{add, update};
pub use network::{NetError, Network};

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
/// position evaluated, per side (up to four), and its active features.
#[derive(Default)]
pub struct Evaluator {
    /// The network the accumulators belong to (its address).
    net: usize,
    sets: [Option<FeatureSet>; 4],
    acc: [Vec<i16>; 4],
    list: Vec<u16>,
    /// The features that went and came between the last position and
    /// the one evaluated.
    gone: Vec<u16>,
    /// See `gone`.
    came: Vec<u16>,
}

impl Evaluator {
    /// `pos`'s value by `net` for side `views[0]`, whose view fills the
    /// network's first half and `views[1]`'s the second, updating those
    /// sides' accumulators from the last position's.
    pub fn evaluate<G: Game>(
        &mut self,
        pos: &G,
        net: &Network,
        features: fn(&G, Player, &mut Vec<u16>) -> FeatureSet,
        views: [Player; 2],
    ) -> i32 {
        if self.net != net as *const Network as usize {
            *self = Evaluator {
                net: net as *const Network as usize,
                ..Evaluator::default()
            };
        }
        // The count of active features chooses the output bucket; a
        // network of one output needs none.
        let bucketed = !net.bounds.is_empty();
        let mut count = 0;
        for view in views {
            let v = view.index();
            let now = features(pos, view, &mut self.list);
            if bucketed {
                count += now.count() as usize;
            }
            match &self.sets[v] {
                Some(before) if before.changes(&now) < now.count() => {
                    self.gone.clear();
                    self.gone.extend(before.minus(&now));
                    self.came.clear();
                    self.came.extend(now.minus(before));
                    update(
                        &mut self.acc[v],
                        &net.feature_weights,
                        &self.gone,
                        &self.came,
                    );
                }
                _ => refresh_from(net, now.iter(), &mut self.acc[v]),
            }
            self.sets[v] = Some(now);
        }
        let [us, them] = views.map(Player::index);
        net.output(&self.acc[us], &self.acc[them], net.bucket(count))
            .clamp(-EVAL_LIMIT, EVAL_LIMIT)
    }

    /// The accumulator of side `view` as the last position evaluated left
    /// it.
    #[must_use]
    pub fn accumulator(&self, view: Player) -> &[i16] {
        &self.acc[view.index()]
    }
}

/// The two sides whose views a network of `G` reads for a value for side
/// `view`: `view` and its rival ([`Features::rival`]).
#[must_use]
pub fn views_for<G: Features>(view: Player) -> [Player; 2] {
    [view, G::rival(view)]
}

/// `pos`'s value by `net` for its side to move, from accumulators
/// refreshed from scratch.
pub fn evaluate_from_scratch<G: Features>(pos: &G, net: &Network) -> i32 {
    value_from_scratch(pos, net, pos.perspective())
}

/// `pos`'s value by `net` for side `view`, from accumulators refreshed
/// from scratch.
pub fn value_from_scratch<G: Features>(pos: &G, net: &Network, view: Player) -> i32 {
    let mut list = Vec::new();
    let mut acc = [Vec::new(), Vec::new()];
    let mut count = 0;
    for (i, v) in views_for::<G>(view).into_iter().enumerate() {
        pos.features(v, &mut list);
        count += list.len();
        refresh(net, &list, &mut acc[i]);
    }
    net.output(&acc[0], &acc[1], net.bucket(count))
        .clamp(-EVAL_LIMIT, EVAL_LIMIT)
}
