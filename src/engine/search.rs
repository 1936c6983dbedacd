//! A search of any game's position, its moves written as text: the
//! searcher's own progress and verdict types with `String` for the move
//! ([`Texts`]), so that every layer above reads one shape whatever the
//! game.

use gamut_core::evaluate::Evaluate;
use gamut_core::game::Notation;
use gamut_core::moves::texts_along;
use gamut_search::{
    ChanceIteration, Iteration, Line, MixedResult, OutcomePlan, Progress, SearchResult, Verdict,
};

/// A search result's moves written as text.
pub trait Texts<G: Notation> {
    /// The same result with every move written as text at `pos`, the
    /// root it was searched from.
    type Written;

    /// Writes the moves of `self`, found at `pos`, as text.
    fn written(&self, pos: &G) -> Self::Written;
}

impl<G: Notation> Texts<G> for Iteration<G::Move> {
    type Written = Iteration<String>;

    fn written(&self, pos: &G) -> Iteration<String> {
        Iteration {
            depth: self.depth,
            score: self.score,
            nodes: self.nodes,
            time: self.time,
            hashfull: self.hashfull,
            pv: texts_along(pos, &self.pv),
            lines: self
                .lines
                .iter()
                .map(|l| Line {
                    score: l.score,
                    pv: texts_along(pos, &l.pv),
                })
                .collect(),
        }
    }
}

impl<G: Notation> Texts<G> for ChanceIteration<G::Move> {
    type Written = ChanceIteration<String>;

    fn written(&self, pos: &G) -> ChanceIteration<String> {
        ChanceIteration {
            depth: self.depth,
            expected: self.expected,
            nodes: self.nodes,
            time: self.time,
            outcomes: self
                .outcomes
                .iter()
                .map(|plan| OutcomePlan {
                    outcome: pos.move_text(plan.outcome),
                    probability: plan.probability,
                    score: plan.score,
                    pv: texts_along(&pos.play(plan.outcome), &plan.pv),
                })
                .collect(),
        }
    }
}

impl<G: Notation> Texts<G> for MixedResult<G::Move> {
    type Written = MixedResult<String>;

    fn written(&self, pos: &G) -> MixedResult<String> {
        let strategy = |s: &[(G::Move, f64)]| -> Vec<(String, f64)> {
            s.iter().map(|&(m, p)| (pos.move_text(m), p)).collect()
        };
        MixedResult {
            value: self.value,
            depth: self.depth,
            nodes: self.nodes,
            time: self.time,
            entries: self.entries,
            evaluated: self.evaluated,
            strategies: [strategy(&self.strategies[0]), strategy(&self.strategies[1])],
        }
    }
}

impl<G: Notation> Texts<G> for Verdict<G::Move> {
    type Written = Verdict<String>;

    fn written(&self, pos: &G) -> Verdict<String> {
        match self {
            Verdict::Over(o) => Verdict::Over(o.clone()),
            Verdict::Decision(r) => Verdict::Decision(SearchResult {
                best: pos.move_text(r.best),
                score: r.score,
                depth: r.depth,
                nodes: r.nodes,
                pv: texts_along(pos, &r.pv),
            }),
            Verdict::Chance(it) => Verdict::Chance(it.written(pos)),
            Verdict::Simultaneous(m) => Verdict::Simultaneous(m.written(pos)),
            Verdict::Stopped => Verdict::Stopped,
        }
    }
}

/// Hands `observe` each progress report of a search of `pos`, its moves
/// written as text.
pub fn observe_texts<G: Evaluate + Notation>(
    pos: &G,
    progress: Progress<'_, G::Move>,
    observe: &mut dyn FnMut(Progress<'_, String>),
) {
    match progress {
        Progress::Decision(it) => observe(Progress::Decision(&it.written(pos))),
        Progress::Chance(it) => observe(Progress::Chance(&it.written(pos))),
        Progress::Simultaneous(m) => observe(Progress::Simultaneous(&m.written(pos))),
    }
}
