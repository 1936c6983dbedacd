//! A tournament's lazily made schedule (`gamut_tournament::schedule::
//! Pairings`): from fuzzer-chosen engine counts, formats, pair counts (a
//! few, or up to the 2^40 games a tournament may have, and past it) and
//! shards `K/N`, the pairs made when asked for are those of a schedule
//! written out in full (round by round, every encounter in each round,
//! this shard's share), `position` finds each pair's place back and no
//! other pair, and the shards of a schedule share its pairs out exactly
//! once each. Long schedules are checked at their first and last pairs
//! only, so nothing is spent in proportion to their length.
#![no_main]

use gamut_tournament::schedule::{Format, Pairing, Pairings, Shard, MAX_GAMES};
use libfuzzer_sys::fuzz_target;

/// Pairs checked at each end of a long schedule.
const ENDS: u64 = 64;

/// Pairs in all above which a schedule is checked at its ends only.
const SMALL: u64 = 4096;

/// Reads a little-endian number from up to 8 bytes of `data` at `at`
/// (missing bytes are zero).
fn number(data: &[u8], at: usize) -> u64 {
    let mut bytes = [0; 8];
    for (b, d) in bytes.iter_mut().zip(data.iter().skip(at)) {
        *b = *d;
    }
    u64::from_le_bytes(bytes)
}

/// The encounters of `n` engines, in each round's order.
fn encounters(n: usize, format: Format) -> Vec<[usize; 2]> {
    let mut out = Vec::new();
    for i in 0..n {
        for j in i + 1..n {
            if format == Format::RoundRobin || i == 0 {
                out.push([i, j]);
            }
        }
    }
    out
}

/// Every pair of the schedule, written out: round by round, each round's
/// encounters in order, those of `shard`.
fn written_out(encounters: &[[usize; 2]], rounds: u64, shard: Shard) -> Vec<Pairing> {
    let mut out = Vec::new();
    let mut pair = 0;
    for round in 0..rounds {
        for &engines in encounters {
            if pair % shard.count == shard.index {
                out.push(Pairing {
                    pair,
                    engines,
                    opening: round,
                });
            }
            pair += 1;
        }
    }
    out
}

/// Checks pair `i` of `p` against the schedule's rules, and that
/// `position` finds it back.
fn check_pair(p: &Pairings, i: u64, encounters: &[[usize; 2]], shard: Shard) {
    let pairing = p.get(i);
    let e = encounters.len() as u64;
    assert_eq!(pairing.pair, shard.index + i * shard.count);
    assert_eq!(pairing.opening, pairing.pair / e);
    assert_eq!(pairing.engines, encounters[(pairing.pair % e) as usize]);
    assert_eq!(p.position(pairing.pair), Some(i));
    // The pairs of other shards between it and the next are not this one's.
    for other in pairing.pair + 1
        ..pairing
            .pair
            .saturating_add(shard.count)
            .min(pairing.pair + 4)
    {
        assert_eq!(p.position(other), None);
    }
}

fuzz_target!(|data: &[u8]| {
    let Some(&head) = data.first() else { return };
    let n = usize::from(head % 41);
    let format = if head & 0x80 == 0 {
        Format::RoundRobin
    } else {
        Format::Gauntlet
    };
    let kind = data.get(1).copied().unwrap_or(0);
    let encounters = encounters(n, format);
    let e = encounters.len() as u64;
    // Pair counts: a few, anything up to the limit and past it.
    let raw = number(data, 2);
    let rounds = match kind % 4 {
        0 | 1 => raw % 16,
        2 => raw % (MAX_GAMES / 2 / e.max(1) + 2),
        _ => raw,
    };
    let count = match (kind >> 2) % 3 {
        0 => 1,
        1 => number(data, 10) % 8 + 1,
        _ => number(data, 10).max(1),
    };
    let shard = Shard {
        index: number(data, 18) % count,
        count,
    };
    // The command line's own K/N reads back to the same shard.
    assert_eq!(
        Shard::parse(&format!("{}/{}", shard.index + 1, shard.count)),
        Ok(shard)
    );
    let made = Pairings::new(n, format, rounds, Some(shard));
    let all = match rounds.checked_mul(e) {
        Some(all) if all <= MAX_GAMES / 2 => all,
        _ => {
            assert!(
                made.is_err(),
                "{rounds} rounds of {e} encounters are past the limit"
            );
            return;
        }
    };
    let p = made.expect("a schedule within the limit");
    // This shard's pairs: those numbered K-1 modulo N below `all`.
    let len = if all > shard.index {
        (all - shard.index).div_ceil(shard.count)
    } else {
        0
    };
    assert_eq!(p.len(), len);
    assert_eq!(p.is_empty(), len == 0);
    assert_eq!(p.position(all), None);
    assert_eq!(p.position(u64::MAX), None);
    if all <= SMALL {
        let reference = written_out(&encounters, rounds, shard);
        assert_eq!(reference.len() as u64, len);
        for (i, pairing) in (0..).zip(&reference) {
            assert_eq!(p.get(i), *pairing);
            assert_eq!(p.position(pairing.pair), Some(i));
        }
        // Every pair number below `all` is in exactly one shard, at its
        // place in that shard.
        if shard.count <= 16 {
            let shards: Vec<Pairings> = (0..shard.count)
                .map(|index| {
                    Pairings::new(
                        n,
                        format,
                        rounds,
                        Some(Shard {
                            index,
                            count: shard.count,
                        }),
                    )
                    .expect("every shard of a schedule within the limit")
                })
                .collect();
            assert_eq!(shards.iter().map(Pairings::len).sum::<u64>(), all);
            let mut seen = vec![false; all as usize];
            for s in &shards {
                for i in 0..s.len() {
                    let pair = s.get(i).pair;
                    assert!(!seen[pair as usize], "pair {pair} in two shards");
                    seen[pair as usize] = true;
                }
            }
            assert!(seen.iter().all(|&s| s));
            for pair in 0..all {
                let holders = shards.iter().filter(|s| s.position(pair).is_some()).count();
                assert_eq!(holders, 1);
            }
        }
        // The whole schedule is every shard's pairs in pair order.
        let whole = Pairings::new(n, format, rounds, None).expect("the whole schedule");
        assert_eq!(whole.len(), all);
        for (i, pairing) in (0..).zip(&written_out(
            &encounters,
            rounds,
            Shard { index: 0, count: 1 },
        )) {
            assert_eq!(whole.get(i), *pairing);
        }
    } else if len > 0 {
        for i in (0..len.min(ENDS)).chain(len.saturating_sub(ENDS)..len) {
            check_pair(&p, i, &encounters, shard);
        }
        let last = p.get(len - 1).pair;
        assert!(last < all && last.saturating_add(shard.count) >= all);
    }
});
