//! The traits every game implements, and the small types they speak in.
//!
//! A game is three layers, one trait each, so that each part of the engine
//! asks for no more than it uses:
//!
//! - [`Game`], the rules: node kinds, moves, play, hashing, outcomes, and
//!   the chance and simultaneous rules. Perft, the searchers and the
//!   solvers need only this (and [`Evaluate`], a searcher's static value).
//! - [`Notation`], the text: position text, move text, setup text, and
//!   parsing each back.
//! - [`Diagram`], the pictures: a text diagram, an SVG picture, and the
//!   squares a move is made on.
//!
//! [`FullGame`] is all of them with [`Evaluate`]: what the command line,
//! tournaments, the engine protocol and the browser ask for.
//!
//! A position is a node of a game tree. Every node is one of four kinds
//! ([`NodeKind`]): a *decision* (one player picks a move), a *chance* node
//! (nature picks an outcome with a known probability), a *simultaneous* node
//! (both players pick an action in secret, then the joint action is applied),
//! or a *terminal* node (the game is over). Perft, search and tournaments are
//! written once over the rules and handle all four kinds.
//!
//! Only decision and terminal nodes are common to every game. A game names
//! its chance rules ([`Game::Chance`]) and simultaneous rules
//! ([`Game::Simultaneous`]) as associated types: either the game itself,
//! which must then implement every method of [`ChanceRules`] or
//! [`SimultaneousRules`] (none has a default but those that say a node has
//! two players, which a game of more overrides), or [`NoChance`] /
//! [`NoSimultaneous`], which panic if ever asked. So no game can get a
//! silent probability of 1 or an empty action list by forgetting a method.
//!
//! Everything else the layers above need to know about a game (its name,
//! its sides' names, its tournament ply limit, its bench positions, what
//! `--setup` text it takes) is in [`Game::INFO`].

mod diagram;
mod notation;

pub use diagram::{grid_squares, Diagram};
pub use notation::Notation;

use std::fmt;
use std::hash::Hash;

/// A player (or, where a game's sides are teams, a team): one of two in
/// most games, one of up to four where a game has more.
/// `Player::FIRST` moves first in every game.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Player(u8);

impl Player {
    /// The player who moves first (White, player 1).
    pub const FIRST: Player = Player(0);
    /// The player who moves second (Black, player 2).
    pub const SECOND: Player = Player(1);
    /// Both players, first then second.
    pub const BOTH: [Player; 2] = [Player::FIRST, Player::SECOND];

    /// The player with index 0 or 1.
    #[must_use]
    pub const fn from_index(i: usize) -> Player {
        Player((i & 1) as u8)
    }

    /// Player `i` counted from 0, for games of up to four players
    /// (`from_index` keeps only two).
    #[must_use]
    pub const fn nth(i: usize) -> Player {
        assert!(i < 4, "at most four players");
        Player(i as u8)
    }

    /// 0 for the first player, 1 for the second, and so on.
    #[must_use]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The other player.
    #[must_use]
    pub const fn other(self) -> Player {
        Player(self.0 ^ 1)
    }
}

impl fmt::Display for Player {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "player {}", self.0 + 1)
    }
}

/// Limits on one listing of moves inside a search
/// ([`Game::moves_within`]).
pub struct ListingBudget<'a> {
    /// Work (in the game's units: boards visited by a Spokes resolution)
    /// after which the listing may end with the moves found so far, if it
    /// has found any; `None`: every move.
    pub partial_after: Option<usize>,
    /// Work after which the listing gives up with no moves
    /// ([`Listing::GaveUp`]) unless it has ended otherwise; `None`: never.
    pub give_up_after: Option<usize>,
    /// Asked now and then during a long listing; `true` ends it.
    pub stop: &'a dyn Fn() -> bool,
}

impl ListingBudget<'_> {
    /// Every move, with no way to stop early.
    pub const ALL: ListingBudget<'static> = ListingBudget {
        partial_after: None,
        give_up_after: None,
        stop: &|| false,
    };

    /// Every move, stopping when this thread's stop check says so
    /// ([`with_thread_stop`]): what a full listing ([`Game::moves`]) that is
    /// a search of its own asks.
    pub const THREAD: ListingBudget<'static> = ListingBudget {
        partial_after: None,
        give_up_after: None,
        stop: &thread_stop,
    };

    /// Every move, or none if listing them takes more than `limit` units of
    /// work (`usize::MAX`: no limit).
    #[must_use]
    pub fn capped(limit: usize) -> ListingBudget<'static> {
        ListingBudget {
            give_up_after: (limit != usize::MAX).then_some(limit),
            ..ListingBudget::ALL
        }
    }
}

thread_local! {
    static THREAD_STOP: std::cell::RefCell<Option<std::rc::Rc<dyn Fn() -> bool>>> =
        const { std::cell::RefCell::new(None) };
}

/// Runs `f` with `stop` as this thread's stop check: a listing of moves
/// that is a search of its own (a Spokes resolution) asks it now and then
/// (every thousand boards), as it asks [`ListingBudget::stop`], and ends
/// when it says so, its list then empty or short and to be ignored. The
/// check set before is restored when `f` returns. Without one, listings
/// run to their end.
pub fn with_thread_stop<R>(stop: std::rc::Rc<dyn Fn() -> bool>, f: impl FnOnce() -> R) -> R {
    struct Restore(Option<std::rc::Rc<dyn Fn() -> bool>>);
    impl Drop for Restore {
        fn drop(&mut self) {
            let before = self.0.take();
            THREAD_STOP.with(|s| *s.borrow_mut() = before);
        }
    }
    let _restore = Restore(THREAD_STOP.with(|s| s.replace(Some(stop))));
    f()
}

/// This thread's stop check ([`with_thread_stop`]): `false` where none is
/// set.
#[must_use]
pub fn thread_stop() -> bool {
    let check = THREAD_STOP.with(|s| s.borrow().clone());
    check.is_some_and(|f| f())
}

/// How complete a listing of moves within a [`ListingBudget`] is.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Listing {
    /// Every move.
    Complete,
    /// Some of the moves (at least one): the budget's work ran out.
    Partial,
    /// Stopped by the budget's stop check: the list is to be ignored.
    Stopped,
    /// No moves: listing them needed more work than the budget's give-up
    /// limit. Searchers treat the node as a leaf.
    GaveUp,
}

/// What kind of node a position is; see the module documentation.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum NodeKind {
    /// The given player chooses one of [`Game::moves`].
    Decision(Player),
    /// Nature chooses one of [`Game::moves`] with [`Game::probability`].
    /// Chance outcomes use no perft depth.
    Chance,
    /// Both players (every one of [`Game::players`]) choose one of their
    /// [`Game::actions`] in secret; [`Game::play_joint`]
    /// ([`Game::play_joint_all`]) applies the pair (the tuple). The joint action uses no perft
    /// depth: the node it leads to (a decision, e.g. how to resolve it) does.
    Simultaneous,
    /// The game is over; [`Game::outcome`] says how.
    Terminal,
}

/// One child of a position as perft and `gamut moves` see it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Child<M> {
    /// A move or a chance outcome.
    Move(M),
    /// A joint action at a simultaneous node (first player's, second's).
    Joint(M, M),
    /// A joint action of more than two players, in player order.
    Joints(Vec<M>),
}

/// How a finished game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// The winner, or `None` for a draw.
    pub winner: Option<Player>,
    /// Why the game ended, in a few words (`"home row"`, `"second lock"`).
    pub reason: &'static str,
    /// Match points per player where the game scores its results; `None`
    /// where a result is only win/draw/loss.
    pub points: Option<[u32; 2]>,
}

impl Outcome {
    /// A win for `winner` for the given reason, without points.
    #[must_use]
    pub const fn win(winner: Player, reason: &'static str) -> Outcome {
        Outcome {
            winner: Some(winner),
            reason,
            points: None,
        }
    }

    /// A draw for the given reason.
    #[must_use]
    pub const fn draw(reason: &'static str) -> Outcome {
        Outcome {
            winner: None,
            reason,
            points: None,
        }
    }

    /// The result as a score for `p`: 1 for a win, ½ for a draw, 0 for a loss.
    #[must_use]
    pub fn score_for(&self, p: Player) -> f64 {
        match self.winner {
            Some(w) if w == p => 1.0,
            Some(_) => 0.0,
            None => 0.5,
        }
    }
}

impl Outcome {
    /// The result in words with the sides named `sides` (a game's
    /// [`GameInfo::sides`]): `White wins (home row)`, `draw (…) 3-3`.
    #[must_use]
    pub fn describe(&self, sides: &[&str]) -> String {
        let mut s = match self.winner {
            Some(p) => format!("{} wins ({})", sides[p.index()], self.reason),
            None => format!("draw ({})", self.reason),
        };
        if let Some([a, b]) = self.points {
            s.push_str(&format!(" {a}-{b}"));
        }
        s
    }
}

/// The result with the sides named `player 1` and `player 2`.
impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.describe(&["player 1", "player 2", "player 3", "player 4"]))
    }
}

/// What happens next at `pos`, in words with the game's side names
/// (`White to move`, `game over: Black wins (home row)`), as `show` prints
/// it.
pub fn state_text<G: Game>(pos: &G) -> String {
    let sides = G::INFO.sides;
    match pos.node() {
        NodeKind::Decision(p) => format!("{} to move", sides[p.index()]),
        NodeKind::Chance => format!("{} to roll", sides[pos.perspective().index()]),
        NodeKind::Simultaneous => {
            let (last, rest) = sides.split_last().expect("a game has sides");
            format!("{} and {last} choose in secret", rest.join(", "))
        }
        NodeKind::Terminal => match pos.outcome() {
            Some(o) => format!("game over: {}", o.describe(sides)),
            None => "game over".to_string(),
        },
    }
}

/// Why a position, move or option text was rejected: one line, saying what
/// is wrong and where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError(pub String);

impl ParseError {
    /// An error with the given message.
    pub fn new(msg: impl Into<String>) -> ParseError {
        ParseError(msg.into())
    }
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ParseError {}

/// What a game tells the layers above about itself beyond its rules: how
/// to name it and its sides, how long a tournament game may run, and where
/// `gamut bench` measures it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameInfo {
    /// The game's name for people (`Empedocles' Stones`).
    pub name: &'static str,
    /// The sides' names as the game's rules and diagrams use them, first
    /// player's first (`["White", "Black"]`, `["player 1", "player 2"]`):
    /// who can win, so teams where players play in teams.
    pub sides: &'static [&'static str],
    /// What `--setup` text [`Notation::start_with`] accepts, for help and
    /// errors; `None` for a game whose start position has no options.
    pub setup: Option<&'static str>,
    /// The ply count after which a tournament game is adjudicated a draw.
    pub ply_limit: u32,
    /// The unit of the game's scores as a page names it for people
    /// (`centistones (100 a stone)`): what one point of a score is.
    pub score_unit: &'static str,
    /// The positions `gamut bench` measures.
    pub bench: &'static [BenchCase],
}

impl GameInfo {
    /// The name of side `p` (`White`, `player 2`).
    #[must_use]
    pub const fn side(&self, p: Player) -> &'static str {
        self.sides[p.index()]
    }
}

/// A position `gamut bench` measures, with depths chosen for well under a
/// second of perft and of search on one core.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BenchCase {
    /// The position text.
    pub position: &'static str,
    /// Perft depth.
    pub perft_depth: u32,
    /// Search depth.
    pub search_depth: u32,
}

/// How a game's chance nodes are played: the game type itself, or
/// [`NoChance`] for a game without chance nodes. Named by
/// [`Game::Chance`], so every game states whether it has chance nodes, and
/// one that does cannot leave out their probabilities.
pub trait ChanceRules<G: Game> {
    /// Whether the game has chance nodes at all ([`NoChance`] says no).
    const ROLLS: bool = true;

    /// The probability of chance outcome `m` of `pos`; the outcomes from
    /// [`Game::moves`] at a chance node sum to 1.
    fn probability(pos: &G, m: G::Move) -> f64;
}

/// The [`Game::Chance`] of a game without chance nodes.
#[derive(Debug)]
pub enum NoChance {}

impl<G: Game> ChanceRules<G> for NoChance {
    const ROLLS: bool = false;

    fn probability(_: &G, _: G::Move) -> f64 {
        panic!("{} has no chance nodes", G::ID)
    }
}

/// How a game's simultaneous nodes are played: the game type itself, or
/// [`NoSimultaneous`] for a game without them. Named by
/// [`Game::Simultaneous`], so a game with simultaneous nodes must give
/// both players' actions and how a pair of them is applied.
///
/// Two players act at a simultaneous node unless [`PLAYERS`](Self::PLAYERS)
/// says more; such a game also gives [`play_joint_all`](Self::play_joint_all).
pub trait SimultaneousRules<G: Game> {
    /// How many players act at a simultaneous node, each choosing one of
    /// its [`actions`](Self::actions).
    const PLAYERS: usize = 2;

    /// Whether every player has the same actions and the child depends only
    /// on which actions were chosen, not on who chose which; perft then
    /// resolves each set of actions once and counts its orderings.
    const ANONYMOUS: bool = false;

    /// Appends `player`'s actions at simultaneous node `pos` to `out`
    /// (cleared first).
    fn actions(pos: &G, player: Player, out: &mut Vec<G::Move>);

    /// The child of simultaneous node `pos` after both players' actions.
    fn play_joint(pos: &G, first: G::Move, second: G::Move) -> G;

    /// The side (an index into [`GameInfo::sides`]) player `player` plays
    /// for: the player itself, or its team where players play in teams.
    #[must_use]
    fn side_of(player: Player) -> Player {
        player
    }

    /// The child after every player's action, in player order
    /// (`PLAYERS` of them): [`play_joint`](Self::play_joint) for two.
    fn play_joint_all(pos: &G, actions: &[G::Move]) -> G {
        assert_eq!(actions.len(), 2, "{} has two players", G::ID);
        Self::play_joint(pos, actions[0], actions[1])
    }
}

/// The [`Game::Simultaneous`] of a game without simultaneous nodes.
#[derive(Debug)]
pub enum NoSimultaneous {}

impl<G: Game> SimultaneousRules<G> for NoSimultaneous {
    fn actions(_: &G, _: Player, _: &mut Vec<G::Move>) {
        panic!("{} has no simultaneous nodes", G::ID)
    }

    fn play_joint(_: &G, _: G::Move, _: G::Move) -> G {
        panic!("{} has no simultaneous nodes", G::ID)
    }
}

/// A game: its positions are values of the implementing type.
///
/// Positions are small `Copy`-free values applied copy-make style: `play`
/// returns the child and leaves `self` untouched.
pub trait Game: Clone + Send + Sync + PartialEq + fmt::Debug + 'static {
    /// A move, a chance outcome, or one player's simultaneous action.
    type Move: Copy + Eq + Hash + Send + Sync + fmt::Debug + 'static;

    /// How chance nodes are played: `Self` (implementing [`ChanceRules`])
    /// or [`NoChance`].
    type Chance: ChanceRules<Self>;

    /// How simultaneous nodes are played: `Self` (implementing
    /// [`SimultaneousRules`]) or [`NoSimultaneous`].
    type Simultaneous: SimultaneousRules<Self>;

    /// The game id used on the command line and in files (`epaminondas`).
    const ID: &'static str;

    /// The game's names, defaults and bench positions.
    const INFO: GameInfo;

    /// The default initial position.
    fn start() -> Self;

    /// What kind of node this is.
    fn node(&self) -> NodeKind;

    /// The player from whose point of view scores at this node are given:
    /// the decider at decision nodes, the player about to roll at chance
    /// nodes, and the first player at simultaneous nodes.
    fn perspective(&self) -> Player;

    /// How the game ended, at a terminal node; `None` otherwise.
    fn outcome(&self) -> Option<Outcome>;

    /// Appends the moves (decision node) or outcomes (chance node) to `out`,
    /// which is cleared first. Empty at terminal and simultaneous nodes.
    fn moves(&self, out: &mut Vec<Self::Move>);

    /// The number of moves `moves` would give; games override it where
    /// counting is cheaper than listing (perft's last ply).
    fn move_count(&self) -> usize {
        let mut v = Vec::new();
        self.moves(&mut v);
        v.len()
    }

    /// Work space for listing moves that a thread keeps from node to node
    /// (Spokes: a resolver's tables and the last board's outcomes); `()`
    /// for games that need none.
    type Scratch: Default + Send;

    /// [`moves`](Game::moves) with the caller's scratch space: what perft
    /// and search threads call, each owning one scratch.
    fn moves_with(&self, out: &mut Vec<Self::Move>, _scratch: &mut Self::Scratch) {
        self.moves(out)
    }

    /// [`moves_with`](Game::moves_with) inside a search, within `budget`:
    /// a game whose move listing is a search of its own (Spokes'
    /// resolutions) asks `budget.stop` now and then and ends the listing
    /// when it says so, may end it with the moves found so far once
    /// `budget.partial_after` units of its work are done, and gives up
    /// after `budget.give_up_after`. Other games list every move.
    fn moves_within(
        &self,
        out: &mut Vec<Self::Move>,
        scratch: &mut Self::Scratch,
        _budget: &ListingBudget<'_>,
    ) -> Listing {
        self.moves_with(out, scratch);
        Listing::Complete
    }

    /// [`move_count`](Game::move_count) with the caller's scratch space.
    fn move_count_with(&self, _scratch: &mut Self::Scratch) -> usize {
        self.move_count()
    }

    /// The child after move or chance outcome `m`, which must come from
    /// `moves`.
    fn play(&self, m: Self::Move) -> Self;

    /// A 64-bit Zobrist-style hash, maintained incrementally by `play`.
    fn hash(&self) -> u64;

    /// The same hash computed from scratch, for checking `hash`.
    fn hash_from_scratch(&self) -> u64;
}

/// A position's chance and simultaneous rules, read through the position:
/// what [`Game::Chance`] and [`Game::Simultaneous`] give, for every game
/// (bring it into scope to call `pos.actions(…)` or `G::players()`).
pub trait NodeRules: Game {
    /// The probability of chance outcome `m` (chance nodes only), as
    /// [`Game::Chance`] gives it.
    fn probability(&self, m: Self::Move) -> f64 {
        Self::Chance::probability(self, m)
    }

    /// Appends `player`'s actions at a simultaneous node to `out` (cleared
    /// first), as [`Game::Simultaneous`] gives them.
    fn actions(&self, player: Player, out: &mut Vec<Self::Move>) {
        Self::Simultaneous::actions(self, player, out)
    }

    /// The child after both players' actions at a simultaneous node, as
    /// [`Game::Simultaneous`] gives it.
    fn play_joint(&self, first: Self::Move, second: Self::Move) -> Self {
        Self::Simultaneous::play_joint(self, first, second)
    }

    /// How many players act at a simultaneous node (2 but in games of more
    /// players), as [`Game::Simultaneous`] says.
    #[must_use]
    fn players() -> usize {
        Self::Simultaneous::PLAYERS
    }

    /// The side player `p` plays for (itself, or its team), as
    /// [`Game::Simultaneous`] says.
    #[must_use]
    fn side_of(p: Player) -> Player {
        Self::Simultaneous::side_of(p)
    }

    /// The child after every player's action at a simultaneous node, in
    /// player order, as [`Game::Simultaneous`] gives it.
    fn play_joint_all(&self, actions: &[Self::Move]) -> Self {
        Self::Simultaneous::play_joint_all(self, actions)
    }
}

impl<G: Game> NodeRules for G {}

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

/// The selective (unsound) search features a game can switch on by default
/// ([`Evaluate::SELECTIVE`]); the searcher's switches. Each prunes or reduces moves
/// that plain alpha-beta would search, so a search with any of them on may
/// return another value than minimax at the same depth.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Selective {
    /// Late-move reductions: quiet moves late in the order searched less
    /// deep, and again at full depth only if they beat alpha.
    pub lmr: bool,
    /// Null-move pruning where the game offers a null move
    /// ([`Evaluate::null_move`](crate::game::Evaluate::null_move)).
    pub nmp: bool,
    /// Reverse futility pruning: a node far above beta near the leaves
    /// fails high on its static value.
    pub rfp: bool,
    /// Futility pruning: quiet moves near the leaves skipped where even a
    /// margin above the static value cannot reach alpha.
    pub futility: bool,
    /// Partial move lists: below the root, a move listing that is a search
    /// of its own ends with the moves found after
    /// [`PARTIAL_LISTING_WORK`](crate::search::params::PARTIAL_LISTING_WORK) units of work, and gives up (a leaf) after
    /// [`GIVE_UP_LISTING_WORK`](crate::search::params::GIVE_UP_LISTING_WORK).
    pub partial: bool,
    /// Narrow matrix games: below a simultaneous root, each player at a
    /// simultaneous node keeps [`SIMULTANEOUS_WIDTH`](crate::search::params::SIMULTANEOUS_WIDTH) actions: those that
    /// did best at the root in the last completed iteration, and
    /// [`URGENT_WIDTH`](crate::search::params::URGENT_WIDTH) of them with the largest action hints.
    pub narrow: bool,
}

impl Selective {
    /// Every selective feature off: the search returns minimax values.
    pub const NONE: Selective = Selective {
        lmr: false,
        nmp: false,
        rfp: false,
        futility: false,
        partial: false,
        narrow: false,
    };

    /// Every selective feature on.
    pub const ALL: Selective = Selective {
        lmr: true,
        nmp: true,
        rfp: true,
        futility: true,
        partial: true,
        narrow: true,
    };

    /// The features' names, as options and engine specs spell them.
    pub const NAMES: [&'static str; 6] = ["lmr", "nmp", "rfp", "futility", "partial", "narrow"];

    /// The switch of the feature called `name` (one of [`Self::NAMES`]).
    pub fn switch(&mut self, name: &str) -> Option<&mut bool> {
        match name {
            "lmr" => Some(&mut self.lmr),
            "nmp" => Some(&mut self.nmp),
            "rfp" => Some(&mut self.rfp),
            "futility" => Some(&mut self.futility),
            "partial" => Some(&mut self.partial),
            "narrow" => Some(&mut self.narrow),
            _ => None,
        }
    }
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

    /// The selective search features on by default for this game: those
    /// that won their match here (the others stay off).
    const SELECTIVE: Selective = Selective::NONE;

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
    const NETWORK: Option<crate::nnue::BuiltinNetwork<Self>> = None;

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
/// its network's input features ([`Features`](crate::nnue::Features)).
/// Every type with all of them is one, so a function that plays, prints
/// and draws a game asks for `G: FullGame`.
pub trait FullGame: Evaluate + Notation + Diagram + crate::nnue::Features {}

impl<G: Evaluate + Notation + Diagram + crate::nnue::Features> FullGame for G {}
