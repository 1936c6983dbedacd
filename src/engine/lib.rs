//! The game object: a game chosen by its id at run time.
//!
//! Every layer above this one (tournaments, the protocol, the board in the
//! browser, the command line) speaks to a game through [`AnyGame`] (what a
//! game is: its name, sides, setups, scale) and its positions through
//! [`AnyPosition`] (text, moves, pictures, perft), never to a concrete game
//! type. The registry's dispatch happens once, in [`game`]; every
//! operation is compiled here, once per game, and the layers above call it
//! through the objects.

pub mod listing;
mod position;
pub mod search;
pub mod sides;

pub use listing::{AnyListing, Listing, MoveFacts};
pub use position::{AnyPosition, Chooser, Position};

use gamut_core::evaluate::{FullGame, TermMask};
use gamut_core::game::ChanceRules;
use gamut_core::game::{GameInfo, NodeRules, Notation, ParseError, Player};
use gamut_core::soak::{soak_one, Tally};
use gamut_core::tablebase::agreement::{self, Agreement, Unseen};
use gamut_core::tablebase::Oracle;
use gamut_games::{with_game, GameId};
use gamut_players::engine::Engine;
use gamut_players::game::{play_game, Rules, Setup, Sides};
use gamut_players::record::GameRecord;
use gamut_players::selfplay::SelfPlay;
use gamut_search::nnue::network::{read_network_file, Network};
use gamut_search::options::SearchOptions;
use gamut_search::sides::{players_of, TwoSided};
use gamut_search::{Config, Eval, Evaluation};
use std::marker::PhantomData;
use std::path::Path;
use std::sync::atomic::AtomicBool;

/// A game chosen at run time: its facts, and its positions from the start,
/// a setup or a text.
pub trait AnyGame: Send + Sync {
    /// The game's id.
    fn id(&self) -> GameId;
    /// The game's facts: names, sides, setup help, ply limit.
    fn info(&self) -> &'static GameInfo;
    /// The number of players (two, or four).
    fn players(&self) -> usize;
    /// The side player `player` plays for ([`NodeRules::side_of`]).
    fn side_of(&self, player: Player) -> Player;
    /// The players of side `side`, in order.
    fn players_of(&self, side: Player) -> Vec<Player>;
    /// Whether the game has die rolls (chance nodes).
    fn rolls(&self) -> bool;
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
    /// One random game of seed `seed` from the start, every position on
    /// the way checked against the rules' invariants
    /// ([`gamut_core::soak::soak_one`]).
    fn soak_one(&self, seed: u64) -> Tally;
    /// The search configuration `options` ask for in this game (in a game
    /// of more than two players, for the search of a side against all
    /// the others, [`TwoSided`]): the one place they are checked against
    /// the game (its evaluation terms, its network), each refusal one
    /// line.
    ///
    /// # Errors
    /// An option the game cannot use.
    fn config(&self, options: &SearchOptions) -> Result<Config, String>;
    /// The game's default search configuration on `threads` threads, with
    /// the game's default evaluation.
    fn default_config(&self, threads: usize) -> Config;
    /// The game's default search configuration on `threads` threads with
    /// the evaluation `eval` ([`Config::new`]).
    fn config_with(&self, threads: usize, eval: Evaluation) -> Config;
    /// Input features per perspective of the game's networks
    /// ([`Features::INPUTS`](gamut_core::nnue::Features::INPUTS)).
    fn inputs(&self) -> usize;
    /// The side whose view is a network's second input when it evaluates
    /// for `view` ([`Features::rival`](gamut_core::nnue::Features::rival)).
    fn rival(&self, view: Player) -> Player;
    /// Where a network's input feature goes when the board is mirrored,
    /// if the game has a mirror ([`Features::MIRROR`](gamut_core::nnue::Features::MIRROR)).
    fn mirror(&self) -> Option<fn(u16) -> u16>;
    /// The built-in network's file, for a game that has one.
    fn network_bytes(&self) -> Option<&'static [u8]>;
    /// The built-in network as an evaluation, for a game that has one.
    fn builtin_evaluation(&self) -> Option<Evaluation>;
    /// The network of `bytes`, if they are a network file of this game.
    ///
    /// # Errors
    /// Bytes that are not one of the game's networks, in one line.
    fn network_from_bytes(&self, bytes: &[u8]) -> Result<Network, String>;
    /// The network of file `path`, if it is one of this game's; the error
    /// names the file.
    ///
    /// # Errors
    /// A file that cannot be read or is not one of the game's networks.
    fn read_network(&self, path: &Path) -> Result<Network, String>;
    /// Self-play for training data in this game, evaluating with `eval`.
    fn self_play(&self, eval: Evaluation) -> SelfPlay;
    /// `count` distinct decision positions reached by random walks from
    /// the start, drawn from `seed` ([`agreement::random_positions`]).
    fn random_positions(&self, count: usize, seed: u64) -> Vec<Position>;
    /// `positions` (of this game) without those some text of `seen`
    /// stands for ([`agreement::unseen`]).
    ///
    /// # Errors
    /// A table that cannot be read.
    fn unseen(
        &self,
        positions: Vec<Position>,
        seen: Vec<String>,
        table: &dyn Oracle,
    ) -> Result<Unseen<Position>, String>;
    /// How well an evaluation orders `positions` (of this game) as
    /// `table` does ([`agreement::agreement`]): the classic evaluation with
    /// every term, or `net` where given.
    ///
    /// # Errors
    /// A table that cannot be read.
    fn agreement(
        &self,
        positions: &[Position],
        table: &dyn Oracle,
        net: Option<&Evaluation>,
    ) -> Result<Agreement, String>;
    /// The game's default search configuration on `threads` threads
    /// with evaluation `eval` (in a game of more than two players, for
    /// the search of a side against all the others, [`TwoSided`]).
    fn search_config(&self, threads: usize, eval: Evaluation) -> Config;
    /// The engine of spec `text` for this game.
    ///
    /// # Errors
    /// A spec that does not read, in one line saying what is wrong.
    fn engine(&self, text: &str) -> Result<Engine, ParseError>;
    /// Plays game `setup.number` between `engines`, one per side in the
    /// order of the sides, from `setup.opening` (a position of this game);
    /// `encounter` is the pair's two engines in a game of two sides.
    /// `None` if `stop` was raised before it ended.
    fn play(
        &self,
        setup: &Setup<Position>,
        engines: &[&Engine],
        encounter: Option<[&Engine; 2]>,
        rules: &Rules,
        stop: &AtomicBool,
    ) -> Option<GameRecord>;
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

    fn side_of(&self, player: Player) -> Player {
        G::side_of(player)
    }

    fn players_of(&self, side: Player) -> Vec<Player> {
        players_of::<G>(side, false)
    }

    fn rolls(&self) -> bool {
        <G::Chance as ChanceRules<G>>::ROLLS
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

    fn soak_one(&self, seed: u64) -> Tally {
        soak_one::<G>(seed)
    }

    fn config(&self, options: &SearchOptions) -> Result<Config, String> {
        if G::players() == 2 {
            options.setup::<G>()
        } else {
            options.setup::<TwoSided<G>>()
        }
    }

    fn default_config(&self, threads: usize) -> Config {
        Config::for_game::<G>(threads)
    }

    fn config_with(&self, threads: usize, eval: Evaluation) -> Config {
        Config::new::<G>(threads, eval)
    }

    fn inputs(&self) -> usize {
        G::INPUTS
    }

    fn rival(&self, view: Player) -> Player {
        G::rival(view)
    }

    fn mirror(&self) -> Option<fn(u16) -> u16> {
        G::MIRROR
    }

    fn network_bytes(&self) -> Option<&'static [u8]> {
        G::NETWORK.map(|b| b.bytes)
    }

    fn builtin_evaluation(&self) -> Option<Evaluation> {
        Evaluation::builtin::<G>()
    }

    fn network_from_bytes(&self, bytes: &[u8]) -> Result<Network, String> {
        Network::from_bytes(bytes, G::ID, G::INPUTS).map_err(|e| e.0)
    }

    fn read_network(&self, path: &Path) -> Result<Network, String> {
        read_network_file(path, G::ID, G::INPUTS)
    }

    fn self_play(&self, eval: Evaluation) -> SelfPlay {
        SelfPlay::new::<G>(eval)
    }

    fn random_positions(&self, count: usize, seed: u64) -> Vec<Position> {
        agreement::random_positions::<G>(count, seed)
            .into_iter()
            .map(Position::new)
            .collect()
    }

    fn unseen(
        &self,
        positions: Vec<Position>,
        seen: Vec<String>,
        table: &dyn Oracle,
    ) -> Result<Unseen<Position>, String> {
        let typed: Vec<G> = positions.iter().map(|p| typed::<G>(p).clone()).collect();
        let u = agreement::unseen(typed, seen, table)?;
        Ok(Unseen {
            kept: u.kept.into_iter().map(Position::new).collect(),
            same_text: u.same_text,
            same_state: u.same_state,
            seen_texts: u.seen_texts,
            seen_states: u.seen_states,
        })
    }

    fn agreement(
        &self,
        positions: &[Position],
        table: &dyn Oracle,
        net: Option<&Evaluation>,
    ) -> Result<Agreement, String> {
        let typed: Vec<G> = positions.iter().map(|p| typed::<G>(p).clone()).collect();
        match net {
            None => agreement::agreement(&typed, table, |p| p.evaluate(TermMask::ALL)),
            Some(net) => agreement::agreement(&typed, table, |p| net.value_once(p, TermMask::ALL)),
        }
    }

    fn search_config(&self, threads: usize, eval: Evaluation) -> Config {
        if G::players() == 2 {
            Config::new::<G>(threads, eval)
        } else {
            Config::new::<TwoSided<G>>(threads, eval)
        }
    }

    fn engine(&self, text: &str) -> Result<Engine, ParseError> {
        Engine::parse::<G>(text)
    }

    fn play(
        &self,
        setup: &Setup<Position>,
        engines: &[&Engine],
        encounter: Option<[&Engine; 2]>,
        rules: &Rules,
        stop: &AtomicBool,
    ) -> Option<GameRecord> {
        let typed = Setup {
            number: setup.number,
            pair: setup.pair,
            opening_index: setup.opening_index,
            opening: typed::<G>(&setup.opening).clone(),
            seed: setup.seed,
        };
        play_game(
            &typed,
            Sides::Each(engines),
            encounter,
            rules,
            stop,
            &mut |_, _, _| {},
        )
    }
}

/// `pos` as a position of game `G`, which it is: the object's methods are
/// handed positions of their own game.
fn typed<G: FullGame>(pos: &Position) -> &G {
    pos.typed::<G>().expect("a position of this game")
}

/// The game object of game type `G`, for the code that knows its type.
#[must_use]
pub fn game_of<G: FullGame>() -> &'static dyn AnyGame {
    &Entry::<G>::OBJECT
}

/// The game object of `id`: the one place where a game id becomes a game.
///
/// Never inlined: a small function may be inlined into other crates, and
/// with it the vtables of every game's object, so that each calling
/// crate would compile every game's search, perft and game loop again.
/// Kept here, they are compiled once, in this crate.
#[must_use]
#[inline(never)]
pub fn game(id: GameId) -> &'static dyn AnyGame {
    with_game!(id, G => &Entry::<G>::OBJECT)
}
