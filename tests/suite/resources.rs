//! Peak memory of `gamut analyze`: the transposition table (`--hash`) plus
//! a fixed overhead. Measured (`/usr/bin/time -v`, Epaminondas start,
//! `--time 4000`): peak RSS 6.0 MB at `--hash 1`, 21.2 MB at `--hash 16`,
//! so about 5 MB besides the table; the table is allocated zeroed and
//! lazily, so it counts only as far as the search writes it.

use std::time::Duration;

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
