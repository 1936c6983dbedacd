//! The server's search budget and the searches running in it: however
//! many pages analyse at once, their searches together use at most the
//! server's threads and hash, and each ends when its page goes away.

use gamut_core::game::Evaluate;
use gamut_search::{Eval, Evaluation};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering::Relaxed};
use std::sync::Arc;
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

/// Search threads and table memory shared by every page, and the
/// evaluation every search uses.
pub struct Budget {
    permits: Arc<Semaphore>,
    threads: usize,
    hash_mib: usize,
    eval: Eval,
    nets: Arc<Networks>,
    running: Arc<AtomicUsize>,
}

/// Networks given for some games (`serve --net`), by game id.
pub type Networks = Vec<(&'static str, Evaluation)>;

/// A share of the [`Budget`]: threads and table MiB for one search, given
/// back when dropped.
pub struct Grant {
    _permits: Vec<OwnedSemaphorePermit>,
    /// Threads the search may use.
    pub threads: usize,
    /// Its table's size.
    pub hash_mib: usize,
    /// The static evaluation asked for (a game without a network uses its
    /// classic one).
    pub eval: Eval,
    nets: Arc<Networks>,
    running: Arc<AtomicUsize>,
}

impl Grant {
    /// The evaluation a search of game `G` uses: the network given for
    /// `G`, else the one asked for (classic where `G` has no network).
    #[must_use]
    pub fn evaluation<G: Evaluate>(&self) -> Evaluation {
        match self.nets.iter().find(|(id, _)| *id == G::ID) {
            Some((_, e)) => e.clone(),
            None => Evaluation::of_game::<G>(self.eval, None).unwrap_or_default(),
        }
    }
}

impl Drop for Grant {
    fn drop(&mut self) {
        self.running.fetch_sub(1, Relaxed);
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
            permits: Arc::new(Semaphore::new(threads)),
            threads,
            hash_mib: hash_mib.max(1),
            eval,
            nets: Arc::new(nets),
            running: Arc::new(AtomicUsize::new(0)),
        }
    }

    /// Waits for at least one free thread, then takes every free one: a
    /// search alone gets all the threads, searches at once share them.
    /// Its table's size is the hash in proportion.
    pub async fn grant(&self) -> Grant {
        self.grant_at_most(self.threads).await
    }

    /// As [`grant`](Self::grant), for a search that uses at most `most`
    /// threads: it takes no more than that.
    pub async fn grant_at_most(&self, most: usize) -> Grant {
        let most = most.clamp(1, self.threads);
        let first = Arc::clone(&self.permits)
            .acquire_owned()
            .await
            .expect("the budget's semaphore is never closed");
        let mut permits = vec![first];
        while permits.len() < most {
            match Arc::clone(&self.permits).try_acquire_owned() {
                Ok(p) => permits.push(p),
                Err(_) => break,
            }
        }
        let threads = permits.len();
        self.running.fetch_add(1, Relaxed);
        Grant {
            _permits: permits,
            threads,
            hash_mib: (self.hash_mib * threads / self.threads).max(1),
            eval: self.eval,
            nets: Arc::clone(&self.nets),
            running: Arc::clone(&self.running),
        }
    }

    /// Searches holding a grant now.
    #[must_use]
    pub fn running(&self) -> usize {
        self.running.load(Relaxed)
    }
}

/// Raises a search's stop flag when dropped: held by whatever reads the
/// search's results, so that a closed page stops its search.
pub struct StopOnDrop(pub Arc<AtomicBool>);

impl Drop for StopOnDrop {
    fn drop(&mut self) {
        self.0.store(true, Relaxed);
    }
}
