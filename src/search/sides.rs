//! A game of more than two players seen as a two-sided zero-sum game, so
//! that the exact two-player search (alpha-beta, the double oracle, the
//! matrix solver) applies to it: one side (a player, or a team) against
//! all the others together.
//!
//! The view, [`TwoSided`], is a [`Game`] of two players. Its first player
//! is the side; its second the others as one coalition. At a simultaneous
//! node each acts with a [`Tuple`]: one action for every player it holds,
//! chosen together. Decisions keep their mover (the side, or one of the
//! others for the coalition), and a finished game is won by the side or
//! lost to the coalition. Static values are the game's
//! [`Evaluate::evaluate_for`] the side, so the coalition plays to hurt the
//! side most: the *paranoid* assumption (Sturtevant and Korf 2000). For a
//! game of two teams the view is exact: the team against the other team.
//!
//! The joint choices of several players grow as a power of each one's
//! actions (the four-player Spokes start has 58 per player), so a tuple of
//! several players combines only each player's `width` most promising
//! actions ([`Evaluate::action_hint`]); a side of one player keeps all its
//! actions.

use gamut_core::evaluate::{Evaluate, TermMask};
use gamut_core::game::{
    ChanceRules, Game, GameInfo, Listing, ListingBudget, NodeKind, NodeRules, Outcome, Player,
    SimultaneousRules,
};
use gamut_core::nnue::{BuiltinNetwork, FeatureSet};
use std::collections::{HashMap, HashSet};

/// The most players a [`Tuple`] holds.
pub const MAX_PLAYERS: usize = 4;

/// One action per player of a set of players, by player index (`None` for
/// the players outside the set). A decision's move is held at index 0.
pub type Tuple<M> = [Option<M>; MAX_PLAYERS];

/// A tuple's text: its actions' texts joined by `+` (a joint choice of a
/// side of several players).
pub fn tuple_text<G: gamut_core::game::Notation>(pos: &G, t: &Tuple<G::Move>) -> String {
    let texts: Vec<String> = t.iter().flatten().map(|&a| pos.move_text(a)).collect();
    texts.join("+")
}

/// The actions kept per player in a tuple of several players, by default.
pub const DEFAULT_WIDTH: usize = 8;

/// The work a searcher spends listing the moves of one node below its root,
/// in the game's measure ([`ListingBudget::give_up_after`]); a node that needs more
/// is a leaf of the search, valued statically.
pub const SEARCH_WORK_LIMIT: usize = 5_000;

/// The players of side `side` of game `G`, or with `rest` the players of
/// every other side.
pub fn players_of<G: Game>(side: Player, rest: bool) -> Vec<Player> {
    (0..G::players())
        .map(Player::nth)
        .filter(|&p| (G::side_of(p) == side) != rest)
        .collect()
}

/// The actions of `player` at simultaneous node `pos`, most promising
/// first (ties in the game's order).
pub fn ranked_actions<G: Evaluate>(pos: &G, player: Player) -> Vec<G::Move> {
    let mut acts = Vec::new();
    pos.actions(player, &mut acts);
    acts.sort_by_key(|&m| std::cmp::Reverse(pos.action_hint(player, m)));
    acts
}

/// No action: the slot of a player outside a [`Pick`]'s set.
pub const NONE: u16 = u16::MAX;

/// A joint choice as indices into each player's ranked actions
/// ([`Choices::lists`]), [`NONE`] for players outside the set.
pub type Pick = [u16; MAX_PLAYERS];

/// The joint choices of a set of players at a simultaneous node: each
/// player's actions ranked, and the combinations on offer as indices.
#[derive(Clone, Debug)]
pub struct Choices<M> {
    /// Each player's actions, most promising first (empty for players
    /// outside the set).
    pub lists: Vec<Vec<M>>,
    /// The joint choices.
    pub picks: Vec<Pick>,
}

impl<M: Copy> Choices<M> {
    /// Joint choice `pick` as actions.
    #[must_use]
    pub fn tuple(&self, pick: &Pick) -> Tuple<M> {
        let mut t = [None; MAX_PLAYERS];
        for (i, &k) in pick.iter().enumerate() {
            if k != NONE {
                t[i] = Some(self.lists[i][k as usize]);
            }
        }
        t
    }
}

/// The joint choices of `players` at simultaneous node `pos`: a single
/// player's every action, most promising first; for several players,
/// every combination of each one's `width` most promising actions (only
/// one ordering of each where the game's child depends only on which
/// actions were chosen, [`SimultaneousRules::ANONYMOUS`]).
pub fn choices<G: Evaluate>(pos: &G, players: &[Player], width: usize) -> Choices<G::Move> {
    let lists: Vec<Vec<G::Move>> = (0..G::players())
        .map(|i| {
            if players.contains(&Player::nth(i)) {
                ranked_actions(pos, Player::nth(i))
            } else {
                Vec::new()
            }
        })
        .collect();
    let keep = |p: Player| {
        if players.len() == 1 {
            lists[p.index()].len()
        } else {
            lists[p.index()].len().min(width.max(1))
        }
    };
    let mut picks = vec![[NONE; MAX_PLAYERS]];
    for &p in players {
        picks = picks
            .into_iter()
            .flat_map(|t| {
                (0..keep(p)).map(move |k| {
                    let mut t = t;
                    t[p.index()] = k as u16;
                    t
                })
            })
            .collect();
    }
    if players.len() > 1 && <G::Simultaneous as SimultaneousRules<G>>::ANONYMOUS {
        // The same actions for everyone: a combination is its multiset.
        let index: HashMap<G::Move, usize> = lists[players[0].index()]
            .iter()
            .enumerate()
            .map(|(k, &m)| (m, k))
            .collect();
        let mut seen = HashSet::new();
        picks.retain(|t| {
            let mut key: Vec<usize> = players
                .iter()
                .map(|p| index[&lists[p.index()][t[p.index()] as usize]])
                .collect();
            key.sort_unstable();
            seen.insert(key)
        });
    }
    Choices { lists, picks }
}

/// The joint choices of `players` at `pos` as actions (see [`choices`]).
pub fn tuples<G: Evaluate>(pos: &G, players: &[Player], width: usize) -> Vec<Tuple<G::Move>> {
    let c = choices(pos, players, width);
    c.picks.iter().map(|p| c.tuple(p)).collect()
}

/// Every player's action in player order from tuples that between them
/// hold one for each.
pub fn merge<M: Copy>(parts: &[&Tuple<M>], players: usize) -> Vec<M> {
    (0..players)
        .map(|i| {
            parts
                .iter()
                .find_map(|t| t[i])
                .expect("every player has an action")
        })
        .collect()
}

/// A decision's move as a tuple.
pub fn single<M>(m: M) -> Tuple<M> {
    let mut t = [None, None, None, None];
    t[0] = Some(m);
    t
}

/// Game `G` seen by side `us` against all the others; see the module
/// documentation.
#[derive(Clone, Debug, PartialEq)]
pub struct TwoSided<G> {
    /// The position of the game.
    pub pos: G,
    /// The side whose view this is.
    pub us: Player,
    /// The actions kept per player in a tuple of several players.
    pub width: usize,
    /// The hash of the search's root, whose moves are always listed.
    root: u64,
    /// A decision below the root whose moves cost more than
    /// [`SEARCH_WORK_LIMIT`] to list, left as a leaf: no moves, no actions.
    frozen: bool,
}

impl<G: Evaluate> TwoSided<G> {
    /// `pos` seen by side `us`, keeping `width` actions per player in
    /// tuples of several players; `pos` is the root of the search.
    pub fn new(pos: G, us: Player, width: usize) -> Self {
        let root = pos.hash();
        TwoSided {
            pos,
            us,
            width,
            root,
            frozen: false,
        }
    }

    /// The view's player for side `s` of the game.
    fn player(&self, s: Player) -> Player {
        if s == self.us {
            Player::FIRST
        } else {
            Player::SECOND
        }
    }

    fn with(&self, pos: G) -> Self {
        TwoSided {
            pos,
            frozen: false,
            ..*self
        }
    }
}

/// A buffer of the game's moves besides the game's own scratch.
pub struct Scratch<G: Game> {
    game: G::Scratch,
    moves: Vec<G::Move>,
}

impl<G: Game> Default for Scratch<G> {
    fn default() -> Self {
        Scratch {
            game: G::Scratch::default(),
            moves: Vec::new(),
        }
    }
}

impl<G: Evaluate> Game for TwoSided<G> {
    type Move = Tuple<G::Move>;
    type Chance = Self;
    type Simultaneous = Self;
    type Scratch = Scratch<G>;
    const ID: &'static str = G::ID;
    const INFO: GameInfo = GameInfo {
        sides: &["the side", "the others"],
        ..G::INFO
    };

    fn start() -> Self {
        TwoSided::new(G::start(), Player::FIRST, DEFAULT_WIDTH)
    }

    fn node(&self) -> NodeKind {
        if self.frozen {
            return NodeKind::Simultaneous;
        }
        match self.pos.node() {
            NodeKind::Decision(s) => NodeKind::Decision(self.player(s)),
            k => k,
        }
    }

    fn perspective(&self) -> Player {
        if self.frozen {
            return Player::FIRST;
        }
        match self.pos.node() {
            NodeKind::Simultaneous | NodeKind::Terminal => Player::FIRST,
            _ => self.player(self.pos.perspective()),
        }
    }

    fn outcome(&self) -> Option<Outcome> {
        if self.frozen {
            return None;
        }
        self.pos.outcome().map(|o| Outcome {
            winner: o.winner.map(|w| self.player(w)),
            reason: o.reason,
            points: None,
        })
    }

    fn moves(&self, out: &mut Vec<Self::Move>) {
        self.moves_with(out, &mut Scratch::default())
    }

    /// The game's moves; below the root, a node whose moves cost more
    /// than [`SEARCH_WORK_LIMIT`] has one move instead, which leaves it as
    /// a leaf.
    fn moves_with(&self, out: &mut Vec<Self::Move>, scratch: &mut Scratch<G>) {
        out.clear();
        if self.frozen {
            return;
        }
        let limit = if self.pos.hash() == self.root {
            usize::MAX
        } else {
            SEARCH_WORK_LIMIT
        };
        let budget = ListingBudget::capped(limit);
        if self
            .pos
            .moves_within(&mut scratch.moves, &mut scratch.game, &budget)
            != Listing::GaveUp
        {
            out.extend(scratch.moves.iter().map(|&m| single(m)));
        } else {
            out.push([None; MAX_PLAYERS]);
        }
    }

    fn play(&self, m: Self::Move) -> Self {
        match m[0] {
            Some(a) => self.with(self.pos.play(a)),
            None => TwoSided {
                frozen: true,
                ..self.clone()
            },
        }
    }

    fn hash(&self) -> u64 {
        self.pos.hash() ^ self.key()
    }

    fn hash_from_scratch(&self) -> u64 {
        self.pos.hash_from_scratch() ^ self.key()
    }
}

impl<G: Evaluate> TwoSided<G> {
    /// What the view adds to the game's hash: the side, and whether frozen.
    fn key(&self) -> u64 {
        gamut_core::bits::splitmix64(
            0x5157_0000 ^ self.us.index() as u64 ^ u64::from(self.frozen) << 8,
        )
    }
}

impl<G: Evaluate> ChanceRules<TwoSided<G>> for TwoSided<G> {
    const ROLLS: bool = <G::Chance as ChanceRules<G>>::ROLLS;

    fn probability(pos: &TwoSided<G>, m: Tuple<G::Move>) -> f64 {
        pos.pos.probability(m[0].expect("a chance outcome"))
    }
}

/// The side acts with its tuples, the others with theirs.
impl<G: Evaluate> SimultaneousRules<TwoSided<G>> for TwoSided<G> {
    fn actions(pos: &TwoSided<G>, player: Player, out: &mut Vec<Tuple<G::Move>>) {
        out.clear();
        if pos.frozen {
            return;
        }
        let players = players_of::<G>(pos.us, player != Player::FIRST);
        *out = tuples(&pos.pos, &players, pos.width);
    }

    fn play_joint(pos: &TwoSided<G>, first: Tuple<G::Move>, second: Tuple<G::Move>) -> TwoSided<G> {
        pos.with(
            pos.pos
                .play_joint_all(&merge(&[&first, &second], G::players())),
        )
    }
}

/// The features of the view's side ([`Player::FIRST`]) or of that side's
/// rival in the game ([`Player::SECOND`]), by the game's network.
fn side_features<G: Evaluate>(
    view: &TwoSided<G>,
    side: Player,
    scratch: &mut Vec<u16>,
) -> FeatureSet {
    let b = G::NETWORK.expect("a network of the game");
    let seen_by = if side == Player::FIRST {
        view.us
    } else {
        (b.rival)(view.us)
    };
    (b.features)(&view.pos, seen_by, scratch)
}

/// The view's values are the side's ([`Player::FIRST`]) at every node.
fn the_side<G>(_: &TwoSided<G>) -> Player {
    Player::FIRST
}

/// The game's value for the side, from the view's perspective.
impl<G: Evaluate> Evaluate for TwoSided<G> {
    const TERMS: &'static [&'static str] = G::TERMS;

    /// The game's network, reading the side's view of the game against its
    /// rival's: the network's value for the side, whoever is to move.
    const NETWORK: Option<BuiltinNetwork<Self>> = match G::NETWORK {
        Some(b) => Some(BuiltinNetwork {
            game: b.game,
            inputs: b.inputs,
            bytes: b.bytes,
            played_by_default: b.played_by_default,
            features: side_features::<G>,
            view: the_side::<G>,
            rival: Player::other,
        }),
        None => None,
    };

    fn evaluate(&self, terms: TermMask) -> i32 {
        let v = self.pos.evaluate_for(self.us, terms);
        if self.perspective() == Player::FIRST {
            v
        } else {
            -v
        }
    }

    fn move_hint(&self, m: Self::Move) -> i32 {
        match m[0] {
            Some(a) if matches!(self.pos.node(), NodeKind::Decision(_)) => self.pos.move_hint(a),
            _ => 0,
        }
    }
}
