//! Resolution: the outcomes the resolver may choose among (rest states and
//! unbreakable loops), found as the terminal strongly connected components
//! of the graph of reachable boards, for any board that knows its steps
//! ([`Steps`]); and the steps of the two-player board.

use super::board::{Board, Colour, Node, NodeSet};
use super::tables::{ADJACENT, NO_NODE, PERPENDICULAR, STRAIGHT};
use gamut_core::game::{Listing, ListingBudget};
use std::fmt;
use std::hash::Hasher;

/// The default bound on the number of boards one resolution may visit.
pub const DEFAULT_STATE_LIMIT: usize = 5_000_000;

/// A board as resolution sees it: the steps from it, the removal an
/// unbreakable loop makes on it, and a hash for the resolver's table. The
/// two-player [`Board`] and the four-player board are the two kinds.
pub trait Steps: Copy + Eq + Ord + std::hash::Hash + fmt::Debug {
    /// Calls `f` with every board one resolution step from `self`, and
    /// returns whether two single stones are adjacent on it.
    fn for_each_step(&self, f: impl FnMut(Self)) -> bool;

    /// The board left when an unbreakable loop ends the game on `self`.
    fn loop_removal(&self) -> Self;

    /// The board packed in three words.
    fn words(&self) -> [u64; 3];

    /// A hash of the board for the resolver's open-addressing table.
    fn slot_hash(&self) -> u64 {
        let mut h = rustc_hash::FxHasher::default();
        for w in self.words() {
            h.write_u64(w);
        }
        h.finish()
    }
}

/// Calls `f` with every board one resolution step from `b`, and returns
/// whether two single stones are adjacent on `b`.
pub fn for_each_step<B: Steps>(b: &B, f: impl FnMut(B)) -> bool {
    b.for_each_step(f)
}

/// The board left when an unbreakable loop ends the game on `b`.
pub fn loop_removal<B: Steps>(b: &B) -> B {
    b.loop_removal()
}

/// Whether `b` is at rest: no step, and no two single stones adjacent.
pub fn at_rest<B: Steps>(b: &B) -> bool {
    let mut steps = false;
    let adjacent = b.for_each_step(|_| steps = true);
    !steps && !adjacent
}

/// One outcome of a resolution: the final board, and whether it is the
/// board left by an unbreakable loop (after the removal).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Resolved<B = Board> {
    /// The board after the resolution (after removal for a loop).
    pub board: B,
    /// Whether the resolution ended in an unbreakable loop.
    pub looped: bool,
}

/// A resolution reached more boards than its limit allows.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct StateLimitExceeded {
    /// The limit that was exceeded.
    pub limit: usize,
}

impl fmt::Display for StateLimitExceeded {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "resolution reaches more than {} boards; raise the state limit",
            self.limit
        )
    }
}

impl std::error::Error for StateLimitExceeded {}

impl Steps for Board {
    /// While some double has a step, only double steps are given; otherwise
    /// every pull and push of two adjacent single stones.
    fn for_each_step(&self, mut f: impl FnMut(Board)) -> bool {
        let b = self;
        let empty = b.empty();
        let mut double_steps = false;
        for n in b.doubles.iter() {
            let c = if b.white.has(n) {
                Colour::White
            } else {
                Colour::Black
            };
            let own = b.singles(c);
            let other = b.singles(c.other());
            let near = ADJACENT[n.index()];
            let first = near & (empty | other);
            let targets = if first.is_empty() { near & own } else { first };
            for t in targets.iter() {
                double_steps = true;
                let mut next = *b;
                next.doubles ^= n.bit();
                if own.has(t) {
                    next.doubles |= t.bit();
                } else {
                    *next.colour_mut(c) |= t.bit();
                }
                f(next);
            }
        }
        single_steps(
            b,
            [b.singles(Colour::White), b.singles(Colour::Black)],
            empty,
            double_steps,
            &mut f,
        )
    }

    /// Every single stone adjacent to another single stone, and every double
    /// that still has a step (both its stones), is removed.
    fn loop_removal(&self) -> Board {
        let b = self;
        let gone = loop_gone(b.all_singles(), b.empty(), b.doubles);
        Board {
            white: b.white & !gone,
            black: b.black & !gone,
            doubles: b.doubles & !gone,
        }
    }

    fn words(&self) -> [u64; 3] {
        [self.white.0, self.black.0, self.doubles.0]
    }
}

/// A board as the steps of its single stones see it (the same on both
/// boards): moving one single stone.
pub trait Singles: Copy {
    /// Whether a pull gives first the board where the stone on the higher
    /// node moved (the order the resolver meets the boards in, which a
    /// partial listing sees).
    const PULL_HIGHER_FIRST: bool;

    /// The board after the single stone of colour `c` on `from` moves to
    /// `to` (an empty node, or a single of the other colour: then a block).
    fn moved(&self, c: Colour, from: Node, to: Node) -> Self;
}

/// Calls `f` with every pull and push of two adjacent single stones of `b`
/// (`singles`: its single stones by colour; `empty`: its empty nodes),
/// unless `stacked_steps` (a double or crowded node has a step: then only
/// those are given); returns whether two single stones are adjacent.
#[inline(always)]
pub fn single_steps<B: Singles>(
    b: &B,
    singles: [NodeSet; 2],
    empty: NodeSet,
    stacked_steps: bool,
    f: &mut impl FnMut(B),
) -> bool {
    let all = singles[0] | singles[1];
    let mut adjacent = false;
    for u in all.iter() {
        let near = ADJACENT[u.index()] & all;
        if near.is_empty() {
            continue;
        }
        adjacent = true;
        if stacked_steps {
            break;
        }
        let cu = if singles[0].has(u) {
            Colour::White
        } else {
            Colour::Black
        };
        for v in near.iter().filter(|v| v.0 > u.0) {
            if singles[cu.index()].has(v) {
                push(b, singles, empty, cu, u, v, f);
                push(b, singles, empty, cu, v, u, f);
            } else {
                // Pulls: the pulled stone joins the other, making a block.
                let cv = cu.other();
                if B::PULL_HIGHER_FIRST {
                    f(b.moved(cv, v, u));
                    f(b.moved(cu, u, v));
                } else {
                    f(b.moved(cu, u, v));
                    f(b.moved(cv, v, u));
                }
            }
        }
    }
    adjacent
}

/// The boards after single stone `q` of colour `c` is pushed by `p`.
#[inline(always)]
fn push<B: Singles>(
    b: &B,
    singles: [NodeSet; 2],
    empty: NodeSet,
    c: Colour,
    p: Node,
    q: Node,
    f: &mut impl FnMut(B),
) {
    let r = STRAIGHT[p.index()][q.index()];
    if r != NO_NODE {
        let r = Node(r);
        if empty.has(r) || singles[c.other().index()].has(r) {
            f(b.moved(c, q, r));
            return;
        }
    }
    for t in (PERPENDICULAR[p.index()][q.index()] & empty).iter() {
        f(b.moved(c, q, t));
    }
}

/// The nodes an unbreakable loop empties: every single stone adjacent to
/// another single stone, and every node of `stacked` (doubles, crowded
/// nodes) that still has a step.
#[must_use]
pub fn loop_gone(singles: NodeSet, empty: NodeSet, stacked: NodeSet) -> NodeSet {
    let mut gone = NodeSet::EMPTY;
    for u in singles.iter() {
        if !(ADJACENT[u.index()] & singles).is_empty() {
            gone |= u.bit();
        }
    }
    for n in stacked.iter() {
        if !(ADJACENT[n.index()] & (empty | singles)).is_empty() {
            gone |= n.bit();
        }
    }
    gone
}

impl Singles for Board {
    const PULL_HIGHER_FIRST: bool = true;

    #[inline(always)]
    fn moved(&self, c: Colour, from: Node, to: Node) -> Board {
        let mut next = *self;
        *next.colour_mut(c) ^= from.bit() | to.bit();
        next
    }
}

/// How many boards a resolution visits between two looks at its
/// budget's stop check.
const STOP_CHECK_BOARDS: usize = 1024;

const UNSEEN: u32 = u32::MAX;
const ON_STACK: u8 = 1;
const EXITS: u8 = 2;
const RESTLESS: u8 = 4;

/// One board on the depth-first search stack: its successors are
/// `succ[start..end]`, of which those before `next` are done.
struct Frame {
    v: u32,
    start: u32,
    next: u32,
    end: u32,
}

/// Reusable work space for resolutions: a table of the boards met, and the
/// arrays of an iterative Tarjan search for strongly connected components.
/// Nothing is allocated per board once the arrays have grown.
pub struct Resolver<B = Board> {
    slots: Vec<u32>,
    states: Vec<B>,
    index: Vec<u32>,
    low: Vec<u32>,
    flags: Vec<u8>,
    succ: Vec<u32>,
    frames: Vec<Frame>,
    stack: Vec<u32>,
    scratch: Vec<B>,
    counter: u32,
    limit: usize,
    /// The number of boards the last resolution visited.
    pub last_states: usize,
}

const SMALL_TABLE: usize = 1 << 10;
const KEEP_TABLE: usize = 1 << 16;

impl<B: Steps> Default for Resolver<B> {
    fn default() -> Self {
        Resolver::new()
    }
}

impl<B: Steps> Resolver<B> {
    /// An empty work space.
    #[must_use]
    pub fn new() -> Resolver<B> {
        Resolver {
            slots: vec![0; SMALL_TABLE],
            states: Vec::new(),
            index: Vec::new(),
            low: Vec::new(),
            flags: Vec::new(),
            succ: Vec::new(),
            frames: Vec::new(),
            stack: Vec::new(),
            scratch: Vec::new(),
            counter: 0,
            limit: DEFAULT_STATE_LIMIT,
            last_states: 0,
        }
    }

    /// Appends to `out` the outcomes of resolving `start` (a board just
    /// after placement), sorted and without repeats; fails if more than
    /// `limit` boards are reachable.
    pub fn outcomes(
        &mut self,
        start: &B,
        limit: usize,
        out: &mut Vec<Resolved<B>>,
    ) -> Result<(), StateLimitExceeded> {
        self.outcomes_within(start, limit, &ListingBudget::ALL, out)
            .map(|_| ())
    }

    /// [`outcomes`](Self::outcomes) within a search's `budget`: asks
    /// `budget.stop` every thousand boards (and gives up when it says
    /// so), once `budget.partial_after` boards are visited ends with the
    /// outcomes found so far, if there are any, and once
    /// `budget.give_up_after` boards are visited gives up. Every outcome listed is
    /// an outcome of the rules: a board at rest, or a member of a terminal
    /// component, found complete.
    pub fn outcomes_within(
        &mut self,
        start: &B,
        limit: usize,
        budget: &ListingBudget<'_>,
        out: &mut Vec<Resolved<B>>,
    ) -> Result<Listing, StateLimitExceeded> {
        out.clear();
        self.scratch.clear();
        let scratch = &mut self.scratch;
        let restless = start.for_each_step(|b| scratch.push(b));
        if self.scratch.is_empty() {
            self.last_states = 1;
            out.push(sink_outcome(start, restless));
            return Ok(Listing::Complete);
        }
        self.limit = limit.max(1);
        let result = self.search(start, budget, out);
        self.last_states = self.states.len();
        self.reset();
        let listing = result?;
        out.sort_unstable();
        out.dedup();
        Ok(listing)
    }

    fn reset(&mut self) {
        if self.slots.len() > KEEP_TABLE {
            *self = Resolver {
                last_states: self.last_states,
                ..Resolver::new()
            };
        } else {
            if self.states.len() * 16 < self.slots.len() {
                // Few boards: clear just their slots (every one is cleared,
                // so a probe may walk past slots already cleared).
                let mask = self.slots.len() - 1;
                for (id, b) in self.states.iter().enumerate() {
                    let mut i = b.slot_hash() as usize & mask;
                    while self.slots[i] != id as u32 + 1 {
                        i = (i + 1) & mask;
                    }
                    self.slots[i] = 0;
                }
            } else {
                self.slots.fill(0);
            }
            self.states.clear();
            self.index.clear();
            self.low.clear();
            self.flags.clear();
            self.succ.clear();
            self.frames.clear();
            self.stack.clear();
            self.counter = 0;
        }
    }

    fn search(
        &mut self,
        start: &B,
        budget: &ListingBudget<'_>,
        out: &mut Vec<Resolved<B>>,
    ) -> Result<Listing, StateLimitExceeded> {
        let partial_after = budget.partial_after.unwrap_or(usize::MAX);
        let give_up_after = budget.give_up_after.unwrap_or(usize::MAX);
        let mut next_check = STOP_CHECK_BOARDS;
        let root = self.id(*start)?;
        self.visit(root)?;
        while let Some(top) = self.frames.last_mut() {
            let v = top.v as usize;
            if top.next < top.end {
                let w = self.succ[top.next as usize] as usize;
                top.next += 1;
                if self.index[w] == UNSEEN {
                    if self.states.len() >= next_check {
                        next_check = self.states.len() + STOP_CHECK_BOARDS;
                        if (budget.stop)() {
                            return Ok(Listing::Stopped);
                        }
                    }
                    if self.states.len() >= partial_after && !out.is_empty() {
                        return Ok(Listing::Partial);
                    }
                    if self.states.len() >= give_up_after {
                        out.clear();
                        return Ok(Listing::GaveUp);
                    }
                    self.visit(w as u32)?;
                } else if self.flags[w] & ON_STACK != 0 {
                    self.low[v] = self.low[v].min(self.index[w]);
                } else {
                    self.flags[v] |= EXITS;
                }
                continue;
            }
            let sink = top.start == top.end;
            let start = top.start as usize;
            self.frames.pop();
            self.succ.truncate(start);
            if self.low[v] == self.index[v] {
                self.close_component(v, sink, out);
            }
            if let Some(parent) = self.frames.last() {
                let u = parent.v as usize;
                if self.flags[v] & ON_STACK != 0 {
                    self.low[u] = self.low[u].min(self.low[v]);
                } else {
                    self.flags[u] |= EXITS;
                }
            }
        }
        Ok(Listing::Complete)
    }

    /// Pops the component rooted at `v` off the Tarjan stack and, if no
    /// step leads out of it, records its outcomes.
    fn close_component(&mut self, v: usize, sink: bool, out: &mut Vec<Resolved<B>>) {
        let mut from = self.stack.len();
        loop {
            from -= 1;
            if self.stack[from] as usize == v {
                break;
            }
        }
        let members = &self.stack[from..];
        let terminal = members.iter().all(|&m| self.flags[m as usize] & EXITS == 0);
        if terminal {
            if members.len() == 1 && sink {
                let restless = self.flags[v] & RESTLESS != 0;
                out.push(sink_outcome(&self.states[v], restless));
            } else {
                for &m in members {
                    out.push(Resolved {
                        board: self.states[m as usize].loop_removal(),
                        looped: true,
                    });
                }
            }
        }
        for &m in members {
            self.flags[m as usize] &= !ON_STACK;
        }
        self.stack.truncate(from);
    }

    /// Starts the search of board `v`: numbers it and lists its successors.
    fn visit(&mut self, v: u32) -> Result<(), StateLimitExceeded> {
        let vi = v as usize;
        self.index[vi] = self.counter;
        self.low[vi] = self.counter;
        self.counter += 1;
        self.stack.push(v);
        self.flags[vi] |= ON_STACK;
        let board = self.states[vi];
        self.scratch.clear();
        let scratch = &mut self.scratch;
        if board.for_each_step(|b| scratch.push(b)) {
            self.flags[vi] |= RESTLESS;
        }
        let start = self.succ.len() as u32;
        for i in 0..self.scratch.len() {
            let w = self.id(self.scratch[i])?;
            self.succ.push(w);
        }
        let end = self.succ.len() as u32;
        self.frames.push(Frame {
            v,
            start,
            next: start,
            end,
        });
        Ok(())
    }

    /// The number of board `b`, adding it if it is new.
    fn id(&mut self, b: B) -> Result<u32, StateLimitExceeded> {
        let mask = self.slots.len() - 1;
        let mut i = b.slot_hash() as usize & mask;
        loop {
            match self.slots[i] {
                0 => break,
                s if self.states[s as usize - 1] == b => return Ok(s - 1),
                _ => i = (i + 1) & mask,
            }
        }
        if self.states.len() >= self.limit {
            return Err(StateLimitExceeded { limit: self.limit });
        }
        let id = self.states.len() as u32;
        self.states.push(b);
        self.index.push(UNSEEN);
        self.low.push(0);
        self.flags.push(0);
        self.slots[i] = id + 1;
        if self.states.len() * 2 > self.slots.len() {
            self.grow();
        }
        Ok(id)
    }

    fn grow(&mut self) {
        let size = self.slots.len() * 2;
        self.slots = vec![0; size];
        let mask = size - 1;
        for (id, b) in self.states.iter().enumerate() {
            let mut i = b.slot_hash() as usize & mask;
            while self.slots[i] != 0 {
                i = (i + 1) & mask;
            }
            self.slots[i] = id as u32 + 1;
        }
    }
}

/// The outcome of a board with no step: at rest, or an unbreakable loop
/// when single stones are adjacent.
fn sink_outcome<B: Steps>(b: &B, restless: bool) -> Resolved<B> {
    if restless {
        Resolved {
            board: b.loop_removal(),
            looped: true,
        }
    } else {
        Resolved {
            board: *b,
            looped: false,
        }
    }
}
