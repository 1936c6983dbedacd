//! The moves of a position listed once ([`Listing`]), to be asked about
//! one by one: a large list (a four-player Spokes resolution has tens of
//! thousands of outcomes, seconds to list) is kept and asked again
//! rather than listed again.

use crate::search::{observe_written, verdict, Shown, Step};
use crate::Position;
use gamut_core::evaluate::FullGame;
use gamut_core::game::{NodeKind, NodeRules, ParseError, Player};
use gamut_search::{Config, Limits, Progress, Table, Verdict};
use std::any::Any;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

/// A move of a listing as a person is shown it.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveFacts {
    /// The move's text.
    pub text: String,
    /// Its short text, found among the listing's moves.
    pub short: String,
    /// The squares a person clicks for it
    /// ([`Diagram::move_squares`](gamut_core::game::Diagram::move_squares)).
    pub squares: Vec<String>,
    /// The other squares it can be clicked from
    /// ([`Diagram::move_also_from`](gamut_core::game::Diagram::move_also_from)).
    pub also_from: Vec<String>,
    /// At a chance node, the outcome's probability.
    pub probability: Option<f64>,
    /// At a chance node, the outcome's name and what it does, where the
    /// game names it.
    pub words: Option<(String, String)>,
}

/// The moves (or one player's actions) of a position, listed once.
pub trait AnyListing: Send + Sync {
    /// How many moves there are.
    fn len(&self) -> usize;
    /// Whether there are none.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// The text of move `i`.
    fn text(&self, i: usize) -> String;
    /// The first move whose text is `text`.
    fn find(&self, text: &str) -> Option<usize>;
    /// The position after move `i`.
    fn play(&self, i: usize) -> Position;
    /// The squares move `i` is clicked on.
    fn squares(&self, i: usize) -> Vec<String>;
    /// What move `i` changes on the board, by square
    /// ([`Diagram::move_changes`](gamut_core::game::Diagram::move_changes)).
    fn changes(&self, i: usize) -> Vec<(String, String)>;
    /// The probability of chance outcome `i`.
    fn probability(&self, i: usize) -> f64;
    /// Moves `which` as a person is shown them, with their chance facts
    /// where `chance`.
    fn shown(&self, which: &[usize], chance: bool) -> Vec<MoveFacts>;
    /// The short text of move `text` (canonical), found among the moves,
    /// else read from its text (an action of a simultaneous node).
    ///
    /// # Errors
    /// Text that is not a move here.
    fn short_of(&self, text: &str) -> Result<String, ParseError>;
    /// Searches the position listed as [`AnyPosition::search`]
    /// (crate::AnyPosition::search) does, every move written as a
    /// [`Step`] (a move of the root given its short text among the moves
    /// listed).
    fn search(
        &self,
        limits: &Limits,
        config: &Config,
        tt: &Table,
        interrupt: Option<&AtomicBool>,
        observe: &mut dyn FnMut(Progress<'_, Step>),
    ) -> Verdict<Step>;
    /// The listing as `Any`, for the game object to take back its type.
    fn as_any(&self) -> &dyn Any;
}

/// The moves of a position, listed once and shared.
pub type Listing = Arc<dyn AnyListing>;

/// The moves of `pos` of game `G`.
pub(crate) struct Listed<G: FullGame> {
    pub(crate) pos: G,
    pub(crate) moves: Arc<Vec<G::Move>>,
}

impl<G: FullGame> Listed<G> {
    /// The moves of `pos` at a decision or a chance node, else none.
    pub(crate) fn moves_of(pos: &G) -> Listing {
        let mut moves = Vec::new();
        if matches!(pos.node(), NodeKind::Decision(_) | NodeKind::Chance) {
            pos.moves(&mut moves);
        }
        Arc::new(Listed {
            pos: pos.clone(),
            moves: Arc::new(moves),
        })
    }

    /// The actions of `player` at `pos`.
    pub(crate) fn actions_of(pos: &G, player: Player) -> Listing {
        let mut moves = Vec::new();
        pos.actions(player, &mut moves);
        Arc::new(Listed {
            pos: pos.clone(),
            moves: Arc::new(moves),
        })
    }
}

impl<G: FullGame> AnyListing for Listed<G> {
    fn len(&self) -> usize {
        self.moves.len()
    }

    fn text(&self, i: usize) -> String {
        self.pos.move_text(self.moves[i])
    }

    fn find(&self, text: &str) -> Option<usize> {
        self.moves
            .iter()
            .position(|&m| self.pos.move_text(m) == text)
    }

    fn play(&self, i: usize) -> Position {
        Position::new(self.pos.play(self.moves[i]))
    }

    fn squares(&self, i: usize) -> Vec<String> {
        self.pos.move_squares(self.moves[i])
    }

    fn changes(&self, i: usize) -> Vec<(String, String)> {
        self.pos.move_changes(self.moves[i])
    }

    fn probability(&self, i: usize) -> f64 {
        self.pos.probability(self.moves[i])
    }

    fn shown(&self, which: &[usize], chance: bool) -> Vec<MoveFacts> {
        let pos = &self.pos;
        let moves: Vec<G::Move> = which.iter().map(|&i| self.moves[i]).collect();
        let shorts = pos.short_move_texts(&moves, &self.moves);
        moves
            .iter()
            .zip(shorts)
            .map(|(&m, short)| MoveFacts {
                text: pos.move_text(m),
                short,
                squares: pos.move_squares(m),
                also_from: pos.move_also_from(m),
                probability: chance.then(|| pos.probability(m)),
                words: if chance { pos.outcome_words(m) } else { None },
            })
            .collect()
    }

    fn short_of(&self, text: &str) -> Result<String, ParseError> {
        let pos = &self.pos;
        let m = match self
            .moves
            .iter()
            .copied()
            .find(|&m| pos.move_text(m) == text)
        {
            Some(m) => m,
            None => pos.parse_move(text)?,
        };
        Ok(pos.short_move_texts(&[m], &self.moves).swap_remove(0))
    }

    fn search(
        &self,
        limits: &Limits,
        config: &Config,
        tt: &Table,
        interrupt: Option<&AtomicBool>,
        observe: &mut dyn FnMut(Progress<'_, Step>),
    ) -> Verdict<Step> {
        let pos = &self.pos;
        let w = Shown { all: &self.moves };
        let mut typed = |p: Progress<'_, G::Move>| observe_written(pos, p, &w, observe);
        verdict(
            &gamut_search::run(pos, limits, config, tt, interrupt, &mut typed),
            pos,
            &w,
        )
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}
