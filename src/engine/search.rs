//! A search of any game's position, its moves written out: the searcher's
//! own progress and verdict types with the move written by a [`Writer`]
//! (as text, [`Plain`]; as text and short text, [`Shown`]), so that every
//! layer above reads one shape whatever the game.

use gamut_core::game::{Diagram, Game, Notation};
use gamut_search::{
    ChanceIteration, Iteration, Line, MixedResult, OutcomePlan, Progress, SearchResult, Verdict,
};

/// How the moves of a search of game `P` are written.
pub trait Writer<P: Game> {
    /// A move written.
    type Out;

    /// Move `m` of `at`, written; `root` where `at` is the position
    /// searched.
    fn write(&self, at: &P, m: P::Move, root: bool) -> Self::Out;
}

/// Moves written as their texts.
pub struct Plain;

impl<G: Notation> Writer<G> for Plain {
    type Out = String;

    fn write(&self, at: &G, m: G::Move, _root: bool) -> String {
        at.move_text(m)
    }
}

/// A move as a person reads it: its text and its short text
/// ([`Diagram::short_move_texts`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step {
    /// The move's text.
    pub text: String,
    /// Its short text (`gamut moves --short`'s).
    pub short: String,
}

/// Moves written as [`Step`]s: a move of the root found among `all`, the
/// root's moves (listed once), a later one at its own position.
pub struct Shown<'a, G: Game> {
    /// Every move of the root.
    pub all: &'a [G::Move],
}

impl<G: Notation + Diagram> Writer<G> for Shown<'_, G> {
    type Out = Step;

    fn write(&self, at: &G, m: G::Move, root: bool) -> Step {
        let short = if root {
            at.short_move_texts(&[m], self.all).swap_remove(0)
        } else {
            at.short_move_text(m)
        };
        Step {
            text: at.move_text(m),
            short,
        }
    }
}

/// The moves of `line` played from `pos`, written (the first as a move of
/// the root where `root`).
fn along<P: Game, W: Writer<P>>(pos: &P, line: &[P::Move], w: &W, root: bool) -> Vec<W::Out> {
    let mut p = pos.clone();
    let mut out = Vec::with_capacity(line.len());
    for (i, &m) in line.iter().enumerate() {
        out.push(w.write(&p, m, root && i == 0));
        p = p.play(m);
    }
    out
}

/// Iteration `it` at root `pos`, its moves written by `w`.
pub fn iteration<P: Game, W: Writer<P>>(
    it: &Iteration<P::Move>,
    pos: &P,
    w: &W,
) -> Iteration<W::Out> {
    Iteration {
        depth: it.depth,
        score: it.score,
        nodes: it.nodes,
        time: it.time,
        hashfull: it.hashfull,
        pv: along(pos, &it.pv, w, true),
        lines: it
            .lines
            .iter()
            .map(|l| Line {
                score: l.score,
                pv: along(pos, &l.pv, w, true),
            })
            .collect(),
    }
}

/// Chance iteration `it` at root `pos`, its moves written by `w`.
pub fn chance_iteration<P: Game, W: Writer<P>>(
    it: &ChanceIteration<P::Move>,
    pos: &P,
    w: &W,
) -> ChanceIteration<W::Out> {
    ChanceIteration {
        depth: it.depth,
        expected: it.expected,
        nodes: it.nodes,
        time: it.time,
        outcomes: it
            .outcomes
            .iter()
            .map(|plan| OutcomePlan {
                outcome: w.write(pos, plan.outcome, true),
                probability: plan.probability,
                score: plan.score,
                pv: along(&pos.play(plan.outcome), &plan.pv, w, false),
            })
            .collect(),
    }
}

/// Mixed result `m` at root `pos`, its actions written by `w`.
pub fn mixed<P: Game, W: Writer<P>>(
    m: &MixedResult<P::Move>,
    pos: &P,
    w: &W,
) -> MixedResult<W::Out> {
    let strategy = |s: &[(P::Move, f64)]| -> Vec<(W::Out, f64)> {
        s.iter().map(|&(a, p)| (w.write(pos, a, true), p)).collect()
    };
    MixedResult {
        value: m.value,
        depth: m.depth,
        nodes: m.nodes,
        time: m.time,
        entries: m.entries,
        evaluated: m.evaluated,
        strategies: [strategy(&m.strategies[0]), strategy(&m.strategies[1])],
    }
}

/// Verdict `v` of a search of `pos`, its moves written by `w`.
pub fn verdict<P: Game, W: Writer<P>>(v: &Verdict<P::Move>, pos: &P, w: &W) -> Verdict<W::Out> {
    match v {
        Verdict::Over(o) => Verdict::Over(o.clone()),
        Verdict::Decision(r) => Verdict::Decision(SearchResult {
            best: w.write(pos, r.best, true),
            score: r.score,
            depth: r.depth,
            nodes: r.nodes,
            pv: along(pos, &r.pv, w, true),
        }),
        Verdict::Chance(it) => Verdict::Chance(chance_iteration(it, pos, w)),
        Verdict::Simultaneous(m) => Verdict::Simultaneous(mixed(m, pos, w)),
        Verdict::Stopped => Verdict::Stopped,
    }
}

/// Hands `observe` progress report `progress` of a search of `pos`, its
/// moves written by `w`.
pub fn observe_written<P: Game, W: Writer<P>>(
    pos: &P,
    progress: Progress<'_, P::Move>,
    w: &W,
    observe: &mut dyn FnMut(Progress<'_, W::Out>),
) {
    match progress {
        Progress::Decision(it) => observe(Progress::Decision(&iteration(it, pos, w))),
        Progress::Chance(it) => observe(Progress::Chance(&chance_iteration(it, pos, w))),
        Progress::Simultaneous(m) => observe(Progress::Simultaneous(&mixed(m, pos, w))),
    }
}
