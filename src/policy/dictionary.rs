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
    /// The slots, a power of two of them.
    slots: Vec<Slot>,
    len: usize,
}

/// One slot: a hash (0 when empty) and its index side by side, so that a lookup that finds
/// its hash reads one cache line (the table is far bigger than the caches).
#[derive(Clone, Copy, Debug, Default)]
struct Slot {
    key: u64,
    index: u32,
}

impl Dictionary {
    /// An empty dictionary with room for `n` patterns.
    pub fn with_capacity(n: usize) -> Dictionary {
        let slots = (2 * n.max(8)).next_power_of_two();
        Dictionary {
            slots: vec![Slot::default(); slots],
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
        (hash >> 32) as usize & (self.slots.len() - 1)
    }

    /// Adds `hash` (not 0) with `index`, replacing an earlier index for the same hash.
    pub fn insert(&mut self, hash: u64, index: u32) {
        debug_assert!(hash != 0);
        if 2 * (self.len + 1) > self.slots.len() {
            self.grow();
        }
        let mask = self.slots.len() - 1;
        let mut i = self.slot(hash);
        loop {
            let slot = &mut self.slots[i];
            if slot.key == hash {
                slot.index = index;
                return;
            }
            if slot.key == 0 {
                *slot = Slot { key: hash, index };
                self.len += 1;
                return;
            }
            i = (i + 1) & mask;
        }
    }

    fn grow(&mut self) {
        let mut bigger = Dictionary::with_capacity(self.slots.len());
        for slot in &self.slots {
            if slot.key != 0 {
                bigger.insert(slot.key, slot.index);
            }
        }
        *self = bigger;
    }

    /// The index of `hash`, if known.
    #[inline]
    pub fn get(&self, hash: u64) -> Option<u32> {
        let mask = self.slots.len() - 1;
        let mut i = self.slot(hash);
        loop {
            let slot = self.slots[i];
            if slot.key == hash {
                return Some(slot.index);
            }
            if slot.key == 0 {
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
