//! What a searcher needs of a game beyond its rules ([`Evaluate`]): a
//! static value built from named terms, hints for ordering moves, the
//! game's network, and the search settings it plays by default; and
//! [`FullGame`], everything the layers above ask of a game.

use crate::game::{Diagram, Game, Notation, ParseError, Player};
use crate::nnue::{BuiltinNetwork, Features};

/// A set of evaluation terms switched on, one bit per entry of
/// [`Evaluate::TERMS`].
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct TermMask(pub u32);

impl TermMask {
    /// Every term on.
    pub const ALL: TermMask = TermMask(u32::MAX);

    /// Whether term `i` is on.
    #[must_use]
    pub const fn has(self, i: usize) -> bool {
        self.0 & (1 << i) != 0
    }

    /// This mask with term `i` switched off.
    #[must_use]
    pub const fn without(self, i: usize) -> TermMask {
        TermMask(self.0 & !(1 << i))
    }
}

/// Every evaluation term of `G` on except those named in `list`
/// (comma-separated, from [`Evaluate::TERMS`]).
pub fn terms_off<G: Evaluate>(list: &str) -> Result<TermMask, ParseError> {
    let mut mask = TermMask::ALL;
    for name in list.split(',') {
        let i = G::TERMS.iter().position(|t| *t == name).ok_or_else(|| {
            ParseError::new(format!(
                "unknown evaluation term '{name}' for {} (terms: {})",
                G::ID,
                G::TERMS.join(", ")
            ))
        })?;
        mask = mask.without(i);
    }
    Ok(mask)
}

/// The largest magnitude [`Evaluate::evaluate`] may return; search scores
/// beyond it are proven wins and losses.
pub const EVAL_LIMIT: i32 = 10_000;

/// What a searcher needs to know about a game beyond its rules: a static
/// evaluation and hints for ordering moves.
pub trait Evaluate: Game {
    /// Names of the evaluation terms, in the bit order of [`TermMask`].
    const TERMS: &'static [&'static str];

    /// Whether the searcher should extend its leaves with the moves that
    /// have a positive [`move_hint`](Evaluate::move_hint) (captures) until
    /// the position is quiet.
    const QUIESCENCE: bool = false;

    /// The search settings this game plays by default, in an engine
    /// spec's words (`lmr`, `param.rfp_margin=120`): the selective
    /// features that won their match here and any margin stated in this
    /// game's own evaluation units. The searcher reads them over its own
    /// defaults (`gamut_search::params`); none (the default) keeps those.
    const SEARCH_DEFAULTS: &'static [&'static str] = &[];

    /// The position with the side to move passing, for null-move pruning;
    /// `None` (the default) where passing is not a useful bound: a game with
    /// zugzwang, or a node that is not an ordinary decision.
    fn null_move(&self) -> Option<Self> {
        None
    }

    /// The static value of a non-terminal position for [`Game::perspective`],
    /// built from the terms in `terms`; always within ±[`EVAL_LIMIT`].
    fn evaluate(&self, terms: TermMask) -> i32;

    /// The game's built-in network, for a game that has one; `None` (the
    /// default) for the others. Which evaluation a search uses is the
    /// caller's choice, handed to the search as a value.
    const NETWORK: Option<BuiltinNetwork<Self>> = None;

    /// An ordering hint for move `m` here: larger is tried earlier (the
    /// number of stones it captures, say). Zero for quiet moves.
    fn move_hint(&self, _m: Self::Move) -> i32 {
        0
    }

    /// Whether move `m` here is a capture (a noisy move): what quiescence
    /// searches beyond the horizon, and what a quiet position for training
    /// data (`gamut datagen`) must not have as its best move. By default a
    /// move with a positive [`move_hint`](Evaluate::move_hint); a game whose
    /// hints also rank moves that are not captures says which are.
    fn is_capture(&self, m: Self::Move) -> bool {
        self.move_hint(m) > 0
    }

    /// The static value of a non-terminal position for side `side` (an
    /// index into [`GameInfo::sides`]), within ±[`EVAL_LIMIT`]. In a game
    /// of two sides it is [`evaluate`](Evaluate::evaluate) from `side`'s
    /// view; a game of more sides says how it weighs the others.
    fn evaluate_for(&self, side: Player, terms: TermMask) -> i32 {
        let v = self.evaluate(terms);
        if self.perspective() == side {
            v
        } else {
            -v
        }
    }

    /// How promising action `m` of `player` at a simultaneous node looks
    /// (larger first): searchers of games of more than two players keep
    /// only the most promising actions of a coalition or a team. Zero
    /// (every action alike) unless the game says.
    fn action_hint(&self, _player: Player, _m: Self::Move) -> i32 {
        0
    }
}

/// Everything the command line, tournaments, the engine protocol, the
/// browser and the trainer ask of a game: its rules and evaluation
/// ([`Evaluate`]), its text ([`Notation`]), its pictures ([`Diagram`]) and
/// its network's input features ([`Features`]). Every type with all of
/// them is one, so a function that plays, prints and draws a game asks for
/// `G: FullGame`.
pub trait FullGame: Evaluate + Notation + Diagram + Features {}

impl<G: Evaluate + Notation + Diagram + Features> FullGame for G {}
