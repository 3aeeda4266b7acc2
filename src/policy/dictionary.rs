//! The pattern dictionary: canonical shape hashes mapped to small indices, in one open-
//! addressing table (linear probing, power-of-two size, at most half full), sized once for
//! the patterns it will hold.
//!
//! A slot keeps 32 bits of its hash (the slot number comes from the other 32), so that a slot
//! takes 8 bytes: the table of the built-in model is 16 MB, not 32, and far more of it stays
//! in the caches; the search looks it up for every move of every node it expands. Two
//! hashes that agree in their low 32 bits and meet in one probe run would be taken for one
//! (about once in 2^31 lookups of an unknown shape).
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

/// One slot: the low half of a hash (0 when empty, see [`fingerprint`]) and its index side
/// by side, so that a lookup that finds its hash reads one cache line.
#[derive(Clone, Copy, Debug, Default)]
struct Slot {
    key: u32,
    index: u32,
}

/// The part of `hash` a slot keeps: its low 32 bits, never 0 (0 marks an empty slot).
#[inline]
fn fingerprint(hash: u64) -> u32 {
    (hash as u32).max(1)
}

impl Dictionary {
    /// An empty dictionary with room for `n` patterns (it cannot grow: a slot does not keep
    /// the hash bits that choose its slot).
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

    /// Adds `hash` (not 0) with `index`, replacing an earlier index for the same hash. Errs
    /// when the dictionary already holds the patterns it was made for.
    pub fn insert(&mut self, hash: u64, index: u32) -> Result<(), String> {
        debug_assert!(hash != 0);
        let mask = self.slots.len() - 1;
        let room = 2 * (self.len + 1) <= self.slots.len();
        let key = fingerprint(hash);
        let mut i = self.slot(hash);
        loop {
            let slot = &mut self.slots[i];
            if slot.key == key {
                slot.index = index;
                return Ok(());
            }
            if slot.key == 0 {
                if !room {
                    return Err(format!(
                        "the pattern dictionary is full ({} patterns)",
                        self.len
                    ));
                }
                *slot = Slot { key, index };
                self.len += 1;
                return Ok(());
            }
            i = (i + 1) & mask;
        }
    }

    /// Asks the processor to bring `hash`'s slot into the cache, so that a [`Dictionary::get`]
    /// of it soon after does not wait for memory; many in a row overlap their waits.
    #[inline]
    pub fn prefetch(&self, hash: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
            let slot = self.slots.as_ptr().wrapping_add(self.slot(hash));
            // SAFETY: a prefetch is a hint that never faults, whatever the address; this one
            // is inside the table anyway (`slot` masks it).
            unsafe { _mm_prefetch(slot.cast::<i8>(), _MM_HINT_T0) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = hash;
    }

    /// The index of `hash`, if known.
    #[inline]
    pub fn get(&self, hash: u64) -> Option<u32> {
        let mask = self.slots.len() - 1;
        let key = fingerprint(hash);
        let mut i = self.slot(hash);
        loop {
            let slot = self.slots[i];
            if slot.key == key {
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
    fn insert_get_and_replace() {
        let mut d = Dictionary::with_capacity(1000);
        for i in 1..1000u64 {
            d.insert(i.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1, i as u32)
                .unwrap();
        }
        assert_eq!(d.len(), 999);
        for i in 1..1000u64 {
            assert_eq!(
                d.get(i.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1),
                Some(i as u32)
            );
        }
        assert_eq!(d.get(12345 << 1 | 1), None);
        d.insert(3 | 1, 7).unwrap();
        d.insert(3 | 1, 8).unwrap();
        assert_eq!(d.get(3), Some(8));
    }

    #[test]
    fn a_full_dictionary_refuses_new_patterns_but_keeps_its_own() {
        // Room for 8 patterns: 16 slots, at most half of them used.
        let mut d = Dictionary::with_capacity(8);
        let key = |i: u64| i.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
        for i in 1..=8 {
            d.insert(key(i), i as u32).unwrap();
        }
        assert!(d.insert(key(9), 9).is_err());
        assert_eq!(d.len(), 8);
        assert_eq!(d.get(key(9)), None);
        d.insert(key(4), 40).unwrap();
        assert_eq!(d.get(key(4)), Some(40));
        for i in (1..=8).filter(|&i| i != 4) {
            assert_eq!(d.get(key(i)), Some(i as u32));
        }
    }

    #[test]
    fn hashes_differing_only_in_their_slot_bits_stay_apart() {
        // Same low 32 bits, different high bits: different home slots, both found.
        let mut d = Dictionary::with_capacity(4);
        d.insert(0x0000_0001_0000_0003, 1).unwrap();
        d.insert(0x0000_0002_0000_0003, 2).unwrap();
        assert_eq!(d.get(0x0000_0001_0000_0003), Some(1));
        assert_eq!(d.get(0x0000_0002_0000_0003), Some(2));
        assert_eq!(d.get(0x0000_0003_0000_0003), None);
    }
}
