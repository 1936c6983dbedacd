//! Spokes' input features for the learned evaluation ([`gamut_core::nnue`]),
//! two-player game only: what each node holds, the resolver, and the
//! stones of each colour still off the board, seen from one player's view
//! with the board turned half a circle for player 2, so that each player
//! sees its own home on H1–H8.
//!
//! - 5 × 45: a white single, a black single, a white double, a black
//!   double or a block, by node as the viewer sees the board;
//! - 2: the viewer resolves this round; the other player does;
//! - 1: the viewer is player 2 (who wins a tie of home and semicircle);
//! - 2 × 4: stones of white, then black, still off the board: fewer than
//!   2 (the colour cannot be placed), 4, 8, 16.
//!
//! Both colours are the players' alike, so swapping them is a symmetry of
//! the rules ([`Features::MIRROR`]).

use super::board::{Colour, Content, Node, NodeSet, CIRCLE_LEN, CIRCLE_START, NODES};
use super::movegen::STONES_PER_COLOUR;
use super::{Spokes, SpokesBoard};
use gamut_core::game::Player;
use gamut_core::nnue::{BuiltinNetwork, FeatureSet, Features, MAX_INPUTS};

/// Nodes of the board, as a feature count.
const N: u16 = NODES as u16;
/// The first feature of each kind of content, in [`content_kind`]'s order.
const CONTENT: u16 = 0;
/// The feature "the viewer resolves this round" (the next is "the other
/// player does").
const RESOLVER: u16 = 5 * N;
/// The feature "the viewer is player 2".
const SECOND: u16 = RESOLVER + 2;
/// The first of white's stones-off-the-board features (black's follow).
const LEFT: u16 = SECOND + 1;
/// The thresholds of the stones-off-the-board features.
const LEFT_BELOW: [u32; 4] = [2, 4, 8, 16];
/// The stones-off-the-board features: one per colour and threshold.
pub(crate) const LEFT_FEATURES: u16 = 2 * LEFT_BELOW.len() as u16;

/// Calls `add` with the stones-off-the-board features of `board`, from
/// feature `first` on: for white, then black, each threshold of
/// [`LEFT_BELOW`] that the colour's stones still off the board are below
/// (under 2 the colour cannot be placed).
pub(crate) fn stones_left(board: &impl SpokesBoard, first: u16, mut add: impl FnMut(u16)) {
    for (i, c) in Colour::BOTH.into_iter().enumerate() {
        let left = STONES_PER_COLOUR - board.stones_of(c);
        for (j, &below) in LEFT_BELOW.iter().enumerate() {
            if left < below {
                add(first + (i * LEFT_BELOW.len() + j) as u16);
            }
        }
    }
}

/// Stones-off-the-board feature `f` (of those from `first` on) with the
/// colours swapped.
pub(crate) fn swap_left(f: u16, first: u16) -> u16 {
    let per = LEFT_FEATURES / 2;
    first + (f - first + per) % LEFT_FEATURES
}

/// The kind of `c` (0–4) if a node holds it, in the features' order.
fn content_kind(c: Content) -> Option<u16> {
    match c {
        Content::Empty => None,
        Content::Single(Colour::White) => Some(0),
        Content::Single(Colour::Black) => Some(1),
        Content::Double(Colour::White) => Some(2),
        Content::Double(Colour::Black) => Some(3),
        Content::Block => Some(4),
    }
}

/// Node `n` as side `k` of `parts` sides sees the board: every circle
/// turned back by `k` parts of its length (A stays), so that each side
/// sees its own home where side 0 sees its own.
pub(crate) fn turned(n: Node, k: usize, parts: usize) -> u16 {
    let circle = n.circle();
    if k == 0 || circle == 0 {
        return n.0.into();
    }
    let len = CIRCLE_LEN[circle];
    let turned = (n.number() - 1 + len - k * len / parts) % len;
    (CIRCLE_START[circle] + turned) as u16
}

/// Node set `set` as side `k` of `parts` sides sees the board
/// ([`turned`] on every node).
pub(crate) fn turned_set(set: NodeSet, k: usize, parts: usize) -> u64 {
    if k == 0 {
        return set.0;
    }
    let mut out = set.0 & 1;
    for circle in 1..CIRCLE_LEN.len() {
        let (start, len) = (CIRCLE_START[circle], CIRCLE_LEN[circle]);
        let (mask, by) = ((1u64 << len) - 1, k * len / parts);
        let x = (set.0 >> start) & mask;
        let turned = ((x >> by) | (x << (len - by))) & mask;
        out |= turned << start;
    }
    out
}

/// Node `n` as player `view` sees the board: turned half a circle for
/// player 2 (A stays).
fn seen(n: Node, view: Player) -> u16 {
    turned(n, view.index(), 2)
}

/// Sets the bits of `bits` (below bit [`NODES`]) in `words` from feature
/// `first` on.
pub(crate) fn put(words: &mut [u64; MAX_INPUTS / 64], first: u16, bits: u64) {
    let (word, shift) = (usize::from(first / 64), first % 64);
    words[word] |= bits << shift;
    if shift > 0 && word + 1 < words.len() {
        words[word + 1] |= bits >> (64 - shift);
    }
}

/// Calls `add` with the features of `pos` seen by `view` that are not
/// node contents: the resolver, the seat and the stones off the board.
fn beyond_the_board(pos: &Spokes, view: Player, mut add: impl FnMut(u16)) {
    add(RESOLVER + u16::from(pos.resolver() != view));
    if view == Player::SECOND {
        add(SECOND);
    }
    stones_left(pos.board(), LEFT, add);
}

impl Features for Spokes {
    const INPUTS: usize = (LEFT + LEFT_FEATURES) as usize;

    fn features(&self, view: Player, out: &mut Vec<u16>) {
        out.clear();
        let b = self.board();
        for n in b.occupied().iter() {
            if let Some(kind) = content_kind(b.content(n)) {
                out.push(CONTENT + kind * N + seen(n, view));
            }
        }
        beyond_the_board(self, view, |f| out.push(f));
    }

    /// The contents from the board's node sets, turned for player 2 a
    /// circle at a time; the rest as [`Features::features`] lists it.
    fn feature_set(&self, view: Player, _scratch: &mut Vec<u16>) -> FeatureSet {
        let b = self.board();
        let mut words = [0; MAX_INPUTS / 64];
        let kinds = [
            b.singles(Colour::White),
            b.singles(Colour::Black),
            b.doubles_of(Colour::White),
            b.doubles_of(Colour::Black),
            b.blocks(),
        ];
        for (kind, set) in (0..).zip(kinds) {
            put(
                &mut words,
                CONTENT + kind * N,
                turned_set(set, view.index(), 2),
            );
        }
        beyond_the_board(self, view, |f| words[usize::from(f / 64)] |= 1 << (f % 64));
        FeatureSet::from_words(words)
    }

    /// White and black swapped: singles and doubles change colour, blocks
    /// stay, and so do the resolver and the seat.
    const MIRROR: Option<fn(u16) -> u16> = Some(|f| {
        if f < RESOLVER {
            let (kind, node) = (f / N, f % N);
            let swapped = match kind {
                0 | 2 => kind + 1,
                1 | 3 => kind - 1,
                _ => kind,
            };
            swapped * N + node
        } else if f >= LEFT {
            swap_left(f, LEFT)
        } else {
            f
        }
    });
}

/// The network two-player Spokes evaluates with: `spokes.net`, trained by
/// `tools/train.sh spokes` (see `docs/nnue.md`), unless a search is
/// handed another (`--net`). Two-player Spokes' default evaluation (it beats the classic
/// terms at depth 2, docs/results.md); the four-player games have none.
pub const NETWORK: BuiltinNetwork<Spokes> = BuiltinNetwork::new(include_bytes!("spokes.net"), true);

#[cfg(test)]
mod tests {
    use super::*;
    use gamut_core::game::Notation;

    #[test]
    fn player_two_sees_its_home_where_player_one_sees_its_own() {
        for i in 0..NODES as u8 {
            let n = Node(i);
            let s = seen(n, Player::SECOND);
            let back = Node(s as u8);
            assert_eq!(back.circle(), n.circle());
            assert_eq!(
                seen(back, Player::SECOND),
                u16::from(i),
                "half a turn twice"
            );
        }
        let h9 = Node::parse("H9").unwrap();
        assert_eq!(
            seen(h9, Player::SECOND),
            u16::from(Node::parse("H1").unwrap().0)
        );
        let b3 = Node::parse("B3").unwrap();
        assert_eq!(
            seen(b3, Player::SECOND),
            u16::from(Node::parse("B1").unwrap().0)
        );
    }

    #[test]
    fn features_name_contents_resolver_seat_and_stones_left() {
        // A white single on D1 and a block on H9, round 2 (player 2
        // resolves).
        let pos = Spokes::parse("1/4/8/w15/8X7 2").unwrap();
        let mut f = Vec::new();
        pos.features(Player::FIRST, &mut f);
        let d1 = u16::from(Node::parse("D1").unwrap().0);
        let h9 = u16::from(Node::parse("H9").unwrap().0);
        let h1 = u16::from(Node::parse("H1").unwrap().0);
        let d9 = u16::from(Node::parse("D9").unwrap().0);
        assert_eq!(f, vec![d1, 4 * N + h9, RESOLVER + 1]);
        pos.features(Player::SECOND, &mut f);
        assert_eq!(f, vec![d9, 4 * N + h1, RESOLVER, SECOND]);
        let mirror = Spokes::MIRROR.unwrap();
        assert_eq!(mirror(d1), N + d1);
        assert_eq!(mirror(3 * N + d1), 2 * N + d1);
        assert_eq!(mirror(4 * N + h9), 4 * N + h9);
        assert_eq!(mirror(LEFT), LEFT + 4);
        assert_eq!(mirror(LEFT + 7), LEFT + 3);
        assert_eq!(Spokes::INPUTS, 236);
    }
}
