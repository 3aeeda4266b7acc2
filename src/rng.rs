//! A small, fast, seedable random number generator for playouts and search.
//!
//! Playouts draw hundreds of numbers per game; `rand`'s cryptographic default is far too slow
//! for that and its small generators change between releases. This is wyrand (Wang Yi's
//! generator): one multiply per number, good statistical quality, and a stable sequence for a
//! given seed, which makes `--threads 1 --seed N` runs reproducible.

/// A wyrand generator.
#[derive(Clone, Debug)]
pub struct Rng {
    state: u64,
}

impl Rng {
    /// A generator with a fixed seed: the same seed always gives the same sequence.
    pub fn new(seed: u64) -> Rng {
        Rng { state: seed }
    }

    /// A generator seeded from the operating system (via `rand`).
    pub fn from_entropy() -> Rng {
        Rng::new(rand::random())
    }

    /// The next 64 random bits.
    #[inline]
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0xa076_1d64_78bd_642f);
        let t = (self.state as u128).wrapping_mul((self.state ^ 0xe703_7ed1_a0b4_28db) as u128);
        ((t >> 64) ^ t) as u64
    }

    /// A uniform integer in `0..n` (`n` > 0), by Lemire's multiply-shift.
    #[inline]
    pub fn below(&mut self, n: usize) -> usize {
        debug_assert!(n > 0);
        ((self.next_u64() >> 32).wrapping_mul(n as u64) >> 32) as usize
    }

    /// True with probability `numerator / 1024`: cheap coin flips for playout policies.
    #[inline]
    pub fn chance(&mut self, numerator: u32) -> bool {
        ((self.next_u64() >> 54) as u32) < numerator
    }

    /// A uniform float in `[0, 1)`.
    #[inline]
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_sequence() {
        let mut a = Rng::new(7);
        let mut b = Rng::new(7);
        for _ in 0..100 {
            assert_eq!(a.next_u64(), b.next_u64());
        }
    }

    #[test]
    fn below_is_roughly_uniform_and_in_range() {
        let mut r = Rng::new(1);
        let mut counts = [0u32; 7];
        for _ in 0..70_000 {
            let x = r.below(7);
            counts[x] += 1;
        }
        for &c in &counts {
            assert!((9_000..11_000).contains(&c), "{counts:?}");
        }
        for _ in 0..1000 {
            let u = r.unit();
            assert!((0.0..1.0).contains(&u));
        }
    }
}
