//! Tournament records files, of two sides and of seats: every line is
//! checked (known game, legal moves replayed, consistent result) or the
//! text is refused; a record that passes prints back to JSON that passes
//! again.
#![no_main]

use gamut::tournament::records::{self, GameRecord, Record};
use gamut::tournament::seats::SeatRecord;
use libfuzzer_sys::fuzz_target;

/// Every record of `text` that reads as an `R` prints back to a line that
/// reads again.
fn check<R: Record + std::fmt::Debug>(text: &str) {
    if let Ok(scan) = records::scan::<R>(text) {
        for (_, rec) in &scan.records {
            let again = records::scan::<R>(&format!("{}\n", rec.line()));
            assert!(again.is_ok(), "{again:?}");
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    check::<GameRecord>(text);
    check::<SeatRecord>(text);
});
