//! The transposition table: a fixed number of 64-byte buckets of four
//! entries, shared by all search threads without locks.
//!
//! An entry is two atomic words, `data` and `key ^ data`. A reader accepts an
//! entry only if the two words XOR to its key, so a torn write (two threads
//! storing at once) reads as a miss, never as a wrong entry.

use std::sync::atomic::{AtomicBool, AtomicU64, AtomicU8, AtomicUsize, Ordering::Relaxed};

/// Whether a stored score is exact or a bound.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The score is exact.
    Exact,
    /// The true score is at least this (a fail-high).
    Lower,
    /// The true score is at most this (a fail-low).
    Upper,
}

/// What the table remembers of a position.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The best move's index in the position's move list, if any.
    pub move_index: Option<u16>,
    /// The score, relative to the node (see `score::to_tt`).
    pub score: i32,
    /// The depth searched.
    pub depth: u8,
    /// The kind of score.
    pub bound: Bound,
}

const NO_MOVE: u64 = 0xffff;
const ENTRIES: usize = 4;

#[repr(align(64))]
struct Bucket {
    words: [[AtomicU64; 2]; ENTRIES],
}

/// Zeroed buckets aligned to cache lines. The memory is asked of the
/// allocator with the alignment of a `u64` (and one bucket more, to align
/// by hand), because the allocator zeroes over-aligned requests by writing
/// every byte on one thread, while a plain zeroed request of this size is
/// met with fresh pages from the operating system: they are mapped on first
/// use, so a table costs time and memory only for the pages a search
/// stores into (huge pages where the system gives them, see
/// [`advise_huge_pages`]).
struct Buckets {
    base: std::ptr::NonNull<u8>,
    layout: std::alloc::Layout,
    first: std::ptr::NonNull<Bucket>,
    len: usize,
}

// SAFETY: the buckets are atomics, shared like a `[Bucket]`.
unsafe impl Send for Buckets {}
// SAFETY: as above.
unsafe impl Sync for Buckets {}

impl Buckets {
    /// `len` empty buckets, or `None` if the memory cannot be had.
    fn zeroed(len: usize) -> Option<Buckets> {
        let size = len
            .checked_add(1)?
            .checked_mul(std::mem::size_of::<Bucket>())?;
        let layout = std::alloc::Layout::from_size_align(size, std::mem::align_of::<u64>()).ok()?;
        // SAFETY: the layout's size is non-zero.
        let base = std::ptr::NonNull::new(unsafe { std::alloc::alloc_zeroed(layout) })?;
        let offset = base.as_ptr().align_offset(std::mem::align_of::<Bucket>());
        // SAFETY: `offset` is less than one bucket, and one bucket more than
        // `len` was allocated, so `len` buckets fit from there; all-zero
        // bytes are valid atomics (empty entries).
        let first =
            unsafe { std::ptr::NonNull::new_unchecked(base.as_ptr().add(offset) as *mut Bucket) };
        advise_huge_pages(base.as_ptr(), size);
        Some(Buckets {
            base,
            layout,
            first,
            len,
        })
    }
}

/// The whole pages inside the allocation at `start` (`size` bytes): their
/// first byte's address and their length, both multiples of the page.
fn whole_pages(start: *mut u8, size: usize) -> (usize, usize) {
    const PAGE: usize = 4096;
    let from = (start as usize).next_multiple_of(PAGE);
    let to = (start as usize + size) / PAGE * PAGE;
    (from, to.saturating_sub(from))
}

/// Gives the whole pages of the buckets back to Linux, which maps fresh
/// zero pages on their next use: a cleared table costs nothing until a
/// search stores into it. Returns whether it did; the buckets outside
/// [`whole_pages`] (sharing a page with other memory) are the caller's to
/// clear by hand.
#[cfg(target_os = "linux")]
fn release_pages(buckets: &Buckets) -> bool {
    let (from, len) = whole_pages(buckets.base.as_ptr(), buckets.layout.size());
    // SAFETY: the range lies inside the table's live allocation, private
    // anonymous memory whose contents after MADV_DONTNEED are zeros: empty
    // buckets (the pages at the ends, shared with other memory, are left
    // out and cleared by the caller).
    len > 0 && unsafe { libc::madvise(from as *mut libc::c_void, len, libc::MADV_DONTNEED) } == 0
}

#[cfg(not(target_os = "linux"))]
fn release_pages(_buckets: &Buckets) -> bool {
    false
}

/// Asks Linux to back the memory at `start` (`size` bytes) with huge
/// pages where it can. A lazily zeroed table is first touched by a probe (a
/// read) and then by a store, which costs two page faults per 4 KiB page;
/// with 2 MiB pages a 64 MiB table costs 64 faults instead of 32,000 (a
/// fifth of a second on a loaded virtual machine). Only a hint: where the
/// system refuses, the table works as before.
#[cfg(target_os = "linux")]
fn advise_huge_pages(start: *mut u8, size: usize) {
    let (from, len) = whole_pages(start, size);
    if len > 0 {
        // SAFETY: the range lies inside the live allocation; advice does not
        // change its contents.
        unsafe {
            libc::madvise(from as *mut libc::c_void, len, libc::MADV_HUGEPAGE);
        }
    }
}

#[cfg(not(target_os = "linux"))]
fn advise_huge_pages(_start: *mut u8, _size: usize) {}

impl std::ops::Deref for Buckets {
    type Target = [Bucket];

    fn deref(&self) -> &[Bucket] {
        // SAFETY: `zeroed` made `len` valid buckets at `first`, alive until
        // drop.
        unsafe { std::slice::from_raw_parts(self.first.as_ptr(), self.len) }
    }
}

impl Drop for Buckets {
    fn drop(&mut self) {
        // SAFETY: allocated in `zeroed` with this layout.
        unsafe { std::alloc::dealloc(self.base.as_ptr(), self.layout) }
    }
}

/// The machine could not give the memory a table asked for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TableAllocError {
    /// The size asked for, in MiB.
    pub mib: usize,
}

impl std::fmt::Display for TableAllocError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "cannot allocate {} MiB for the hash table", self.mib)
    }
}

impl std::error::Error for TableAllocError {}

/// A lock-free transposition table.
pub struct Table {
    buckets: Buckets,
    age: AtomicU8,
    /// How many bytes of the table's whole pages, from the first, a
    /// search's page mapper has touched since the table was made or
    /// cleared ([`Table::map_pages`]).
    mapped: AtomicUsize,
}

fn pack(e: &Entry, age: u8) -> u64 {
    let mv = e.move_index.map_or(NO_MOVE, u64::from);
    let score = u64::from(e.score as i16 as u16);
    let bound = match e.bound {
        Bound::Exact => 1u64,
        Bound::Lower => 2,
        Bound::Upper => 3,
    };
    mv | score << 16 | u64::from(e.depth) << 32 | bound << 40 | u64::from(age & 63) << 42
}

fn unpack(d: u64) -> Option<(Entry, u8)> {
    let bound = match (d >> 40) & 3 {
        1 => Bound::Exact,
        2 => Bound::Lower,
        3 => Bound::Upper,
        _ => return None,
    };
    let mv = d & 0xffff;
    Some((
        Entry {
            move_index: (mv != NO_MOVE).then_some(mv as u16),
            score: i32::from((d >> 16) as u16 as i16),
            depth: (d >> 32) as u8,
            bound,
        },
        ((d >> 42) & 63) as u8,
    ))
}

impl Table {
    /// A table of about `mib` mebibytes (at least one bucket). Panics if the
    /// memory cannot be had; [`Table::try_new`] reports it instead.
    #[must_use]
    pub fn new(mib: usize) -> Table {
        Table::try_new(mib).unwrap_or_else(|e| panic!("{e}"))
    }

    /// A table of about `mib` mebibytes, or an error if the machine cannot
    /// give that much. Its pages are mapped on first use ([`Buckets`]).
    pub fn try_new(mib: usize) -> Result<Table, TableAllocError> {
        let bytes = mib
            .checked_mul(1024 * 1024)
            .ok_or(TableAllocError { mib })?;
        let n = (bytes / std::mem::size_of::<Bucket>()).max(1);
        Ok(Table {
            buckets: Buckets::zeroed(n).ok_or(TableAllocError { mib })?,
            age: AtomicU8::new(0),
            mapped: AtomicUsize::new(0),
        })
    }

    fn bucket(&self, key: u64) -> &Bucket {
        let i = ((u128::from(key) * self.buckets.len() as u128) >> 64) as usize;
        &self.buckets[i]
    }

    /// Starts a new search: older entries become preferred for replacement.
    pub fn new_search(&self) {
        self.age.fetch_add(1, Relaxed);
    }

    /// Empties the table: on Linux by giving its pages back to the system
    /// (at once, whatever the size: the pages come back zeroed on first
    /// use), elsewhere by clearing every bucket on every core at once.
    pub fn clear(&self) {
        use rayon::prelude::*;
        let empty = |b: &Bucket| {
            for w in &b.words {
                w[0].store(0, Relaxed);
                w[1].store(0, Relaxed);
            }
        };
        if !release_pages(&self.buckets) {
            self.buckets.par_iter().for_each(empty);
            return;
        }
        self.mapped.store(0, Relaxed);
        // Buckets and pages are both aligned, so a bucket lies wholly in
        // the released pages or wholly outside them.
        let (from, len) = whole_pages(self.buckets.base.as_ptr(), self.buckets.layout.size());
        let first = self.buckets.first.as_ptr() as usize;
        let size = std::mem::size_of::<Bucket>();
        let n = self.buckets.len();
        let head = (from.saturating_sub(first) / size).min(n);
        let tail = ((from + len).saturating_sub(first) / size).min(n);
        self.buckets[..head].iter().for_each(empty);
        self.buckets[tail..].iter().for_each(empty);
    }

    /// Whether every page of the table has been touched by
    /// [`Table::map_pages`] since it was made or cleared.
    pub fn pages_mapped(&self) -> bool {
        let (_, len) = whole_pages(self.buckets.base.as_ptr(), self.buckets.layout.size());
        self.mapped.load(Relaxed) >= len
    }

    /// Touches the table's pages in order, from where the last call left
    /// off, until all are mapped or `done` is raised: the search runs this
    /// on a thread of its own, so that the system's cost of mapping and
    /// zeroing pages (about 0.2 s a GiB) is paid beside the search rather
    /// than inside its first stores. A touch is a compare-exchange of a
    /// bucket's first word with itself, which leaves every entry as it is.
    pub fn map_pages(&self, done: &AtomicBool) {
        const PAGE: usize = 4096;
        let (from, len) = whole_pages(self.buckets.base.as_ptr(), self.buckets.layout.size());
        let first = self.buckets.first.as_ptr() as usize;
        let size = std::mem::size_of::<Bucket>();
        let mut at = self.mapped.load(Relaxed);
        while at < len && !done.load(Relaxed) {
            // Pages and buckets are both aligned, so a page starts a bucket.
            if let Some(b) = self.buckets.get((from + at - first) / size) {
                // A compare-exchange of the word with itself: a write access
                // (an idempotent `or` or `add` is compiled to a mere load,
                // which maps the shared zero page), that changes nothing.
                let w = &b.words[0][0];
                let v = w.load(Relaxed);
                let _ = w.compare_exchange(v, v, Relaxed, Relaxed);
            }
            at += PAGE;
            self.mapped.fetch_max(at, Relaxed);
        }
    }

    /// The entry stored for `key`, if any.
    pub fn probe(&self, key: u64) -> Option<Entry> {
        let b = self.bucket(key);
        for w in &b.words {
            let data = w[0].load(Relaxed);
            if data != 0 && w[1].load(Relaxed) ^ data == key {
                return unpack(data).map(|(e, _)| e);
            }
        }
        None
    }

    /// Stores `entry` for `key`, replacing the same key, else the entry
    /// whose depth, less eight per search of age, is smallest.
    pub fn store(&self, key: u64, mut entry: Entry) {
        let age = self.age.load(Relaxed) & 63;
        let b = self.bucket(key);
        let mut victim = 0;
        let mut worst = i32::MAX;
        for (i, w) in b.words.iter().enumerate() {
            let data = w[0].load(Relaxed);
            if data != 0 && w[1].load(Relaxed) ^ data == key {
                if let Some((old, _)) = unpack(data) {
                    if entry.move_index.is_none() {
                        entry.move_index = old.move_index;
                    }
                    if entry.bound != Bound::Exact && old.depth > entry.depth + 2 {
                        return;
                    }
                }
                victim = i;
                break;
            }
            let value = match unpack(data) {
                None => i32::MIN,
                Some((old, a)) => i32::from(old.depth) - 8 * i32::from(age.wrapping_sub(a) & 63),
            };
            if value < worst {
                worst = value;
                victim = i;
            }
        }
        let data = pack(&entry, age);
        b.words[victim][0].store(data, Relaxed);
        b.words[victim][1].store(key ^ data, Relaxed);
    }

    /// Per mille of a sample of entries written in the current search.
    pub fn hashfull(&self) -> u32 {
        let age = self.age.load(Relaxed) & 63;
        let sample = self.buckets.len().min(250);
        let mut used = 0;
        for b in &self.buckets[..sample] {
            for w in &b.words {
                if let Some((_, a)) = unpack(w[0].load(Relaxed)) {
                    used += u32::from(a == age);
                }
            }
        }
        (used * 1000) / (sample * ENTRIES) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stored_entries_come_back_and_others_miss() {
        let t = Table::new(1);
        let e = Entry {
            move_index: Some(17),
            score: -29_990,
            depth: 9,
            bound: Bound::Lower,
        };
        t.store(0xdead_beef, e);
        assert_eq!(t.probe(0xdead_beef), Some(e));
        assert_eq!(t.probe(0xdead_beee), None);
        t.clear();
        assert_eq!(t.probe(0xdead_beef), None);
    }

    /// The pages of the table's allocation that are resident (Linux's
    /// `mincore`), and how many pages there are.
    #[cfg(target_os = "linux")]
    fn resident(t: &Table) -> (usize, usize) {
        let (from, len) = whole_pages(t.buckets.base.as_ptr(), t.buckets.layout.size());
        let mut pages = vec![0u8; len / 4096];
        // SAFETY: the range is page-aligned and inside the table's live
        // allocation; `pages` has one byte per page of it.
        let r = unsafe { libc::mincore(from as *mut libc::c_void, len, pages.as_mut_ptr()) };
        assert_eq!(r, 0);
        (pages.iter().filter(|&&b| b & 1 == 1).count(), pages.len())
    }

    /// A new table takes no memory until it is used (`--hash` is allocated
    /// lazily), and clearing it gives its pages back while every entry
    /// reads as empty.
    #[cfg(target_os = "linux")]
    #[test]
    fn a_table_takes_memory_only_as_it_is_used() {
        let t = Table::try_new(64).unwrap();
        let (mapped, pages) = resident(&t);
        assert!(
            mapped * 16 <= pages,
            "{mapped} of {pages} pages mapped at once"
        );
        let keys: Vec<u64> = (0..200_000u64)
            .map(|i| i.wrapping_mul(0x9e37_79b9_7f4a_7c15))
            .collect();
        let entry = |i: u64| Entry {
            move_index: Some(i as u16 % 100),
            score: 5,
            depth: 3,
            bound: Bound::Exact,
        };
        for (i, &k) in keys.iter().enumerate() {
            t.store(k, entry(i as u64));
        }
        let (used, _) = resident(&t);
        assert!(
            used * 2 > pages,
            "{used} of {pages} pages after storing everywhere"
        );
        assert!(keys.iter().all(|&k| t.probe(k).is_some()));
        t.clear();
        let (left, _) = resident(&t);
        assert!(left * 16 <= pages, "{left} of {pages} pages still mapped");
        assert!(keys.iter().all(|&k| t.probe(k).is_none()));
        assert_eq!(t.hashfull(), 0);
    }

    /// The page mapper maps every page without changing an entry, stops
    /// when told, and starts again after a clear.
    #[cfg(target_os = "linux")]
    #[test]
    fn the_page_mapper_maps_every_page_and_keeps_the_entries() {
        let t = Table::try_new(16).unwrap();
        let e = Entry {
            move_index: Some(7),
            score: -40,
            depth: 9,
            bound: Bound::Lower,
        };
        t.store(0xfeed, e);
        let full = t.hashfull();
        t.map_pages(&AtomicBool::new(true));
        assert!(!t.pages_mapped(), "a raised flag stops it at once");
        t.map_pages(&AtomicBool::new(false));
        assert!(t.pages_mapped());
        let (mapped, pages) = resident(&t);
        assert_eq!(mapped, pages);
        assert_eq!(t.probe(0xfeed), Some(e));
        assert_eq!(t.hashfull(), full);
        t.clear();
        assert!(!t.pages_mapped());
        assert!(resident(&t).0 * 16 <= pages);
    }

    #[test]
    fn a_table_larger_than_memory_is_an_error_not_an_abort() {
        let e = Table::try_new(usize::MAX / (1 << 20)).err();
        assert!(e.is_some());
        assert!(e.unwrap().to_string().starts_with("cannot allocate"));
    }

    #[test]
    fn a_full_bucket_evicts_the_shallowest_entry() {
        let t = Table::new(0); // one bucket: every key shares it
        for k in 1..=4u64 {
            let e = Entry {
                move_index: None,
                score: k as i32,
                depth: k as u8 * 2,
                bound: Bound::Exact,
            };
            t.store(k, e);
        }
        let deep = Entry {
            move_index: Some(3),
            score: 5,
            depth: 20,
            bound: Bound::Exact,
        };
        t.store(99, deep);
        assert_eq!(t.probe(1), None, "depth 2 was the shallowest");
        assert_eq!(t.probe(99), Some(deep));
        assert!(t.probe(4).is_some());
    }
}
