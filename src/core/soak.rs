//! Soak runs: random games played to the end with every invariant of the
//! [`Game`] trait checked at every ply.
//!
//! At each position [`check_position`] checks that its text parses back to
//! it and prints the same; that the incremental hash equals the hash from
//! scratch, for the position and for each of its children; that every
//! child's text parses back to the same move; that the node kind, the
//! outcome and the lists of moves agree (a terminal node has an outcome
//! and no children, a decision node has moves and speaks for its player,
//! chance probabilities sum to 1); and that the children's own perft
//! counts add up to perft(1). At a simultaneous node with more than
//! [`JOINT_SAMPLE`] joint actions a sample of them is checked instead (with
//! more than two players a random sample, seeded by the position), and
//! a joint action whose moves take more than [`SOAK_WORK_LIMIT`] units of
//! work to list (a Spokes resolution of more boards) is checked without
//! its count.

use crate::game::{Child, Game, Listing, ListingBudget, NodeKind, NodeRules, Notation, Player};
use crate::moves::named_children;
use crate::perft;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

/// How many joint actions of a simultaneous node are checked at most.
pub const JOINT_SAMPLE: usize = 16;

/// The most work (in the game's measure: boards of a Spokes resolution)
/// spent listing the moves after one sampled joint action; the random
/// player also draws again (up to [`REDRAWS`] times) a joint action whose
/// moves cost more.
pub const SOAK_WORK_LIMIT: usize = 20_000;

/// How many times the random player draws a joint action again when its
/// moves cost more than [`SOAK_WORK_LIMIT`].
pub const REDRAWS: usize = 4;

/// What a soak run found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Games played.
    pub games: u64,
    /// Positions checked (plies played, plus each game's first position).
    pub plies: u64,
    /// Individual invariant checks made.
    pub checks: u64,
    /// Failed checks, each as one line naming the position.
    pub failures: Vec<String>,
}

impl Tally {
    /// Adds `other`'s counts and failures to this tally.
    pub fn absorb(&mut self, other: Tally) {
        self.games += other.games;
        self.plies += other.plies;
        self.checks += other.checks;
        self.failures.extend(other.failures);
    }
}

/// Counts checks and records the failed ones for one position.
struct Checker<'a> {
    text: &'a str,
    checks: u64,
    failures: Vec<String>,
}

impl Checker<'_> {
    fn check(&mut self, ok: bool, what: impl FnOnce() -> String) {
        self.checks += 1;
        if !ok {
            self.failures.push(format!("{} at '{}'", what(), self.text));
        }
    }
}

/// Checks every invariant at `pos` (see the module documentation); returns
/// the number of checks made and a line for each that failed.
pub fn check_position<G: Notation>(pos: &G) -> (u64, Vec<String>) {
    let text = pos.text();
    let mut c = Checker {
        text: &text,
        checks: 0,
        failures: Vec::new(),
    };
    match G::parse(&text) {
        Ok(back) => {
            c.check(back == *pos, || "text parses to another position".into());
            c.check(back.text() == text, || "text is not canonical".into());
        }
        Err(e) => c.check(false, || format!("text does not parse ({e})")),
    }
    c.check(pos.hash() == pos.hash_from_scratch(), || {
        "incremental hash differs from the hash from scratch".into()
    });
    // One scratch for the node, so a game that works its moves out at some
    // cost (Spokes' resolutions) does so once for all these checks.
    let mut scratch = G::Scratch::default();
    check_node(pos, &mut scratch, &mut c);
    let kids = named_children(pos, children_checked(pos));
    c.check(kids.windows(2).all(|w| w[0].0 != w[1].0), || {
        "two children have the same text".into()
    });
    let cost = perft::child_cost(pos);
    // Each joint action of a simultaneous node needs its own resolution,
    // which can be slow: past JOINT_SAMPLE of them an evenly spread sample
    // is checked, and the sum against perft(1) is left out.
    let stride = match pos.node() {
        NodeKind::Simultaneous => kids.len().div_ceil(JOINT_SAMPLE).max(1),
        _ => 1,
    };
    // With more than two players the children are already a sample.
    let sampled = pos.node() == NodeKind::Simultaneous && G::players() > 2;
    let mut below = 0;
    let mut counted_all = true;
    let mut listed = Vec::new();
    let capped = ListingBudget::capped(SOAK_WORK_LIMIT);
    for (child_text, child) in kids.iter().step_by(stride) {
        let next = perft::child_position(pos, child);
        c.check(next.hash() == next.hash_from_scratch(), || {
            format!("after '{child_text}' the incremental hash differs from the hash from scratch")
        });
        check_child_text(pos, child_text, child, &mut scratch, &mut c);
        if pos.node() == NodeKind::Simultaneous && matches!(next.node(), NodeKind::Decision(_)) {
            // The moves after a joint action, within the work limit.
            match next.moves_within(&mut listed, &mut scratch, &capped) {
                Listing::GaveUp => counted_all = false,
                _ => below += listed.len() as u64,
            }
        } else {
            below += perft::perft(&next, 1 - cost);
        }
    }
    if stride == 1 && counted_all && !sampled {
        let total = perft::perft(pos, 1);
        c.check(below == total, || {
            format!("children count {below} below them, perft(1) is {total}")
        });
    }
    (c.checks, c.failures)
}

/// Node kind, outcome, perspective and move lists agree.
fn check_node<G: Game>(pos: &G, scratch: &mut G::Scratch, c: &mut Checker) {
    let mut moves = Vec::new();
    pos.moves_with(&mut moves, scratch);
    let outcome = pos.outcome();
    c.check(
        outcome.is_some() == (pos.node() == NodeKind::Terminal),
        || format!("node {:?} with outcome {outcome:?}", pos.node()),
    );
    match pos.node() {
        NodeKind::Terminal => {
            c.check(moves.is_empty(), || "terminal node with moves".into());
            if let Some(o) = outcome {
                if let Some(points) = o.points {
                    // A winner has at least the loser's points (ties may
                    // be broken by the game's own rules).
                    let consistent = match o.winner {
                        Some(w) => points[w.index()] >= points[w.other().index()],
                        None => points[0] == points[1],
                    };
                    c.check(consistent, || {
                        format!("result {o} disagrees with its points")
                    });
                }
            }
        }
        NodeKind::Decision(p) => {
            c.check(!moves.is_empty(), || "decision node without moves".into());
            let count = pos.move_count_with(scratch);
            c.check(count == moves.len(), || {
                format!("move_count {count} but {} moves", moves.len())
            });
            c.check(pos.perspective() == p, || {
                "perspective is not the player to move".into()
            });
        }
        NodeKind::Chance => {
            let total: f64 = moves.iter().map(|&m| pos.probability(m)).sum();
            c.check(!moves.is_empty() && (total - 1.0).abs() < 1e-9, || {
                format!("chance probabilities sum to {total}")
            });
            c.check(moves.iter().all(|&m| pos.probability(m) > 0.0), || {
                "a chance outcome has no positive probability".into()
            });
        }
        NodeKind::Simultaneous => {
            for p in (0..G::players()).map(Player::nth) {
                pos.actions(p, &mut moves);
                c.check(!moves.is_empty(), || format!("{p} has no action"));
            }
        }
    }
}

/// The child's text parses back: a move to the same move, a joint action's
/// two halves each to an action with the same text.
fn check_child_text<G: Notation>(
    pos: &G,
    text: &str,
    child: &Child<G::Move>,
    scratch: &mut G::Scratch,
    c: &mut Checker,
) {
    match *child {
        Child::Move(m) => {
            let back = pos.parse_move_with(text, scratch);
            c.check(back == Ok(m), || {
                format!("move text '{text}' parses to {back:?}")
            });
        }
        Child::Joint(..) | Child::Joints(_) => {
            let actions = match child {
                Child::Joint(a, b) => vec![*a, *b],
                Child::Joints(all) => all.clone(),
                Child::Move(_) => Vec::new(),
            };
            for m in actions {
                let own = pos.move_text(m);
                let back = pos.parse_move_with(&own, scratch).map(|x| pos.move_text(x));
                c.check(back.as_deref() == Ok(own.as_str()), || {
                    format!("action text '{own}' parses to {back:?}")
                });
            }
        }
    }
}

/// A random child of non-terminal `pos`: a uniform move or joint action
/// (drawn again while its moves cost more than [`SOAK_WORK_LIMIT`], at most
/// [`REDRAWS`] times), or a chance outcome drawn by its probability.
pub fn random_child<G: Game>(pos: &G, rng: &mut impl Rng) -> Option<G> {
    let mut moves = Vec::new();
    match pos.node() {
        NodeKind::Terminal => None,
        NodeKind::Decision(_) => {
            pos.moves(&mut moves);
            let m = *moves.get(rng.gen_range(0..moves.len().max(1)))?;
            Some(pos.play(m))
        }
        NodeKind::Chance => {
            pos.moves(&mut moves);
            let mut x = rng.gen::<f64>();
            let last = *moves.last()?;
            let m = moves
                .iter()
                .copied()
                .find(|&m| {
                    x -= pos.probability(m);
                    x < 0.0
                })
                .unwrap_or(last);
            Some(pos.play(m))
        }
        NodeKind::Simultaneous => {
            let lists = perft::action_lists(pos);
            let mut scratch = G::Scratch::default();
            let mut listed = Vec::new();
            let capped = ListingBudget::capped(SOAK_WORK_LIMIT);
            let mut draws = 0;
            loop {
                let next = pos.play_joint_all(&random_joint(&lists, rng)?);
                draws += 1;
                if draws > REDRAWS
                    || next.moves_within(&mut listed, &mut scratch, &capped) != Listing::GaveUp
                {
                    return Some(next);
                }
            }
        }
    }
}

/// One uniformly drawn action of each player, from each player's list;
/// `None` if a player has none.
fn random_joint<M: Copy>(lists: &[Vec<M>], rng: &mut impl Rng) -> Option<Vec<M>> {
    lists
        .iter()
        .map(|list| list.get(rng.gen_range(0..list.len().max(1))).copied())
        .collect()
}

/// The children `pos`'s checks go through: all of them, except at a
/// simultaneous node of more than two players (a four-player Spokes round
/// has 32 million joint placements), where [`JOINT_SAMPLE`] joint actions
/// are drawn, seeded by the position's hash so a run repeats.
fn children_checked<G: Game>(pos: &G) -> Vec<Child<G::Move>> {
    if pos.node() != NodeKind::Simultaneous || G::players() == 2 {
        return perft::children(pos);
    }
    let lists = perft::action_lists(pos);
    let mut rng = SmallRng::seed_from_u64(pos.hash());
    let mut seen = std::collections::HashSet::new();
    (0..JOINT_SAMPLE)
        .filter_map(|_| random_joint(&lists, &mut rng))
        .filter(|joint| seen.insert(joint.clone()))
        .map(Child::Joints)
        .collect()
}

/// Plays one random game of `G` from its start position with the given
/// seed, to the end or to the game's ply limit, checking every position on
/// the way.
#[must_use]
pub fn soak_one<G: Notation>(seed: u64) -> Tally {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut pos = G::start();
    let mut tally = Tally {
        games: 1,
        ..Tally::default()
    };
    for _ in 0..=G::INFO.ply_limit {
        let (checks, failures) = check_position(&pos);
        tally.plies += 1;
        tally.checks += checks;
        let failed = !failures.is_empty();
        tally.failures.extend(
            failures
                .into_iter()
                .map(|f| format!("{} game seed {seed}: {f}", G::ID)),
        );
        if failed {
            break;
        }
        match random_child(&pos, &mut rng) {
            Some(next) => pos = next,
            None => break,
        }
    }
    tally
}
