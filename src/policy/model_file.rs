//! The model file: a policy's weights in a small binary format (see `docs/policy.md`).
//!
//! All numbers are little-endian:
//!
//! | bytes | what |
//! | --- | --- |
//! | 8 | magic `SHOUTANP` |
//! | 4 | format version (1) |
//! | 8 | feature fingerprint: the shape keys and feature groups the weights were made for |
//! | 4 | number of patterns `N` |
//! | 4 | number of group values `G` |
//! | 4 | weight of shapes outside the dictionary (f32) |
//! | 4·G | weight of each group value (f32), groups in order |
//! | 12·N | patterns: canonical shape hash (u64), weight (f32), hashes strictly increasing |
//! | 8 | checksum: FNV-1a (64 bits) of every byte before it |
//!
//! Reading checks everything (length, magic, version, fingerprint, checksum, order, finite
//! weights) and says what is wrong; it never panics on a bad file.

use super::Policy;
use super::features::{GROUP_FEATURES, GROUPS};
use super::shape;

/// First bytes of every model file.
pub const MAGIC: &[u8; 8] = b"SHOUTANP";
/// The format version this build reads and writes.
pub const VERSION: u32 = 1;

const HEADER_BYTES: usize = 8 + 4 + 8 + 4 + 4 + 4;
const PATTERN_BYTES: usize = 12;
const CHECKSUM_BYTES: usize = 8;

/// 64-bit FNV-1a of `bytes`.
pub fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

/// A fingerprint of the features this build computes: the shape geometry and keys, and the
/// groups with their sizes. A model made for other features is refused.
pub fn feature_fingerprint() -> u64 {
    let mut text = format!(
        "shapes d<={} levels {} offsets {:?} keys {:x} {:x};",
        shape::MAX_DISTANCE,
        shape::LEVELS,
        shape::OFFSETS,
        shape::key_digest(),
        super::features::LADDER_PLIES,
    );
    for g in &GROUPS {
        text.push_str(&format!("{}:{};", g.name, g.values));
    }
    fnv1a(text.as_bytes())
}

/// The file bytes of `policy`.
pub fn to_bytes(policy: &Policy) -> Vec<u8> {
    let n = policy.pattern_count();
    let mut out = Vec::with_capacity(HEADER_BYTES + 4 * GROUP_FEATURES + PATTERN_BYTES * n + 8);
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&VERSION.to_le_bytes());
    out.extend_from_slice(&feature_fingerprint().to_le_bytes());
    out.extend_from_slice(&(n as u32).to_le_bytes());
    out.extend_from_slice(&(GROUP_FEATURES as u32).to_le_bytes());
    out.extend_from_slice(&policy.unknown_shape_weight().to_le_bytes());
    for w in policy.group_weights() {
        out.extend_from_slice(&w.to_le_bytes());
    }
    for (h, w) in policy.patterns() {
        out.extend_from_slice(&h.to_le_bytes());
        out.extend_from_slice(&w.to_le_bytes());
    }
    let sum = fnv1a(&out);
    out.extend_from_slice(&sum.to_le_bytes());
    out
}

/// Reads little-endian numbers off a byte slice whose length was checked.
struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn take<const N: usize>(&mut self) -> [u8; N] {
        let mut a = [0; N];
        a.copy_from_slice(&self.bytes[self.at..self.at + N]);
        self.at += N;
        a
    }
    fn u32(&mut self) -> u32 {
        u32::from_le_bytes(self.take())
    }
    fn u64(&mut self) -> u64 {
        u64::from_le_bytes(self.take())
    }
    fn f32(&mut self) -> Result<f32, String> {
        let x = f32::from_le_bytes(self.take());
        if x.is_finite() {
            Ok(x)
        } else {
            Err(format!(
                "a weight at byte {} is not a finite number",
                self.at - 4
            ))
        }
    }
}

/// A policy from file bytes, or what is wrong with them.
pub fn from_bytes(bytes: &[u8]) -> Result<Policy, String> {
    if bytes.len() < MAGIC.len() || &bytes[..MAGIC.len()] != MAGIC {
        return Err("not a shoutan pattern file (wrong magic bytes)".into());
    }
    if bytes.len() < HEADER_BYTES + CHECKSUM_BYTES {
        return Err(format!(
            "truncated: {} bytes, too short for the header",
            bytes.len()
        ));
    }
    let mut r = Reader {
        bytes,
        at: MAGIC.len(),
    };
    let version = r.u32();
    if version != VERSION {
        return Err(format!(
            "format version {version}, this build reads version {VERSION}"
        ));
    }
    let fingerprint = r.u64();
    let n = r.u32() as usize;
    let g = r.u32() as usize;
    let expected = HEADER_BYTES as u64
        + 4 * g as u64
        + PATTERN_BYTES as u64 * n as u64
        + CHECKSUM_BYTES as u64;
    if (bytes.len() as u64) < expected {
        return Err(format!(
            "truncated: {} bytes where the header announces {expected}",
            bytes.len()
        ));
    }
    if bytes.len() as u64 > expected {
        return Err(format!(
            "{} bytes where the header announces {expected}: trailing data",
            bytes.len()
        ));
    }
    let body = bytes.len() - CHECKSUM_BYTES;
    let stored = u64::from_le_bytes(bytes[body..].try_into().unwrap_or([0; 8]));
    if stored != fnv1a(&bytes[..body]) {
        return Err("checksum mismatch: the file is damaged".into());
    }
    if fingerprint != feature_fingerprint() || g != GROUP_FEATURES {
        return Err(
            "made for other features (another shoutan version's patterns): retrain it".into(),
        );
    }
    let unknown = r.f32()?;
    let mut groups = [0f32; GROUP_FEATURES];
    for w in groups.iter_mut() {
        *w = r.f32()?;
    }
    let mut patterns = Vec::with_capacity(n);
    for _ in 0..n {
        let h = r.u64();
        patterns.push((h, r.f32()?));
    }
    Policy::new(&patterns, unknown, groups)
}

/// Reads a model file.
pub fn load(path: &std::path::Path) -> Result<Policy, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
    from_bytes(&bytes).map_err(|e| format!("{}: {e}", path.display()))
}

/// Writes a model file.
pub fn save(policy: &Policy, path: &std::path::Path) -> Result<(), String> {
    std::fs::write(path, to_bytes(policy)).map_err(|e| format!("{}: {e}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Policy {
        let mut groups = [0f32; GROUP_FEATURES];
        for (i, w) in groups.iter_mut().enumerate() {
            *w = i as f32 * 0.25 - 3.0;
        }
        Policy::new(&[(3, 1.5), (0x1001, -2.0), (u64::MAX, 0.125)], -0.5, groups).unwrap()
    }

    #[test]
    fn round_trip() {
        let p = sample();
        let bytes = to_bytes(&p);
        let q = from_bytes(&bytes).unwrap();
        assert_eq!(to_bytes(&q), bytes);
        assert_eq!(
            q.patterns().collect::<Vec<_>>(),
            p.patterns().collect::<Vec<_>>()
        );
        assert_eq!(q.unknown_shape_weight(), -0.5);
        assert_eq!(q.group_weights(), p.group_weights());
        assert_eq!(q.dictionary().get(0x1001), Some(2));
    }

    #[test]
    fn bad_files_are_refused_with_a_reason() {
        let bytes = to_bytes(&sample());
        let err = |b: &[u8]| from_bytes(b).err().unwrap_or_default();
        assert!(err(b"").contains("magic"));
        assert!(err(b"GIF89a........................").contains("magic"));
        assert!(err(&bytes[..20]).contains("truncated"));
        for cut in [bytes.len() - 1, bytes.len() - 12, HEADER_BYTES + 3] {
            assert!(err(&bytes[..cut]).contains("truncated"), "cut at {cut}");
        }
        let mut longer = bytes.clone();
        longer.push(0);
        assert!(err(&longer).contains("trailing"));
        // One flipped bit anywhere in the body.
        for at in [30, bytes.len() / 2, bytes.len() - 9] {
            let mut damaged = bytes.clone();
            damaged[at] ^= 0x10;
            assert!(err(&damaged).contains("checksum"), "flip at {at}");
        }
        let mut other_version = bytes.clone();
        other_version[8] = 2;
        assert!(err(&other_version).contains("version 2"));
        // Another feature set, with a valid checksum.
        let mut foreign = bytes.clone();
        foreign[12] ^= 1;
        let body = foreign.len() - 8;
        let sum = fnv1a(&foreign[..body]).to_le_bytes();
        foreign[body..].copy_from_slice(&sum);
        assert!(err(&foreign).contains("other features"));
    }

    #[test]
    fn unsorted_or_even_hashes_are_refused() {
        let groups = [0f32; GROUP_FEATURES];
        assert!(Policy::new(&[(5, 0.0), (3, 0.0)], 0.0, groups).is_err());
        assert!(Policy::new(&[(5, 0.0), (5, 0.0)], 0.0, groups).is_err());
        assert!(Policy::new(&[(4, 0.0)], 0.0, groups).is_err());
    }
}
