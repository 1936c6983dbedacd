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

/// Subtracts `row` from `acc`, lane by lane (wrapping).
pub fn sub(acc: &mut [i16], row: &[i16]) {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: the processor has AVX2, checked just above.
        return unsafe { avx2::sub(acc, row) };
    }
    sub_lanes(acc, row)
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
    pub unsafe fn sub(acc: &mut [i16], row: &[i16]) {
        super::sub_lanes(acc, row)
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
            sub(&mut a, &row);
            sub(&mut a, &row);
            sub_lanes(&mut b, &row);
            sub_lanes(&mut b, &row);
            assert_eq!(a, b);
            assert_eq!(dot_crelu(&a, &row, 255), dot_crelu_lanes(&b, &row, 255));
        }
    }
}
