//! The board: stones on a padded array, chains with exact liberty counts, captures, simple ko
//! and a Zobrist hash.
//!
//! This is the hot path of the whole engine: playouts and tree search call [`Board::play`]
//! millions of times, so every array has a fixed capacity (boards up to 25x25) and playing a
//! move allocates nothing. Repetition rules beyond simple ko (superko) need the game history and
//! live in [`crate::game`]; scoring lives in [`crate::score`].
//!
//! Layout: a board of size `n` is stored row by row in a `(n + 2) x (n + 2)` array whose outer
//! ring is [`Cell::Border`], so every on-board point has four neighbours in the array. A
//! [`Point`] is an index into that array; index 0 is always border and doubles as "no point".

use std::fmt;
use std::hint::select_unpredictable;
use std::ops::{Index, IndexMut};

/// Largest supported board size.
pub const MAX_SIZE: usize = 25;
/// Smallest supported board size.
pub const MIN_SIZE: usize = 2;
/// Capacity of every per-point array: the padded 25x25 board.
pub const MAX_POINTS: usize = (MAX_SIZE + 2) * (MAX_SIZE + 2);

/// Checks a requested board size.
pub fn check_size(size: usize) -> Result<(), String> {
    if (MIN_SIZE..=MAX_SIZE).contains(&size) {
        Ok(())
    } else {
        Err(format!(
            "unacceptable size: {size} (supported {MIN_SIZE} to {MAX_SIZE})"
        ))
    }
}

/// Length of the board's per-point arrays: a power of two above `MAX_POINTS + MAX_SIZE + 3`
/// (every neighbour and diagonal of a point), so that an index masked with `ARRAY_CAP - 1` is
/// always in bounds and the hot paths carry no bounds checks.
const ARRAY_CAP: usize = 1024;
const _: () = assert!(ARRAY_CAP.is_power_of_two() && ARRAY_CAP >= MAX_POINTS + MAX_SIZE + 3);

/// A per-point array indexed by [`Point`]; indices are masked into range instead of checked
/// (a point is always below `MAX_POINTS`, so the mask never changes a valid index).
#[derive(Clone)]
struct PointArray<T>([T; ARRAY_CAP]);

impl<T: Copy> PointArray<T> {
    fn filled(value: T) -> PointArray<T> {
        PointArray([value; ARRAY_CAP])
    }

    /// Copies the first `n` entries of `other`.
    #[inline]
    fn copy_prefix(&mut self, other: &PointArray<T>, n: usize) {
        self.0[..n].copy_from_slice(&other.0[..n]);
    }
}

impl<T> Index<Point> for PointArray<T> {
    type Output = T;
    #[inline(always)]
    fn index(&self, p: Point) -> &T {
        &self.0[p as usize & (ARRAY_CAP - 1)]
    }
}

impl<T> IndexMut<Point> for PointArray<T> {
    #[inline(always)]
    fn index_mut(&mut self, p: Point) -> &mut T {
        &mut self.0[p as usize & (ARRAY_CAP - 1)]
    }
}

/// An index into the padded point array of a [`Board`]; depends on the board size.
pub type Point = u16;
/// The "no point" marker (always a border cell).
pub const NO_POINT: Point = 0;

/// A player's colour.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Color {
    /// The player who moves first in even games.
    Black = 0,
    /// The player who receives komi.
    White = 1,
}

impl Color {
    /// The other player.
    #[inline]
    pub fn opponent(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }

    /// 0 for Black, 1 for White: an index into per-colour arrays.
    #[inline]
    pub fn index(self) -> usize {
        self as usize
    }

    /// The single-letter name used by SGF and GTP answers (`B` or `W`).
    pub fn letter(self) -> char {
        match self {
            Color::Black => 'B',
            Color::White => 'W',
        }
    }

    /// Both colours, Black first.
    pub const BOTH: [Color; 2] = [Color::Black, Color::White];
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Color::Black => "black",
            Color::White => "white",
        })
    }
}

/// What occupies a point of the padded array.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
#[repr(u8)]
pub enum Cell {
    /// A black stone.
    Black = 0,
    /// A white stone.
    White = 1,
    /// An empty intersection.
    Empty = 2,
    /// Off the board (the padding ring).
    Border = 3,
}

impl Cell {
    /// The cell holding a stone of colour `c`.
    #[inline]
    pub fn stone(c: Color) -> Cell {
        match c {
            Color::Black => Cell::Black,
            Color::White => Cell::White,
        }
    }

    /// The colour of the stone here, if any.
    #[inline]
    pub fn color(self) -> Option<Color> {
        match self {
            Cell::Black => Some(Color::Black),
            Cell::White => Some(Color::White),
            _ => None,
        }
    }
}

/// A move: a stone on a point, or a pass.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum Move {
    /// Give up the turn.
    Pass,
    /// Put a stone on this point.
    Play(Point),
}

/// Why a move is refused by the rules core.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Illegal {
    /// The point is off the board.
    OffBoard,
    /// A stone is already there.
    Occupied,
    /// The stone would have no liberties and captures nothing (禁著點).
    Suicide,
    /// Retakes a simple ko at once.
    Ko,
    /// Recreates an earlier whole-board position (禁止全局同形再現).
    Superko,
}

impl fmt::Display for Illegal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Illegal::OffBoard => "off the board",
            Illegal::Occupied => "point is occupied",
            Illegal::Suicide => "suicide",
            Illegal::Ko => "retakes a ko",
            Illegal::Superko => "repeats an earlier position (superko)",
        })
    }
}

const fn splitmix64(state: u64) -> (u64, u64) {
    let s = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = s;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (s, z ^ (z >> 31))
}

const fn zobrist_keys() -> [[u64; MAX_POINTS]; 2] {
    let mut keys = [[0u64; MAX_POINTS]; 2];
    let mut state = 0x5348_4F55_5441_4E00; // "SHOUTAN"
    let mut c = 0;
    while c < 2 {
        let mut p = 0;
        while p < MAX_POINTS {
            let (s, k) = splitmix64(state);
            state = s;
            keys[c][p] = k;
            p += 1;
        }
        c += 1;
    }
    keys
}

/// Zobrist keys per colour and point: the hash of a position is the xor of its stones' keys.
static ZOBRIST: [[u64; MAX_POINTS]; 2] = zobrist_keys();

/// Hash of the empty board; non-zero so that 0 can mark empty slots in hash tables.
pub const EMPTY_BOARD_HASH: u64 = 0x6A09_E667_F3BC_C908;

/// Key mixed into a position hash to say who moves next (situational superko).
pub fn side_to_move_key(c: Color) -> u64 {
    match c {
        Color::Black => 0,
        Color::White => 0xBB67_AE85_84CA_A73B,
    }
}

/// The Zobrist key of a stone of colour `c` on point `p`.
#[inline]
pub fn zobrist(c: Color, p: Point) -> u64 {
    ZOBRIST[c.index()][p as usize]
}

// Neighbour counts are packed in one u32 per point: byte 0 counts black stones plus border
// neighbours, byte 1 white stones plus border, byte 2 empty points.
const NBR_SHIFT_EMPTY: u32 = 16;

#[inline]
fn nbr_unit(c: Color) -> u32 {
    1 << (8 * c as u32)
}

/// For four chain heads, whether each differs from the ones before it.
#[inline(always)]
fn distinct_heads(h: [Point; 4]) -> [bool; 4] {
    [
        true,
        h[1] != h[0],
        (h[2] != h[0]) & (h[2] != h[1]),
        (h[3] != h[0]) & (h[3] != h[1]) & (h[3] != h[2]),
    ]
}

/// A Go board of any size from 2x2 to 25x25.
#[derive(Clone)]
pub struct Board {
    size: usize,
    stride: usize,
    cells: PointArray<Cell>,
    /// Chain head of each stone; `NO_POINT` on empty and border points, so that
    /// `chain[q] == head` alone says whether `q` is a stone of that chain.
    chain: PointArray<Point>,
    /// Next stone of the same chain (circular list).
    next: PointArray<Point>,
    /// Exact liberty count, valid at chain heads.
    libs: PointArray<u16>,
    /// Number of stones, valid at chain heads.
    chain_size: PointArray<u16>,
    /// Packed neighbour counts, see `NBR_SHIFT_EMPTY`.
    nbr: PointArray<u32>,
    /// The empty points, in no particular order.
    empties: [Point; ARRAY_CAP],
    /// Position of each empty point in `empties`.
    empty_index: PointArray<u16>,
    num_empty: usize,
    hash: u64,
    /// Point the `ko_color` player may not play at once (simple ko), or `NO_POINT`.
    ko_point: Point,
    ko_color: Color,
    /// Stones captured by Black and by White.
    prisoners: [u32; 2],
    /// The last two moves (`NO_POINT` for a pass or none), most recent first.
    last_moves: [Point; 2],
    /// Colour of the most recent move or pass.
    last_color: Option<Color>,
    /// Capture history of each point: bit `c` is set once a stone of colour `c` has been
    /// captured there since [`Board::new`]. Only a point with such a mark can be the site of a
    /// move that repeats an earlier position (see [`Board::may_repeat_position`]).
    captured_marks: PointArray<u8>,
    /// Scratch marks for liberty counts; a point is marked when `mark[p] == mark_gen`.
    mark: PointArray<u32>,
    mark_gen: u32,
}

impl fmt::Debug for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.ascii())
    }
}

impl PartialEq for Board {
    /// Two boards are equal when their positions, ko state, prisoners and last moves are:
    /// the internal chain layout may differ.
    fn eq(&self, other: &Board) -> bool {
        self.size == other.size
            && self.hash == other.hash
            && self.ko_point == other.ko_point
            && (self.ko_point == NO_POINT || self.ko_color == other.ko_color)
            && self.prisoners == other.prisoners
            && self.last_moves == other.last_moves
            && self.last_color == other.last_color
            && self.points().all(|p| self.cells[p] == other.cells[p])
    }
}

impl Board {
    /// An empty board of `size` x `size`; `size` must lie in `MIN_SIZE..=MAX_SIZE`.
    pub fn new(size: usize) -> Board {
        assert!(
            (MIN_SIZE..=MAX_SIZE).contains(&size),
            "board size {size} out of range"
        );
        let stride = size + 2;
        let mut b = Board {
            size,
            stride,
            cells: PointArray::filled(Cell::Border),
            chain: PointArray::filled(NO_POINT),
            next: PointArray::filled(NO_POINT),
            libs: PointArray::filled(0),
            chain_size: PointArray::filled(0),
            nbr: PointArray::filled(0),
            empties: [NO_POINT; ARRAY_CAP],
            empty_index: PointArray::filled(0),
            num_empty: 0,
            hash: EMPTY_BOARD_HASH,
            ko_point: NO_POINT,
            ko_color: Color::Black,
            prisoners: [0; 2],
            last_moves: [NO_POINT; 2],
            last_color: None,
            captured_marks: PointArray::filled(0),
            mark: PointArray::filled(0),
            mark_gen: 0,
        };
        for row in 0..size {
            for col in 0..size {
                let p = b.point(col, row);
                b.cells[p] = Cell::Empty;
                b.empty_index[p] = b.num_empty as u16;
                b.empties[b.num_empty] = p;
                b.num_empty += 1;
            }
        }
        let unit_border = nbr_unit(Color::Black) | nbr_unit(Color::White);
        for p in 0..(stride * stride) as Point {
            if b.cells[p] == Cell::Border {
                continue;
            }
            let mut count = 0;
            for n in b.neighbors(p) {
                count += match b.cells[n] {
                    Cell::Border => unit_border,
                    _ => 1 << NBR_SHIFT_EMPTY,
                };
            }
            b.nbr[p] = count;
        }
        b
    }

    /// Copies `other` into `self` without allocating, touching only the used part of the arrays.
    pub fn copy_from(&mut self, other: &Board) {
        let n = other.stride * other.stride;
        self.size = other.size;
        self.stride = other.stride;
        self.cells.copy_prefix(&other.cells, n);
        self.chain.copy_prefix(&other.chain, n);
        self.next.copy_prefix(&other.next, n);
        self.libs.copy_prefix(&other.libs, n);
        self.chain_size.copy_prefix(&other.chain_size, n);
        self.nbr.copy_prefix(&other.nbr, n);
        self.empty_index.copy_prefix(&other.empty_index, n);
        self.captured_marks.copy_prefix(&other.captured_marks, n);
        self.empties[..other.num_empty].copy_from_slice(&other.empties[..other.num_empty]);
        self.num_empty = other.num_empty;
        self.hash = other.hash;
        self.ko_point = other.ko_point;
        self.ko_color = other.ko_color;
        self.prisoners = other.prisoners;
        self.last_moves = other.last_moves;
        self.last_color = other.last_color;
        // Marks stay valid: a fresh generation is taken before each use.
    }

    /// Side length of the board.
    #[inline]
    pub fn size(&self) -> usize {
        self.size
    }

    /// Distance between vertically adjacent points in the padded array.
    #[inline]
    pub fn stride(&self) -> usize {
        self.stride
    }

    /// Number of entries of the padded array this board uses: points are below this.
    #[inline]
    pub fn array_len(&self) -> usize {
        self.stride * self.stride
    }

    /// The point at column `col` and row `row`, both 0-based, row 0 at the bottom (GTP row 1).
    #[inline]
    pub fn point(&self, col: usize, row: usize) -> Point {
        debug_assert!(col < self.size && row < self.size);
        ((row + 1) * self.stride + col + 1) as Point
    }

    /// Column and row (0-based, row 0 at the bottom) of an on-board point.
    #[inline]
    pub fn col_row(&self, p: Point) -> (usize, usize) {
        let p = p as usize;
        (p % self.stride - 1, p / self.stride - 1)
    }

    /// Whether `p` is an on-board point.
    #[inline]
    pub fn on_board(&self, p: Point) -> bool {
        (p as usize) < self.array_len() && self.cells[p] != Cell::Border
    }

    /// All on-board points, bottom row first.
    pub fn points(&self) -> impl Iterator<Item = Point> + '_ {
        (0..self.size).flat_map(move |row| (0..self.size).map(move |col| self.point(col, row)))
    }

    /// What is on point `p`.
    #[inline]
    pub fn cell(&self, p: Point) -> Cell {
        self.cells[p]
    }

    /// The four orthogonal neighbours of `p` in the padded array (some may be border). For an
    /// on-board point they are real array points; for a border point they may wrap around
    /// (harmless: per-point arrays mask their index), which lets branch-free code ask.
    #[inline]
    pub fn neighbors(&self, p: Point) -> [Point; 4] {
        let s = self.stride as Point;
        [
            p.wrapping_sub(s),
            p.wrapping_sub(1),
            p.wrapping_add(1),
            p.wrapping_add(s),
        ]
    }

    /// The four diagonal neighbours of `p` in the padded array (some may be border).
    #[inline]
    pub fn diagonals(&self, p: Point) -> [Point; 4] {
        let s = self.stride as Point;
        [
            p.wrapping_sub(s + 1),
            p.wrapping_sub(s - 1),
            p.wrapping_add(s - 1),
            p.wrapping_add(s + 1),
        ]
    }

    /// Zobrist hash of the stones on the board (side to move and ko not included).
    #[inline]
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// The point where `color` may not play at once because it retakes a simple ko.
    pub fn ko(&self) -> Option<(Point, Color)> {
        (self.ko_point != NO_POINT).then_some((self.ko_point, self.ko_color))
    }

    /// Stones captured so far by `c`.
    #[inline]
    pub fn prisoners(&self, c: Color) -> u32 {
        self.prisoners[c.index()]
    }

    /// The most recent move (`NO_POINT` after a pass or at the start).
    #[inline]
    pub fn last_move(&self) -> Point {
        self.last_moves[0]
    }

    /// The move before the most recent one (`NO_POINT` after a pass or at the start).
    #[inline]
    pub fn last_move2(&self) -> Point {
        self.last_moves[1]
    }

    /// Colour of whoever moved (or passed) last.
    #[inline]
    pub fn last_color(&self) -> Option<Color> {
        self.last_color
    }

    /// The empty points, in no particular order.
    #[inline]
    pub fn empty_points(&self) -> &[Point] {
        &self.empties[..self.num_empty]
    }

    /// Exchanges entries `i` and `j` of [`Board::empty_points`] (the list's order carries no
    /// meaning), so that a playout can set aside the points it has rejected for this move
    /// and draw uniformly among the rest.
    #[inline]
    pub fn swap_empty_points(&mut self, i: usize, j: usize) {
        let (a, b) = (self.empties[i], self.empties[j]);
        self.empties[i] = b;
        self.empties[j] = a;
        self.empty_index[a] = j as u16;
        self.empty_index[b] = i as u16;
    }

    /// Number of stones of both colours on the board.
    pub fn stone_count(&self) -> usize {
        self.size * self.size - self.num_empty
    }

    /// Head of the chain containing the stone at `p` (meaningless on empty points).
    #[inline]
    pub fn chain_id(&self, p: Point) -> Point {
        self.chain[p]
    }

    /// Exact number of liberties of the chain through the stone at `p`.
    #[inline]
    pub fn liberties(&self, p: Point) -> usize {
        self.libs[self.chain[p]] as usize
    }

    /// Number of stones in the chain through the stone at `p`.
    #[inline]
    pub fn chain_len(&self, p: Point) -> usize {
        self.chain_size[self.chain[p]] as usize
    }

    /// The stones of the chain through the stone at `p`.
    pub fn chain_stones(&self, p: Point) -> ChainStones<'_> {
        ChainStones {
            board: self,
            start: p,
            current: p,
            done: false,
        }
    }

    /// Number of empty orthogonal neighbours of `p`.
    #[inline]
    pub fn empty_neighbors(&self, p: Point) -> usize {
        (self.nbr[p] >> NBR_SHIFT_EMPTY & 0xFF) as usize
    }

    /// Number of orthogonal neighbours of `p` that are stones of `c` or off the board.
    #[inline]
    pub fn own_or_border_neighbors(&self, p: Point, c: Color) -> usize {
        (self.nbr[p] >> (8 * c as u32) & 0xFF) as usize
    }

    /// Whether every orthogonal neighbour of the empty point `p` is a stone of `c` or off board.
    #[inline]
    pub fn is_eyelike(&self, p: Point, c: Color) -> bool {
        self.own_or_border_neighbors(p, c) == 4
    }

    /// The playout eye test: `p` is eyelike for `c` and the opponent holds at most one diagonal
    /// in the centre, none on the edge or in the corner. Filling such a point is never useful in
    /// a random playout, and refusing it lets groups with two of them live.
    #[inline]
    pub fn is_playout_eye(&self, p: Point, c: Color) -> bool {
        // Branch-free (playouts ask this of random points, an unpredictable branch).
        let opp = Cell::stone(c.opponent());
        let mut opp_diag = 0u32;
        let mut border_diag = false;
        for d in self.diagonals(p) {
            let cell = self.cells[d];
            opp_diag += u32::from(cell == opp);
            border_diag |= cell == Cell::Border;
        }
        self.is_eyelike(p, c) & (opp_diag + u32::from(border_diag) < 2)
    }

    /// Whether `p` is the point `c` may not play at once because it retakes a simple ko.
    #[inline]
    pub fn is_ko_retake(&self, p: Point, c: Color) -> bool {
        (p == self.ko_point) & (c == self.ko_color) & (p != NO_POINT)
    }

    /// Whether `c` may play at `p` under the board-local rules: on an empty point, not
    /// suicide, not an immediate simple-ko retake. Superko is checked by [`crate::game`].
    #[inline]
    pub fn is_legal(&self, p: Point, c: Color) -> bool {
        self.check_move(p, c).is_ok()
    }

    /// Like [`Board::is_legal`] but says why a move is refused.
    pub fn check_move(&self, p: Point, c: Color) -> Result<(), Illegal> {
        if !self.on_board(p) {
            return Err(Illegal::OffBoard);
        }
        if self.cells[p] != Cell::Empty {
            return Err(Illegal::Occupied);
        }
        if p == self.ko_point && c == self.ko_color {
            return Err(Illegal::Ko);
        }
        if self.is_suicide(p, c) {
            return Err(Illegal::Suicide);
        }
        Ok(())
    }

    /// Whether a stone of `c` on the empty point `p` would be left without liberties while
    /// capturing nothing.
    #[inline]
    pub fn is_suicide(&self, p: Point, c: Color) -> bool {
        if self.empty_neighbors(p) > 0 {
            return false;
        }
        // Branch-free: every neighbour is a stone or the edge. The move lives if it joins an
        // own chain with another liberty or takes an opponent chain's last one.
        let own = Cell::stone(c);
        let opp = Cell::stone(c.opponent());
        let mut lives = false;
        for n in self.neighbors(p) {
            let cell = self.cells[n];
            let libs = self.libs[self.chain[n]];
            lives |= ((cell == own) & (libs > 1)) | ((cell == opp) & (libs == 1));
        }
        !lives
    }

    /// Whether a stone of `c` at the empty point `p` would capture something.
    #[inline]
    pub fn captures_any(&self, p: Point, c: Color) -> bool {
        let opp = Cell::stone(c.opponent());
        self.neighbors(p)
            .iter()
            .any(|&n| self.cells[n] == opp && self.libs[self.chain[n]] == 1)
    }

    /// Whether a stone of `c` on `p` could recreate any position this board has been in
    /// (since [`Board::new`], through every copy, clone and move that led to it): false when
    /// no stone of `c` has ever been captured on `p`, so superko needs no lookup then.
    ///
    /// Proof: suppose `c` plays `p` (capturing or not) and the resulting position Q equals an
    /// earlier position P. The move is legal, so Q has a `c` stone on `p`, hence so has P.
    /// Just before the move `p` was empty, so that stone left `p` after P. On a [`Board`] a
    /// stone leaves its point only when its chain is captured (undo restores whole earlier
    /// boards, marks included), and every capture marks the points it empties. So `p` carries
    /// the mark of colour `c`. The argument needs the position history used for superko to
    /// come from this board's own line of play, as [`crate::game::Game`] and
    /// [`crate::playout::Playout`] guarantee.
    #[inline]
    pub fn may_repeat_position(&self, p: Point, c: Color) -> bool {
        self.captured_marks[p] & (1 << c as u8) != 0
    }

    /// The position hash after `c` plays the legal move `p`, without playing it.
    pub fn hash_after(&self, p: Point, c: Color) -> u64 {
        let mut h = self.hash ^ zobrist(c, p);
        let opp = c.opponent();
        let opp_cell = Cell::stone(opp);
        // Heads of the opponent chains this move captures (NO_POINT for other neighbours).
        let heads = self.neighbors(p).map(|n| {
            let head = self.chain[n];
            let taken = (self.cells[n] == opp_cell) & (self.libs[head] == 1);
            select_unpredictable(taken, head, NO_POINT)
        });
        let distinct = distinct_heads(heads);
        for i in 0..4 {
            if distinct[i] && heads[i] != NO_POINT {
                for s in self.chain_stones(heads[i]) {
                    h ^= zobrist(opp, s);
                }
            }
        }
        h
    }

    /// `c` passes: clears the ko ban and records the pass as the last move.
    pub fn pass(&mut self, c: Color) {
        self.ko_point = NO_POINT;
        self.last_moves = [NO_POINT, self.last_moves[0]];
        self.last_color = Some(c);
    }

    /// Plays a move that is legal on this board (see [`Board::is_legal`]); returns the number
    /// of stones captured. Allocates nothing.
    pub fn play(&mut self, p: Point, c: Color) -> u32 {
        debug_assert!(self.is_legal(p, c), "illegal move {p} for {c}\n{self:?}");
        let own = Cell::stone(c);
        let opp = c.opponent();
        let opp_cell = Cell::stone(opp);
        self.ko_point = NO_POINT;
        self.last_moves = [p, self.last_moves[0]];
        self.last_color = Some(c);
        self.add_stone(p, c);

        // p was a liberty of every distinct adjacent chain. Branch-free: empty and border
        // neighbours have chain NO_POINT, whose slot absorbs their (meaningless) decrements.
        let ns = self.neighbors(p);
        let heads = ns.map(|n| self.chain[n]);
        let kinds = ns.map(|n| self.cells[n]);
        let distinct = distinct_heads(heads);
        let mut own_heads = [NO_POINT; 4];
        let mut n_own = 0;
        let mut opp_heads = [NO_POINT; 4];
        let mut n_opp = 0;
        for i in 0..4 {
            let h = heads[i];
            self.libs[h] = self.libs[h].wrapping_sub(u16::from(distinct[i]));
            // At step i at most i heads are listed, so the slot written is in range.
            own_heads[n_own & 3] = h;
            n_own += usize::from(distinct[i] & (kinds[i] == own));
            opp_heads[n_opp & 3] = h;
            n_opp += usize::from(distinct[i] & (kinds[i] == opp_cell));
        }

        // Join p to its own neighbours.
        match n_own {
            0 => {
                self.next[p] = p;
                self.chain_size[p] = 1;
                self.libs[p] = self.empty_neighbors(p) as u16;
            }
            1 => {
                let h = own_heads[0];
                let mut gained = 0;
                for n in ns {
                    gained +=
                        u16::from((self.cells[n] == Cell::Empty) & !self.adjacent_to_chain(n, h));
                }
                self.link_stone(h, p);
                self.libs[h] += gained;
            }
            _ => {
                let mut big = own_heads[0];
                for &h in &own_heads[1..n_own] {
                    if self.chain_size[h] > self.chain_size[big] {
                        big = h;
                    }
                }
                // The merged chain's liberties are the biggest chain's (p already taken off)
                // plus those of the smaller chains and of p that it does not touch: only the
                // smaller chains are walked.
                let generation = self.fresh_mark_generation();
                let mut libs = self.libs[big];
                for &h in &own_heads[..n_own] {
                    if h == big {
                        continue;
                    }
                    let mut s = h;
                    loop {
                        for n in self.neighbors(s) {
                            libs += self.new_liberty_of(n, big, generation);
                        }
                        s = self.next[s];
                        if s == h {
                            break;
                        }
                    }
                }
                for n in self.neighbors(p) {
                    libs += self.new_liberty_of(n, big, generation);
                }
                for &h in &own_heads[..n_own] {
                    if h != big {
                        self.merge_chains(big, h);
                    }
                }
                self.link_stone(big, p);
                self.libs[big] = libs;
            }
        }

        // Capture opponent chains left without liberties.
        let mut captured = 0;
        let mut last_captured = NO_POINT;
        for &h in &opp_heads[..n_opp] {
            if self.libs[h] == 0 {
                captured += self.chain_size[h] as u32;
                last_captured = h;
                self.remove_chain(h, opp);
            }
        }
        self.prisoners[c.index()] += captured;

        // A single stone that captured a single stone and has one liberty left makes a ko.
        let head = self.chain[p];
        if captured == 1 && self.chain_size[head] == 1 && self.libs[head] == 1 {
            self.ko_point = last_captured;
            self.ko_color = opp;
        }
        captured
    }

    /// Places a stone of `c` on the empty point `p` as setup (handicap, 座子, SGF AB/AW): no
    /// capture, no ko, not recorded as a move. Refused where it would leave a chain of either
    /// colour without liberties.
    pub fn place_setup_stone(&mut self, p: Point, c: Color) -> Result<(), Illegal> {
        if !self.on_board(p) {
            return Err(Illegal::OffBoard);
        }
        if self.cells[p] != Cell::Empty {
            return Err(Illegal::Occupied);
        }
        if self.is_suicide(p, c) || self.captures_any(p, c) {
            return Err(Illegal::Suicide);
        }
        let saved = (
            self.last_moves,
            self.last_color,
            self.ko_point,
            self.ko_color,
        );
        self.play(p, c);
        (
            self.last_moves,
            self.last_color,
            self.ko_point,
            self.ko_color,
        ) = saved;
        Ok(())
    }

    /// A board from a text diagram, top row first: `X` black, `O` white, `.` or `+` empty,
    /// spaces ignored. For hand-built positions in tests and tools; every chain must keep a
    /// liberty.
    pub fn from_diagram(rows: &[&str]) -> Result<Board, String> {
        let size = rows.len();
        check_size(size)?;
        let mut b = Board::new(size);
        for (i, row) in rows.iter().enumerate() {
            let r = size - 1 - i;
            let cells: Vec<char> = row.chars().filter(|c| !c.is_whitespace()).collect();
            if cells.len() != size {
                return Err(format!(
                    "row {} has {} points, not {size}",
                    i + 1,
                    cells.len()
                ));
            }
            for (c, ch) in cells.into_iter().enumerate() {
                let color = match ch {
                    'X' | 'x' | '#' => Color::Black,
                    'O' | 'o' => Color::White,
                    '.' | '+' => continue,
                    _ => return Err(format!("unknown point '{ch}' in row {}", i + 1)),
                };
                let p = b.point(c, r);
                b.place_setup_stone(p, color)
                    .map_err(|e| format!("stone at {}: {e}", b.vertex_name(p)))?;
            }
        }
        Ok(b)
    }

    /// Whether any neighbour of `n` is a stone of the chain headed `head`.
    #[inline]
    fn adjacent_to_chain(&self, n: Point, head: Point) -> bool {
        // Empty and border points have chain NO_POINT, which is never a head.
        let [a, b, c, d] = self.neighbors(n).map(|m| self.chain[m] == head);
        a | b | c | d
    }

    /// 1 if `n` is an empty point not yet marked with `generation` (it is marked now) and not
    /// adjacent to the chain `head`; else 0. Counts the liberties a merge adds to `head`.
    #[inline]
    fn new_liberty_of(&mut self, n: Point, head: Point, generation: u32) -> u16 {
        // Branch-free; marking a stone is harmless (marks are only read on empty points).
        let fresh = (self.cells[n] == Cell::Empty) & (self.mark[n] != generation);
        self.mark[n] = generation;
        u16::from(fresh & !self.adjacent_to_chain(n, head))
    }

    /// A mark generation no point carries yet.
    #[inline]
    fn fresh_mark_generation(&mut self) -> u32 {
        self.mark_gen = self.mark_gen.wrapping_add(1);
        if self.mark_gen == 0 {
            self.mark = PointArray::filled(0);
            self.mark_gen = 1;
        }
        self.mark_gen
    }

    #[inline]
    fn add_stone(&mut self, p: Point, c: Color) {
        self.cells[p] = Cell::stone(c);
        self.chain[p] = p;
        self.hash ^= zobrist(c, p);
        // Remove p from the empty list.
        let idx = self.empty_index[p] as usize;
        self.num_empty -= 1;
        let last = self.empties[self.num_empty & (ARRAY_CAP - 1)];
        self.empties[idx & (ARRAY_CAP - 1)] = last;
        self.empty_index[last] = idx as u16;
        let delta = nbr_unit(c).wrapping_sub(1 << NBR_SHIFT_EMPTY);
        for n in self.neighbors(p) {
            self.nbr[n] = self.nbr[n].wrapping_add(delta);
        }
    }

    #[inline]
    fn clear_stone(&mut self, p: Point, c: Color) {
        self.cells[p] = Cell::Empty;
        self.chain[p] = NO_POINT;
        self.captured_marks[p] |= 1 << c as u8;
        self.hash ^= zobrist(c, p);
        self.empty_index[p] = self.num_empty as u16;
        self.empties[self.num_empty & (ARRAY_CAP - 1)] = p;
        self.num_empty += 1;
        let delta = (1u32 << NBR_SHIFT_EMPTY).wrapping_sub(nbr_unit(c));
        for n in self.neighbors(p) {
            self.nbr[n] = self.nbr[n].wrapping_add(delta);
        }
    }

    /// Adds the new stone `p` to the chain headed `head`.
    #[inline]
    fn link_stone(&mut self, head: Point, p: Point) {
        self.chain[p] = head;
        self.next[p] = self.next[head];
        self.next[head] = p;
        self.chain_size[head] += 1;
    }

    /// Moves every stone of chain `other` into chain `head` (liberties recounted by the caller).
    fn merge_chains(&mut self, head: Point, other: Point) {
        let mut s = other;
        loop {
            self.chain[s] = head;
            s = self.next[s];
            if s == other {
                break;
            }
        }
        let (a, b) = (self.next[head], self.next[other]);
        self.next[head] = b;
        self.next[other] = a;
        self.chain_size[head] += self.chain_size[other];
    }

    /// Removes the captured chain headed `head` (of colour `c`), giving liberties back to the
    /// chains around it.
    fn remove_chain(&mut self, head: Point, c: Color) {
        let capturer = Cell::stone(c.opponent());
        let mut s = head;
        loop {
            let next = self.next[s];
            self.clear_stone(s, c);
            // Each distinct capturing chain next to s gains the liberty s, branch-free: other
            // neighbours map to NO_POINT, whose slot absorbs the increments.
            let heads = self
                .neighbors(s)
                .map(|n| select_unpredictable(self.cells[n] == capturer, self.chain[n], NO_POINT));
            let distinct = distinct_heads(heads);
            for i in 0..4 {
                self.libs[heads[i]] = self.libs[heads[i]].wrapping_add(u16::from(distinct[i]));
            }
            s = next;
            if s == head {
                break;
            }
        }
    }

    /// Checks every incremental structure against a from-scratch recomputation; for tests.
    pub fn check_invariants(&self) -> Result<(), String> {
        let mut hash = EMPTY_BOARD_HASH;
        let mut empties = 0;
        for p in 0..self.array_len() as Point {
            let cell = self.cells[p];
            let on_board = {
                let (r, c) = (p as usize / self.stride, p as usize % self.stride);
                r >= 1 && r <= self.size && c >= 1 && c <= self.size
            };
            if on_board == (cell == Cell::Border) {
                return Err(format!("point {p}: border mismatch"));
            }
            if cell == Cell::Border {
                continue;
            }
            let mut expect_nbr = 0u32;
            for n in self.neighbors(p) {
                expect_nbr += match self.cells[n] {
                    Cell::Border => nbr_unit(Color::Black) | nbr_unit(Color::White),
                    Cell::Empty => 1 << NBR_SHIFT_EMPTY,
                    Cell::Black => nbr_unit(Color::Black),
                    Cell::White => nbr_unit(Color::White),
                };
            }
            if expect_nbr != self.nbr[p] {
                return Err(format!("point {p}: neighbour counts wrong"));
            }
            match cell.color() {
                None => {
                    empties += 1;
                    if self.chain[p] != NO_POINT {
                        return Err(format!("point {p}: empty point with a chain id"));
                    }
                    let idx = self.empty_index[p] as usize;
                    if idx >= self.num_empty || self.empties[idx] != p {
                        return Err(format!("point {p}: empty list wrong"));
                    }
                }
                Some(c) => {
                    hash ^= zobrist(c, p);
                    // Flood-fill the chain and its liberties.
                    let mut stack = vec![p];
                    let mut members = vec![p];
                    let mut libs = Vec::new();
                    while let Some(q) = stack.pop() {
                        for n in self.neighbors(q) {
                            let nc = self.cells[n];
                            if nc == cell && !members.contains(&n) {
                                members.push(n);
                                stack.push(n);
                            } else if nc == Cell::Empty && !libs.contains(&n) {
                                libs.push(n);
                            }
                        }
                    }
                    let head = self.chain[p];
                    if members.iter().any(|&m| self.chain[m] != head) {
                        return Err(format!("point {p}: chain ids differ within a chain"));
                    }
                    if self.chain[head] != head || self.cells[head] != cell {
                        return Err(format!("point {p}: chain head {head} invalid"));
                    }
                    if self.chain_size[head] as usize != members.len() {
                        return Err(format!("point {p}: chain size wrong"));
                    }
                    if self.libs[head] as usize != libs.len() {
                        return Err(format!(
                            "point {p}: liberties {} expected {}",
                            self.libs[head],
                            libs.len()
                        ));
                    }
                    let listed: Vec<Point> = self.chain_stones(p).collect();
                    if listed.len() != members.len() || listed.iter().any(|m| !members.contains(m))
                    {
                        return Err(format!("point {p}: chain list wrong"));
                    }
                    if libs.is_empty() {
                        return Err(format!("point {p}: chain without liberties"));
                    }
                }
            }
        }
        if empties != self.num_empty {
            return Err("empty count wrong".into());
        }
        if hash != self.hash {
            return Err("hash wrong".into());
        }
        Ok(())
    }

    /// A plain text diagram (GNU Go style coordinates), used by `showboard` and debugging.
    pub fn ascii(&self) -> String {
        let mut out = String::new();
        let letters: Vec<char> = column_letters().take(self.size).collect();
        let header: String = letters.iter().map(|l| format!(" {l}")).collect();
        out.push_str(&format!("   {header}\n"));
        for row in (0..self.size).rev() {
            out.push_str(&format!("{:>2} ", row + 1));
            for col in 0..self.size {
                let p = self.point(col, row);
                let ch = match self.cells[p] {
                    Cell::Black => 'X',
                    Cell::White => 'O',
                    _ if is_star_point(self.size, col, row) => '+',
                    _ => '.',
                };
                out.push(' ');
                out.push(ch);
            }
            out.push_str(&format!(" {:<2}", row + 1));
            out.push('\n');
        }
        out.push_str(&format!("   {header}\n"));
        out
    }

    /// The GTP name of a point, e.g. `D4` (column I is skipped).
    pub fn vertex_name(&self, p: Point) -> String {
        let (col, row) = self.col_row(p);
        let letter = column_letters().nth(col).unwrap_or('?');
        format!("{letter}{}", row + 1)
    }

    /// The GTP name of a move: a vertex or `PASS`.
    pub fn move_name(&self, m: Move) -> String {
        match m {
            Move::Pass => "PASS".to_string(),
            Move::Play(p) => self.vertex_name(p),
        }
    }

    /// Parses a GTP vertex (`D4`, `d4`, `pass`) for this board size.
    pub fn parse_move(&self, text: &str) -> Result<Move, String> {
        if text.eq_ignore_ascii_case("pass") {
            return Ok(Move::Pass);
        }
        let mut chars = text.chars();
        let letter = chars
            .next()
            .ok_or_else(|| "empty vertex".to_string())?
            .to_ascii_uppercase();
        let col = column_letters()
            .take(MAX_SIZE)
            .position(|l| l == letter)
            .ok_or_else(|| format!("invalid vertex '{text}'"))?;
        let digits = chars.as_str();
        if digits.is_empty() || digits.len() > 2 || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return Err(format!("invalid vertex '{text}'"));
        }
        let row: usize = digits
            .parse()
            .map_err(|_| format!("invalid vertex '{text}'"))?;
        if row == 0 || row > self.size || col >= self.size {
            return Err(format!(
                "vertex '{text}' is off the {0}x{0} board",
                self.size
            ));
        }
        Ok(Move::Play(self.point(col, row - 1)))
    }
}

/// Column letters A..Z without I, as GTP and most GUIs name them.
pub fn column_letters() -> impl Iterator<Item = char> {
    ('A'..='Z').filter(|&c| c != 'I')
}

/// Whether (col, row) is a star point (hoshi) worth marking on a diagram.
pub fn is_star_point(size: usize, col: usize, row: usize) -> bool {
    if size < 7 {
        return false;
    }
    let edge = if size < 12 { 2 } else { 3 };
    let lines: &[usize] = if size % 2 == 1 && size >= 9 {
        &[edge, size / 2, size - 1 - edge]
    } else {
        &[edge, size - 1 - edge]
    };
    lines.contains(&col) && lines.contains(&row)
}

/// Iterator over the stones of one chain.
pub struct ChainStones<'a> {
    board: &'a Board,
    start: Point,
    current: Point,
    done: bool,
}

impl Iterator for ChainStones<'_> {
    type Item = Point;

    #[inline]
    fn next(&mut self) -> Option<Point> {
        if self.done {
            return None;
        }
        let p = self.current;
        self.current = self.board.next[p];
        if self.current == self.start {
            self.done = true;
        }
        Some(p)
    }
}

/// Helpers for the unit tests of every module that sets up positions by hand.
#[cfg(test)]
pub(crate) mod test_support {
    use super::{Board, Move, Point};

    /// The board a diagram draws (the diagram must be valid).
    pub(crate) fn board_from(rows: &[&str]) -> Board {
        Board::from_diagram(rows).expect("valid diagram")
    }

    /// The point a vertex name such as "C3" names (it must name one).
    pub(crate) fn pt(b: &Board, name: &str) -> Point {
        match b.parse_move(name) {
            Ok(Move::Play(p)) => p,
            _ => panic!("bad vertex {name}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use test_support::pt;

    #[test]
    fn diagrams_with_bad_rows_are_refused() {
        assert!(Board::from_diagram(&[". .", "."]).is_err());
        assert!(Board::from_diagram(&[". Z", ". ."]).is_err());
        // White A1 would have no liberty.
        assert!(Board::from_diagram(&["X O", "O ."]).is_err());
        let b = Board::from_diagram(&["X .", ". O"]).expect("valid diagram");
        assert_eq!(b.cell(b.point(0, 1)), Cell::Black);
        assert_eq!(b.cell(b.point(1, 0)), Cell::White);
        assert_eq!(b.stone_count(), 2);
    }

    fn play(b: &mut Board, name: &str, c: Color) -> u32 {
        let Ok(Move::Play(p)) = b.parse_move(name) else {
            panic!("bad vertex {name}")
        };
        assert!(b.is_legal(p, c), "{name} should be legal for {c}\n{b:?}");
        let n = b.play(p, c);
        b.check_invariants().unwrap();
        n
    }

    #[test]
    fn vertex_names_round_trip_and_skip_i() {
        let b = Board::new(19);
        assert_eq!(b.vertex_name(pt(&b, "j10")), "J10");
        assert_eq!(b.vertex_name(pt(&b, "T19")), "T19");
        assert_eq!(b.vertex_name(pt(&b, "a1")), "A1");
        assert!(b.parse_move("I5").is_err());
        assert!(b.parse_move("U1").is_err());
        assert!(b.parse_move("A20").is_err());
        assert!(b.parse_move("A0").is_err());
        assert!(b.parse_move("A").is_err());
        assert!(b.parse_move("A+1").is_err());
        assert_eq!(b.parse_move("PaSs"), Ok(Move::Pass));
        let small = Board::new(9);
        assert!(small.parse_move("K1").is_err());
        assert!(small.parse_move("J9").is_ok());
    }

    #[test]
    fn single_stone_capture_in_the_corner() {
        let mut b = Board::new(5);
        play(&mut b, "A1", Color::Black);
        play(&mut b, "A2", Color::White);
        assert_eq!(b.liberties(pt(&b, "A1")), 1);
        assert_eq!(play(&mut b, "B1", Color::White), 1);
        assert_eq!(b.cell(pt(&b, "A1")), Cell::Empty);
        assert_eq!(b.prisoners(Color::White), 1);
        assert_eq!(b.liberties(pt(&b, "A2")), 3);
    }

    #[test]
    fn suicide_single_and_multi_stone_is_illegal() {
        let mut b = Board::new(5);
        play(&mut b, "A2", Color::White);
        play(&mut b, "B1", Color::White);
        assert_eq!(
            b.check_move(pt(&b, "A1"), Color::Black),
            Err(Illegal::Suicide)
        );
        // Multi-stone: black A1-A2 chain with a single liberty at A3 filled by itself.
        let mut b = Board::new(5);
        play(&mut b, "A1", Color::Black);
        play(&mut b, "B1", Color::White);
        play(&mut b, "B2", Color::White);
        play(&mut b, "A3", Color::White);
        assert_eq!(
            b.check_move(pt(&b, "A2"), Color::Black),
            Err(Illegal::Suicide)
        );
        // But filling the last liberty is fine when it captures.
        let mut b = Board::new(5);
        play(&mut b, "A2", Color::White);
        play(&mut b, "B1", Color::White);
        play(&mut b, "B2", Color::Black);
        play(&mut b, "A3", Color::Black);
        play(&mut b, "C1", Color::Black);
        assert!(b.is_legal(pt(&b, "A1"), Color::Black));
        assert_eq!(play(&mut b, "A1", Color::Black), 2);
    }

    #[test]
    fn simple_ko_forbids_immediate_retake_only() {
        let mut b = Board::new(5);
        for (v, c) in [
            ("B1", Color::Black),
            ("A2", Color::Black),
            ("B3", Color::Black),
            ("C1", Color::White),
            ("D2", Color::White),
            ("C3", Color::White),
            ("B2", Color::White),
        ] {
            play(&mut b, v, c);
        }
        assert_eq!(play(&mut b, "C2", Color::Black), 1);
        let b2 = pt(&b, "B2");
        assert_eq!(b.ko(), Some((b2, Color::White)));
        assert_eq!(b.check_move(b2, Color::White), Err(Illegal::Ko));
        // Black may fill it; after a pass the ban is gone.
        assert!(b.is_legal(b2, Color::Black));
        b.pass(Color::White);
        assert!(b.is_legal(b2, Color::White));
    }

    #[test]
    fn merging_chains_counts_shared_liberties_once() {
        let mut b = Board::new(9);
        play(&mut b, "C3", Color::Black);
        play(&mut b, "E3", Color::Black);
        play(&mut b, "D4", Color::Black);
        play(&mut b, "D2", Color::Black);
        play(&mut b, "D3", Color::Black);
        assert_eq!(b.chain_len(pt(&b, "D3")), 5);
        assert_eq!(b.liberties(pt(&b, "D3")), 8);
    }

    #[test]
    fn hash_after_matches_play() {
        let mut b = Board::new(5);
        play(&mut b, "A2", Color::White);
        play(&mut b, "B1", Color::White);
        play(&mut b, "B2", Color::Black);
        play(&mut b, "A3", Color::Black);
        play(&mut b, "C1", Color::Black);
        let a1 = pt(&b, "A1");
        let predicted = b.hash_after(a1, Color::Black);
        b.play(a1, Color::Black);
        assert_eq!(predicted, b.hash());
    }

    #[test]
    fn playout_eye_test() {
        let mut b = Board::new(5);
        for v in ["A2", "B1"] {
            play(&mut b, v, Color::Black);
        }
        let a1 = pt(&b, "A1");
        assert!(b.is_playout_eye(a1, Color::Black));
        play(&mut b, "B2", Color::White);
        assert!(b.is_eyelike(a1, Color::Black));
        assert!(!b.is_playout_eye(a1, Color::Black));
    }

    /// Random legal games (passes included, so kos get retaken later) on many sizes: after
    /// every move the incremental chains, liberties, neighbour counts and hash equal a
    /// from-scratch recount.
    #[test]
    fn random_games_keep_every_invariant() {
        let mut rng = crate::rng::Rng::new(2024);
        // (size, games, check every n-th move: the full recount is slow on big boards)
        let plan = [
            (2, 20, 1),
            (3, 20, 1),
            (4, 20, 1),
            (5, 10, 1),
            (7, 4, 1),
            (9, 3, 2),
            (19, 1, 29),
        ];
        for &(size, games, every) in &plan {
            for _ in 0..games {
                let mut b = Board::new(size);
                let mut color = Color::Black;
                for ply in 0..(3 * size * size) {
                    let legal: Vec<Point> = b
                        .empty_points()
                        .iter()
                        .copied()
                        .filter(|&p| b.is_legal(p, color))
                        .collect();
                    if legal.is_empty() || rng.below(20) == 0 {
                        b.pass(color);
                    } else {
                        b.play(legal[rng.below(legal.len())], color);
                    }
                    if ply % every == 0 {
                        b.check_invariants()
                            .unwrap_or_else(|e| panic!("{size}x{size}: {e}\n{b:?}"));
                    }
                    color = color.opponent();
                }
            }
        }
    }

    /// The superko filter is sound: in random games on small boards (where repetitions are
    /// common), every legal move that recreates an earlier position, found by comparing whole
    /// boards cell by cell, is flagged by `may_repeat_position`.
    #[test]
    fn may_repeat_position_flags_every_repetition() {
        let mut rng = crate::rng::Rng::new(77);
        let mut repetitions_found = 0;
        for &size in &[2, 3, 4, 5] {
            for _ in 0..30 {
                let mut b = Board::new(size);
                let cells = |b: &Board| -> Vec<Cell> { b.points().map(|p| b.cell(p)).collect() };
                let mut seen = vec![cells(&b)];
                let mut color = Color::Black;
                for _ in 0..(6 * size * size) {
                    let mut legal = Vec::new();
                    for &p in b.empty_points() {
                        if !b.is_legal(p, color) {
                            continue;
                        }
                        let mut after = b.clone();
                        after.play(p, color);
                        let repeats = seen.contains(&cells(&after));
                        if repeats {
                            repetitions_found += 1;
                            assert!(
                                b.may_repeat_position(p, color),
                                "missed repetition at {} for {color}\n{b:?}",
                                b.vertex_name(p)
                            );
                        } else {
                            legal.push(p);
                        }
                    }
                    // Play on under positional superko (no repeated position), passing now
                    // and then.
                    if legal.is_empty() || rng.below(10) == 0 {
                        b.pass(color);
                    } else {
                        b.play(legal[rng.below(legal.len())], color);
                        seen.push(cells(&b));
                    }
                    color = color.opponent();
                }
            }
        }
        assert!(
            repetitions_found > 100,
            "only {repetitions_found} repetitions"
        );
    }

    #[test]
    fn capture_marks_follow_copies_and_captures() {
        let mut b = Board::new(5);
        play(&mut b, "A1", Color::Black);
        play(&mut b, "A2", Color::White);
        let a1 = pt(&b, "A1");
        assert!(!b.may_repeat_position(a1, Color::Black));
        play(&mut b, "B1", Color::White);
        assert!(b.may_repeat_position(a1, Color::Black));
        assert!(!b.may_repeat_position(a1, Color::White));
        let mut copy = Board::new(9);
        copy.copy_from(&b);
        assert!(copy.may_repeat_position(a1, Color::Black));
        assert!(b.clone().may_repeat_position(a1, Color::Black));
    }

    #[test]
    fn star_points() {
        assert!(is_star_point(19, 3, 3));
        assert!(is_star_point(19, 9, 9));
        assert!(is_star_point(9, 2, 6));
        assert!(!is_star_point(9, 3, 3));
    }
}
