//! A position of a game chosen at run time: [`Position`], and the
//! operations on it ([`AnyPosition`]), implemented once for every game type.

use super::{AnyGame, Entry};
use gamut_core::game::{state_text, Child, FullGame, NodeKind, Outcome, ParseError};
use gamut_core::moves::{named_children, natural_cmp, play_moves};
use gamut_core::perft;
use gamut_core::svg::SvgOptions;
use std::any::Any;
use std::fmt;

/// What can be asked of a position of any game: its text and pictures, its
/// moves as text, moves played by text, and its perft counts.
pub trait AnyPosition: Send + Sync + fmt::Debug {
    /// The game of this position.
    fn game(&self) -> &'static dyn AnyGame;
    /// The position's text (`gamut show`'s `position` line, `--fen`).
    fn text(&self) -> String;
    /// The text diagram.
    fn diagram(&self) -> String;
    /// Who is to act (`White to move`, `chance`, `over: …`).
    fn state_text(&self) -> String;
    /// The position's hash.
    fn hash(&self) -> u64;
    /// What kind of node the position is.
    fn node(&self) -> NodeKind;
    /// How the game ended, at a terminal position.
    fn outcome(&self) -> Option<Outcome>;
    /// The SVG picture, marking the move from `before` where given (a
    /// position of the same game).
    fn svg(&self, opts: &SvgOptions, before: Option<&Position>) -> String;
    /// The position after the moves of `list` (separated by `;`); an
    /// illegal move is an error naming it and `source`.
    ///
    /// # Errors
    /// A move that is not legal where it is played.
    fn play_moves(&self, list: &str, source: &str) -> Result<Position, ParseError>;
    /// The text of every perft child (`gamut moves`), in its short form
    /// where `short`, sorted with numbers compared as numbers: moves and
    /// chance outcomes, or at a simultaneous node `<joint action> <move>`
    /// for every move of the node each joint action leads to.
    fn child_texts(&self, short: bool) -> Vec<String>;
    /// The perft count at `depth` on `threads` threads, calling `done`
    /// after each of [`AnyPosition::part_count`] parts.
    fn perft(&self, depth: u32, threads: usize, done: &mut dyn FnMut()) -> u64;
    /// How many parts [`AnyPosition::perft`] counts in.
    fn part_count(&self) -> usize;
    /// Whether the count can be divided among named children: false where
    /// the children are every combination of several players' actions
    /// (counted by action, without listing them).
    fn divides(&self) -> bool;
    /// The perft count at `depth` divided among the children, sorted by
    /// text: `listed` is told how many there are, then `each` is called
    /// with each child's text and count as it is counted.
    fn divide(
        &self,
        depth: u32,
        threads: usize,
        listed: &mut dyn FnMut(usize),
        each: &mut dyn FnMut(&str, u64),
    ) -> u64;
    /// The position as `Any`, for the game object to take back its type.
    fn as_any(&self) -> &dyn Any;
    /// A copy of the position.
    fn boxed(&self) -> Position;
}

/// A position of a game chosen at run time.
pub struct Position(Box<dyn AnyPosition>);

impl Position {
    /// `pos` as a position of any game.
    pub fn new<G: FullGame>(pos: G) -> Position {
        Position(Box::new(pos))
    }

    /// The position as game type `G`, if it is a position of `G`.
    #[must_use]
    pub fn typed<G: FullGame>(&self) -> Option<&G> {
        self.as_any().downcast_ref()
    }
}

impl std::ops::Deref for Position {
    type Target = dyn AnyPosition;

    fn deref(&self) -> &(dyn AnyPosition + 'static) {
        &*self.0
    }
}

impl Clone for Position {
    fn clone(&self) -> Position {
        self.0.boxed()
    }
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

impl<G: FullGame> AnyPosition for G {
    fn game(&self) -> &'static dyn AnyGame {
        &Entry::<G>::OBJECT
    }

    fn text(&self) -> String {
        gamut_core::game::Notation::text(self)
    }

    fn diagram(&self) -> String {
        gamut_core::game::Diagram::diagram(self)
    }

    fn state_text(&self) -> String {
        state_text(self)
    }

    fn hash(&self) -> u64 {
        gamut_core::game::Game::hash(self)
    }

    fn node(&self) -> NodeKind {
        gamut_core::game::Game::node(self)
    }

    fn outcome(&self) -> Option<Outcome> {
        gamut_core::game::Game::outcome(self)
    }

    fn svg(&self, opts: &SvgOptions, before: Option<&Position>) -> String {
        let before = before.map(|b| {
            b.as_any()
                .downcast_ref::<G>()
                .expect("a position of the same game")
        });
        gamut_core::game::Diagram::svg(self, opts, before)
    }

    fn play_moves(&self, list: &str, source: &str) -> Result<Position, ParseError> {
        play_moves(self.clone(), list, source).map(Position::new)
    }

    fn child_texts(&self, short: bool) -> Vec<String> {
        let text = |p: &G, m: G::Move| {
            if short {
                p.short_move_text(m)
            } else {
                p.move_text(m)
            }
        };
        let mut texts = Vec::new();
        for (joint, child) in named_children(self, perft::children(self)) {
            match child {
                Child::Move(m) => texts.push(text(self, m)),
                Child::Joint(..) | Child::Joints(_) => {
                    let next = perft::child_position(self, &child);
                    let mut moves = Vec::new();
                    next.moves(&mut moves);
                    texts.extend(moves.iter().map(|&m| format!("{joint} {}", text(&next, m))));
                }
            }
        }
        texts.sort_by(|a, b| natural_cmp(a, b));
        texts
    }

    fn perft(&self, depth: u32, threads: usize, done: &mut dyn FnMut()) -> u64 {
        perft::count_parts(self, depth, threads, done)
    }

    fn part_count(&self) -> usize {
        perft::part_count(self)
    }

    fn divides(&self) -> bool {
        !perft::counted_by_action(self)
    }

    fn divide(
        &self,
        depth: u32,
        threads: usize,
        listed: &mut dyn FnMut(usize),
        each: &mut dyn FnMut(&str, u64),
    ) -> u64 {
        let kids = named_children(self, perft::children(self));
        listed(kids.len());
        perft::divide_each(self, &kids, depth, threads, |text, n| each(text, n))
    }

    fn as_any(&self) -> &dyn Any {
        self
    }

    fn boxed(&self) -> Position {
        Position::new(self.clone())
    }
}
