//! The analysis of a position of a game of more than two players
//! ([`gamut_search::sides_analysis`]: every side's paranoid search, the
//! side against all the others) for any game, its moves written as text:
//! each step of the two-sided view a [`TupleText`], one action per player
//! of the side that chose it.

use crate::listing::{Listed, Listing};
use crate::search::{observe_written, verdict, Writer};
use gamut_core::evaluate::FullGame;
use gamut_core::game::{NodeKind, Player};
use gamut_search::mcts::{MctsResult, SideResult};
use gamut_search::sides::{Tuple, TwoSided};
use gamut_search::sides_analysis::{Ended, Schedule, SidesAnalysis, SidesReport};
use gamut_search::{Config, Limits, Progress, Table, Verdict};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

/// A step of a side's two-sided search, written: one action per player
/// that chose it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TupleText {
    /// Each player's action's text, by player index (a decision's move or
    /// a chance outcome at index 0).
    pub actions: Tuple<String>,
    /// Whether the step is a decision of the game (its move at index 0).
    pub decision: bool,
    /// A decision's short text, where the analysis was asked for them.
    pub short: Option<String>,
}

impl TupleText {
    /// The step's text: its actions' texts joined by `+` (a joint choice
    /// of a side of several players).
    #[must_use]
    pub fn text(&self) -> String {
        let texts: Vec<&str> = self.actions.iter().flatten().map(String::as_str).collect();
        texts.join("+")
    }
}

/// What a [`SidesAnalysis`] reports, written.
pub enum SidesText<'a> {
    /// An iteration of side `us`'s search.
    Iteration {
        /// The side searched.
        us: Player,
        /// The iteration.
        progress: Progress<'a, TupleText>,
    },
    /// Side `us`'s search has ended.
    Searched {
        /// The side searched.
        us: Player,
        /// What the search found.
        verdict: &'a Verdict<TupleText>,
        /// Whether it completed its depth.
        completed: bool,
    },
}

/// What an analysis of the sides is asked for ([`SidesAnalysis::new`]).
pub struct SidesPlan<'a> {
    /// The sides searched, in order.
    pub sides: Vec<Player>,
    /// The actions kept per player in tuples of several players.
    pub width: usize,
    /// How the sides share the limits.
    pub schedule: Schedule,
    /// The limits.
    pub limits: Limits,
    /// Whether the table is cleared before each search
    /// ([`SidesAnalysis::with_fresh_table`]).
    pub fresh_table: bool,
    /// The position's moves, listed, where decisions are to be given
    /// their short texts ([`TupleText::short`]) too; a listing of
    /// another position is not used.
    pub shorts: Option<&'a Listing>,
}

/// A [`SidesAnalysis`] of any game, its reports written.
pub trait AnySidesAnalysis: Send {
    /// Searches on as [`SidesAnalysis::run`] does, each report written.
    fn run(
        &mut self,
        config: &Config,
        tt: &Table,
        stop: Option<&AtomicBool>,
        report: &mut dyn FnMut(SidesText<'_>) -> bool,
    ) -> Ended;
    /// Moves the deadline by `paused` ([`SidesAnalysis::pause`]).
    fn pause(&mut self, paused: Duration);
    /// Each side searched so far, in order, with its verdict, written
    /// ([`SidesAnalysis::verdicts`]).
    fn verdicts(&self) -> Vec<(Player, Verdict<TupleText>)>;
}

/// Tuples written at the view's position, decisions with their short
/// texts where `all` (the root's moves) is given.
struct Tuples<'a, G: FullGame> {
    all: Option<&'a [G::Move]>,
}

impl<G: FullGame> Writer<TwoSided<G>> for Tuples<'_, G> {
    type Out = TupleText;

    fn write(&self, at: &TwoSided<G>, t: Tuple<G::Move>, root: bool) -> TupleText {
        let pos = &at.pos;
        let decision = matches!(pos.node(), NodeKind::Decision(_)) && t[0].is_some();
        let short = match (self.all, t[0]) {
            (Some(all), Some(m)) if decision => Some(if root {
                pos.short_move_texts(&[m], all).swap_remove(0)
            } else {
                pos.short_move_text(m)
            }),
            _ => None,
        };
        TupleText {
            actions: t.map(|a| a.map(|a| pos.move_text(a))),
            decision,
            short,
        }
    }
}

/// The analysis of game `G`'s position, with the root's moves where
/// shorts are asked for.
pub(crate) struct Analysis<G: FullGame> {
    inner: SidesAnalysis<G>,
    pos: G,
    width: usize,
    all: Option<Arc<Vec<G::Move>>>,
}

impl<G: FullGame> Analysis<G> {
    pub(crate) fn new(pos: &G, plan: SidesPlan<'_>) -> Analysis<G> {
        let width = plan.width;
        let mut inner = SidesAnalysis::new(
            pos.clone(),
            plan.sides,
            plan.width,
            plan.schedule,
            plan.limits,
        );
        if plan.fresh_table {
            inner = inner.with_fresh_table();
        }
        let all = plan
            .shorts
            .and_then(|l| l.as_any().downcast_ref::<Listed<G>>())
            .filter(|l| l.pos == *pos)
            .map(|l| Arc::clone(&l.moves));
        Analysis {
            inner,
            pos: pos.clone(),
            width,
            all,
        }
    }
}

impl<G: FullGame> AnySidesAnalysis for Analysis<G> {
    fn run(
        &mut self,
        config: &Config,
        tt: &Table,
        stop: Option<&AtomicBool>,
        report: &mut dyn FnMut(SidesText<'_>) -> bool,
    ) -> Ended {
        let w = Tuples::<G> {
            all: self.all.as_deref().map(Vec::as_slice),
        };
        self.inner.run(config, tt, stop, &mut |r| match r {
            SidesReport::Iteration { view, progress } => {
                let mut go_on = true;
                observe_written(view, progress, &w, &mut |progress| {
                    go_on = report(SidesText::Iteration {
                        us: view.us,
                        progress,
                    });
                });
                go_on
            }
            SidesReport::Searched {
                view,
                verdict: v,
                completed,
            } => report(SidesText::Searched {
                us: view.us,
                verdict: &verdict(v, view, &w),
                completed,
            }),
        })
    }

    fn pause(&mut self, paused: Duration) {
        self.inner.pause(paused);
    }

    fn verdicts(&self) -> Vec<(Player, Verdict<TupleText>)> {
        let w = Tuples::<G> { all: None };
        self.inner
            .verdicts()
            .iter()
            .map(|(side, v)| {
                // Each side's verdict was found at its own view of the root.
                let view = TwoSided::new(self.pos.clone(), *side, self.width);
                (*side, verdict(v, &view, &w))
            })
            .collect()
    }
}

/// Tuple `t` of `pos`'s players' actions, each written as its text.
fn tuple_texts<G: FullGame>(pos: &G, t: &Tuple<G::Move>) -> Tuple<String> {
    t.map(|a| a.map(|a| pos.move_text(a)))
}

/// Result `r` of a sampling search of `pos`, its moves written as text.
pub(crate) fn mcts_written<G: FullGame>(pos: &G, r: &MctsResult<G::Move>) -> MctsResult<String> {
    MctsResult {
        iterations: r.iterations,
        nodes: r.nodes,
        time: r.time,
        sides: r
            .sides
            .iter()
            .map(|s| SideResult {
                side: s.side,
                strategy: s
                    .strategy
                    .iter()
                    .map(|(t, p)| (tuple_texts(pos, t), *p))
                    .collect(),
                expected: s.expected,
            })
            .collect(),
        best: r.best.map(|m| pos.move_text(m)),
    }
}
