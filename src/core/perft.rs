//! Perft: counting the leaves of the game tree to a given depth, exactly as
//! the rules define it, for every node kind.
//!
//! `perft(p, 0) = 1`; for `n ≥ 1` a terminal `p` counts 0, a decision node
//! sums `perft(child, n - 1)` over its moves, and chance and simultaneous
//! nodes sum `perft(child, n)` over their outcomes or joint actions (they use
//! no depth). At the last ply of a decision node the moves are only counted.

use crate::game::{Child, Game, NodeKind, NodeRules, Player, SimultaneousRules};
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};
use std::sync::mpsc;

/// The deepest count perft accepts. Counting recurses once per ply (and
/// once more per chance or simultaneous node on the way), so a depth the
/// user chooses must be bounded for the recursion to fit a thread's stack;
/// a thousand plies is far beyond any count that finishes (two moves a ply
/// make 2^1000 leaves) and a few hundred KiB of stack on any thread.
pub const MAX_DEPTH: u32 = 1000;

/// Reusable move buffers, one per ply, and the game's scratch space, so
/// that counting allocates nothing per node. One per thread.
pub struct Buffers<G: Game> {
    levels: Vec<Vec<G::Move>>,
    scratch: G::Scratch,
}

impl<G: Game> Default for Buffers<G> {
    fn default() -> Self {
        Buffers {
            levels: Vec::new(),
            scratch: G::Scratch::default(),
        }
    }
}

impl<G: Game> Buffers<G> {
    fn take(&mut self, level: usize) -> Vec<G::Move> {
        if self.levels.len() <= level {
            self.levels.resize_with(level + 1, Vec::new);
        }
        std::mem::take(&mut self.levels[level])
    }

    fn give(&mut self, level: usize, v: Vec<G::Move>) {
        self.levels[level] = v;
    }
}

/// The perft count of `pos` at `depth`.
pub fn perft<G: Game>(pos: &G, depth: u32) -> u64 {
    count(pos, depth, 0, &mut Buffers::default())
}

/// The perft count of `pos` at `depth`, using `buf` for move lists.
pub fn count<G: Game>(pos: &G, depth: u32, level: usize, buf: &mut Buffers<G>) -> u64 {
    if depth == 0 {
        return 1;
    }
    match pos.node() {
        NodeKind::Terminal => 0,
        NodeKind::Decision(_) => {
            if depth == 1 {
                return pos.move_count_with(&mut buf.scratch) as u64;
            }
            let mut moves = buf.take(level);
            pos.moves_with(&mut moves, &mut buf.scratch);
            let total = moves
                .iter()
                .map(|&m| count(&pos.play(m), depth - 1, level + 1, buf))
                .sum();
            buf.give(level, moves);
            total
        }
        NodeKind::Chance => {
            let mut moves = buf.take(level);
            pos.moves_with(&mut moves, &mut buf.scratch);
            let total = moves
                .iter()
                .map(|&m| count(&pos.play(m), depth, level + 1, buf))
                .sum();
            buf.give(level, moves);
            total
        }
        NodeKind::Simultaneous if G::players() != 2 => {
            let lists = action_lists(pos);
            let mut total = 0;
            for_each_joint(
                &lists,
                <G::Simultaneous as SimultaneousRules<G>>::ANONYMOUS,
                None,
                |actions, ways| {
                    total += ways * count(&pos.play_joint_all(actions), depth, level + 1, buf);
                },
            );
            total
        }
        NodeKind::Simultaneous => {
            let mut first = buf.take(level);
            pos.actions(Player::FIRST, &mut first);
            let mut second = Vec::new();
            pos.actions(Player::SECOND, &mut second);
            let mut total = 0;
            for &a in &first {
                for &b in &second {
                    total += count(&pos.play_joint(a, b), depth, level + 1, buf);
                }
            }
            buf.give(level, first);
            total
        }
    }
}

/// Every player's actions at simultaneous node `pos`, in player order.
pub fn action_lists<G: Game>(pos: &G) -> Vec<Vec<G::Move>> {
    (0..G::players())
        .map(|p| {
            let mut v = Vec::new();
            pos.actions(Player::nth(p), &mut v);
            v
        })
        .collect()
}

/// Calls `f` with joint actions (one action from each list, in list order)
/// and how many joint actions each stands for. Every joint action once
/// with weight 1; or, when `anonymous` (all lists equal, and the child
/// depends only on the set of actions), each multiset once with its number
/// of orderings. `part`: only the joint actions whose first action (when
/// anonymous: whose earliest action in list order) is the list's `part`-th.
fn for_each_joint<M: Copy>(
    lists: &[Vec<M>],
    anonymous: bool,
    part: Option<usize>,
    mut f: impl FnMut(&[M], u64),
) {
    fn rec<M: Copy>(
        lists: &[Vec<M>],
        anonymous: bool,
        part: Option<usize>,
        picked: &mut Vec<usize>,
        joint: &mut Vec<M>,
        f: &mut impl FnMut(&[M], u64),
    ) {
        let k = picked.len();
        if k == lists.len() {
            let ways = if anonymous { orderings(picked) } else { 1 };
            f(joint, ways);
            return;
        }
        let (from, to) = match (k, part) {
            (0, Some(i)) => (i, (i + 1).min(lists[0].len())),
            _ if anonymous && k > 0 => (picked[k - 1], lists[k].len()),
            _ => (0, lists[k].len()),
        };
        for i in from..to {
            picked.push(i);
            joint.push(lists[k][i]);
            rec(lists, anonymous, part, picked, joint, f);
            picked.pop();
            joint.pop();
        }
    }
    if lists.iter().any(|l| l.is_empty()) {
        return;
    }
    rec(
        lists,
        anonymous,
        part,
        &mut Vec::new(),
        &mut Vec::new(),
        &mut f,
    );
}

/// The number of distinct orderings of the sorted indices `picked`.
fn orderings(picked: &[usize]) -> u64 {
    let factorial = |n: usize| (1..=n as u64).product::<u64>();
    let mut ways = factorial(picked.len());
    let mut run = 1;
    for w in picked.windows(2) {
        if w[0] == w[1] {
            run += 1;
        } else {
            ways /= factorial(run);
            run = 1;
        }
    }
    ways / factorial(run)
}

/// The children of `pos` in the game's order: the moves at a decision
/// node, the outcomes at a chance node, and the joint actions at a
/// simultaneous node (whose perft children are then the moves of the node
/// each joint action leads to). A caller that shows them names them
/// ([`crate::moves::named_children`]).
pub fn children<G: Game>(pos: &G) -> Vec<Child<G::Move>> {
    let mut out = Vec::new();
    match pos.node() {
        NodeKind::Terminal => {}
        NodeKind::Decision(_) | NodeKind::Chance => {
            let mut moves = Vec::new();
            pos.moves(&mut moves);
            out.extend(moves.into_iter().map(Child::Move));
        }
        NodeKind::Simultaneous if G::players() != 2 => {
            for_each_joint(&action_lists(pos), false, None, |actions, _| {
                out.push(Child::Joints(actions.to_vec()));
            });
        }
        NodeKind::Simultaneous => {
            let mut first = Vec::new();
            let mut second = Vec::new();
            pos.actions(Player::FIRST, &mut first);
            pos.actions(Player::SECOND, &mut second);
            for &a in &first {
                for &b in &second {
                    out.push(Child::Joint(a, b));
                }
            }
        }
    }
    out
}

/// The position a child leads to.
pub fn child_position<G: Game>(pos: &G, child: &Child<G::Move>) -> G {
    match *child {
        Child::Move(m) => pos.play(m),
        Child::Joint(a, b) => pos.play_joint(a, b),
        Child::Joints(ref all) => pos.play_joint_all(all),
    }
}

/// How much depth a child of `pos` uses: 1 below a decision node, 0 below
/// chance and simultaneous nodes.
pub fn child_cost<G: Game>(pos: &G) -> u32 {
    match pos.node() {
        NodeKind::Decision(_) => 1,
        _ => 0,
    }
}

/// Perft divided by child: each of `kids` (children of `pos`, each with
/// a label such as its text) with its count, in the order given, as
/// `gamut perft --divide` prints them, counted on `threads` threads.
pub fn divide<G: Game, L: Sync>(
    pos: &G,
    kids: Vec<(L, Child<G::Move>)>,
    depth: u32,
    threads: usize,
) -> Vec<(L, u64)> {
    let mut counts = Vec::with_capacity(kids.len());
    divide_each(pos, &kids, depth, threads, |_, n| counts.push(n));
    kids.into_iter()
        .map(|(label, _)| label)
        .zip(counts)
        .collect()
}

/// Counts `pos` at `depth` child by child, calling `each` with every
/// child's label (of `kids`, children of `pos`) and count in the order of
/// `kids`, as soon as that child and all before it are counted (so a
/// caller can print them as they come). `threads` > 1 count several
/// children at once, taking them in order. Returns the total.
pub fn divide_each<G: Game, L: Sync>(
    pos: &G,
    kids: &[(L, Child<G::Move>)],
    depth: u32,
    threads: usize,
    mut each: impl FnMut(&L, u64),
) -> u64 {
    if depth == 0 {
        return 1;
    }
    let cost = child_cost(pos);
    let count_child = |child: &Child<G::Move>| {
        count(
            &child_position(pos, child),
            depth - cost,
            0,
            &mut Buffers::default(),
        )
    };
    let mut total = 0;
    if crate::platform::threads(threads) <= 1 {
        for (label, child) in kids {
            let n = count_child(child);
            each(label, n);
            total += n;
        }
        return total;
    }
    let next = AtomicUsize::new(0);
    let (tx, rx) = mpsc::channel::<(usize, u64)>();
    std::thread::scope(|s| {
        for _ in 0..threads.min(kids.len()) {
            let tx = tx.clone();
            let (next, count_child) = (&next, &count_child);
            s.spawn(move || loop {
                let i = next.fetch_add(1, Relaxed);
                let Some((_, child)) = kids.get(i) else {
                    break;
                };
                if tx.send((i, count_child(child))).is_err() {
                    break;
                }
            });
        }
        drop(tx);
        let mut counted: Vec<Option<u64>> = vec![None; kids.len()];
        let mut shown = 0;
        for (i, n) in rx {
            counted[i] = Some(n);
            while let Some(Some(n)) = counted.get(shown) {
                each(&kids[shown].0, *n);
                total += n;
                shown += 1;
            }
        }
    });
    total
}

/// The perft count of `pos` at `depth`, with the root's children spread over
/// `threads` threads.
pub fn perft_threads<G: Game>(pos: &G, depth: u32, threads: usize) -> u64 {
    if crate::platform::threads(threads) <= 1 {
        return perft(pos, depth);
    }
    count_parts(pos, depth, threads, || {})
}

/// Whether `pos` is counted in parts other than its children: a
/// simultaneous node of more than two players, whose joint actions are too
/// many to list, is counted one action of the first list at a time (and
/// [`children`] should not be listed to divide it).
pub fn counted_by_action<G: Game>(pos: &G) -> bool {
    G::players() != 2 && pos.node() == NodeKind::Simultaneous
}

/// How many parts [`count_parts`] splits the count of `pos` into (the
/// length of a progress bar).
pub fn part_count<G: Game>(pos: &G) -> usize {
    if counted_by_action(pos) {
        action_lists(pos)[0].len()
    } else {
        children(pos).len()
    }
}

/// The perft count of `pos` at `depth` on `threads` threads, calling
/// `done` as each of its [`part_count`] parts is counted: the root's
/// children, or at a simultaneous node of more than two players the joint
/// actions grouped by an action of the first player's list.
pub fn count_parts<G: Game>(pos: &G, depth: u32, threads: usize, mut done: impl FnMut()) -> u64 {
    if depth == 0 {
        return 1;
    }
    if !counted_by_action(pos) {
        let kids: Vec<((), Child<G::Move>)> = children(pos).into_iter().map(|c| ((), c)).collect();
        return divide_each(pos, &kids, depth, threads, |_, _| done());
    }
    let lists = action_lists(pos);
    let anonymous = <G::Simultaneous as SimultaneousRules<G>>::ANONYMOUS;
    let count_part = |i: usize| {
        let mut buf = Buffers::default();
        let mut total = 0;
        for_each_joint(&lists, anonymous, Some(i), |actions, ways| {
            total += ways * count(&pos.play_joint_all(actions), depth, 1, &mut buf);
        });
        total
    };
    let parts = lists[0].len();
    let mut total = 0;
    if !crate::platform::THREADS {
        for i in 0..parts {
            total += count_part(i);
            done();
        }
        return total;
    }
    let next = AtomicUsize::new(0);
    let (tx, rx) = mpsc::channel::<u64>();
    std::thread::scope(|s| {
        for _ in 0..threads.clamp(1, parts.max(1)) {
            let tx = tx.clone();
            let (next, count_part) = (&next, &count_part);
            s.spawn(move || loop {
                let i = next.fetch_add(1, Relaxed);
                if i >= parts || tx.send(count_part(i)).is_err() {
                    break;
                }
            });
        }
        drop(tx);
        for n in rx {
            total += n;
            done();
        }
    });
    total
}
