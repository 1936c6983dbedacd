//! A position of a game chosen at run time: [`Position`], and the
//! operations on it ([`AnyPosition`]), implemented once for every game type.

use super::{AnyGame, Entry};
use crate::listing::{Listed, Listing};
use crate::search::{observe_written, verdict, Plain};
use crate::sides::{mcts_written, Analysis, AnySidesAnalysis, SidesPlan};
use gamut_core::evaluate::{Evaluate, FullGame, TermMask};
use gamut_core::game::{state_text, Child, NodeKind, NodeRules, Outcome, ParseError, Player};
use gamut_core::moves::{named_children, natural_cmp, play_moves};
use gamut_core::nnue::Features;
use gamut_core::perft;
use gamut_core::svg::SvgOptions;
use gamut_players::engine::{Choice, Engine, Instance, Joint};
use gamut_players::external::Forfeit;
use gamut_players::game::{random_walk, walk};
use gamut_search::draw::pick;
use gamut_search::mcts::{MctsConfig, MctsResult};
use gamut_search::nnue::network::Network;
use gamut_search::nnue::value_from_scratch;
use gamut_search::params::COALITION_WIDTH;
use gamut_search::sides::{Tuple, TwoSided};
use gamut_search::{Config, Limits, Progress, Table, Verdict};
use rand::rngs::StdRng;
use std::any::Any;
use std::fmt;
use std::sync::atomic::AtomicBool;

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
    /// Whose view the position's scores take: the decider at a decision,
    /// the player about to roll at a chance node, the first player at a
    /// simultaneous node.
    fn perspective(&self) -> Player;
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
    /// The text of every move or chance outcome here, in the game's order
    /// (none at a simultaneous or terminal node).
    fn move_texts(&self) -> Vec<String>;
    /// At a simultaneous node, the text of every action of `player`, in
    /// the game's order.
    fn action_texts(&self, player: Player) -> Vec<String>;
    /// The position after the move or chance outcome of `text`.
    ///
    /// # Errors
    /// Text that is not a legal move or outcome here.
    fn play_text(&self, text: &str) -> Result<Position, ParseError>;
    /// At a simultaneous node, the joint action of every player's action
    /// `actions` (each by its text, in player order): its text and the
    /// position it leads to.
    ///
    /// # Errors
    /// An action that is not one of its player's here.
    fn play_actions(&self, actions: &[String]) -> Result<(String, Position), ParseError>;
    /// The squares step `text` played here is clicked on
    /// ([`Diagram::move_squares`](gamut_core::game::Diagram::move_squares);
    /// of every action at a simultaneous node), none where it does not
    /// read.
    fn step_squares(&self, text: &str) -> Vec<String>;
    /// The position after `plies` random decision plies (chance outcomes
    /// drawn by their probabilities and joint actions uniformly, using no
    /// ply); `None` if the game ends first.
    fn random_walk(&self, plies: u32, rng: &mut StdRng) -> Option<Position>;
    /// The position after `plies` decision plies, each the move `choose`
    /// picks among the position's moves (by their texts); chance outcomes
    /// are drawn by their probabilities and joint actions uniformly, using
    /// no ply. `None` if the game ends first or `choose` gives up.
    fn walk(&self, plies: u32, rng: &mut StdRng, choose: &mut Chooser<'_>) -> Option<Position>;
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
    /// Searches the position within `limits` ([`gamut_search::run`], the
    /// searcher's one entry point), calling `observe` after every
    /// completed iteration; every move of the progress and the verdict is
    /// written as text. `interrupt`, when raised, ends the search within
    /// about a millisecond.
    fn search(
        &self,
        limits: &Limits,
        config: &Config,
        tt: &Table,
        interrupt: Option<&AtomicBool>,
        observe: &mut dyn FnMut(Progress<'_, String>),
    ) -> Verdict<String>;
    /// The canonical text of the move or action `text` reads as here
    /// (another form the game reads, such as Spokes' short outcomes).
    ///
    /// # Errors
    /// Text that is not a move here, with the game's reason where it has
    /// one.
    fn move_text_of(&self, text: &str) -> Result<String, ParseError>;
    /// The text of the chance outcome drawn here from `rng` with the
    /// game's probabilities.
    fn roll(&self, rng: &mut StdRng) -> String;
    /// At a simultaneous node, the squares of `player`'s action `text`
    /// ([`Diagram::move_squares`](gamut_core::game::Diagram::move_squares)),
    /// none where it is not one of theirs.
    fn action_squares(&self, player: Player, text: &str) -> Vec<String>;
    /// The choice of `engine` at this decision, its move as text.
    ///
    /// # Errors
    /// The engine's forfeit.
    fn engine_choice(&self, engine: &mut Instance<'_>) -> Result<Choice<String>, Forfeit>;
    /// The mixed strategy of `engine` for `player` at this simultaneous
    /// node ([`Instance::strategy`]), its actions as text.
    ///
    /// # Errors
    /// The engine's forfeit.
    fn engine_strategy(
        &self,
        engine: &mut Instance<'_>,
        player: Player,
    ) -> Result<Vec<(String, f64)>, Forfeit>;
    /// The part of `engine` for side `side` at this simultaneous node
    /// ([`Instance::joint`]), its actions as text.
    ///
    /// # Errors
    /// The engine's forfeit.
    fn engine_joint(
        &self,
        engine: &mut Instance<'_>,
        side: Player,
    ) -> Result<Joint<String>, Forfeit>;
    /// The perft count at `depth` on `threads` threads as `gamut bench`
    /// times it ([`perft::perft_threads`]).
    fn perft_threads(&self, depth: u32, threads: usize) -> u64;
    /// Searches the position within `limits` as `gamut bench` times it:
    /// in a game of two sides and two players by `config` and `tt`,
    /// otherwise each side's paranoid search ([`TwoSided`]) in turn, the
    /// table cleared before each. The nodes searched, and the matrix
    /// cells evaluated at a simultaneous root of a game of two players.
    fn bench_search(&self, limits: &Limits, config: &Config, tt: &Table) -> (u64, Option<u64>);
    /// The network input features active here seen from `view`
    /// ([`Features::features`]).
    fn features(&self, view: Player, out: &mut Vec<u16>);
    /// The classic evaluation with `terms` from `side`'s view
    /// ([`Evaluate::evaluate_for`]).
    fn evaluate_for(&self, side: Player, terms: TermMask) -> i32;
    /// Network `net`'s value here from `view`'s view, computed from
    /// scratch ([`value_from_scratch`]).
    fn net_value(&self, net: &Network, view: Player) -> i32;
    /// The moves (or chance outcomes) here, listed once to be asked
    /// about (none at a simultaneous or terminal node, nor where the
    /// thread's stop check ended the listing).
    fn listing(&self) -> Listing;
    /// At a simultaneous node, the actions of `player`, listed.
    fn action_listing(&self, player: Player) -> Listing;
    /// The canonical text of move `text` here (a short form read back).
    ///
    /// # Errors
    /// Text that is not a move here.
    fn canonical(&self, text: &str) -> Result<String, ParseError>;
    /// What chance outcome `text` played here did, leading to `after`: its
    /// name and, where the game says, what it did to the board
    /// ([`Diagram::outcome_words`](gamut_core::game::Diagram::outcome_words),
    /// [`Diagram::outcome_effect`](gamut_core::game::Diagram::outcome_effect));
    /// `None` where it is no outcome the game names.
    fn rolled(&self, text: &str, after: &Position) -> Option<(String, Option<String>)>;
    /// The colours of the sides' pieces in the picture, by side.
    fn side_colours(&self) -> Vec<String>;
    /// The sides a multi-side analysis searches here: the mover's side at
    /// a decision, every side otherwise.
    fn sides_to_analyse(&self) -> Vec<Player>;
    /// The analysis of the sides of `plan` from here (a game of more than
    /// two players), its reports written.
    fn sides_analysis(&self, plan: SidesPlan<'_>) -> Box<dyn AnySidesAnalysis>;
    /// The sampling search of every side at once from here
    /// ([`gamut_search::mcts::search`]), `observe` told its progress every
    /// `report_every`; every move written as text.
    fn mcts(
        &self,
        config: &MctsConfig,
        interrupt: Option<&AtomicBool>,
        report_every: Option<std::time::Duration>,
        observe: &mut dyn FnMut(&MctsResult<String>),
    ) -> MctsResult<String>;
    /// The choice of `engine` (seeded by `seed`, stopped by `stop`) here:
    /// at a decision its move; at a simultaneous node the action of
    /// `player` (`Some` there), from the joint choice of its side.
    ///
    /// # Errors
    /// The engine's forfeit, in words.
    fn engine_move(
        &self,
        engine: &Engine,
        seed: u64,
        stop: &AtomicBool,
        player: Option<Player>,
    ) -> Result<String, String>;
    /// The position as `Any`, for the game object to take back its type.
    fn as_any(&self) -> &dyn Any;
    /// A copy of the position.
    fn boxed(&self) -> Position;
}

/// Picks one of a decision position's moves, by their texts (`None`:
/// give up the walk).
pub type Chooser<'a> = dyn FnMut(&Position, &[String], &mut StdRng) -> Option<String> + 'a;

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

    fn perspective(&self) -> Player {
        gamut_core::game::Game::perspective(self)
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

    fn move_texts(&self) -> Vec<String> {
        let mut moves = Vec::new();
        if matches!(self.node(), NodeKind::Decision(_) | NodeKind::Chance) {
            self.moves(&mut moves);
        }
        moves.iter().map(|&m| self.move_text(m)).collect()
    }

    fn action_texts(&self, player: Player) -> Vec<String> {
        let mut actions = Vec::new();
        self.actions(player, &mut actions);
        actions.iter().map(|&a| self.move_text(a)).collect()
    }

    fn play_text(&self, text: &str) -> Result<Position, ParseError> {
        let m = self.parse_move(text)?;
        Ok(Position::new(self.play(m)))
    }

    fn play_actions(&self, actions: &[String]) -> Result<(String, Position), ParseError> {
        let mut list = Vec::new();
        let mut chosen = Vec::with_capacity(actions.len());
        for (p, text) in actions.iter().enumerate() {
            let side = Player::nth(p);
            self.actions(side, &mut list);
            let a = list
                .iter()
                .copied()
                .find(|&a| self.move_text(a) == *text)
                .ok_or_else(|| {
                    ParseError::new(format!("'{text}' is not an action of {side} here"))
                })?;
            chosen.push(a);
        }
        Ok((
            self.joint_text_all(&chosen),
            Position::new(self.play_joint_all(&chosen)),
        ))
    }

    fn step_squares(&self, text: &str) -> Vec<String> {
        match self.node() {
            NodeKind::Simultaneous => text
                .split(' ')
                .next()
                .unwrap_or("")
                .split(',')
                .filter_map(|a| self.parse_move(a).ok())
                .flat_map(|m| self.move_squares(m))
                .collect(),
            _ => self
                .parse_move(text)
                .map(|m| self.move_squares(m))
                .unwrap_or_default(),
        }
    }

    fn random_walk(&self, plies: u32, rng: &mut StdRng) -> Option<Position> {
        random_walk(self, plies, rng).map(Position::new)
    }

    fn walk(&self, plies: u32, rng: &mut StdRng, choose: &mut Chooser<'_>) -> Option<Position> {
        let mut typed = |p: &G, moves: &[G::Move], rng: &mut StdRng| {
            let texts: Vec<String> = moves.iter().map(|&m| p.move_text(m)).collect();
            let chosen = choose(&Position::new(p.clone()), &texts, rng)?;
            let i = texts.iter().position(|t| *t == chosen)?;
            Some(moves[i])
        };
        walk(self, plies, rng, &mut typed).map(Position::new)
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

    fn search(
        &self,
        limits: &Limits,
        config: &Config,
        tt: &Table,
        interrupt: Option<&AtomicBool>,
        observe: &mut dyn FnMut(Progress<'_, String>),
    ) -> Verdict<String> {
        let mut typed = |p: Progress<'_, G::Move>| observe_written(self, p, &Plain, observe);
        let found = gamut_search::run(self, limits, config, tt, interrupt, &mut typed);
        verdict(&found, self, &Plain)
    }

    fn listing(&self) -> Listing {
        Listed::moves_of(self)
    }

    fn action_listing(&self, player: Player) -> Listing {
        Listed::actions_of(self, player)
    }

    fn canonical(&self, text: &str) -> Result<String, ParseError> {
        self.parse_move(text).map(|m| self.move_text(m))
    }

    fn rolled(&self, text: &str, after: &Position) -> Option<(String, Option<String>)> {
        let m = self.parse_move(text).ok()?;
        let (name, _) = self.outcome_words(m)?;
        let after = after
            .as_any()
            .downcast_ref::<G>()
            .expect("a position of the same game");
        Some((name, self.outcome_effect(m, after)))
    }

    fn side_colours(&self) -> Vec<String> {
        gamut_core::game::Diagram::side_colours(self)
    }

    fn sides_to_analyse(&self) -> Vec<Player> {
        gamut_search::sides_analysis::sides_to_analyse(self)
    }

    fn sides_analysis(&self, plan: SidesPlan<'_>) -> Box<dyn AnySidesAnalysis> {
        Box::new(Analysis::new(self, plan))
    }

    fn mcts(
        &self,
        config: &MctsConfig,
        interrupt: Option<&AtomicBool>,
        report_every: Option<std::time::Duration>,
        observe: &mut dyn FnMut(&MctsResult<String>),
    ) -> MctsResult<String> {
        let mut typed = |r: &MctsResult<G::Move>| observe(&mcts_written(self, r));
        let r = gamut_search::mcts::search(self, config, interrupt, report_every, &mut typed);
        mcts_written(self, &r)
    }

    fn engine_move(
        &self,
        engine: &Engine,
        seed: u64,
        stop: &AtomicBool,
        player: Option<Player>,
    ) -> Result<String, String> {
        let mut instance = Instance::new(engine, seed).interruptible(stop);
        match player {
            None => instance
                .decide(self)
                .map(|c| self.move_text(c.mv))
                .map_err(|f| f.reason()),
            Some(me) => {
                let joint = instance
                    .joint(self, G::side_of(me))
                    .map_err(|f| f.reason())?;
                joint.actions[me.index()]
                    .map(|a| self.move_text(a))
                    .ok_or_else(|| format!("no action for {me}"))
            }
        }
    }

    fn move_text_of(&self, text: &str) -> Result<String, ParseError> {
        self.parse_move(text).map(|m| self.move_text(m))
    }

    fn roll(&self, rng: &mut StdRng) -> String {
        let mut outcomes = Vec::new();
        self.moves(&mut outcomes);
        let m = pick(rng, outcomes.iter().map(|&m| (m, self.probability(m))));
        self.move_text(m)
    }

    fn action_squares(&self, player: Player, text: &str) -> Vec<String> {
        let mut actions = Vec::new();
        self.actions(player, &mut actions);
        actions
            .iter()
            .find(|&&a| self.move_text(a) == text)
            .map(|&a| self.move_squares(a))
            .unwrap_or_default()
    }

    fn engine_choice(&self, engine: &mut Instance<'_>) -> Result<Choice<String>, Forfeit> {
        let c = engine.decide(self)?;
        Ok(Choice {
            mv: self.move_text(c.mv),
            score: c.score,
            depth: c.depth,
        })
    }

    fn engine_strategy(
        &self,
        engine: &mut Instance<'_>,
        player: Player,
    ) -> Result<Vec<(String, f64)>, Forfeit> {
        let strategy = engine.strategy(self, player)?;
        Ok(strategy
            .iter()
            .map(|&(m, p)| (self.move_text(m), p))
            .collect())
    }

    fn engine_joint(
        &self,
        engine: &mut Instance<'_>,
        side: Player,
    ) -> Result<Joint<String>, Forfeit> {
        let j = engine.joint(self, side)?;
        let texts = |t: &Tuple<G::Move>| t.map(|a| a.map(|a| self.move_text(a)));
        Ok(Joint {
            actions: texts(&j.actions),
            strategy: j.strategy.iter().map(|(t, p)| (texts(t), *p)).collect(),
        })
    }

    fn perft_threads(&self, depth: u32, threads: usize) -> u64 {
        perft::perft_threads(self, depth, threads)
    }

    fn bench_search(&self, limits: &Limits, config: &Config, tt: &Table) -> (u64, Option<u64>) {
        if G::INFO.sides.len() == 2 && G::players() == 2 {
            return searched(self, limits, config, tt);
        }
        let threads = config.threads;
        let nodes = (0..G::INFO.sides.len())
            .map(|side| {
                let view = TwoSided::new(self.clone(), Player::nth(side), COALITION_WIDTH);
                let config = Config::for_game::<TwoSided<G>>(threads);
                tt.clear();
                searched(&view, limits, &config, tt).0
            })
            .sum();
        (nodes, None)
    }

    fn features(&self, view: Player, out: &mut Vec<u16>) {
        Features::features(self, view, out);
    }

    fn evaluate_for(&self, side: Player, terms: TermMask) -> i32 {
        Evaluate::evaluate_for(self, side, terms)
    }

    fn net_value(&self, net: &Network, view: Player) -> i32 {
        value_from_scratch(self, net, view)
    }

    fn as_any(&self) -> &dyn Any {
        self
    }

    fn boxed(&self) -> Position {
        Position::new(self.clone())
    }
}

/// Searches `pos` to `limits`: the nodes searched, and the matrix cells
/// evaluated at a simultaneous root.
fn searched<G: Evaluate>(
    pos: &G,
    limits: &Limits,
    config: &Config,
    tt: &Table,
) -> (u64, Option<u64>) {
    match gamut_search::run(pos, limits, config, tt, None, &mut |_| {}) {
        Verdict::Over(_) | Verdict::Stopped => (0, None),
        Verdict::Decision(r) => (r.nodes, None),
        Verdict::Chance(r) => (r.nodes, None),
        Verdict::Simultaneous(r) => (r.nodes, Some(r.evaluated)),
    }
}
