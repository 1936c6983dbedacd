//! The command line at its edges: outputs proven writable before the work
//! and a report printed when one fails after it, counts no machine could
//! hold refused or served in bounded memory, input that is not text or
//! holds control characters shown escaped, and files trusted only once
//! checked.

use crate::common::{gamut, gamut_command, ok, rejected, scratch_dir};
use std::io::Write;
use std::path::Path;
use std::process::{Child, Stdio};
use std::time::{Duration, Instant};

/// Memory a run of any count may take: far above what these runs need
/// (tens of MB), far below what a list of four billion games takes.
const BOUND_KIB: u64 = 300 * 1024;

/// The process's peak resident set (VmHWM) in KiB, while it lives.
fn peak_kib(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// Runs gamut with `args` for `secs` seconds (or to its end), watching its
/// peak memory; a run that goes past [`BOUND_KIB`] is stopped at once. The
/// exit status if it ended by itself (`None`: still running, then
/// stopped), and the peak in KiB.
fn watched(args: &[&str], secs: u64) -> (Option<i32>, u64) {
    let mut child: Child = gamut_command()
        .args(args)
        .arg("--quiet")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("the gamut binary runs");
    let started = Instant::now();
    let mut peak = 0;
    let status = loop {
        if let Some(kib) = peak_kib(child.id()) {
            peak = peak.max(kib);
        }
        if let Some(s) = child.try_wait().expect("wait") {
            break Some(s.code().unwrap_or(-1));
        }
        if peak > BOUND_KIB || started.elapsed() > Duration::from_secs(secs) {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    (status, peak)
}

/// A run of four billion games: still playing after a while within the
/// bound, or refused at once with status 2.
#[cfg(target_os = "linux")]
fn bounded(args: &[&str]) {
    let (status, peak) = watched(args, 1);
    assert!(peak <= BOUND_KIB, "{args:?}: peak {peak} KiB");
    assert!(
        status.is_none() || status == Some(2),
        "{args:?}: ended with status {status:?}"
    );
}

#[test]
#[cfg(target_os = "linux")]
fn four_billion_games_are_played_in_bounded_memory_or_refused() {
    let dir = scratch_dir("edges-count");
    let data = dir.join("x.dat");
    bounded(&[
        "datagen",
        "aporia",
        "--out",
        data.to_str().unwrap(),
        "--games",
        "4294967295",
        "--nodes",
        "50",
    ]);
    bounded(&[
        "tournament",
        "aporia",
        "--engine",
        "name=a,depth=1",
        "--engine",
        "name=b,depth=1",
        "--games",
        "4294967294",
    ]);
    bounded(&[
        "balance",
        "aporia",
        "--ladder",
        "depth=1",
        "--random-plies",
        "2",
        "--games",
        "4294967295",
    ]);
    // More than any machine could play is refused before anything else.
    let err = rejected(&[
        "datagen",
        "aporia",
        "--out",
        dir.join("y.dat").to_str().unwrap(),
        "--games",
        "18446744073709551615",
    ]);
    assert!(err.contains("--games"), "{err}");
    assert!(!dir.join("y.dat").exists());
}

#[test]
#[cfg(target_os = "linux")]
fn a_learn_run_of_four_billion_games_stays_bounded_and_can_go_on() {
    let dir = scratch_dir("edges-learn").join("run");
    let args = [
        "learn",
        "aporia",
        "--dir",
        dir.to_str().unwrap(),
        "--games",
        "4294967295",
        "--nodes",
        "50",
        "--shard",
        "1/1",
    ];
    bounded(&args);
    assert!(dir.join("ledger.jsonl").exists(), "the run started");
    // The directory goes on: the same run is taken up again.
    bounded(&args);
}

#[test]
fn an_output_that_cannot_be_written_is_refused_before_the_first_game() {
    let dir = scratch_dir("edges-outputs");
    let records = dir.join("r.jsonl");
    // A tournament of four games writing its records and `output`.
    let tournament = |output: &[&str]| {
        let mut args = vec![
            "tournament",
            "aporia",
            "--engine",
            "name=a,depth=1",
            "--engine",
            "name=b,depth=1",
            "--games",
            "4",
            "--records",
            records.to_str().unwrap(),
        ];
        args.extend_from_slice(output);
        rejected(&args)
    };
    let err = tournament(&["--html", "/nonexistent-dir/x.html"]);
    assert!(err.contains("--html /nonexistent-dir/x.html"), "{err}");
    assert!(!records.exists(), "no game was played");
    let err = tournament(&["--pgn", dir.to_str().unwrap()]);
    assert!(err.contains("directory"), "{err}");
    assert!(!records.exists(), "no game was played");
    let shards = dir.join("balance");
    let err = rejected(&[
        "balance",
        "aporia",
        "--ladder",
        "depth=1",
        "--random-plies",
        "2",
        "--games",
        "2",
        "--records",
        shards.to_str().unwrap(),
        "--html",
        "/nonexistent-dir/x.html",
    ]);
    assert!(err.contains("--html"), "{err}");
    assert!(!shards.exists(), "no game was played");
}

#[test]
fn a_table_that_cannot_be_written_is_refused_before_the_solve() {
    let dir = scratch_dir("edges-solve");
    let mut child = gamut_command()
        .args(["solve", "aporia", "--quiet", "--out", dir.to_str().unwrap()])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the gamut binary runs");
    // The solve itself takes a minute or more; the refusal, a moment.
    let started = Instant::now();
    while child.try_wait().expect("wait").is_none() {
        if started.elapsed() > Duration::from_secs(30) {
            let _ = child.kill();
            let _ = child.wait();
            panic!("solve started on an output it cannot write");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let o = child.wait_with_output().expect("output");
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("directory"), "{err}");
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
}

#[test]
#[cfg(target_os = "linux")]
fn a_page_that_fails_after_the_games_still_leaves_the_report() {
    // /dev/full opens for writing and fails every write (no space).
    if !Path::new("/dev/full").exists() {
        return;
    }
    for args in [
        &[
            "tournament",
            "aporia",
            "--engine",
            "name=a,depth=1",
            "--engine",
            "name=b,depth=1",
            "--games",
            "2",
            "--random-plies",
            "2",
            "--html",
            "/dev/full",
        ][..],
        &[
            "balance",
            "aporia",
            "--ladder",
            "depth=1",
            "--random-plies",
            "2",
            "--games",
            "2",
            "--html",
            "/dev/full",
        ][..],
    ] {
        let o = gamut(args);
        let err = String::from_utf8_lossy(&o.stderr);
        let report = String::from_utf8_lossy(&o.stdout);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains("/dev/full"), "{err}");
        assert!(
            report.contains("depth=1") || report.contains('a'),
            "{report}"
        );
        assert!(report.lines().count() >= 2, "{args:?}: no report: {report}");
    }
}

/// Runs `gamut play aporia --depth 1` on `input` in `dir`: its stdout.
fn play(dir: &Path, input: &[u8]) -> String {
    let mut child = gamut_command()
        .args(["play", "aporia", "--depth", "1", "--seed", "1"])
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the gamut binary runs");
    child.stdin.take().unwrap().write_all(input).unwrap();
    let o = child.wait_with_output().expect("output");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8(o.stdout).expect("utf-8 output")
}

#[test]
fn a_line_that_is_not_text_is_reported_and_the_game_goes_on() {
    let dir = scratch_dir("edges-play");
    let out = play(&dir, b"b2-c1\n\xe9\nsave after.jsonl\n");
    assert!(out.contains("error: '\\xe9' is not UTF-8 text"), "{out}");
    assert!(dir.join("after.jsonl").exists(), "{out}");
}

#[test]
fn control_characters_reach_no_terminal_and_errors_quote_them() {
    let dir = scratch_dir("edges-control");
    let out = play(&dir, b"\x1b[2J\nquit\n");
    assert!(!out.contains('\x1b'), "{out:?}");
    assert!(out.contains("\\u{1b}[2J"), "{out}");
    let err = rejected(&["analyze", "aporia", "--depth", "1\x1b"]);
    assert!(err.contains("'1\\u{1b}'"), "{err}");
    let err = rejected(&[
        "tournament",
        "aporia",
        "--engine",
        "name=a\x1b[31m\nb,depth=1",
        "--engine",
        "name=c,depth=1",
        "--games",
        "2",
    ]);
    assert!(err.contains("\\u{1b}[31m\\nb"), "{err}");
}

#[test]
fn a_share_file_is_checked_before_it_is_trusted() {
    let dir = scratch_dir("edges-share").join("run");
    let args = [
        "learn",
        "aporia",
        "--dir",
        dir.to_str().unwrap(),
        "--games",
        "2",
        "--nodes",
        "50",
        "--shard",
        "1/1",
    ];
    let played = ok(&args);
    assert!(played.contains("share 1 of 1"), "{played}");
    let again = ok(&args);
    assert!(again.contains("played already (2 games"), "{again}");
    let share = dir.join("gen-001").join("data-1-of-1.dat");
    std::fs::write(&share, "garbage").unwrap();
    let err = rejected(&args);
    assert!(err.contains("data-1-of-1.dat"), "{err}");
}

#[test]
fn a_spokes_round_that_cannot_advance_is_refused() {
    let err = rejected(&[
        "show",
        "spokes",
        "--fen",
        "1/4/8/16/16 4294967295",
        "--moves",
        "wA,bB1; XB1",
    ]);
    assert!(err.contains("round '4294967295'"), "{err}");
    rejected(&["show", "spokes", "--fen", "1/4/8/16/16 2147483649"]);
    let shown = ok(&[
        "show",
        "spokes",
        "--fen",
        "1/4/8/16/16 2147483648",
        "--moves",
        "wA,bB1; XB1",
    ]);
    assert!(shown.contains("2147483649"), "{shown}");
}
