//! The game object: a game chosen by its id at run time.
//!
//! Every layer above this one (tournaments, the protocol, the board in the
//! browser, the command line) speaks to a game through [`AnyGame`] (what a
//! game is: its name, sides, setups, scale) and its positions through
//! [`AnyPosition`] (text, moves, pictures, perft), never to a concrete game
//! type. The registry's dispatch happens once, in [`game`]; every
//! operation is compiled here, once per game, and the layers above call it
//! through the objects.

mod position;

pub use position::{AnyPosition, Position};

use gamut_core::game::{FullGame, GameInfo, NodeRules, Notation, ParseError};
use gamut_games::{with_game, GameId};
use gamut_search::{Eval, Evaluation};
use std::marker::PhantomData;
use std::path::Path;

/// A game chosen at run time: its facts, and its positions from the start,
/// a setup or a text.
pub trait AnyGame: Send + Sync {
    /// The game's id.
    fn id(&self) -> GameId;
    /// The game's facts: names, sides, setup help, ply limit.
    fn info(&self) -> &'static GameInfo;
    /// The number of players (two, or four).
    fn players(&self) -> usize;
    /// The evaluation's logistic scale: a score `s` is a win chance of
    /// `1 / (1 + 3^(-s / scale))`.
    fn score_scale(&self) -> f64;
    /// Every setup the start position takes, by name.
    fn setups(&self) -> Vec<String>;
    /// The start position.
    fn start(&self) -> Position;
    /// The start position set up by `setup`.
    ///
    /// # Errors
    /// A setup the game does not know.
    fn start_with(&self, setup: &str) -> Result<Position, ParseError>;
    /// The position of `text`.
    ///
    /// # Errors
    /// Text that is not a position of this game.
    fn parse(&self, text: &str) -> Result<Position, ParseError>;
    /// The evaluation `choice` asks for, with the network of file `net`
    /// where one is given: an error in one line for a network the game
    /// does not have or a file that is not one of its networks.
    ///
    /// # Errors
    /// As [`Evaluation::of_game`].
    fn evaluation(&self, choice: Eval, net: Option<&Path>) -> Result<Evaluation, String>;
}

/// The game object of game type `G`.
struct Entry<G>(PhantomData<fn() -> G>);

impl<G> Entry<G> {
    const OBJECT: Entry<G> = Entry(PhantomData);
}

impl<G: FullGame> AnyGame for Entry<G> {
    fn id(&self) -> GameId {
        G::ID.parse().expect("every game type is registered")
    }

    fn info(&self) -> &'static GameInfo {
        &G::INFO
    }

    fn players(&self) -> usize {
        G::players()
    }

    fn score_scale(&self) -> f64 {
        G::SCORE_SCALE
    }

    fn setups(&self) -> Vec<String> {
        G::setups()
    }

    fn start(&self) -> Position {
        Position::new(G::start())
    }

    fn start_with(&self, setup: &str) -> Result<Position, ParseError> {
        G::start_with(setup).map(Position::new)
    }

    fn parse(&self, text: &str) -> Result<Position, ParseError> {
        <G as Notation>::parse(text).map(Position::new)
    }

    fn evaluation(&self, choice: Eval, net: Option<&Path>) -> Result<Evaluation, String> {
        Evaluation::of_game::<G>(choice, net)
    }
}

/// The game object of game type `G`, for the code that knows its type.
#[must_use]
pub fn game_of<G: FullGame>() -> &'static dyn AnyGame {
    &Entry::<G>::OBJECT
}

/// The game object of `id`: the one place where a game id becomes a game.
#[must_use]
pub fn game(id: GameId) -> &'static dyn AnyGame {
    with_game!(id, G => &Entry::<G>::OBJECT)
}
