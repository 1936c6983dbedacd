//! Training data files (`gamut datagen`): any bytes are refused at an
//! offset inside the file, or read as games; a file of version 2 or later
//! that reads writes back to the same bytes in its own version, and `--resume`'s point is never past the
//! end and keeps exactly the games before it.
#![no_main]

use gamut_games::data::{encode_game_in, write_header, Reader};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(mut r) = Reader::new(data) else {
        return;
    };
    let (id, version) = (r.game().to_string(), r.version());
    let mut games = Vec::new();
    let whole = loop {
        match r.next_game() {
            Ok(Some(g)) => games.push(g),
            Ok(None) => break true,
            Err(e) => {
                assert!(e.offset <= data.len() as u64, "{e}");
                break false;
            }
        }
    };
    if whole && version >= 2 {
        let mut again = Vec::new();
        write_header(&mut again, &id).unwrap();
        again[8..10].copy_from_slice(&version.to_le_bytes());
        for g in &games {
            again.extend(encode_game_in(g, version));
        }
        assert_eq!(again, data);
    }
    if let Ok((n, at)) = Reader::new(data).unwrap().resume_point() {
        assert!(at <= data.len() as u64);
        let mut kept = Reader::new(&data[..at as usize]).unwrap();
        for _ in 0..n {
            assert!(kept.next_game().unwrap().is_some());
        }
        assert!(kept.next_game().unwrap().is_none());
        if whole {
            assert_eq!((n, at), (games.len() as u64, data.len() as u64));
        }
    }
});
