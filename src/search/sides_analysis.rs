//! The analysis of a game of more than two players: every side's
//! paranoid search ([`TwoSided`], the side against all the others) by
//! iterative deepening, each side in turn, reported through one callback.
//! `gamut analyze`, the engine protocol and the browser board all analyse
//! such games with [`SidesAnalysis`], and differ only in what they make of
//! its reports.

use super::sides::{Tuple, TwoSided};
use super::{run, Config, Limits, Progress, Table, Verdict};
use gamut_core::evaluate::Evaluate;
use gamut_core::game::{NodeKind, Player};
use gamut_core::platform::Instant;
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::time::Duration;

/// How the sides share an analysis's limits.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Schedule {
    /// Each side once, in turn, by its own iterative deepening within the
    /// limits (all of them, the time split evenly between the sides),
    /// every iteration reported. A raised stop flag ends the analysis
    /// after the search it stopped.
    InTurn,
    /// The sides deepen together: every side searched to depth 1, then
    /// every side to depth 2, and so on to the limits' depth (without one,
    /// until stopped), each search deepening from depth 1 again and
    /// reporting only its last iteration, the depth of its round. The
    /// limits' time is the whole analysis's, counted from
    /// [`SidesAnalysis::new`]; their nodes and clock are not used. A
    /// search that ends before its depth (stopped, or out of time) ends
    /// the analysis, which [`SidesAnalysis::run`] resumes with that side
    /// and depth.
    Rounds,
}

/// What a [`SidesAnalysis`] reports to its caller.
pub enum SidesReport<'a, G: Evaluate> {
    /// An iteration of a side's search (of [`TwoSided::us`], searched
    /// through `view`).
    Iteration {
        /// The side's view of the position searched.
        view: &'a TwoSided<G>,
        /// The iteration.
        progress: Progress<'a, Tuple<G::Move>>,
    },
    /// A side's search has ended.
    Searched {
        /// The side's view of the position searched.
        view: &'a TwoSided<G>,
        /// What the search found.
        verdict: &'a Verdict<Tuple<G::Move>>,
        /// Whether it completed its depth (always under
        /// [`Schedule::InTurn`]).
        completed: bool,
    },
}

/// How a run of a [`SidesAnalysis`] ended.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Ended {
    /// Every search asked for was made, the time ran out between
    /// searches, a report said to stop, or (under [`Schedule::InTurn`])
    /// the stop flag was raised.
    Done,
    /// Under [`Schedule::Rounds`], a search ended before its depth, or the
    /// stop flag was up before one started: running again searches that
    /// side to that depth again.
    CutShort,
}

/// The sides a multi-side analysis of `pos` searches: the mover's side at
/// a decision, every side otherwise.
pub fn sides_to_analyse<G: Evaluate>(pos: &G) -> Vec<Player> {
    match pos.node() {
        NodeKind::Decision(side) => vec![side],
        _ => (0..G::INFO.sides.len()).map(Player::nth).collect(),
    }
}

/// The analysis of a position by its sides' paranoid searches, resumable
/// after a [`Ended::CutShort`] run; see the module documentation.
pub struct SidesAnalysis<G: Evaluate> {
    pos: G,
    sides: Vec<Player>,
    width: usize,
    schedule: Schedule,
    limits: Limits,
    /// Whether the table is cleared before each search.
    fresh_table: bool,
    /// When [`Schedule::Rounds`] runs out of time.
    deadline: Option<Instant>,
    /// The round being searched ([`Schedule::Rounds`]).
    depth: u32,
    /// The index in `sides` of the next side to search.
    next: usize,
    /// Each side searched so far, in order, with its last verdict.
    verdicts: Vec<(Player, Verdict<Tuple<G::Move>>)>,
}

impl<G: Evaluate> SidesAnalysis<G> {
    /// The analysis of `pos` by the searches of `sides`, in that order,
    /// each keeping `width` actions per player in tuples of several
    /// players ([`TwoSided::new`]), within `limits` shared as `schedule`
    /// says.
    pub fn new(
        pos: G,
        sides: Vec<Player>,
        width: usize,
        schedule: Schedule,
        limits: Limits,
    ) -> Self {
        let deadline = limits.time.map(|t| Instant::now() + t);
        SidesAnalysis {
            pos,
            sides,
            width,
            schedule,
            limits,
            fresh_table: false,
            deadline,
            depth: 1,
            next: 0,
            verdicts: Vec::new(),
        }
    }

    /// This analysis with the table cleared before each search, so that
    /// every side's search is as it would be alone.
    #[must_use]
    pub fn with_fresh_table(self) -> Self {
        SidesAnalysis {
            fresh_table: true,
            ..self
        }
    }

    /// Moves the deadline of [`Schedule::Rounds`] by `paused`, a time the
    /// analysis waited that its limits do not count.
    pub fn pause(&mut self, paused: Duration) {
        self.deadline = self.deadline.map(|d| d + paused);
    }

    /// Each side searched so far, in order, with its verdict: that of its
    /// deepest completed search, or of its one search that did not
    /// complete.
    #[must_use]
    pub fn verdicts(&self) -> &[(Player, Verdict<Tuple<G::Move>>)] {
        &self.verdicts
    }

    /// The verdicts of [`verdicts`](Self::verdicts), taken out.
    #[must_use]
    pub fn into_verdicts(self) -> Vec<(Player, Verdict<Tuple<G::Move>>)> {
        self.verdicts
    }

    /// Searches on, from where the analysis stands, on one thread of
    /// `config`'s kind with table `tt`, until it is done or cut short;
    /// `stop` stops it from outside. `report` is told every iteration the
    /// schedule reports and the end of every search; it returns `false`
    /// to end the analysis after the search under way.
    pub fn run(
        &mut self,
        config: &Config,
        tt: &Table,
        stop: Option<&AtomicBool>,
        report: &mut dyn FnMut(SidesReport<'_, G>) -> bool,
    ) -> Ended {
        let stopped = || stop.is_some_and(|s| s.load(Relaxed));
        match self.schedule {
            Schedule::InTurn => {
                let limits = Limits {
                    time: self.limits.time.map(|t| t / self.sides.len() as u32),
                    ..self.limits.clone()
                };
                while self.next < self.sides.len() {
                    let go_on = self.search(&limits, None, config, tt, stop, report).1;
                    self.next += 1;
                    if !go_on || stopped() {
                        break;
                    }
                }
                Ended::Done
            }
            Schedule::Rounds => {
                while self.depth <= self.limits.depth.unwrap_or(u32::MAX) {
                    while self.next < self.sides.len() {
                        let time = match self.deadline {
                            Some(d) => match d.checked_duration_since(Instant::now()) {
                                Some(left) if !left.is_zero() => Some(left),
                                _ => return Ended::Done,
                            },
                            None => None,
                        };
                        if stopped() {
                            return Ended::CutShort;
                        }
                        let limits = Limits {
                            depth: Some(self.depth),
                            time,
                            ..Limits::default()
                        };
                        let depth = Some(self.depth);
                        let (completed, go_on) =
                            self.search(&limits, depth, config, tt, stop, report);
                        if !completed {
                            return Ended::CutShort;
                        }
                        self.next += 1;
                        if !go_on {
                            return Ended::Done;
                        }
                    }
                    self.next = 0;
                    self.depth += 1;
                }
                Ended::Done
            }
        }
    }

    /// Searches the next side within `limits`, reporting only the
    /// iteration of depth `only` if given, and keeps its verdict: whether
    /// the search completed (reached `only`), and whether `report` said
    /// to go on.
    fn search(
        &mut self,
        limits: &Limits,
        only: Option<u32>,
        config: &Config,
        tt: &Table,
        stop: Option<&AtomicBool>,
        report: &mut dyn FnMut(SidesReport<'_, G>) -> bool,
    ) -> (bool, bool) {
        let side = self.sides[self.next];
        let view = TwoSided::new(self.pos.clone(), side, self.width);
        if self.fresh_table {
            tt.clear();
        }
        let mut completed = only.is_none();
        let mut go_on = true;
        let verdict = run(&view, limits, config, tt, stop, &mut |progress| {
            if only.is_none_or(|d| depth_of(&progress) == d) {
                completed = true;
                go_on &= report(SidesReport::Iteration {
                    view: &view,
                    progress,
                });
            }
        });
        go_on &= report(SidesReport::Searched {
            view: &view,
            verdict: &verdict,
            completed,
        });
        match self.verdicts.iter_mut().find(|(s, _)| *s == side) {
            Some(kept) if completed => kept.1 = verdict,
            Some(_) => {}
            None => self.verdicts.push((side, verdict)),
        }
        (completed, go_on)
    }
}

/// The depth an iteration completed.
fn depth_of<M>(p: &Progress<'_, M>) -> u32 {
    match p {
        Progress::Decision(it) => it.depth,
        Progress::Chance(it) => it.depth,
        Progress::Simultaneous(m) => m.depth,
    }
}
