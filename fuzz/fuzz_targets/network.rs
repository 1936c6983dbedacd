//! Network files (`--net`): any bytes are refused or read as a network;
//! reading the header first (`read_network`) agrees with reading the
//! whole file, refuses a file whose size is not the one the header
//! implies, and a version 2 network writes back to the same bytes.
#![no_main]

use gamut_games::epaminondas::Epaminondas;
use gamut_search::nnue::network::{read_network, Network};
use gamut_core::nnue::Features;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let inputs = Epaminondas::INPUTS;
    let whole = Network::from_bytes(data, "epaminondas", inputs);
    let len = data.len() as u64;
    let streamed = read_network(&mut &data[..], len, "epaminondas", inputs);
    assert_eq!(whole.as_ref().ok(), streamed.as_ref().ok());
    assert!(read_network(&mut &data[..], len + 1, "epaminondas", inputs).is_err());
    if let Ok(net) = whole {
        if data[8..10] == [2, 0] {
            assert_eq!(net.to_bytes(), data);
        }
    }
});
