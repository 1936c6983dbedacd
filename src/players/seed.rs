//! The random streams of a tournament or a game, each derived from its
//! seed, so that every game replays from its number and the seed alone.

/// The random streams of a tournament, each derived from the seed.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Stream {
    /// Random openings, by opening index.
    Opening = 1,
    /// Chance outcomes, by opening index: both games of a pair (and every
    /// pair on that opening) see the same sequence of rolls.
    Chance = 2,
    /// An engine's own choices (random moves, ties, mixed strategies), by
    /// `2 × (game number) + side`.
    Engine = 3,
}

/// The seed of stream `stream`'s member `index` (SplitMix64 finalisers over
/// the tournament seed, the stream and the index).
#[must_use]
pub fn seed_for(seed: u64, stream: Stream, index: u64) -> u64 {
    let mix = |mut z: u64| {
        z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    };
    mix(mix(mix(seed) ^ stream as u64) ^ index)
}
