//! Tournament records files, of two sides and of more: every line is
//! checked (known game, legal moves replayed, consistent result, an
//! unfinished game only alone) or the
//! text is refused; a record that passes prints back to JSON that passes
//! again.
#![no_main]

use gamut::tournament::records;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(scan) = records::scan(text, records::Holds::Saved) {
        for (_, rec) in &scan.records {
            let again = records::scan(&format!("{}\n", rec.to_json()), records::Holds::Saved);
            assert!(again.is_ok(), "{again:?}");
        }
    }
});
