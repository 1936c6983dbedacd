//! Tournament records files, of two sides and of more: every line is
//! checked (its checksum where it ends with one, no key a record lacks,
//! known game, legal moves replayed, consistent result, an unfinished
//! game only alone) or the text is refused; a record that passes prints
//! back to JSON that passes again, and to a line with its checksum that
//! reads back to the same steps and scores (score, depth, time), while
//! that line with any one bit changed is refused.
#![no_main]

use gamut_tournament::records;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(scan) = records::scan(text, records::Holds::Saved) {
        for (_, rec) in &scan.records {
            let again = records::scan(&format!("{}\n", rec.to_json()), records::Holds::Saved);
            assert!(again.is_ok(), "{again:?}");
            let line = rec.to_line();
            let sealed = records::scan(&format!("{line}\n"), records::Holds::Saved)
                .expect("a line with its checksum reads");
            let back = &sealed.records[0].1;
            assert_eq!(sealed.unsealed, None);
            assert_eq!((&back.moves, &back.scores), (&rec.moves, &rec.scores));
            // One bit of the line flipped, at a place the input picks.
            let bit = data.len() * 7 % (line.len() * 8);
            let mut bad = line.clone().into_bytes();
            bad[bit / 8] ^= 1 << (bit % 8);
            if let Ok(bad) = String::from_utf8(bad) {
                let read = records::scan(&format!("{bad}\n"), records::Holds::Saved);
                assert!(read.is_err(), "bit {bit} of {line}: {read:?}");
            }
        }
    }
});
