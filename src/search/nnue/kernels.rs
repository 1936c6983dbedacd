//! The network's inner loops: adding and subtracting a feature's row to an
//! accumulator, and the output's clamped dot product. Each is written once
//! as plain slice code that the compiler vectorises; on x86-64 processors
//! with AVX2 (detected at run time) the same code runs compiled for AVX2,
//! twice as wide as the build's baseline (SSE4.2).

/// Adds `row` to `acc`, lane by lane (wrapping).
pub fn add(acc: &mut [i16], row: &[i16]) {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: the processor has AVX2, checked just above.
        return unsafe { avx2::add(acc, row) };
    }
    add_lanes(acc, row)
}

/// Subtracts from `acc` the rows of features `gone` and adds those of
/// `came` (rows of `acc.len()` lanes in `weights`), lane by lane
/// (wrapping): what [`add`] and its opposite do row by row, with each block of
/// the accumulator held in registers across all the rows.
pub fn update(acc: &mut [i16], weights: &[i16], gone: &[u16], came: &[u16]) {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: the processor has AVX2, checked just above.
        return unsafe { avx2::update(acc, weights, gone, came) };
    }
    update_lanes(acc, weights, gone, came)
}

/// `Σ clamp(acc, 0, max) · w`.
pub fn dot_crelu(acc: &[i16], w: &[i16], max: i16) -> i32 {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: the processor has AVX2, checked just above.
        return unsafe { avx2::dot_crelu(acc, w, max) };
    }
    dot_crelu_lanes(acc, w, max)
}

#[inline(always)]
fn add_lanes(acc: &mut [i16], row: &[i16]) {
    acc.iter_mut()
        .zip(row)
        .for_each(|(a, &w)| *a = a.wrapping_add(w));
}

#[inline(always)]
fn sub_lanes(acc: &mut [i16], row: &[i16]) {
    acc.iter_mut()
        .zip(row)
        .for_each(|(a, &w)| *a = a.wrapping_sub(w));
}

/// Lanes of the accumulator [`update`] holds at once: four AVX2 registers.
const BLOCK: usize = 64;

#[inline(always)]
fn update_lanes(acc: &mut [i16], weights: &[i16], gone: &[u16], came: &[u16]) {
    let h = acc.len();
    let row = |f: u16, from: usize, len: usize| &weights[f as usize * h + from..][..len];
    let mut blocks = acc.chunks_exact_mut(BLOCK);
    for (b, out) in blocks.by_ref().enumerate() {
        let mut r = [0i16; BLOCK];
        r.copy_from_slice(out);
        for &f in gone {
            sub_lanes(&mut r, row(f, b * BLOCK, BLOCK));
        }
        for &f in came {
            add_lanes(&mut r, row(f, b * BLOCK, BLOCK));
        }
        out.copy_from_slice(&r);
    }
    let tail = blocks.into_remainder();
    let from = h - tail.len();
    for &f in gone {
        sub_lanes(tail, row(f, from, tail.len()));
    }
    for &f in came {
        add_lanes(tail, row(f, from, tail.len()));
    }
}

#[inline(always)]
fn dot_crelu_lanes(acc: &[i16], w: &[i16], max: i16) -> i32 {
    acc.iter()
        .zip(w)
        .map(|(&a, &w)| i32::from(a.clamp(0, max)) * i32::from(w))
        .sum()
}

/// The same loops compiled for AVX2.
#[cfg(target_arch = "x86_64")]
mod avx2 {
    #[target_feature(enable = "avx2")]
    pub unsafe fn add(acc: &mut [i16], row: &[i16]) {
        super::add_lanes(acc, row)
    }

    #[target_feature(enable = "avx2")]
    pub unsafe fn update(acc: &mut [i16], weights: &[i16], gone: &[u16], came: &[u16]) {
        super::update_lanes(acc, weights, gone, came)
    }

    #[target_feature(enable = "avx2")]
    pub unsafe fn dot_crelu(acc: &[i16], w: &[i16], max: i16) -> i32 {
        super::dot_crelu_lanes(acc, w, max)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The dispatched loops (AVX2 where the processor has it) give what
    /// the plain ones give, on lengths that are not a multiple of a lane
    /// count too, with overflow wrapping.
    #[test]
    fn dispatched_loops_equal_the_plain_ones() {
        for n in [1, 7, 16, 33, 128, 257] {
            let row: Vec<i16> = (0..n).map(|i| (i as i16).wrapping_mul(7919)).collect();
            let start: Vec<i16> = (0..n).map(|i| (i as i16).wrapping_mul(-104)).collect();
            let (mut a, mut b) = (start.clone(), start.clone());
            add(&mut a, &row);
            add_lanes(&mut b, &row);
            assert_eq!(a, b);
            update(&mut a, &row, &[0, 0], &[]);
            sub_lanes(&mut b, &row);
            sub_lanes(&mut b, &row);
            assert_eq!(a, b);
            assert_eq!(dot_crelu(&a, &row, 255), dot_crelu_lanes(&b, &row, 255));
        }
    }

    /// Updating by lists of rows at once gives what subtracting and
    /// adding them one by one gives, with a remainder after the blocks
    /// too.
    #[test]
    fn updates_equal_the_rows_one_by_one() {
        for n in [1, 16, 64, 128, 136, 257] {
            let weights: Vec<i16> = (0..8 * n).map(|i| (i as i16).wrapping_mul(7919)).collect();
            let start: Vec<i16> = (0..n).map(|i| (i as i16).wrapping_mul(-104)).collect();
            let (gone, came) = ([1u16, 6], [0u16, 3, 7]);
            let mut a = start.clone();
            update(&mut a, &weights, &gone, &came);
            let mut b = start.clone();
            for &f in &gone {
                sub_lanes(&mut b, &weights[f as usize * n..][..n]);
            }
            for &f in &came {
                add_lanes(&mut b, &weights[f as usize * n..][..n]);
            }
            assert_eq!(a, b, "{n}");
            let mut c = start.clone();
            update_lanes(&mut c, &weights, &gone, &came);
            assert_eq!(c, b, "{n}");
        }
    }
}
