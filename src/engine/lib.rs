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

use gamut_core::game::{ChanceRules, FullGame, GameInfo, NodeRules, Notation, ParseError, Player};
use gamut_core::soak::{soak_one, Tally};
use gamut_games::{with_game, GameId};
use gamut_players::engine::Engine;
use gamut_players::game::{play_game, Rules, Setup};
use gamut_players::record::GameRecord;
use gamut_search::options::SearchOptions;
use gamut_search::sides::TwoSided;
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
    /// The side player `p` plays for (itself, or its team).
    fn side_of(&self, p: Player) -> Player;
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

    fn side_of(&self, p: Player) -> Player {
        G::side_of(p)
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
            opening: setup
                .opening
                .typed::<G>()
                .expect("an opening of this game")
                .clone(),
            seed: setup.seed,
        };
        play_game(&typed, engines, encounter, rules, stop)
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

#[cfg(test)]
mod tests {
    use super::sides::{SidesPlan, SidesText};
    use super::*;
    use gamut_core::game::Player;
    use gamut_search::sides_analysis::Schedule;
    use gamut_search::{Limits, Table, Verdict};

    /// A listing finds each of its moves by its text, plays it as the
    /// position plays its text, and shows it with the short text it
    /// gives alone.
    #[test]
    fn a_listing_finds_plays_and_shows_its_moves() {
        for &id in GameId::ALL {
            let start = game(id).start();
            let list = start.listing();
            let all: Vec<usize> = (0..list.len()).collect();
            let shown = list.shown(&all, false);
            for i in all {
                let text = list.text(i);
                assert_eq!(list.find(&text), Some(i), "{id}: {text}");
                let played = start.play_text(&text).unwrap();
                assert_eq!(list.play(i).text(), played.text(), "{id}: {text}");
                assert_eq!(shown[i].text, text);
                assert_eq!(list.short_of(&text).unwrap(), shown[i].short, "{id}");
            }
        }
    }

    /// Each side's analysis at a round of four players' placements names
    /// one action of each of the side's players, and none of the others'.
    #[test]
    fn a_sides_analysis_writes_each_sides_own_actions() {
        for id in [GameId::Spokes4, GameId::Spokes2v2] {
            let g = game(id);
            let start = g.start();
            let mut analysis = start.sides_analysis(SidesPlan {
                sides: start.sides_to_analyse(),
                width: 4,
                schedule: Schedule::InTurn,
                limits: Limits {
                    depth: Some(1),
                    ..Limits::default()
                },
                fresh_table: false,
                shorts: None,
            });
            let config = g.search_config(1, g.evaluation(Eval::Classic, None).unwrap());
            let mut searched = 0;
            analysis.run(&config, &Table::new(1), None, &mut |r| {
                if let SidesText::Searched { .. } = r {
                    searched += 1;
                }
                true
            });
            let verdicts = analysis.verdicts();
            assert_eq!(searched, verdicts.len());
            assert_eq!(verdicts.len(), g.info().sides.len(), "{id}");
            for (side, v) in verdicts {
                let Verdict::Simultaneous(m) = v else {
                    panic!("{id}: a round of placements");
                };
                for (t, _) in &m.strategies[0] {
                    for p in 0..g.players() {
                        let ours = g.side_of(Player::nth(p)) == side;
                        assert_eq!(t.actions[p].is_some(), ours, "{id}: {}", t.text());
                    }
                }
            }
        }
    }
}
