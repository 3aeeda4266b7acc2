//! Learned strengths ("gammas") of 3x3 patterns with liberty bits, for the heavy playouts'
//! shape step (see [`super::heavy`], `learned_shape_move`).
//!
//! A candidate move's *pattern key* (21 bits, [`pattern_key`]) is
//!
//! - bits 0..16: the point's 3x3 neighbourhood code ([`patterns::neighbourhood_code`]) seen
//!   from the side to move: colours swapped when White moves, so "black" means "own";
//! - bits 16..20: whether the chain of the north, west, east, south neighbour (in that
//!   order) is in atari (only set for stones);
//! - bit 20: whether the move itself is a self-atari ([`tactics::is_self_atari`]).
//!
//! A pattern's gamma is how often strong players played it when it was available next to
//! the last two moves: `(played + a) / (available + b)` (counted by [`Counts`] over game
//! records, under all eight symmetries of the square), stored quantised as
//! `q = 255 + 16 ln(gamma)` in one byte (`q` from 1 to 255; gamma 1 is 255, gamma
//! e^-15.9 is 1). The playout draws among the candidates with probability proportional to
//! their gammas (plus a "rest" mass that falls through to the random move).
//!
//! The file (`models/playout.gammas`, built in) holds one entry per canonical pattern (the
//! smallest key of its eight symmetric images) seen in training; every other key gets the
//! file's default (the smoothing prior `a / b`). All numbers little-endian:
//!
//! | bytes | what |
//! | --- | --- |
//! | 8 | magic `SHTGAMMA` |
//! | 4 | format version (1) |
//! | 4 | key bits (21) |
//! | 4 | number of entries `N` |
//! | 1 | default `q` of keys not listed |
//! | 5·N | entries: canonical key (u32), `q` (u8); keys strictly increasing |
//! | 8 | checksum: FNV-1a (64 bits) of every byte before it |
//!
//! Regenerate it with `shoutan train-playout-patterns` (see `docs/policy.md`).

use std::sync::OnceLock;

use crate::board::{Board, Cell, Color, Move, Point};
use crate::patterns;
use crate::policy::model_file::fnv1a;
use crate::policy::records::GameRecord;
use crate::tactics;

/// Bits of a pattern key.
pub const KEY_BITS: u32 = 21;
/// Number of distinct pattern keys.
pub const KEYS: usize = 1 << KEY_BITS;
/// The key bit saying the move is a self-atari.
pub const SELF_ATARI_BIT: u32 = 1 << 20;
/// First bytes of a gamma file.
pub const MAGIC: &[u8; 8] = b"SHTGAMMA";
/// The format version this build reads and writes.
pub const VERSION: u32 = 1;
/// The weight of gamma 1 in [`GammaTable::weight`] (weights are gamma times this).
pub const WEIGHT_ONE: u32 = 1 << 20;
/// Quantisation steps per unit of natural logarithm.
const Q_SCALE: f64 = 16.0;

const HEADER_BYTES: usize = 8 + 4 + 4 + 4 + 1;
const ENTRY_BYTES: usize = 5;

/// The built-in gamma file.
static BUILTIN_BYTES: &[u8] = include_bytes!("../../models/playout.gammas");

/// Ring positions of the orthogonal neighbours N, W, E, S: the order of the atari bits.
const ORTH: [usize; 4] = [1, 3, 4, 6];

/// `code` with black and white swapped in every 2-bit field (empty and border kept).
#[inline]
fn swap_colours(code: u32) -> u32 {
    // A field holds a stone when its high bit is clear; flip the low bit of those.
    code ^ (!(code >> 1) & 0x5555)
}

/// The pattern key of `c` playing the empty point `p` (see the module documentation).
#[inline]
pub fn pattern_key(board: &Board, p: Point, c: Color) -> u32 {
    let mut key = u32::from(patterns::neighbourhood_code(board, p));
    if c == Color::White {
        key = swap_colours(key);
    }
    for (k, q) in [
        p + board.stride() as Point,
        p - 1,
        p + 1,
        p - board.stride() as Point,
    ]
    .into_iter()
    .enumerate()
    {
        let cell = board.cell(q);
        if (cell == Cell::Black || cell == Cell::White) && board.liberties(q) == 1 {
            key |= 1 << (16 + k);
        }
    }
    if tactics::is_self_atari(board, p, c) {
        key |= SELF_ATARI_BIT;
    }
    key
}

/// For each symmetry (0..8) the ring position each ring position goes to.
fn ring_maps() -> [[usize; 8]; 8] {
    let mut maps = [[0; 8]; 8];
    for (sym, map) in maps.iter_mut().enumerate() {
        for (i, slot) in map.iter_mut().enumerate() {
            let (mut dx, mut dy) = patterns::RING[i];
            if sym & 4 != 0 {
                dx = -dx;
            }
            for _ in 0..(sym & 3) {
                (dx, dy) = (-dy, dx);
            }
            *slot = patterns::RING
                .iter()
                .position(|&o| o == (dx, dy))
                .expect("a symmetry maps the ring onto itself");
        }
    }
    maps
}

/// `key` under the symmetry whose ring map is `map`.
fn transform(key: u32, map: &[usize; 8]) -> u32 {
    let mut out = key & SELF_ATARI_BIT;
    for (i, &j) in map.iter().enumerate() {
        out |= (key >> (2 * i) & 3) << (2 * j);
    }
    for (k, &ring) in ORTH.iter().enumerate() {
        if key >> (16 + k) & 1 != 0 {
            let to = ORTH
                .iter()
                .position(|&r| r == map[ring])
                .expect("symmetries map orthogonal neighbours to orthogonal ones");
            out |= 1 << (16 + to);
        }
    }
    out
}

/// The eight symmetric images of `key` (with repeats when the pattern is symmetric).
fn images(key: u32, maps: &[[usize; 8]; 8]) -> [u32; 8] {
    let mut out = [0; 8];
    for (slot, map) in out.iter_mut().zip(maps) {
        *slot = transform(key, map);
    }
    out
}

/// The canonical key of `key`: the smallest of its symmetric images.
pub fn canonical(key: u32) -> u32 {
    let maps = ring_maps();
    images(key, &maps).into_iter().min().unwrap_or(key)
}

/// The quantised byte of a gamma in (0, 1].
fn quantise(gamma: f64) -> u8 {
    (255.0 + Q_SCALE * gamma.ln()).round().clamp(1.0, 255.0) as u8
}

/// The gamma of a quantised byte.
pub fn dequantise(q: u8) -> f64 {
    ((f64::from(q) - 255.0) / Q_SCALE).exp()
}

/// A gamma table: the file's entries and default.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GammaFile {
    /// `q` of keys not listed.
    pub default_q: u8,
    /// (canonical key, `q`), keys strictly increasing.
    pub entries: Vec<(u32, u8)>,
}

impl GammaFile {
    /// The file bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(HEADER_BYTES + ENTRY_BYTES * self.entries.len() + 8);
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&VERSION.to_le_bytes());
        out.extend_from_slice(&KEY_BITS.to_le_bytes());
        out.extend_from_slice(&(self.entries.len() as u32).to_le_bytes());
        out.push(self.default_q);
        for &(key, q) in &self.entries {
            out.extend_from_slice(&key.to_le_bytes());
            out.push(q);
        }
        let sum = fnv1a(&out);
        out.extend_from_slice(&sum.to_le_bytes());
        out
    }

    /// Reads file bytes, checking length, magic, version, key bits, checksum, key order
    /// and range; says what is wrong instead of panicking.
    pub fn from_bytes(bytes: &[u8]) -> Result<GammaFile, String> {
        if bytes.len() < HEADER_BYTES + 8 {
            return Err("gamma file too short".into());
        }
        let (body, sum) = bytes.split_at(bytes.len() - 8);
        let u32_at =
            |i: usize| u32::from_le_bytes([body[i], body[i + 1], body[i + 2], body[i + 3]]);
        if &body[..8] != MAGIC {
            return Err("not a gamma file (bad magic)".into());
        }
        if u32_at(8) != VERSION {
            return Err(format!(
                "gamma file version {} (expected {VERSION})",
                u32_at(8)
            ));
        }
        if u32_at(12) != KEY_BITS {
            return Err(format!(
                "gamma file for {}-bit keys (expected {KEY_BITS})",
                u32_at(12)
            ));
        }
        let n = u32_at(16) as usize;
        if body.len() != HEADER_BYTES + ENTRY_BYTES * n {
            return Err(format!("gamma file length does not match its {n} entries"));
        }
        let stored = u64::from_le_bytes(sum.try_into().map_err(|_| "bad checksum field")?);
        if fnv1a(body) != stored {
            return Err("gamma file checksum mismatch (damaged file)".into());
        }
        let default_q = body[20];
        let mut entries = Vec::with_capacity(n);
        for i in 0..n {
            let at = HEADER_BYTES + ENTRY_BYTES * i;
            let key = u32_at(at);
            if key as usize >= KEYS || entries.last().is_some_and(|&(k, _)| k >= key) {
                return Err(format!("gamma file entry {i}: key out of range or order"));
            }
            entries.push((key, body[at + 4]));
        }
        Ok(GammaFile { default_q, entries })
    }

    /// The dense lookup table: every key's `q`, symmetric images filled in.
    pub fn table(&self) -> GammaTable {
        let mut q = vec![self.default_q; KEYS].into_boxed_slice();
        let maps = ring_maps();
        for &(key, value) in &self.entries {
            for image in images(key, &maps) {
                q[image as usize] = value;
            }
        }
        let mut weights = [0u32; 256];
        for (i, w) in weights.iter_mut().enumerate() {
            *w = (dequantise(i as u8) * f64::from(WEIGHT_ONE))
                .round()
                .max(1.0) as u32;
        }
        GammaTable { q, weights }
    }
}

/// The dense table the playouts read: one byte per key, and the weight of each byte.
pub struct GammaTable {
    q: Box<[u8]>,
    weights: [u32; 256],
}

impl GammaTable {
    /// The quantised gamma of `key`.
    #[inline]
    pub fn q(&self, key: u32) -> u8 {
        self.q[key as usize & (KEYS - 1)]
    }

    /// The drawing weight of `key`: its gamma times [`WEIGHT_ONE`] (at least 1).
    #[inline]
    pub fn weight(&self, key: u32) -> u32 {
        self.weights[self.q(key) as usize]
    }
}

static BUILTIN: OnceLock<GammaTable> = OnceLock::new();

/// The built-in table (decoded on first use).
pub fn builtin() -> &'static GammaTable {
    BUILTIN.get_or_init(|| match GammaFile::from_bytes(BUILTIN_BYTES) {
        Ok(file) => file.table(),
        // The file is part of the build and checked by a test; should it ever be bad, the
        // playouts fall back to equal weights rather than stop.
        Err(e) => {
            log::error!("built-in playout gammas: {e}");
            GammaFile {
                default_q: 200,
                entries: Vec::new(),
            }
            .table()
        }
    })
}

/// Counts of availability and play per pattern key, gathered from game records.
pub struct Counts {
    available: Vec<u64>,
    played: Vec<u64>,
    /// Positions seen (moves of the records, passes included).
    pub positions: u64,
    /// Positions whose move was one of the candidates.
    pub local_moves: u64,
    /// Candidates seen in all.
    pub candidates: u64,
    /// When kept ([`Counts::keep_positions`]): each position's candidate keys,
    /// canonical, one after another.
    kept_keys: Vec<u32>,
    /// Where each kept position's keys start in `kept_keys` (one more entry at the end).
    kept_starts: Vec<u32>,
    /// Each kept position's winner: the index of the played candidate, or `u32::MAX` when
    /// the move was elsewhere (or a pass).
    kept_winner: Vec<u32>,
    keep: bool,
}

impl Default for Counts {
    fn default() -> Self {
        Counts::new()
    }
}

impl Counts {
    /// Empty counts.
    pub fn new() -> Counts {
        Counts {
            available: vec![0; KEYS],
            played: vec![0; KEYS],
            positions: 0,
            local_moves: 0,
            candidates: 0,
            kept_keys: Vec::new(),
            kept_starts: vec![0],
            kept_winner: Vec::new(),
            keep: false,
        }
    }

    /// Also keeps every position's candidates, for [`Counts::fit`] (about 4 bytes a
    /// candidate).
    pub fn keep_positions(&mut self) {
        self.keep = true;
    }

    /// Counts one position: `c` to move on `board`, `played` the move chosen. The
    /// candidates are the empty points around the last two moves that are legal for `c`
    /// (simple ko) and not its playout eye, as in the playouts.
    pub fn add_position(&mut self, board: &Board, c: Color, played: Move) {
        self.positions += 1;
        let mut seen = [0 as Point; 16];
        let mut n = 0;
        let first = self.kept_keys.len();
        let mut winner = u32::MAX;
        for centre in [board.last_move(), board.last_move2()] {
            if centre == crate::board::NO_POINT {
                continue;
            }
            for q in board
                .neighbors(centre)
                .into_iter()
                .chain(board.diagonals(centre))
            {
                if board.cell(q) != Cell::Empty || seen[..n].contains(&q) {
                    continue;
                }
                seen[n] = q;
                n += 1;
                if !board.is_legal(q, c) || board.is_playout_eye(q, c) {
                    continue;
                }
                let key = pattern_key(board, q, c) as usize;
                self.available[key] += 1;
                self.candidates += 1;
                if played == Move::Play(q) {
                    self.played[key] += 1;
                    self.local_moves += 1;
                    winner = (self.kept_keys.len() - first) as u32;
                }
                if self.keep {
                    self.kept_keys.push(key as u32);
                }
            }
        }
        if self.keep && self.kept_keys.len() > first {
            self.kept_starts.push(self.kept_keys.len() as u32);
            self.kept_winner.push(winner);
        }
    }

    /// A Bradley-Terry fit of the gammas on the kept positions ([`Counts::keep_positions`]):
    /// in each position the move played is the winner of a contest among the candidates
    /// and one more contestant, "a move elsewhere" (pinned at gamma 1). `iterations`
    /// minorization-maximization steps (Hunter 2004; all gammas at once), each pattern
    /// with a prior of one virtual win and one virtual loss against an opponent of gamma
    /// `prior_gamma`. Keys pooled over the symmetries. Returns the file (gammas divided by
    /// the largest, so that they fit the quantisation) and the gamma of "elsewhere" in the
    /// file's units: the `gamma_rest` that goes with it.
    pub fn fit(&self, iterations: usize, prior_gamma: f64) -> (GammaFile, f64) {
        let maps = ring_maps();
        let canon: Vec<u32> = {
            let mut memo = std::collections::HashMap::new();
            self.kept_keys
                .iter()
                .map(|&k| {
                    *memo
                        .entry(k)
                        .or_insert_with(|| images(k, &maps).into_iter().min().unwrap_or(k))
                })
                .collect()
        };
        let mut wins = vec![0f64; KEYS];
        let mut present = vec![false; KEYS];
        let mut elsewhere_wins = 0f64;
        for (j, &w) in self.kept_winner.iter().enumerate() {
            let start = self.kept_starts[j] as usize;
            for &k in &canon[start..self.kept_starts[j + 1] as usize] {
                present[k as usize] = true;
            }
            if w == u32::MAX {
                elsewhere_wins += 1.0;
            } else {
                wins[canon[start + w as usize] as usize] += 1.0;
            }
        }
        let mut gamma = vec![prior_gamma; KEYS];
        let mut denom = vec![0f64; KEYS];
        for _ in 0..iterations {
            denom.iter_mut().for_each(|d| *d = 0.0);
            let mut elsewhere_denom = 0.0;
            for j in 0..self.kept_winner.len() {
                let keys = &canon[self.kept_starts[j] as usize..self.kept_starts[j + 1] as usize];
                let e = 1.0 + keys.iter().map(|&k| gamma[k as usize]).sum::<f64>();
                for &k in keys {
                    denom[k as usize] += 1.0 / e;
                }
                elsewhere_denom += 1.0 / e;
            }
            for k in 0..KEYS {
                if present[k] {
                    gamma[k] = (wins[k] + 1.0) / (denom[k] + 2.0 / (gamma[k] + prior_gamma));
                }
            }
            // Pin "elsewhere" at 1: rescale everything by its updated gamma.
            let g_else = elsewhere_wins.max(1.0) / elsewhere_denom.max(f64::MIN_POSITIVE);
            for (k, g) in gamma.iter_mut().enumerate() {
                if present[k] {
                    *g /= g_else;
                }
            }
        }
        let max = (0..KEYS)
            .filter(|&k| present[k])
            .map(|k| gamma[k])
            .fold(prior_gamma, f64::max);
        let entries = (0..KEYS)
            .filter(|&k| present[k])
            .map(|k| (k as u32, quantise(gamma[k] / max)))
            .collect();
        (
            GammaFile {
                default_q: quantise(prior_gamma / max),
                entries,
            },
            1.0 / max,
        )
    }

    /// Counts every position of a game.
    pub fn add_game(&mut self, game: &GameRecord) {
        game.replay(|board, _, c, mv| self.add_position(board, c, mv));
    }

    /// The gamma file: per canonical pattern seen, `(played + a) / (available + b)` summed
    /// over its symmetric images; keys never seen get `a / b`.
    pub fn to_file(&self, a: f64, b: f64) -> GammaFile {
        let maps = ring_maps();
        let mut entries = Vec::new();
        for key in 0..KEYS as u32 {
            let imgs = images(key, &maps);
            if imgs.iter().min() != Some(&key) {
                continue;
            }
            // Each distinct image once (a symmetric pattern repeats among its images).
            let (mut avail, mut played) = (0u64, 0u64);
            for (i, &img) in imgs.iter().enumerate() {
                if !imgs[..i].contains(&img) {
                    avail += self.available[img as usize];
                    played += self.played[img as usize];
                }
            }
            if avail > 0 {
                let gamma = (played as f64 + a) / (avail as f64 + b);
                entries.push((key, quantise(gamma.min(1.0))));
            }
        }
        GammaFile {
            default_q: quantise((a / b).min(1.0)),
            entries,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::test_support::{board_from, pt};

    #[test]
    fn colour_swap_and_symmetries_are_consistent() {
        // The same shape for White with colours swapped has the same key.
        let b = board_from(&[
            ". . . . .", //
            ". X O . .",
            ". . . . .",
            ". . . . .",
            ". . . . .",
        ]);
        let w = board_from(&[
            ". . . . .", //
            ". O X . .",
            ". . . . .",
            ". . . . .",
            ". . . . .",
        ]);
        let p = pt(&b, "C3");
        assert_eq!(
            pattern_key(&b, p, Color::Black),
            pattern_key(&w, p, Color::White)
        );
        assert_ne!(
            pattern_key(&b, p, Color::Black),
            pattern_key(&b, p, Color::White)
        );
        // A mirrored board gives a symmetric image with the same canonical key.
        let m = board_from(&[
            ". . . . .", //
            ". . O X .",
            ". . . . .",
            ". . . . .",
            ". . . . .",
        ]);
        let (k1, k2) = (
            pattern_key(&b, p, Color::Black),
            pattern_key(&m, p, Color::Black),
        );
        assert_ne!(k1, k2);
        assert_eq!(canonical(k1), canonical(k2));
        // Every image of every key canonicalises to the same key, atari bits included.
        let maps = ring_maps();
        for key in [k1, k1 | 1 << 17 | SELF_ATARI_BIT, 0x1_2345] {
            let c = canonical(key);
            for img in images(key, &maps) {
                assert_eq!(canonical(img), c);
            }
        }
    }

    #[test]
    fn atari_and_self_atari_bits() {
        // The white stone C4 is in atari; black C3 would capture (no self-atari). For
        // black at E5 corner-ish: playing B1 between white stones is a self-atari.
        let b = board_from(&[
            ". . X . .", //
            ". X O X .",
            ". . . . .",
            ". . . . .",
            "O . O . .",
        ]);
        let key = pattern_key(&b, pt(&b, "C3"), Color::Black);
        assert_eq!(key >> 16 & 0xF, 1, "north neighbour in atari");
        assert_eq!(key & SELF_ATARI_BIT, 0);
        let key = pattern_key(&b, pt(&b, "B1"), Color::Black);
        assert_ne!(key & SELF_ATARI_BIT, 0);
    }

    #[test]
    fn file_round_trips_and_refuses_damage() {
        let file = GammaFile {
            default_q: 100,
            entries: vec![(3, 7), (1000, 255), (KEYS as u32 - 1, 1)],
        };
        let bytes = file.to_bytes();
        assert_eq!(GammaFile::from_bytes(&bytes), Ok(file.clone()));
        for i in [0, 9, 13, 17, 20, 25, bytes.len() - 1] {
            let mut bad = bytes.clone();
            bad[i] ^= 0x10;
            assert!(GammaFile::from_bytes(&bad).is_err(), "byte {i} flipped");
        }
        assert!(GammaFile::from_bytes(&bytes[..bytes.len() - 1]).is_err());
        assert!(GammaFile::from_bytes(&[]).is_err());
        // Keys out of order are refused even with a right checksum.
        let unordered = GammaFile {
            default_q: 1,
            entries: vec![(5, 1), (4, 1)],
        };
        assert!(GammaFile::from_bytes(&unordered.to_bytes()).is_err());
    }

    #[test]
    fn builtin_file_is_valid_and_ranks_good_shape_above_bad() {
        let file = GammaFile::from_bytes(BUILTIN_BYTES).expect("built-in gammas");
        assert!(file.entries.len() > 1000);
        let t = builtin();
        // Black C4 is in atari (its last liberty C3): extending there saves it.
        let b = board_from(&[
            ". . . . . . .", //
            ". . . . . . .",
            ". . O O . . .",
            ". O X O . . .",
            ". . . . . . .",
            ". . . . . . .",
            ". . . . . . .",
        ]);
        let extend = pattern_key(&b, pt(&b, "C3"), Color::Black);
        assert_ne!(extend >> 16 & 0xF, 0);
        // Hane at the head of two stones.
        let far = board_from(&[
            ". . . . . . .", //
            ". . . . . . .",
            ". . . . . . .",
            ". X X . . . .",
            ". O O . . . .",
            ". . . . . . .",
            ". . . . . . .",
        ]);
        let hane = pattern_key(&far, pt(&far, "D3"), Color::Black);
        // Black playing into a white enclosure with one liberty left: a bad self-atari.
        let pit = board_from(&[
            ". . . . . . .", //
            ". . . . . . .",
            ". . . . . . .",
            ". . . O . . .",
            ". . O . O . .",
            ". . . . . . .",
            ". . . . . . .",
        ]);
        let self_atari = pattern_key(&pit, pt(&pit, "D3"), Color::Black);
        assert_ne!(self_atari & SELF_ATARI_BIT, 0);
        let empty = pattern_key(&far, pt(&far, "F6"), Color::Black);
        assert!(
            t.weight(extend) > 4 * t.weight(self_atari),
            "extend vs self-atari"
        );
        assert!(
            t.weight(hane) > 4 * t.weight(self_atari),
            "hane vs self-atari"
        );
        assert!(
            t.weight(extend) > t.weight(empty),
            "extend vs an empty point"
        );
        assert!(t.weight(hane) > t.weight(empty), "hane vs an empty point");
    }

    #[test]
    fn counting_and_fitting_prefer_the_move_played() {
        // Black C4 in atari after white D4 (its last liberty C3); strong players extend
        // at C3 half the time and play elsewhere the other half.
        let mut b = Board::new(7);
        for (name, c) in [
            ("C4", Color::Black),
            ("B4", Color::White),
            ("C5", Color::White),
        ] {
            let p = pt(&b, name);
            b.play(p, c);
        }
        b.play(pt(&b, "D4"), Color::White);
        let extend = pt(&b, "C3");
        let mut counts = Counts::new();
        counts.keep_positions();
        for i in 0..40 {
            let mv = if i % 2 == 0 {
                Move::Play(extend)
            } else {
                Move::Pass
            };
            counts.add_position(&b, Color::Black, mv);
        }
        assert_eq!(counts.positions, 40);
        assert_eq!(counts.local_moves, 20);
        let n = counts.candidates / 40;
        assert!(n >= 5, "{n} candidates");
        let key = |p: Point| canonical(pattern_key(&b, p, Color::Black));
        let others: Vec<Point> = b
            .neighbors(pt(&b, "D4"))
            .into_iter()
            .chain(b.diagonals(pt(&b, "D4")))
            .filter(|&p| b.cell(p) == Cell::Empty && p != extend)
            .collect();
        let counted = counts.to_file(1.0, 20.0).table();
        let (fitted, rest) = counts.fit(20, 0.05);
        let fitted = fitted.table();
        for p in others {
            assert!(counted.q(key(extend)) > counted.q(key(p)) + 16);
            assert!(fitted.q(key(extend)) > fitted.q(key(p)) + 16);
        }
        // Played as often as "elsewhere": a gamma near that of elsewhere (and the largest,
        // so 1 in the file's units), the prior pulling it down a little.
        assert!(rest > 0.8 && rest < 1.25, "rest {rest}");
        assert!(dequantise(fitted.q(key(extend))) > 0.5);
    }
}
