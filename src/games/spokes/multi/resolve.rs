//! Resolution on the four-player board: crowded steps first, then pulls and
//! pushes of single stones; the outcomes are the rest boards and the boards
//! of unbreakable loops, found as the terminal strongly connected
//! components of the graph of reachable boards.

use super::board::{Board, Cell, Sets};
use crate::games::spokes::board::{Colour, Node, NodeSet};
use crate::games::spokes::resolve::StateLimitExceeded;
use crate::games::spokes::tables::{ADJACENT, NO_NODE, PERPENDICULAR, STRAIGHT};
use rustc_hash::FxHashMap;

/// One outcome of a resolution: the final board, and whether it is the
/// board left by an unbreakable loop (after the removal).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Resolved {
    /// The board after the resolution (after removal for a loop).
    pub board: Board,
    /// Whether the resolution ended in an unbreakable loop.
    pub looped: bool,
}

/// The nodes a crowded node `n` may send a stone to: for loose stones of
/// colour `c`, adjacent empty nodes and singles of the other colour, or
/// only if there are none adjacent singles of `c`; for two blocks, adjacent
/// empty nodes, or only if there are none adjacent singles.
fn crowded_targets(s: &Sets, n: Node, cell: Cell) -> NodeSet {
    let near = ADJACENT[n.index()];
    let (first, then) = if cell.loose() > 0 {
        let c = cell.colour().index();
        (near & (s.empty | s.singles[1 - c]), near & s.singles[c])
    } else {
        (near & s.empty, near & s.all_singles())
    };
    if first.is_empty() {
        then
    } else {
        first
    }
}

/// Calls `f` with every board one resolution step from `b`, and returns
/// whether two single stones are adjacent on `b`.
///
/// While some crowded node has a step, only crowded steps are given;
/// otherwise every pull and push of two adjacent single stones.
pub fn for_each_step(b: &Board, mut f: impl FnMut(Board)) -> bool {
    let s = b.sets();
    let mut crowded_steps = false;
    for n in s.crowded.iter() {
        let cell = b.get(n);
        for t in crowded_targets(&s, n, cell).iter() {
            crowded_steps = true;
            let mut next = *b;
            let landed = if cell.loose() > 0 {
                next.set(n, cell.without_loose());
                b.get(t).with_stone(cell.colour())
            } else {
                next.set(n, Cell::BLOCK);
                b.get(t).with_block()
            };
            next.set(
                t,
                landed.expect("a stone lands on an empty node or a single"),
            );
            f(next);
        }
    }
    let singles = s.all_singles();
    let mut adjacent = false;
    for u in singles.iter() {
        let near = ADJACENT[u.index()] & singles;
        if near.is_empty() {
            continue;
        }
        adjacent = true;
        if crowded_steps {
            break;
        }
        let cu = if s.singles[0].has(u) {
            Colour::White
        } else {
            Colour::Black
        };
        for v in near.iter().filter(|v| v.0 > u.0) {
            if s.singles[cu.index()].has(v) {
                push(b, &s, cu, u, v, &mut f);
                push(b, &s, cu, v, u, &mut f);
            } else {
                // Pulls: the pulled stone joins the other, making a block.
                for (from, to) in [(u, v), (v, u)] {
                    let mut next = *b;
                    next.set(from, Cell::EMPTY);
                    next.set(to, Cell::BLOCK);
                    f(next);
                }
            }
        }
    }
    adjacent
}

/// The boards after single stone `q` of colour `c` is pushed by `p`.
fn push(b: &Board, s: &Sets, c: Colour, p: Node, q: Node, f: &mut impl FnMut(Board)) {
    let r = STRAIGHT[p.index()][q.index()];
    let mut go = |t: Node| {
        let mut next = *b;
        next.set(q, Cell::EMPTY);
        next.set(t, b.get(t).with_stone(c).expect("lands on empty or single"));
        f(next);
    };
    if r != NO_NODE {
        let r = Node(r);
        if s.empty.has(r) || s.singles[c.other().index()].has(r) {
            go(r);
            return;
        }
    }
    for t in (PERPENDICULAR[p.index()][q.index()] & s.empty).iter() {
        go(t);
    }
}

/// The board left when an unbreakable loop ends the game on `b`: every
/// single stone adjacent to another single stone, and every crowded node
/// that still has a step (all its stones, blocks included), is removed.
pub fn loop_removal(b: &Board) -> Board {
    let s = b.sets();
    let singles = s.all_singles();
    let mut next = *b;
    for u in singles.iter() {
        if !(ADJACENT[u.index()] & singles).is_empty() {
            next.set(u, Cell::EMPTY);
        }
    }
    for n in s.crowded.iter() {
        if !(ADJACENT[n.index()] & (s.empty | singles)).is_empty() {
            next.set(n, Cell::EMPTY);
        }
    }
    next
}

/// Whether `b` is at rest: no step, and no two single stones adjacent.
pub fn at_rest(b: &Board) -> bool {
    let mut steps = false;
    let adjacent = for_each_step(b, |_| steps = true);
    !steps && !adjacent
}

const UNSEEN: u32 = u32::MAX;

/// One board on the depth-first search stack: its successors are
/// `succ[start..end]`, of which those before `next` are done.
struct Frame {
    v: u32,
    start: u32,
    next: u32,
    end: u32,
}

/// Reusable work space for resolutions: the boards met and the arrays of
/// an iterative Tarjan search for strongly connected components.
#[derive(Default)]
pub struct Resolver {
    ids: FxHashMap<Board, u32>,
    states: Vec<Board>,
    index: Vec<u32>,
    low: Vec<u32>,
    on_stack: Vec<bool>,
    exits: Vec<bool>,
    restless: Vec<bool>,
    succ: Vec<u32>,
    frames: Vec<Frame>,
    stack: Vec<u32>,
    scratch: Vec<Board>,
    counter: u32,
    limit: usize,
}

impl Resolver {
    /// Appends to `out` (cleared first) the outcomes of resolving `start`,
    /// sorted and without repeats; fails if more than `limit` boards are
    /// reachable.
    pub fn outcomes(
        &mut self,
        start: &Board,
        limit: usize,
        out: &mut Vec<Resolved>,
    ) -> Result<(), StateLimitExceeded> {
        out.clear();
        self.scratch.clear();
        let scratch = &mut self.scratch;
        let restless = for_each_step(start, |b| scratch.push(b));
        if self.scratch.is_empty() {
            out.push(sink_outcome(start, restless));
            return Ok(());
        }
        self.limit = limit.max(1);
        let result = self.search(start, out);
        self.ids.clear();
        self.states.clear();
        self.index.clear();
        self.low.clear();
        self.on_stack.clear();
        self.exits.clear();
        self.restless.clear();
        self.succ.clear();
        self.frames.clear();
        self.stack.clear();
        self.counter = 0;
        result?;
        out.sort_unstable();
        out.dedup();
        Ok(())
    }

    fn search(&mut self, start: &Board, out: &mut Vec<Resolved>) -> Result<(), StateLimitExceeded> {
        let root = self.id(*start)?;
        self.visit(root)?;
        while let Some(top) = self.frames.last_mut() {
            let v = top.v as usize;
            if top.next < top.end {
                let w = self.succ[top.next as usize] as usize;
                top.next += 1;
                if self.index[w] == UNSEEN {
                    self.visit(w as u32)?;
                } else if self.on_stack[w] {
                    self.low[v] = self.low[v].min(self.index[w]);
                } else {
                    self.exits[v] = true;
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
                if self.on_stack[v] {
                    self.low[u] = self.low[u].min(self.low[v]);
                } else {
                    self.exits[u] = true;
                }
            }
        }
        Ok(())
    }

    /// Pops the component rooted at `v` off the Tarjan stack and, if no
    /// step leads out of it, records its outcomes.
    fn close_component(&mut self, v: usize, sink: bool, out: &mut Vec<Resolved>) {
        let from = self
            .stack
            .iter()
            .rposition(|&m| m as usize == v)
            .expect("the root is on the stack");
        let members = &self.stack[from..];
        if members.iter().all(|&m| !self.exits[m as usize]) {
            if members.len() == 1 && sink {
                out.push(sink_outcome(&self.states[v], self.restless[v]));
            } else {
                for &m in members {
                    out.push(Resolved {
                        board: loop_removal(&self.states[m as usize]),
                        looped: true,
                    });
                }
            }
        }
        for &m in members {
            self.on_stack[m as usize] = false;
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
        self.on_stack[vi] = true;
        let board = self.states[vi];
        self.scratch.clear();
        let scratch = &mut self.scratch;
        self.restless[vi] = for_each_step(&board, |b| scratch.push(b));
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
    fn id(&mut self, b: Board) -> Result<u32, StateLimitExceeded> {
        if let Some(&id) = self.ids.get(&b) {
            return Ok(id);
        }
        if self.states.len() >= self.limit {
            return Err(StateLimitExceeded { limit: self.limit });
        }
        let id = self.states.len() as u32;
        self.ids.insert(b, id);
        self.states.push(b);
        self.index.push(UNSEEN);
        self.low.push(0);
        self.on_stack.push(false);
        self.exits.push(false);
        self.restless.push(false);
        Ok(id)
    }
}

/// The outcome of a board with no step: at rest, or an unbreakable loop
/// when single stones are adjacent.
fn sink_outcome(b: &Board, restless: bool) -> Resolved {
    if restless {
        Resolved {
            board: loop_removal(b),
            looped: true,
        }
    } else {
        Resolved {
            board: *b,
            looped: false,
        }
    }
}
