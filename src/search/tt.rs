//! The transposition table: a fixed number of 64-byte buckets of four
//! entries, shared by all search threads without locks.
//!
//! An entry is two atomic words, `data` and `key ^ data`. A reader accepts an
//! entry only if the two words XOR to its key, so a torn write (two threads
//! storing at once) reads as a miss, never as a wrong entry.
//!
//! The table grows into its size. It starts in its first few buckets, each
//! holding the entries of a run of `2^shift` of the full table's buckets,
//! and doubles (splitting each bucket in two, in place) when a store finds
//! its bucket full, before any entry is evicted. The entries kept are so
//! exactly those the full table would keep, in the same places once it is
//! full size, and a search touches (and the system maps) only a prefix of
//! the table about as large as what it stored: `--hash 8192` costs a short
//! search what `--hash 64` does.

use std::sync::atomic::{
    AtomicBool, AtomicU32, AtomicU64, AtomicU8,
    Ordering::{Acquire, Relaxed, Release},
};

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
/// The most buckets a table starts in (256 KiB); it doubles from there.
const START_BUCKETS: usize = 4096;

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
#[cfg(target_os = "linux")]
fn whole_pages(start: *mut u8, size: usize) -> (usize, usize) {
    const PAGE: usize = 4096;
    let from = (start as usize).next_multiple_of(PAGE);
    let to = (start as usize + size) / PAGE * PAGE;
    (from, to.saturating_sub(from))
}

/// Gives the whole pages of the first `n` buckets back to Linux, which
/// maps fresh zero pages on their next use: a cleared table costs nothing
/// until a search stores into it. Returns the range of buckets released
/// (empty if none); the others of the `n` (sharing a page with other
/// memory) are the caller's to clear by hand.
#[cfg(target_os = "linux")]
fn release_pages(buckets: &Buckets, n: usize) -> std::ops::Range<usize> {
    let first = buckets.first.as_ptr() as usize;
    let size = std::mem::size_of::<Bucket>();
    let (from, len) = whole_pages(first as *mut u8, n * size);
    // Buckets and pages are both aligned, so a bucket lies wholly in the
    // pages or wholly outside them.
    let released = (from - first) / size..(from + len - first) / size;
    // SAFETY: the range lies inside the table's live allocation, private
    // anonymous memory whose contents after MADV_DONTNEED are zeros: empty
    // buckets.
    if len > 0 && unsafe { libc::madvise(from as *mut libc::c_void, len, libc::MADV_DONTNEED) } == 0
    {
        released
    } else {
        0..0
    }
}

#[cfg(not(target_os = "linux"))]
fn release_pages(_buckets: &Buckets, _n: usize) -> std::ops::Range<usize> {
    0..0
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
    /// The table is in its first [`Table::used`] buckets, bucket `i`
    /// holding the entries of the full table's buckets `i << shift` to
    /// `(i + 1) << shift` (see the module's comment).
    shift: AtomicU32,
    /// The shift of a new or cleared table.
    start_shift: u32,
    /// Whether a thread is doubling the table.
    growing: AtomicBool,
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
        let start_shift = (0..usize::BITS)
            .find(|&k| (n - 1) >> k < START_BUCKETS)
            .unwrap_or(0);
        Ok(Table {
            buckets: Buckets::zeroed(n).ok_or(TableAllocError { mib })?,
            age: AtomicU8::new(0),
            shift: AtomicU32::new(start_shift),
            start_shift,
            growing: AtomicBool::new(false),
        })
    }

    /// The bucket of `key` in the full table.
    fn full_index(&self, key: u64) -> usize {
        ((u128::from(key) * self.buckets.len() as u128) >> 64) as usize
    }

    /// How many buckets, from the first, hold the table at `shift`.
    fn used(&self, shift: u32) -> usize {
        ((self.buckets.len() - 1) >> shift) + 1
    }

    /// The bucket of `key` at `shift`.
    fn bucket_at(&self, key: u64, shift: u32) -> &Bucket {
        &self.buckets[self.full_index(key) >> shift]
    }

    /// Doubles the table from `shift` (unless another thread is doing it):
    /// each bucket, from the last, is split into the two it becomes, its
    /// entries keeping their order. Returns whether the table is now past
    /// `shift`. Other threads go on meanwhile at the old shift: what they
    /// store may land in a bucket its key no longer reads (a miss, evicted
    /// in time), never as a wrong entry.
    fn grow(&self, shift: u32) -> bool {
        if self
            .growing
            .compare_exchange(false, true, Acquire, Relaxed)
            .is_err()
        {
            return false;
        }
        if self.shift.load(Acquire) == shift {
            let to = shift - 1;
            let used = self.used(to);
            for i in (0..self.used(shift)).rev() {
                let mut halves = [[(0u64, 0u64); ENTRIES]; 2];
                let mut counts = [0usize; 2];
                for w in &self.buckets[i].words {
                    let data = w[0].load(Relaxed);
                    let check = w[1].load(Relaxed);
                    let j = self.full_index(data ^ check) >> to;
                    // A torn entry may name another bucket: it is dropped.
                    if data == 0 || j >> 1 != i {
                        continue;
                    }
                    let h = j & 1;
                    if counts[h] < ENTRIES {
                        halves[h][counts[h]] = (data, check);
                        counts[h] += 1;
                    }
                }
                for (j, half) in (2 * i..used).zip(&halves) {
                    for (w, &(data, check)) in self.buckets[j].words.iter().zip(half) {
                        w[0].store(data, Relaxed);
                        w[1].store(check, Relaxed);
                    }
                }
            }
            self.shift.store(to, Release);
        }
        self.growing.store(false, Release);
        true
    }

    /// Starts a new search: older entries become preferred for replacement.
    pub fn new_search(&self) {
        self.age.fetch_add(1, Relaxed);
    }

    /// Empties the table: on Linux by giving the pages it has used back to
    /// the system (they come back zeroed on first use), elsewhere by
    /// clearing them on every core at once; the pages it has not used are
    /// left alone. It starts again in its first few buckets.
    pub fn clear(&self) {
        use rayon::prelude::*;
        let empty = |b: &Bucket| {
            for w in &b.words {
                w[0].store(0, Relaxed);
                w[1].store(0, Relaxed);
            }
        };
        let used = self.used(self.shift.load(Acquire));
        let released = release_pages(&self.buckets, used);
        if released.is_empty() {
            self.buckets[..used].par_iter().for_each(empty);
        } else {
            self.buckets[..released.start].iter().for_each(empty);
            self.buckets[released.end..used].iter().for_each(empty);
        }
        self.shift.store(self.start_shift, Release);
    }

    /// Asks the processor to bring the bucket of `key` into its cache, so
    /// that a probe soon after does not wait for memory.
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            let b: *const Bucket = self.bucket_at(key, self.shift.load(Relaxed));
            // SAFETY: every x86-64 processor has SSE; a prefetch reads
            // nothing and faults on no address.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(b.cast()) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// The entry stored for `key`, if any.
    pub fn probe(&self, key: u64) -> Option<Entry> {
        let b = self.bucket_at(key, self.shift.load(Acquire));
        for w in &b.words {
            let data = w[0].load(Relaxed);
            if data != 0 && w[1].load(Relaxed) ^ data == key {
                return unpack(data).map(|(e, _)| e);
            }
        }
        None
    }

    /// Stores `entry` for `key`, replacing the same key, else an empty
    /// entry, else the entry whose depth, less eight per search of age, is
    /// smallest; a table not yet at its full size doubles instead of
    /// evicting.
    pub fn store(&self, key: u64, mut entry: Entry) {
        let age = self.age.load(Relaxed) & 63;
        let (b, victim) = loop {
            let shift = self.shift.load(Acquire);
            let b = self.bucket_at(key, shift);
            let mut victim = None;
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
                    victim = Some((i, true));
                    break;
                }
                let value = match unpack(data) {
                    None => i32::MIN,
                    Some((old, a)) => {
                        i32::from(old.depth) - 8 * i32::from(age.wrapping_sub(a) & 63)
                    }
                };
                if value < worst {
                    worst = value;
                    victim = Some((i, value == i32::MIN));
                }
            }
            let (victim, free) = victim.expect("a bucket has entries");
            if free || shift == 0 || !self.grow(shift) {
                break (b, victim);
            }
        };
        let data = pack(&entry, age);
        b.words[victim][0].store(data, Relaxed);
        b.words[victim][1].store(key ^ data, Relaxed);
    }

    /// Per mille of a sample of entries written in the current search: the
    /// entries of the full table's first 250 buckets.
    pub fn hashfull(&self) -> u32 {
        let age = self.age.load(Relaxed) & 63;
        let shift = self.shift.load(Acquire);
        let sample = self.buckets.len().min(250);
        let mut used = 0;
        for b in &self.buckets[..=(sample - 1) >> shift] {
            for w in &b.words {
                let data = w[0].load(Relaxed);
                if let Some((_, a)) = unpack(data) {
                    let key = data ^ w[1].load(Relaxed);
                    used += u32::from(a == age && (shift == 0 || self.full_index(key) < sample));
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
        // Keys scattered at random (a multiple of the golden ratio would
        // spread them so evenly that a quarter of the table held them).
        let keys: Vec<u64> = (0..200_000u64)
            .map(|i| {
                let k = (i + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15);
                (k ^ (k >> 29)).wrapping_mul(0xbf58_476d_1ce4_e5b9)
            })
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
        // A few buckets took a fifth key and evicted one.
        let kept = keys.iter().filter(|&&k| t.probe(k).is_some()).count();
        assert!(kept * 1000 >= keys.len() * 999, "{kept} entries kept");
        t.clear();
        let (left, _) = resident(&t);
        assert!(left * 16 <= pages, "{left} of {pages} pages still mapped");
        assert!(keys.iter().all(|&k| t.probe(k).is_none()));
        assert_eq!(t.hashfull(), 0);
    }

    /// A table of `mib` that starts at its full size, as tables were
    /// before they grew: the reference the growing table must match.
    fn full_size(mib: usize) -> Table {
        let t = Table::new(mib);
        t.shift.store(0, Relaxed);
        t
    }

    /// The table's words, bucket by bucket, at its full size.
    fn words(t: &Table) -> Vec<u64> {
        assert_eq!(t.shift.load(Relaxed), 0);
        t.buckets
            .iter()
            .flat_map(|b| b.words.iter().flatten().map(|w| w.load(Relaxed)))
            .collect()
    }

    /// A growing table keeps exactly the entries a table of its full size
    /// keeps, through stores of new and known keys, deeper and shallower,
    /// several searches and a clear: every probe answers the same, the
    /// `hashfull` sample counts the same, and once full size its words are
    /// the same, bucket by bucket.
    #[test]
    fn a_growing_table_keeps_what_a_full_size_table_keeps() {
        let grown = Table::new(1);
        let full = full_size(1);
        assert!(grown.shift.load(Relaxed) > 0, "the table starts small");
        let mut x = 0x1234_5678_9abc_def0u64;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        let mut keys = Vec::new();
        for round in 0..3 {
            for t in [&grown, &full] {
                t.new_search();
            }
            for i in 0..60_000u64 {
                let r = next();
                // A known key a third of the time, else a new one.
                let key = if r % 3 == 0 && !keys.is_empty() {
                    keys[(r >> 8) as usize % keys.len()]
                } else {
                    keys.push(r | 1);
                    r | 1
                };
                let entry = Entry {
                    move_index: (r & 4 == 0).then_some((r >> 40) as u16 & 0xff),
                    score: (r >> 20) as i32 % 1000,
                    depth: (r >> 12) as u8 % 24,
                    bound: [Bound::Exact, Bound::Lower, Bound::Upper][(r >> 30) as usize % 3],
                };
                grown.store(key, entry);
                full.store(key, entry);
                if i % 997 == 0 {
                    assert_eq!(
                        grown.hashfull(),
                        full.hashfull(),
                        "round {round}, store {i}"
                    );
                }
            }
            for &k in &keys {
                assert_eq!(grown.probe(k), full.probe(k), "round {round}");
            }
            if round == 1 {
                grown.clear();
                full.clear();
                keys.clear();
            }
        }
        assert_eq!(words(&grown), words(&full));
    }

    /// A large table used a little takes memory only for what it holds:
    /// the prefix it has grown into, and no more after a clear.
    #[cfg(target_os = "linux")]
    #[test]
    fn a_large_table_used_a_little_maps_a_small_prefix() {
        let t = Table::try_new(1024).unwrap();
        for i in 0..50_000u64 {
            let e = Entry {
                move_index: None,
                score: 0,
                depth: 4,
                bound: Bound::Exact,
            };
            t.store(i.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1, e);
        }
        let (mapped, pages) = resident(&t);
        assert!(mapped * 8 <= pages, "{mapped} of {pages} pages mapped");
        assert!(t.shift.load(Relaxed) > 0);
        t.clear();
        assert_eq!(t.shift.load(Relaxed), t.start_shift);
        assert!(resident(&t).0 * 256 <= pages);
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
