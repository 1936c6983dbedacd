//! The static evaluation a search uses, as a value: the game's
//! hand-written terms or a network, chosen per engine and handed to the
//! search in its [`Config`](crate::Config). Two engines of one process can
//! evaluate with two different networks.

use crate::nnue::network::read_network_file;
use crate::nnue::{Evaluator, Network};
use gamut_core::evaluate::{Evaluate, TermMask, EVAL_LIMIT};
use std::path::Path;
use std::sync::Arc;

/// Which static evaluation to use, as the options name it.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash, clap::ValueEnum)]
pub enum Eval {
    /// The game's own choice: its network where matches showed it the
    /// stronger (its built-in network is played by default), else the
    /// classic terms.
    #[default]
    Game,
    /// The game's hand-written terms ([`Evaluate::evaluate`]).
    Classic,
    /// A network: the game's built-in one, or a file's.
    Net,
}

impl Eval {
    /// Every choice, in the order the options list them.
    pub const ALL: [Eval; 3] = [Eval::Game, Eval::Classic, Eval::Net];

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

impl std::str::FromStr for Eval {
    type Err = String;

    fn from_str(s: &str) -> Result<Eval, String> {
        Eval::ALL
            .into_iter()
            .find(|e| e.name() == s)
            .ok_or_else(|| format!("unknown evaluation '{s}' (game, classic or net)"))
    }
}

impl std::fmt::Display for Eval {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// A static evaluation, ready to search with.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum Evaluation {
    /// The game's hand-written terms.
    #[default]
    Classic,
    /// A network of the game's, shared by the threads that search with it.
    Net(Arc<Network>),
}

impl Evaluation {
    /// The evaluation `choice` means in game `G`, with the network of file
    /// `net` where one is given (which then must be `G`'s): an error, in
    /// one line, for a network the game does not have or a file that is
    /// not one of its networks.
    pub fn of_game<G: Evaluate>(choice: Eval, net: Option<&Path>) -> Result<Evaluation, String> {
        if let Some(path) = net {
            if choice == Eval::Classic {
                return Err(
                    "--net gives a network, but the evaluation asked for is classic".into(),
                );
            }
            let Some(builtin) = G::NETWORK else {
                return Err(format!("{} has no network (--net)", G::ID));
            };
            let net = read_network_file(path, builtin.game, builtin.inputs)?;
            return Ok(Evaluation::Net(Arc::new(net)));
        }
        match (choice, G::NETWORK) {
            (Eval::Classic, _) | (Eval::Game, None) => Ok(Evaluation::Classic),
            (Eval::Game, Some(b)) if !b.played_by_default => Ok(Evaluation::Classic),
            (_, Some(_)) => Ok(Evaluation::builtin::<G>().expect("the game has a network")),
            (Eval::Net, None) => Err(format!("{} has no network (--eval net)", G::ID)),
        }
    }

    /// Game `G`'s default evaluation ([`Eval::Game`]).
    #[must_use]
    pub fn default_for<G: Evaluate>() -> Evaluation {
        Evaluation::of_game::<G>(Eval::Game, None).expect("a game's default evaluation exists")
    }

    /// Game `G`'s built-in network, if it has one.
    #[must_use]
    pub fn builtin<G: Evaluate>() -> Option<Evaluation> {
        let b = G::NETWORK?;
        let net = Network::from_bytes(b.bytes, b.game, b.inputs)
            .expect("the built-in network is well-formed");
        Some(Evaluation::Net(Arc::new(net)))
    }

    /// `classic` or `net`.
    #[must_use]
    pub fn name(&self) -> &'static str {
        match self {
            Evaluation::Classic => "classic",
            Evaluation::Net(_) => "net",
        }
    }

    /// Whether this is a network.
    #[must_use]
    pub fn is_net(&self) -> bool {
        matches!(self, Evaluation::Net(_))
    }

    /// The static value of non-terminal `pos` for its perspective, within
    /// ±[`EVAL_LIMIT`]: the classic terms `terms`, or the network (added
    /// to every classic term where the network was trained on what the
    /// classic evaluation leaves out), updating `evaluator` incrementally.
    pub fn value<G: Evaluate>(&self, pos: &G, terms: TermMask, evaluator: &mut Evaluator) -> i32 {
        match self {
            Evaluation::Classic => pos.evaluate(terms),
            Evaluation::Net(net) => {
                let b = G::NETWORK.expect("a network of this game");
                let (view, us) = ((b.view)(pos), pos.perspective());
                let value = evaluator.evaluate(pos, net, b.features, [view, (b.rival)(view)]);
                let learned = if view == us { value } else { -value };
                if net.on_classic {
                    (learned + pos.evaluate(TermMask::ALL)).clamp(-EVAL_LIMIT, EVAL_LIMIT)
                } else {
                    learned
                }
            }
        }
    }

    /// [`Evaluation::value`] with accumulators of its own: for a single
    /// position outside a search.
    pub fn value_once<G: Evaluate>(&self, pos: &G, terms: TermMask) -> i32 {
        self.value(pos, terms, &mut Evaluator::default())
    }
}
