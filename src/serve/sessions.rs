//! The server's search budget and the searches running in it: however
//! many pages analyse at once, their searches together use at most the
//! server's threads and hash, and each ends when its page goes away.
//!
//! The threads are shared out by a scheduler: a request waits in a queue
//! by its [`Kind`] (an engine move before a game's scoring before an
//! analysis, first come first served within a kind), and a search holding
//! threads that a more urgent request waits for is asked to yield them
//! (its `halt` flag raised): an analysis at once for an engine move or a
//! scoring, an analysis for a newer analysis once it has searched
//! [`FIRST_SLICE`], and for one that yielded before once it has searched
//! [`SLICE`] (round robin). An engine move never yields, nor does a long
//! listing of a position's moves (a Spokes resolution, which holds one
//! thread from its first thousands of boards to its end). A search that
//! yields goes to the back of the queue and resumes when its turn comes.

use gamut_engine::AnyGame;
use gamut_search::{Eval, Evaluation};
use serde_json::{json, Value};
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};
use tokio::sync::oneshot;

/// How long an analysis searches before a newer analysis waiting may take
/// its threads.
pub const FIRST_SLICE: Duration = Duration::from_millis(300);
/// How long a search searches before one of its kind that yielded before
/// may take its threads: the round robin's turn.
pub const SLICE: Duration = Duration::from_secs(4);
/// How often a waiting request looks again whether a search should yield
/// to it.
const TICK: Duration = Duration::from_millis(40);

/// What a search is for, most urgent first: the order of the queue, and
/// who yields to whom.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug)]
pub enum Kind {
    /// A long listing of a position's moves (a Spokes resolution past its
    /// first boards; the page waits for it): never yields.
    Listing,
    /// An engine move (the page waits for it): never yields.
    Engine,
    /// The scores of a game's positions for its graph.
    Scores,
    /// A page's analysis of its position, until the page moves on.
    Analysis,
}

impl Kind {
    /// The kind in words, as a page says what it waits for.
    #[must_use]
    pub fn words(self) -> &'static str {
        match self {
            Kind::Listing => "a position's listing",
            Kind::Engine => "an engine move",
            Kind::Scores => "a game's scoring",
            Kind::Analysis => "another analysis",
        }
    }
}

/// Search threads and table memory shared by every page, and the
/// evaluation every search uses.
pub struct Budget {
    pool: Arc<Pool>,
}

/// What the budget and its grants share.
struct Pool {
    sched: Mutex<Sched>,
    threads: usize,
    hash_mib: usize,
    eval: Eval,
    nets: Networks,
}

/// Networks given for some games (`serve --net`), by game id.
pub type Networks = Vec<(&'static str, Evaluation)>;

/// A request waiting for threads.
struct Waiter {
    id: u64,
    kind: Kind,
    most: usize,
    /// Whether it held threads before (then it waits for a whole slice).
    resumed: bool,
    halt: Arc<AtomicBool>,
    tx: oneshot::Sender<Grant>,
}

/// A search holding threads.
struct Holder {
    id: u64,
    kind: Kind,
    since: Instant,
    halt: Arc<AtomicBool>,
    /// Asked to yield already.
    yielding: bool,
}

/// The scheduler's state: free threads, the queue and the holders.
struct Sched {
    free: usize,
    next: u64,
    waiting: Vec<Waiter>,
    holding: Vec<Holder>,
}

/// A share of the [`Budget`]: threads and table MiB for one search, given
/// back when dropped.
pub struct Grant {
    id: u64,
    pool: Arc<Pool>,
    /// Threads the search may use.
    pub threads: usize,
    /// Its table's size.
    pub hash_mib: usize,
    /// The static evaluation asked for (a game without a network uses its
    /// classic one).
    pub eval: Eval,
}

impl Grant {
    /// The evaluation a search of game `game` uses: the network given
    /// for it, else the one asked for (classic where it has no network).
    #[must_use]
    pub fn evaluation(&self, game: &dyn AnyGame) -> Evaluation {
        let id = game.id().name();
        match self.pool.nets.iter().find(|(name, _)| *name == id) {
            Some((_, e)) => e.clone(),
            None => game.evaluation(self.eval, None).unwrap_or_default(),
        }
    }
}

impl Drop for Grant {
    fn drop(&mut self) {
        let refused = {
            let mut s = self.pool.lock();
            s.holding.retain(|h| h.id != self.id);
            s.free += self.threads;
            self.pool.dispatch(&mut s)
        };
        // Grants whose requests went away, given back outside the lock.
        drop(refused);
    }
}

impl Pool {
    fn lock(&self) -> MutexGuard<'_, Sched> {
        self.sched
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Gives free threads to the waiting requests, most urgent first;
    /// returns the grants that found their request gone (to be dropped
    /// once the lock is released).
    fn dispatch(self: &Arc<Self>, s: &mut Sched) -> Vec<Grant> {
        let mut refused = Vec::new();
        while s.free > 0 {
            let Some(k) = s.head() else { break };
            let w = s.waiting.remove(k);
            let threads = w.most.min(s.free).max(1);
            s.free -= threads;
            s.holding.push(Holder {
                id: w.id,
                kind: w.kind,
                since: Instant::now(),
                halt: w.halt,
                yielding: false,
            });
            let grant = Grant {
                id: w.id,
                pool: Arc::clone(self),
                threads,
                hash_mib: (self.hash_mib * threads / self.threads).max(1),
                eval: self.eval,
            };
            if let Err(g) = w.tx.send(grant) {
                refused.push(g);
            }
        }
        refused
    }
}

impl Sched {
    /// The waiter served next: the most urgent kind, then the first come.
    fn head(&self) -> Option<usize> {
        (0..self.waiting.len()).min_by_key(|&k| (self.waiting[k].kind, self.waiting[k].id))
    }

    /// Asks a search to yield its threads to the waiter served next, where
    /// it should (see the module's text) and none is yielding already.
    fn preempt(&mut self) {
        self.waiting.retain(|w| !w.tx.is_closed());
        if self.free > 0 || self.holding.iter().any(|h| h.yielding) {
            return;
        }
        let Some(k) = self.head() else { return };
        let (kind, resumed) = (self.waiting[k].kind, self.waiting[k].resumed);
        let now = Instant::now();
        let victim = self
            .holding
            .iter_mut()
            .filter(|h| match h.kind.cmp(&kind) {
                _ if h.kind <= Kind::Engine => false,
                std::cmp::Ordering::Greater => true,
                std::cmp::Ordering::Less => false,
                std::cmp::Ordering::Equal => {
                    now.duration_since(h.since) >= if resumed { SLICE } else { FIRST_SLICE }
                }
            })
            .min_by_key(|h| h.since);
        if let Some(h) = victim {
            h.yielding = true;
            h.halt.store(true, Relaxed);
        }
    }

    /// What the waiter served next is, in words, if any waits.
    fn head_words(&self) -> Option<&'static str> {
        self.head().map(|k| self.waiting[k].kind.words())
    }
}

impl Budget {
    /// A budget of `threads` search threads and `hash_mib` MiB of tables,
    /// for searches with evaluation `eval`, or the network in `nets` for
    /// the games it names.
    #[must_use]
    pub fn new(threads: usize, hash_mib: usize, eval: Eval, nets: Networks) -> Budget {
        let threads = threads.max(1);
        Budget {
            pool: Arc::new(Pool {
                sched: Mutex::new(Sched {
                    free: threads,
                    next: 0,
                    waiting: Vec::new(),
                    holding: Vec::new(),
                }),
                threads,
                hash_mib: hash_mib.max(1),
                eval,
                nets,
            }),
        }
    }

    /// Waits for at least one free thread, then takes every free one up to
    /// `most`: a search alone gets all the threads it can use, searches at
    /// once share them. Its table's size is the hash in proportion.
    /// Searches of a less urgent kind are asked to yield to it (`halt` is
    /// raised when this search should yield in turn).
    pub async fn grant(&self, kind: Kind, most: usize, halt: &Arc<AtomicBool>) -> Grant {
        self.wait(kind, most, false, halt).await
    }

    async fn wait(&self, kind: Kind, most: usize, resumed: bool, halt: &Arc<AtomicBool>) -> Grant {
        let (tx, mut rx) = oneshot::channel();
        {
            let mut s = self.pool.lock();
            let id = s.next;
            s.next += 1;
            s.waiting.push(Waiter {
                id,
                kind,
                most: most.clamp(1, self.pool.threads),
                resumed,
                halt: Arc::clone(halt),
                tx,
            });
            let refused = self.pool.dispatch(&mut s);
            s.preempt();
            drop(s);
            drop(refused);
        }
        loop {
            tokio::select! {
                g = &mut rx => return g.expect("a waiter is answered before it is dropped"),
                () = tokio::time::sleep(TICK) => self.pool.lock().preempt(),
            }
        }
    }

    /// Searches holding threads now.
    #[must_use]
    pub fn running(&self) -> usize {
        self.pool.lock().holding.len()
    }

    /// Requests waiting for threads now.
    #[must_use]
    pub fn waiting(&self) -> usize {
        self.pool.lock().waiting.len()
    }

    /// The search threads, all pages together.
    #[must_use]
    pub fn threads(&self) -> usize {
        self.pool.threads
    }

    fn clone_handle(&self) -> Budget {
        Budget {
            pool: Arc::clone(&self.pool),
        }
    }
}

/// A search's turns on the budget's threads, for a search that runs on a
/// thread of its own: the grant it holds now, and when asked to yield
/// (its `halt` raised, [`yielded`](Turns::yielded)), a wait for its next
/// turn ([`resume`](Turns::resume)). The page going away (`gone`) raises
/// `halt` too, and ends the wait.
pub struct Turns {
    budget: Budget,
    runtime: tokio::runtime::Handle,
    kind: Kind,
    most: usize,
    grant: Option<Grant>,
    /// Raised to stop the search now: to yield, or for good.
    pub halt: Arc<AtomicBool>,
    /// Raised when nobody reads the search's results any more.
    pub gone: Arc<AtomicBool>,
}

impl Turns {
    /// The grant held now.
    #[must_use]
    pub fn grant(&self) -> &Grant {
        self.grant
            .as_ref()
            .expect("a search holds its grant while it runs")
    }

    /// Whether the search stopped to yield its threads (not for good).
    #[must_use]
    pub fn yielded(&self) -> bool {
        self.halt.load(Relaxed) && !self.gone.load(Relaxed)
    }

    /// Gives the threads back, tells the page (`{"paused": what}`, what it
    /// yields to), waits for its next turn and tells the page again
    /// (`{"resumed": threads}`); `false` if the page went away meanwhile.
    pub fn resume(&mut self, send: &mut dyn FnMut(Value) -> bool) -> bool {
        let grant = self.grant.take();
        let words = self.budget.pool.lock().head_words();
        drop(grant);
        if !send(json!({"paused": words.unwrap_or("a search thread")})) {
            return false;
        }
        let (budget, kind, most) = (self.budget.clone_handle(), self.kind, self.most);
        let (halt, gone) = (Arc::clone(&self.halt), Arc::clone(&self.gone));
        let next = self.runtime.block_on(async move {
            halt.store(false, Relaxed);
            tokio::select! {
                g = budget.wait(kind, most, true, &halt) => Some(g),
                () = async {
                    while !gone.load(Relaxed) {
                        tokio::time::sleep(TICK).await;
                    }
                } => None,
            }
        });
        let Some(grant) = next else { return false };
        // Raised by the page leaving while the grant came.
        if self.gone.load(Relaxed) {
            return false;
        }
        self.halt.store(false, Relaxed);
        let threads = grant.threads;
        self.grant = Some(grant);
        send(json!({"resumed": threads}))
    }
}

impl gamut_board::view::Share for Grant {
    fn threads(&self) -> usize {
        self.threads
    }

    fn hash_mib(&self) -> usize {
        self.hash_mib
    }

    fn evaluation(&self, game: &dyn AnyGame) -> Evaluation {
        Grant::evaluation(self, game)
    }
}

impl gamut_board::view::Turns for Turns {
    type Share = Grant;

    fn grant(&self) -> &Grant {
        Turns::grant(self)
    }

    fn halt(&self) -> &Arc<AtomicBool> {
        &self.halt
    }

    fn yielded(&self) -> bool {
        Turns::yielded(self)
    }

    fn resume(&mut self, send: &mut dyn FnMut(Value) -> bool) -> bool {
        Turns::resume(self, send)
    }
}

impl Budget {
    /// The turns of a search of `kind` on at most `most` threads, its
    /// first grant waited for (`None` if the page went away first):
    /// `halt` is raised to stop the search (to yield, or for good), `gone`
    /// when the page went away.
    pub async fn turns(
        &self,
        kind: Kind,
        most: usize,
        halt: Arc<AtomicBool>,
        gone: Arc<AtomicBool>,
    ) -> Option<Turns> {
        let grant = tokio::select! {
            g = self.grant(kind, most, &halt) => g,
            () = async {
                while !gone.load(Relaxed) {
                    tokio::time::sleep(TICK).await;
                }
            } => return None,
        };
        Some(Turns {
            budget: self.clone_handle(),
            runtime: tokio::runtime::Handle::current(),
            kind,
            most,
            grant: Some(grant),
            halt,
            gone,
        })
    }
}

/// Raises a search's stop flags when dropped: held by whatever reads the
/// search's results, so that a closed page stops its search.
pub struct StopOnDrop(pub Vec<Arc<AtomicBool>>);

impl Drop for StopOnDrop {
    fn drop(&mut self) {
        for f in &self.0 {
            f.store(true, Relaxed);
        }
    }
}
