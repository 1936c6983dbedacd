//! The four-player variants' input features for the learned evaluation
//! ([`gamut_core::nnue`]), seen from one side (a player in `spokes4`, a
//! team in `spokes2v2`) with the board turned so that each side sees its
//! own home where side 1 sees its own (a quarter of each circle per seat in
//! `spokes4`, half of it per team in `spokes2v2`):
//!
//! - 8 × 45: at least one, two and three loose white stones, the same of
//!   black, at least one and two blocks, by node as the side sees the
//!   board;
//! - 4: the round's resolver is the side's first player, the next one in
//!   seat order, the one after, or the last (in `spokes2v2` the first two
//!   are the side's own team);
//! - 2 × 4: stones of white, then black, still off the board: fewer than
//!   2 (the colour cannot be placed), 4, 8, 16.
//!
//! Both colours are every player's alike, so swapping them is a symmetry
//! of the rules ([`Features::MIRROR`]). A network of a side reads its own
//! view against the view of the side across the table (its rival,
//! [`Features::rival`]): the seat two places on in `spokes4`, the other
//! team in `spokes2v2`.

use super::{homes, FourSeats, SpokesMulti};
use crate::spokes::board::NODES;
use crate::spokes::net::{stones_left, swap_left, turned, LEFT_FEATURES};
use crate::spokes::Seats;
use gamut_core::game::Player;
use gamut_core::nnue::Features;

/// Nodes of the board, as a feature count.
const N: u16 = NODES as u16;
/// Kinds of node content: loose stones of each colour at least 1, 2, 3,
/// then blocks at least 1, 2.
const KINDS: u16 = 8;
/// The first of the four resolver features.
const RESOLVER: u16 = KINDS * N;
/// The first of white's stones-off-the-board features (black's follow).
const LEFT: u16 = RESOLVER + 4;

/// The sides of the variant: four players, or two teams.
fn sides(teams: bool) -> usize {
    homes(teams).len()
}

impl<const TEAMS: bool> Features for SpokesMulti<TEAMS> {
    const INPUTS: usize = (LEFT + LEFT_FEATURES) as usize;

    fn features(&self, view: Player, out: &mut Vec<u16>) {
        out.clear();
        let (k, parts) = (view.index(), sides(TEAMS));
        for (n, cell) in self.board().cells() {
            let at = turned(n, k, parts);
            let loose = cell.loose().min(3) as u16;
            let colour = cell.colour().index() as u16;
            for i in 0..loose {
                out.push((3 * colour + i) * N + at);
            }
            for i in 0..cell.blocks().min(2) as u16 {
                out.push((6 + i) * N + at);
            }
        }
        let first_seat = k * FourSeats::<TEAMS>::PLAYERS / parts;
        let relation = (self.resolver().index() + 4 - first_seat) % 4;
        out.push(RESOLVER + relation as u16);
        stones_left(self.board(), LEFT, |f| out.push(f));
    }

    /// The seat across the table in `spokes4`; the other team in
    /// `spokes2v2`.
    fn rival(view: Player) -> Player {
        Player::nth((view.index() + sides(TEAMS) / 2) % sides(TEAMS))
    }

    /// White and black swapped: loose stones change colour, blocks stay,
    /// and so does the resolver.
    const MIRROR: Option<fn(u16) -> u16> = Some(|f| {
        if f < 6 * N {
            (f + 3 * N) % (6 * N)
        } else if f >= LEFT {
            swap_left(f, LEFT)
        } else {
            f
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spokes::board::Node;
    use crate::spokes::score::{HALVES, QUARTERS};
    use crate::spokes::{Spokes2v2, Spokes4};
    use gamut_core::game::{Game, Notation};

    #[test]
    fn each_side_sees_its_own_home_where_side_one_sees_its_own() {
        for k in 0..4 {
            for n in QUARTERS.home[k].iter() {
                assert!(
                    QUARTERS.home[0].has(Node(turned(n, k, 4) as u8)),
                    "player {} home node {n:?}",
                    k + 1
                );
            }
        }
        for k in 0..2 {
            for n in HALVES.home[k].iter() {
                assert!(HALVES.home[0].has(Node(turned(n, k, 2) as u8)));
            }
        }
    }

    #[test]
    fn rivals_sit_across_the_table() {
        let r4: Vec<usize> = (0..4)
            .map(|v| Spokes4::rival(Player::nth(v)).index())
            .collect();
        assert_eq!(r4, [2, 3, 0, 1]);
        assert_eq!(Spokes2v2::rival(Player::FIRST), Player::SECOND);
        assert_eq!(Spokes2v2::rival(Player::SECOND), Player::FIRST);
    }

    #[test]
    fn features_count_stones_blocks_resolver_and_stones_left() {
        let pos = Spokes4::start();
        let mut f = Vec::new();
        pos.features(Player::FIRST, &mut f);
        // An empty board in round 1: player 1 resolves; every colour has
        // all its stones left.
        assert_eq!(f, [RESOLVER]);
        pos.features(Player::nth(3), &mut f);
        assert_eq!(f, [RESOLVER + 1], "player 1 follows player 4");
        let crowded = Spokes4::parse("[XX]/w1b1/5b1b/4b2w2K[Xw]4/16 5 resolve").unwrap();
        crowded.features(Player::FIRST, &mut f);
        let kinds: Vec<u16> = f.iter().filter(|&&x| x < RESOLVER).map(|x| x / N).collect();
        // A holds two blocks: kinds 6 and 7.
        assert!(kinds.contains(&6) && kinds.contains(&7), "{kinds:?}");
        let mirror = <Spokes4 as Features>::MIRROR.unwrap();
        for &x in &f {
            assert_eq!(mirror(mirror(x)), x);
            assert!(usize::from(x) < Spokes4::INPUTS);
        }
    }
}
