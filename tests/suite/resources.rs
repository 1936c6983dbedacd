//! Peak memory of `gamut analyze`: the transposition table (`--hash`) plus
//! a fixed overhead. Measured (`/usr/bin/time -v`, Epaminondas start,
//! `--time 4000`): peak RSS 6.0 MB at `--hash 1`, 21.2 MB at `--hash 16`,
//! so about 5 MB besides the table; the table is allocated zeroed and
//! lazily, so it counts only as far as the search writes it.

use std::time::{Duration, Instant};

/// The fixed overhead allowed besides the table, with a generous margin.
const OVERHEAD_KIB: u64 = 24 * 1024;

/// The process's peak resident set (VmHWM) in KiB, while it lives.
fn peak_kib(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

#[test]
#[cfg(target_os = "linux")]
fn analyze_stays_within_its_hash_and_a_fixed_overhead() {
    let hash_mib = 8;
    let mut child = crate::common::gamut_command()
        .args(["analyze", "epaminondas", "--time", "3000", "--quiet"])
        .args(["--hash", &hash_mib.to_string()])
        .stdout(std::process::Stdio::null())
        .spawn()
        .expect("the gamut binary runs");
    let mut peak = 0;
    while child.try_wait().expect("wait").is_none() {
        if let Some(kib) = peak_kib(child.id()) {
            peak = peak.max(kib);
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let table_kib = hash_mib * 1024;
    assert!(peak <= table_kib + OVERHEAD_KIB, "peak {peak} KiB");
    // The search wrote most of the table, so the bound was put to the test.
    assert!(
        peak >= table_kib / 2,
        "peak {peak} KiB: the table was hardly used"
    );
}

/// Runs gamut with `args` to its end: its exit status and its peak
/// resident set in KiB, as the kernel counted it for that one child.
#[cfg(target_os = "linux")]
// The child is reaped by wait4, which gives its own peak.
#[allow(clippy::zombie_processes)]
fn peak_of_run(args: &[&str]) -> (i32, u64) {
    let child = crate::common::gamut_command()
        .args(args)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("the gamut binary runs");
    let mut status = 0;
    // SAFETY: wait4 on our own child's id, with pointers to locals; the
    // child is reaped here, and `Child` is not waited on again.
    let usage = unsafe {
        let mut usage: libc::rusage = std::mem::zeroed();
        let pid = libc::wait4(child.id() as libc::pid_t, &mut status, 0, &mut usage);
        assert_eq!(pid, child.id() as libc::pid_t, "wait4");
        usage
    };
    assert!(libc::WIFEXITED(status), "gamut {args:?} ended by a signal");
    (libc::WEXITSTATUS(status), usage.ru_maxrss as u64)
}

/// A table of 2 GiB for a search of depth 1 takes only the pages the
/// search writes: the process peaks far below the table's size (it peaked
/// at 2.1 GB when the table was written through at allocation). Where the
/// system grants the table huge pages, each entry the search stores can
/// cost a whole 2 MiB page: a depth-1 search of Aporia peaked at 334 MiB
/// so, and at 8 MiB with 4 KiB pages; half the table is the bound.
#[test]
#[cfg(target_os = "linux")]
fn a_large_hash_costs_only_the_pages_the_search_uses() {
    let (status, peak) = peak_of_run(&["analyze", "aporia", "--depth", "1", "--hash", "2048"]);
    assert_eq!(status, 0);
    assert!(
        peak < 1024 * 1024,
        "peak {peak} KiB for a search of depth 1"
    );
}

/// A table of 8 GiB costs a search of depth 6 what a table of 64 MiB does:
/// the table grows into its size as the search stores, so the process
/// peaks within twice the small table's peak, in at most twice its time
/// (plus 0.3 s). Before, the search mapped the whole table: 49 s and
/// 8.4 GB against 1.3 s and 75 MB (now 0.7 s and 14 MB both). Each size is
/// run twice, alternated, and judged by its better run.
#[test]
#[cfg(target_os = "linux")]
fn a_large_hash_costs_a_deep_search_what_a_small_one_does() {
    let run = |hash: &str| {
        let start = Instant::now();
        let (status, peak) =
            peak_of_run(&["analyze", "epaminondas", "--depth", "6", "--hash", hash]);
        assert_eq!(status, 0, "--hash {hash}");
        (start.elapsed(), peak)
    };
    let mut small = (Duration::MAX, u64::MAX);
    let mut large = (Duration::MAX, u64::MAX);
    for _ in 0..2 {
        for (best, hash) in [(&mut small, "64"), (&mut large, "8192")] {
            let (time, peak) = run(hash);
            *best = (best.0.min(time), best.1.min(peak));
        }
    }
    assert!(
        large.1 <= 2 * small.1,
        "peak {} KiB at --hash 8192, {} KiB at --hash 64",
        large.1,
        small.1
    );
    assert!(
        large.0 <= 2 * small.0 + Duration::from_millis(300),
        "{:?} at --hash 8192, {:?} at --hash 64",
        large.0,
        small.0
    );
}
