//! The pattern dictionary: canonical shape hashes mapped to small indices, in one open-
//! addressing table (linear probing, power-of-two capacity, at most half full).
//!
//! Patterns are kept when they were played often enough, so the dictionary is closed under
//! taking the smaller diamond: a shape's smaller levels were seen at least as often as the
//! shape itself. [`super::shape::ShapeScratch::deepest`] relies on that and stops at the
//! first level it does not know.

/// A hash table from canonical shape hashes (never 0) to indices.
#[derive(Clone, Debug)]
pub struct Dictionary {
    /// Hash per slot, 0 for an empty slot.
    keys: Vec<u64>,
    /// Index per slot.
    indices: Vec<u32>,
    len: usize,
}

impl Dictionary {
    /// An empty dictionary with room for `n` patterns.
    pub fn with_capacity(n: usize) -> Dictionary {
        let slots = (2 * n.max(8)).next_power_of_two();
        Dictionary {
            keys: vec![0; slots],
            indices: vec![0; slots],
            len: 0,
        }
    }

    /// Number of patterns.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether there is no pattern.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    #[inline]
    fn slot(&self, hash: u64) -> usize {
        // Hashes are uniformly random bits: the high bits make a good slot.
        (hash >> 32) as usize & (self.keys.len() - 1)
    }

    /// Adds `hash` (not 0) with `index`, replacing an earlier index for the same hash.
    pub fn insert(&mut self, hash: u64, index: u32) {
        debug_assert!(hash != 0);
        if 2 * (self.len + 1) > self.keys.len() {
            self.grow();
        }
        let mask = self.keys.len() - 1;
        let mut i = self.slot(hash);
        loop {
            if self.keys[i] == hash {
                self.indices[i] = index;
                return;
            }
            if self.keys[i] == 0 {
                self.keys[i] = hash;
                self.indices[i] = index;
                self.len += 1;
                return;
            }
            i = (i + 1) & mask;
        }
    }

    fn grow(&mut self) {
        let mut bigger = Dictionary::with_capacity(self.keys.len());
        for (&k, &v) in self.keys.iter().zip(&self.indices) {
            if k != 0 {
                bigger.insert(k, v);
            }
        }
        *self = bigger;
    }

    /// The index of `hash`, if known.
    #[inline]
    pub fn get(&self, hash: u64) -> Option<u32> {
        let mask = self.keys.len() - 1;
        let mut i = self.slot(hash);
        loop {
            let k = self.keys[i];
            if k == hash {
                return Some(self.indices[i]);
            }
            if k == 0 {
                return None;
            }
            i = (i + 1) & mask;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn insert_get_and_grow() {
        let mut d = Dictionary::with_capacity(2);
        for i in 1..1000u64 {
            d.insert(i.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1, i as u32);
        }
        assert_eq!(d.len(), 999);
        for i in 1..1000u64 {
            assert_eq!(
                d.get(i.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1),
                Some(i as u32)
            );
        }
        assert_eq!(d.get(12345 << 1 | 1), None);
        d.insert(3 | 1, 7);
        d.insert(3 | 1, 8);
        assert_eq!(d.get(3), Some(8));
    }
}
