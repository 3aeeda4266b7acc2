//! Shape patterns: the stones around a point, in nested diamonds from the 3x3 square up to a
//! large diamond, hashed so that all eight symmetries of the square give one value.
//!
//! Distance is Coulom's `d(dx, dy) = |dx| + |dy| + max(|dx|, |dy|)`: the 3x3 square is
//! `d <= 3`, and level `i` of a point's shape covers every offset with `d <= i + 3`, up to
//! [`MAX_DISTANCE`] (72 points around the centre). Each cell is seen from the side to move:
//! empty, own stone, opponent stone or off the board; the four orthogonal neighbours also
//! say whether their chain has one, two or more liberties. So a shape is the same for Black
//! to move as for White to move with the colours of the stones swapped.
//!
//! Hashing is Zobrist-style: a random key per (offset, cell state), xored over the diamond.
//! For the eight symmetries the keys are permuted instead of the board: one pass over the
//! offsets xors eight keys (one per symmetry) into eight accumulators, and the canonical
//! hash of a level is the smallest of the eight. Because the levels are nested, one pass
//! outwards gives every level's hash. [`ShapeScratch`] holds the board seen from the mover
//! in a margin-padded array, so no bounds are checked in that pass, and allocates nothing
//! per position.

use crate::board::{Board, Cell, Color, MAX_SIZE, Point};

use super::dictionary::Dictionary;

/// Distance (`|dx| + |dy| + max(|dx|, |dy|)`) of the largest diamond.
pub const MAX_DISTANCE: usize = 10;

/// Number of nested shape sizes: `d <= 3` (the 3x3 square), `d <= 4`, ... `d <= MAX_DISTANCE`.
pub const LEVELS: usize = MAX_DISTANCE - 2;

/// Farthest column or row offset inside the largest diamond: the padding margin.
const MARGIN: usize = MAX_DISTANCE / 2;

/// Width of the padded array for the largest board.
const MAX_WIDTH: usize = MAX_SIZE + 2 * MARGIN;

/// Size of the padded array.
const PADDED_CAP: usize = MAX_WIDTH * MAX_WIDTH;

/// Coulom's distance between two points `dx`, `dy` apart.
pub const fn distance(dx: i32, dy: i32) -> usize {
    let (x, y) = (dx.unsigned_abs() as usize, dy.unsigned_abs() as usize);
    x + y + if x > y { x } else { y }
}

/// Number of offsets with `0 < d <= MAX_DISTANCE`.
const fn count_offsets() -> usize {
    let m = MARGIN as i32;
    let mut n = 0;
    let mut dy = -m;
    while dy <= m {
        let mut dx = -m;
        while dx <= m {
            let d = distance(dx, dy);
            if d > 0 && d <= MAX_DISTANCE {
                n += 1;
            }
            dx += 1;
        }
        dy += 1;
    }
    n
}

/// Number of offsets in the largest diamond.
pub const NUM_OFFSETS: usize = count_offsets();

/// The offsets `(dx, dy)` of the largest diamond, by distance, then row, then column.
const fn offsets() -> [(i32, i32); NUM_OFFSETS] {
    let m = MARGIN as i32;
    let mut out = [(0, 0); NUM_OFFSETS];
    let mut n = 0;
    let mut d = 1;
    while d <= MAX_DISTANCE {
        let mut dy = -m;
        while dy <= m {
            let mut dx = -m;
            while dx <= m {
                if distance(dx, dy) == d {
                    out[n] = (dx, dy);
                    n += 1;
                }
                dx += 1;
            }
            dy += 1;
        }
        d += 1;
    }
    out
}

/// The offsets of the largest diamond (see [`offsets`]); the first four are the orthogonal
/// neighbours, the next four the diagonal ones.
pub const OFFSETS: [(i32, i32); NUM_OFFSETS] = offsets();

/// Number of offsets at level `i` (those with `d <= i + 3`).
const fn level_ends() -> [usize; LEVELS] {
    let mut ends = [0; LEVELS];
    let mut level = 0;
    while level < LEVELS {
        let mut n = 0;
        while n < NUM_OFFSETS && distance(OFFSETS[n].0, OFFSETS[n].1) <= level + 3 {
            n += 1;
        }
        ends[level] = n;
        level += 1;
    }
    ends
}

/// `LEVEL_ENDS[i]`: how many of [`OFFSETS`] level `i` covers.
pub const LEVEL_ENDS: [usize; LEVELS] = level_ends();

/// Symmetry `s` (0..8) of the square applied to an offset: a mirror when bit 2 is set, then
/// `s & 3` quarter turns.
pub const fn transform(s: usize, (dx, dy): (i32, i32)) -> (i32, i32) {
    let (mut x, mut y) = if s & 4 != 0 { (-dx, dy) } else { (dx, dy) };
    let mut t = 0;
    while t < s & 3 {
        (x, y) = (-y, x);
        t += 1;
    }
    (x, y)
}

/// Cell states around the centre, from the mover's side: bits 0-1 are the cell (below),
/// bits 2-3 the liberty class of a stone's chain (0: three or more, 1: one, 2: two).
pub const EMPTY: u8 = 0;
/// A stone of the player to move.
pub const OWN: u8 = 1;
/// An opponent stone.
pub const OPPONENT: u8 = 2;
/// Off the board.
pub const OFF_BOARD: u8 = 3;
/// Number of distinct states an orthogonal neighbour can take (cell and liberty class).
const INNER_STATES: usize = 16;
/// Number of distinct states a farther cell can take (liberties ignored).
const OUTER_STATES: usize = 4;
/// Offsets whose state includes the liberty class: the orthogonal neighbours.
const INNER: usize = 4;

const fn splitmix64(state: u64) -> (u64, u64) {
    let s = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = s;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (s, z ^ (z >> 31))
}

/// The index in [`OFFSETS`] of an offset of the largest diamond.
const fn offset_index(o: (i32, i32)) -> usize {
    let mut i = 0;
    while i < NUM_OFFSETS {
        if OFFSETS[i].0 == o.0 && OFFSETS[i].1 == o.1 {
            return i;
        }
        i += 1;
    }
    panic!("offset outside the diamond")
}

/// The key tables: `KEYS[o][state][s]` is the key of `state` at offset `o` as symmetry `s`
/// sees it, i.e. the base key of the offset that `s` maps `o` to.
struct Keys {
    inner: [[[u64; 8]; INNER_STATES]; INNER],
    outer: [[[u64; 8]; OUTER_STATES]; NUM_OFFSETS],
}

const fn make_keys() -> Keys {
    // Base keys per offset and state; fixed forever, since trained models store hashes.
    let mut base = [[0u64; INNER_STATES]; NUM_OFFSETS];
    let mut state = 0x5348_4150_4553_0001; // "SHAPES"
    let mut o = 0;
    while o < NUM_OFFSETS {
        let mut st = 0;
        while st < INNER_STATES {
            let (s, k) = splitmix64(state);
            state = s;
            base[o][st] = k;
            st += 1;
        }
        o += 1;
    }
    let mut keys = Keys {
        inner: [[[0; 8]; INNER_STATES]; INNER],
        outer: [[[0; 8]; OUTER_STATES]; NUM_OFFSETS],
    };
    let mut o = 0;
    while o < NUM_OFFSETS {
        let mut s = 0;
        while s < 8 {
            let image = offset_index(transform(s, OFFSETS[o]));
            let mut st = 0;
            while st < INNER_STATES {
                if o < INNER {
                    keys.inner[o][st][s] = base[image][st];
                }
                if st < OUTER_STATES {
                    keys.outer[o][st][s] = base[image][st];
                }
                st += 1;
            }
            s += 1;
        }
        o += 1;
    }
    keys
}

static KEYS: Keys = make_keys();

/// A digest of every key, so that a model file can tell whether its hashes were made with
/// these keys.
pub fn key_digest() -> u64 {
    let mut h = 0u64;
    for key in KEYS
        .inner
        .iter()
        .flatten()
        .chain(KEYS.outer.iter().flatten())
    {
        for &k in key {
            h = h.rotate_left(7) ^ k;
        }
    }
    h
}

/// The smallest of the eight symmetric hashes, never 0 (0 marks empty table slots).
#[inline(always)]
fn canonical(acc: &[u64; 8]) -> u64 {
    let a = acc[0].min(acc[1]).min(acc[2].min(acc[3]));
    let b = acc[4].min(acc[5]).min(acc[6].min(acc[7]));
    a.min(b) | 1
}

/// The symmetric accumulators of the 3x3 square around the padded index `centre`: the
/// start of every shape walk.
#[inline(always)]
fn square_keys(states: &[u8], steps: &[isize; NUM_OFFSETS], centre: isize) -> [u64; 8] {
    let mut acc = [0u64; 8];
    for o in 0..INNER {
        let cell = states[(centre + steps[o]) as usize] as usize;
        xor_into(&mut acc, &KEYS.inner[o][cell]);
    }
    acc
}

/// Xors the keys of the outer offsets `offsets` around `centre` into `acc`: one or more
/// rings of a walk.
#[inline(always)]
fn add_ring_keys(
    states: &[u8],
    steps: &[isize; NUM_OFFSETS],
    centre: isize,
    offsets: std::ops::Range<usize>,
    acc: &mut [u64; 8],
) {
    for o in offsets {
        let cell = states[(centre + steps[o]) as usize] as usize;
        xor_into(acc, &KEYS.outer[o][cell & 3]);
    }
}

#[inline(always)]
fn xor_into(acc: &mut [u64; 8], key: &[u64; 8]) {
    for s in 0..8 {
        acc[s] ^= key[s];
    }
}

/// The board as the player to move sees it, in a margin-padded array, ready to hash the
/// shapes of many points. Reused from position to position; allocates only when created.
pub struct ShapeScratch {
    /// Board size the geometry below was made for (0: none yet).
    size: usize,
    /// Row length of the padded array.
    width: usize,
    /// Offsets of [`OFFSETS`] as index steps in the padded array.
    steps: [isize; NUM_OFFSETS],
    /// Padded index of each board point (indexed by [`Point`]).
    padded: Box<[u16; crate::board::MAX_POINTS]>,
    /// Cell states (see [`EMPTY`] and the liberty bits) in the padded array.
    states: Box<[u8; PADDED_CAP]>,
    /// The walks still going in [`ShapeScratch::deepest_each`] (room for every point).
    walks: Vec<Walk>,
}

/// One point's shape walk in [`ShapeScratch::deepest_each`]: the symmetric accumulators so
/// far, the hash of the level being looked up, and where the point and its answer are.
#[derive(Clone, Copy, Debug)]
struct Walk {
    acc: [u64; 8],
    hash: u64,
    centre: isize,
    index: usize,
}

impl Default for ShapeScratch {
    fn default() -> Self {
        ShapeScratch::new()
    }
}

impl ShapeScratch {
    /// An empty scratch; [`ShapeScratch::load`] fills it.
    pub fn new() -> ShapeScratch {
        ShapeScratch {
            size: 0,
            width: 0,
            steps: [0; NUM_OFFSETS],
            padded: Box::new([0; crate::board::MAX_POINTS]),
            states: Box::new([OFF_BOARD; PADDED_CAP]),
            walks: Vec::with_capacity(crate::board::MAX_POINTS),
        }
    }

    fn set_geometry(&mut self, board: &Board) {
        let size = board.size();
        let width = size + 2 * MARGIN;
        self.size = size;
        self.width = width;
        for (step, &(dx, dy)) in self.steps.iter_mut().zip(OFFSETS.iter()) {
            *step = dy as isize * width as isize + dx as isize;
        }
        self.states.fill(OFF_BOARD);
        for row in 0..size {
            for col in 0..size {
                self.padded[board.point(col, row) as usize] =
                    ((row + MARGIN) * width + col + MARGIN) as u16;
            }
        }
    }

    /// Takes in `board` as `mover` sees it: the shapes hashed next are for `mover` to play.
    pub fn load(&mut self, board: &Board, mover: Color) {
        if self.size != board.size() {
            self.set_geometry(board);
        }
        let own = Cell::stone(mover);
        for row in 0..self.size {
            for col in 0..self.size {
                let p = board.point(col, row);
                let cell = board.cell(p);
                let state = match cell {
                    Cell::Empty => EMPTY,
                    _ => {
                        let base = if cell == own { OWN } else { OPPONENT };
                        let libs = match board.liberties(p) {
                            1 => 1,
                            2 => 2,
                            _ => 0,
                        };
                        base | libs << 2
                    }
                };
                self.states[self.padded[p as usize] as usize] = state;
            }
        }
    }

    /// The canonical hash of the shape around the on-board point `p` at every level, for
    /// the board and mover last given to [`ShapeScratch::load`]. Allocation-free.
    #[inline]
    pub fn hashes(&self, p: Point) -> [u64; LEVELS] {
        let mut out = [0u64; LEVELS];
        self.walk_levels(p, |level, hash| {
            out[level] = hash;
            true
        });
        out
    }

    /// The pattern index of the largest level of `p`'s shape known to `dictionary`, walking
    /// outwards until a level is unknown (as if from [`ShapeScratch::hashes`], without
    /// hashing the rings beyond the first unknown level: most large shapes are unknown).
    /// For many points at once, [`ShapeScratch::deepest_each`] is faster.
    #[inline]
    pub fn deepest(&self, p: Point, dictionary: &Dictionary) -> Option<u32> {
        let mut found = None;
        self.walk_levels(p, |_, hash| match dictionary.get(hash) {
            Some(i) => {
                found = Some(i);
                true
            }
            None => false,
        });
        found
    }

    /// [`ShapeScratch::deepest`] of each of `points`, into `out` (resized to match): the
    /// same answers, found level by level for all points together so that the dictionary's
    /// cache misses overlap (each level's slots are prefetched before any is read) instead
    /// of following one another. Allocates nothing once `out` has room.
    pub fn deepest_each(
        &mut self,
        points: &[Point],
        dictionary: &Dictionary,
        out: &mut Vec<Option<u32>>,
    ) {
        out.clear();
        out.resize(points.len(), None);
        let ShapeScratch {
            walks,
            states,
            steps,
            padded,
            ..
        } = self;
        let states = &states[..];
        walks.clear();
        for (index, &p) in points.iter().enumerate() {
            let centre = padded[p as usize] as isize;
            walks.push(Walk {
                acc: square_keys(states, steps, centre),
                hash: 0,
                centre,
                index,
            });
        }
        let mut start = INNER;
        for &end in LEVEL_ENDS.iter() {
            for walk in walks.iter_mut() {
                // A local copy stays in registers; the walk's own would be stored each step.
                let mut acc = walk.acc;
                add_ring_keys(states, steps, walk.centre, start..end, &mut acc);
                walk.acc = acc;
                walk.hash = canonical(&acc);
                dictionary.prefetch(walk.hash);
            }
            start = end;
            walks.retain(|walk| match dictionary.get(walk.hash) {
                Some(i) => {
                    out[walk.index] = Some(i);
                    true
                }
                None => false,
            });
            if walks.is_empty() {
                break;
            }
        }
    }

    /// Hashes `p`'s shape ring by ring, giving `visit` each level and its canonical hash from
    /// the 3x3 square outwards, until `visit` says stop.
    #[inline(always)]
    fn walk_levels(&self, p: Point, mut visit: impl FnMut(usize, u64) -> bool) {
        let centre = self.padded[p as usize] as isize;
        let states = &self.states[..];
        let mut acc = square_keys(states, &self.steps, centre);
        let mut start = INNER;
        for (level, &end) in LEVEL_ENDS.iter().enumerate() {
            add_ring_keys(states, &self.steps, centre, start..end, &mut acc);
            start = end;
            if !visit(level, canonical(&acc)) {
                return;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::test_support::{board_from, pt};

    fn hashes_at(board: &Board, mover: Color, p: Point) -> [u64; LEVELS] {
        let mut scratch = ShapeScratch::new();
        scratch.load(board, mover);
        scratch.hashes(p)
    }

    /// The board `b` under symmetry `s` of the whole board, with colours swapped if asked.
    fn transformed(b: &Board, s: usize, swap: bool) -> Board {
        let n = b.size() as i32;
        let mut out = Board::new(b.size());
        let half = n - 1;
        for p in b.points() {
            if let Some(c) = b.cell(p).color() {
                let (col, row) = b.col_row(p);
                // Transform around the centre (doubled coordinates stay integral).
                let (x, y) = transform(s, (2 * col as i32 - half, 2 * row as i32 - half));
                let q = out.point(((x + half) / 2) as usize, ((y + half) / 2) as usize);
                let c = if swap { c.opponent() } else { c };
                out.place_setup_stone(q, c).expect("same position, legal");
            }
        }
        out
    }

    fn image(b: &Board, s: usize, p: Point) -> Point {
        let half = b.size() as i32 - 1;
        let (col, row) = b.col_row(p);
        let (x, y) = transform(s, (2 * col as i32 - half, 2 * row as i32 - half));
        b.point(((x + half) / 2) as usize, ((y + half) / 2) as usize)
    }

    #[test]
    fn deepest_stops_at_the_first_unknown_level() {
        let b = board_from(&[
            ". . . . . . .", //
            ". . X O . . .",
            ". X . O . . .",
            ". . X . . . .",
            ". . . . . . .",
            ". . . . . . .",
            ". . . . . . .",
        ]);
        let mut scratch = ShapeScratch::new();
        scratch.load(&b, Color::Black);
        let p = pt(&b, "C5");
        let h = scratch.hashes(p);
        let mut d = Dictionary::with_capacity(4);
        assert_eq!(scratch.deepest(p, &d), None);
        d.insert(h[0], 10).unwrap();
        d.insert(h[1], 11).unwrap();
        // Level 3 is known but level 2 is not: the walk never gets there.
        d.insert(h[3], 13).unwrap();
        assert_eq!(scratch.deepest(p, &d), Some(11));
        d.insert(h[2], 12).unwrap();
        assert_eq!(scratch.deepest(p, &d), Some(13));
    }

    #[test]
    fn deepest_each_answers_as_deepest_does_point_by_point() {
        // The reference is the one-point walk; the positions come from random legal games
        // on two sizes, looked up in the built-in model (whose shapes go many levels deep).
        let dictionary = crate::policy::Policy::builtin().dictionary();
        let mut rng = crate::rng::Rng::new(7);
        let mut scratch = ShapeScratch::new();
        let mut out = Vec::new();
        let mut deepest_found = 0;
        for size in [9, 19] {
            let mut b = Board::new(size);
            let mut c = Color::Black;
            for moves in 0..size * size {
                if moves % 7 == 0 {
                    scratch.load(&b, c);
                    let points = b.empty_points().to_vec();
                    scratch.deepest_each(&points, dictionary, &mut out);
                    assert_eq!(out.len(), points.len());
                    for (&p, &got) in points.iter().zip(&out) {
                        assert_eq!(got, scratch.deepest(p, dictionary), "{size}x{size}");
                        let levels = scratch.hashes(p);
                        let known = levels.iter().take_while(|&&h| dictionary.get(h).is_some());
                        deepest_found = deepest_found.max(known.count());
                    }
                }
                let empty = b.empty_points().to_vec();
                let legal: Vec<Point> = empty.into_iter().filter(|&p| b.is_legal(p, c)).collect();
                if legal.is_empty() {
                    break;
                }
                b.play(legal[rng.below(legal.len())], c);
                c = c.opponent();
            }
        }
        assert!(
            deepest_found >= 3,
            "only {deepest_found} levels known: a weak test"
        );
    }

    #[test]
    fn geometry_of_the_diamonds() {
        assert_eq!(NUM_OFFSETS, 72);
        // 3x3: the four orthogonal then the four diagonal neighbours.
        assert_eq!(LEVEL_ENDS[0], 8);
        assert!(OFFSETS[..4].iter().all(|&(x, y)| x.abs() + y.abs() == 1));
        assert!(
            OFFSETS[4..8]
                .iter()
                .all(|&(x, y)| x.abs() == 1 && y.abs() == 1)
        );
        assert_eq!(LEVEL_ENDS[LEVELS - 1], NUM_OFFSETS);
        // d <= 4 adds the four points two steps away along the lines.
        assert_eq!(LEVEL_ENDS[1], 12);
        // Every symmetry maps the diamond onto itself, and they are eight distinct maps.
        for s in 0..8 {
            for &o in &OFFSETS {
                let t = transform(s, o);
                assert_eq!(distance(t.0, t.1), distance(o.0, o.1));
            }
        }
        let images: std::collections::HashSet<_> = (0..8).map(|s| transform(s, (2, 1))).collect();
        assert_eq!(images.len(), 8);
    }

    #[test]
    fn every_symmetry_gives_the_same_hashes() {
        // A corner shape with a chain in atari next to the move (E17's neighbour) and stones
        // on the edge, far from symmetric.
        let b = board_from(&[
            ". . . . . . . . . . . . . . . . . . .", //
            ". . . X O . . . . . . . . . . . . . .",
            ". . X . O X . . . . . . . . . . . . .",
            ". . . X O O X . . . . . . . . . . . .",
            ". . . . X . . . . . . . . . . . . . .",
            ". . . . . . . . . . . . . . . . . . .",
            ". . . . . . . . . . . . . . . . . . .",
            ". . . . . . . . . . . . . . . . . . .",
            ". . . . . . . . . . . . . . . . . . .",
            ". . . . . . . . . . . . . . . . . . .",
            ". . . . . . . . . . . . . . . . . . .",
            ". . . . . . . . . . . . . . . . . . .",
            ". . . . . . . . . . . . . . . . . . .",
            ". . . . . . . . . . . . . . . . . . .",
            ". . . . . . . . . . . . . . . . . . .",
            ". . . . . . . . . . . . . . . . . . .",
            ". . . . . . . . . . . . . . . . . . .",
            ". . . . . . . . . . . . . . . . . . .",
            ". . . . . . . . . . . . . . . . . . .",
        ]);
        for name in ["E18", "C16", "A19", "D17", "H15"] {
            let p = pt(&b, name);
            for mover in Color::BOTH {
                let h = hashes_at(&b, mover, p);
                for s in 0..8 {
                    let t = transformed(&b, s, false);
                    assert_eq!(hashes_at(&t, mover, image(&b, s, p)), h, "{name} sym {s}");
                }
            }
        }
    }

    #[test]
    fn colour_swap_gives_the_other_side_s_shape() {
        let b = board_from(&[
            ". . . . . . .", //
            ". . X O . . .",
            ". X . O . . .",
            ". . X . . . .",
            ". . . . . . .",
            ". . . . . . .",
            ". . . . . . .",
        ]);
        let swapped = transformed(&b, 0, true);
        for name in ["C5", "D4", "E6", "A1"] {
            let p = pt(&b, name);
            // Black to move here sees what White to move sees with colours swapped.
            assert_eq!(
                hashes_at(&b, Color::Black, p),
                hashes_at(&swapped, Color::White, p)
            );
        }
        // With stones around, the two sides see different shapes.
        let p = pt(&b, "C5");
        let black = hashes_at(&b, Color::Black, p);
        let white = hashes_at(&b, Color::White, p);
        assert!(black.iter().zip(&white).all(|(x, y)| x != y));
    }

    #[test]
    fn levels_differ_and_see_only_their_diamond() {
        let mut b = board_from(&[
            ". . . . . . . . .", //
            ". . . . . . . . .",
            ". . . . . . . . .",
            ". . . . . . . . .",
            ". . . . . . . . .",
            ". . . . . . . . .",
            ". . . . . . . . .",
            ". . . . . . . . .",
            ". . . . . . . . .",
        ]);
        let e5 = pt(&b, "E5");
        let empty = hashes_at(&b, Color::Black, e5);
        // Nested levels of an empty neighbourhood are still distinct patterns.
        let distinct: std::collections::HashSet<_> = empty.iter().collect();
        assert_eq!(distinct.len(), LEVELS);
        // A stone at G6 (dx 2, dy 1: d = 5) changes levels d <= 5 and up, not d <= 3 or 4.
        b.place_setup_stone(pt(&b, "G6"), Color::White).unwrap();
        let h = hashes_at(&b, Color::Black, e5);
        assert_eq!(h[..2], empty[..2]);
        assert!(h[2..].iter().zip(&empty[2..]).all(|(x, y)| x != y));
    }

    #[test]
    fn liberties_of_orthogonal_neighbours_count() {
        // The white chain A3-C3 west of the move D3, black C4 and C2 above and below it:
        // the same 3x3 cells, with the chain in atari, on two or on three liberties.
        let diagram = |a4: char, a2: char| {
            vec![
                ". . . . .".to_string(),
                format!("{a4} X X . ."),
                "O O O . .".to_string(),
                format!("{a2} X X . ."),
                ". . . . .".to_string(),
            ]
        };
        let hash = |rows: Vec<String>| {
            let rows: Vec<&str> = rows.iter().map(String::as_str).collect();
            let b = board_from(&rows);
            hashes_at(&b, Color::Black, pt(&b, "D3"))
        };
        let one = hash(diagram('X', 'X'));
        let two = hash(diagram('X', '.'));
        let three = hash(diagram('.', '.'));
        assert_ne!(one[0], two[0]);
        assert_ne!(two[0], three[0]);
        assert_ne!(one[0], three[0]);
        // A fourth liberty (B4 empty, outside the d <= 4 diamond) changes nothing there.
        let four = hash(vec![
            ". . . . .".into(),
            ". . X . .".into(),
            "O O O . .".into(),
            ". X X . .".into(),
            ". . . . .".into(),
        ]);
        assert_eq!(four[..2], three[..2]);
        assert_ne!(four[2], three[2]);
    }
}
