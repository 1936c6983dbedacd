//! Drawing one item by its probability: a chance outcome, or an action of
//! a mixed strategy.

use rand::Rng;

/// Draws one item by its probability from a uniform number of `rng`
/// (cumulative order; the last item takes any rounding remainder).
pub fn pick<M: Copy>(rng: &mut impl Rng, items: impl Iterator<Item = (M, f64)>) -> M {
    let u: f64 = rng.gen();
    let mut acc = 0.0;
    let mut last = None;
    for (m, p) in items {
        acc += p;
        last = Some(m);
        if u < acc {
            return m;
        }
    }
    last.expect("at least one item to pick from")
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::rngs::StdRng;
    use rand::SeedableRng;

    #[test]
    fn items_are_drawn_by_their_probability() {
        let mut rng = StdRng::seed_from_u64(7);
        let mut counts = [0u32; 3];
        for _ in 0..10_000 {
            counts[pick(&mut rng, [(0, 0.2), (1, 0.0), (2, 0.8)].into_iter())] += 1;
        }
        assert_eq!(counts[1], 0, "an item of probability 0 is never drawn");
        assert!((1_700..2_300).contains(&counts[0]), "{counts:?}");
        // Rounding short of 1: the last item takes the rest.
        assert_eq!(pick(&mut rng, [(5, 0.0)].into_iter()), 5);
    }
}
