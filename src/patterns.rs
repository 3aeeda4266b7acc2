//! 3x3 shape patterns and cheap move features: the Go knowledge the heavy playouts and the
//! search priors share.
//!
//! A point's 3x3 neighbourhood is packed into a 16-bit code: two bits per neighbour (the
//! [`Cell`] value: black, white, empty, border) in the order NW, N, NE, W, E, SW, S, SE
//! (north = higher rows). A small hand-written list of shapes (below, after the shape
//! classes of MoGo: hane, cut, and edge moves) is expanded at start-up over the eight
//! symmetries of the square, every wildcard and both colours into one bit per code and
//! colour to move, so matching a point costs eight loads and one table lookup.
//!
//! [`move_features`] bundles, for a board, a colour and a point, the facts a search prior
//! wants (captures, atari escapes, self-atari, pattern, distance to the last moves, line).

use std::sync::OnceLock;

use crate::board::{Board, Cell, Color, NO_POINT, Point};
use crate::tactics;

/// The shapes, drawn around the move (the centre, `*`) for the player to move.
/// `X`: a stone of the player to move; `O`: an opponent stone; `.`: empty; `#`: off the
/// board; `?`: anything; `x`: not an opponent stone (own stone or empty); `o`: not an own
/// stone (opponent stone or empty). Each shape also holds with colours swapped: a point
/// that is good shape for one side is as urgent for the other.
const SHAPES: &[[&str; 3]] = &[
    // Hane that wraps around an opponent stone standing between two of ours.
    ["XOX", ".*.", "???"],
    // Hane at the head of an opponent stone, diagonal to our stone, the far side open.
    ["XO.", ".*.", "?.?"],
    // Turning around an opponent stone (magari) next to our own stone.
    ["XO?", "X*.", "x.?"],
    // Hane under a pair of opponent stones.
    ["XOO", ".*.", "?.?"],
    // Diagonal attachment: touching an opponent stone next to our own.
    [".O.", "X*.", "..."],
    // Cutting two opponent stones apart where they are not yet protected.
    ["XO?", "O*o", "?o?"],
    // Cutting after a peep: our stones on both sides.
    ["XO?", "O*X", "???"],
    // Pushing between two opponent stones (de).
    ["?X?", "O*O", "ooo"],
    // Cutting the opponent's knight's move next to our stone.
    ["OX?", "o*O", "???"],
    // On the first line: chasing along the edge under an opponent stone.
    ["X.?", "O*?", "##?"],
    // On the first line: blocking the opponent's cut.
    ["OX?", "X*O", "###"],
    // On the first line: blocking under our stone against an opponent stone.
    ["?X?", "x*O", "###"],
    // On the first line: descending (sagari) from our stone.
    ["?Xo", "x*x", "###"],
    // On the first line: cutting under two opponent stones.
    ["?Oo", "o*O", "###"],
];

/// Offsets of the eight neighbours in code order, as (column, row) deltas; row +1 = north.
pub(crate) const RING: [(i32, i32); 8] = [
    (-1, 1),
    (0, 1),
    (1, 1),
    (-1, 0),
    (1, 0),
    (-1, -1),
    (0, -1),
    (1, -1),
];

/// One bit per neighbourhood code and colour to move: whether a shape matches.
struct ShapeTable {
    bits: [[u64; 1024]; 2],
}

static TABLE: OnceLock<Box<ShapeTable>> = OnceLock::new();

fn table() -> &'static ShapeTable {
    TABLE.get_or_init(build_table)
}

/// Makes sure the shape table is built (it is built on first use otherwise); call it before
/// timing anything.
pub fn init() {
    let _ = table();
}

/// The cells a pattern character allows, for the mover `own` / opponent `opp`.
fn allowed(ch: char, own: Cell, opp: Cell) -> Vec<Cell> {
    match ch {
        'X' => vec![own],
        'O' => vec![opp],
        '.' => vec![Cell::Empty],
        '#' => vec![Cell::Border],
        'x' => vec![own, Cell::Empty],
        'o' => vec![opp, Cell::Empty],
        '?' => vec![Cell::Black, Cell::White, Cell::Empty, Cell::Border],
        _ => panic!("bad pattern character {ch:?}"),
    }
}

/// The character at ring position `i` of `shape` after symmetry `sym` (0..8).
fn shape_char(shape: &[&str; 3], sym: usize, i: usize) -> char {
    let (mut dx, mut dy) = RING[i];
    // Apply the symmetry to the offset: optional mirror, then 0..4 quarter turns.
    if sym & 4 != 0 {
        dx = -dx;
    }
    for _ in 0..(sym & 3) {
        (dx, dy) = (-dy, dx);
    }
    // Row 0 of the drawing is north (dy = +1).
    let row = (1 - dy) as usize;
    let col = (dx + 1) as usize;
    shape[row].as_bytes()[col] as char
}

fn build_table() -> Box<ShapeTable> {
    let mut t = Box::new(ShapeTable {
        bits: [[0; 1024]; 2],
    });
    for shape in SHAPES {
        for mover in Color::BOTH {
            // The shape as drawn for the mover, and with colours swapped.
            for swapped in [false, true] {
                let (mut own, mut opp) = (Cell::stone(mover), Cell::stone(mover.opponent()));
                if swapped {
                    std::mem::swap(&mut own, &mut opp);
                }
                for sym in 0..8 {
                    let choices: Vec<Vec<Cell>> = (0..8)
                        .map(|i| allowed(shape_char(shape, sym, i), own, opp))
                        .collect();
                    let mut stack = vec![(0usize, 0u16)];
                    while let Some((i, code)) = stack.pop() {
                        if i == 8 {
                            t.bits[mover.index()][code as usize >> 6] |= 1 << (code & 63);
                            continue;
                        }
                        for &cell in &choices[i] {
                            stack.push((i + 1, code | (cell as u16) << (2 * i)));
                        }
                    }
                }
            }
        }
    }
    t
}

/// The 3x3 neighbourhood code of `p` (see the module documentation).
#[inline]
pub fn neighbourhood_code(board: &Board, p: Point) -> u16 {
    let s = board.stride() as Point;
    let ring = [
        p.wrapping_add(s - 1),
        p.wrapping_add(s),
        p.wrapping_add(s + 1),
        p.wrapping_sub(1),
        p.wrapping_add(1),
        p.wrapping_sub(s + 1),
        p.wrapping_sub(s),
        p.wrapping_sub(s - 1),
    ];
    let mut code = 0u16;
    for (i, q) in ring.into_iter().enumerate() {
        code |= (board.cell(q) as u16) << (2 * i);
    }
    code
}

/// Whether a neighbourhood `code` matches one of the shapes for `c` to play.
#[inline]
pub fn code_matches(code: u16, c: Color) -> bool {
    table().bits[c.index()][code as usize >> 6] >> (code & 63) & 1 != 0
}

/// Whether the empty point `p` matches one of the shapes for `c` to play.
#[inline]
pub fn matches_shape(board: &Board, p: Point, c: Color) -> bool {
    code_matches(neighbourhood_code(board, p), c)
}

/// Cheap Go knowledge about one candidate move, for search priors.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MoveFeatures {
    /// Opponent stones the move captures (0 when it captures nothing).
    pub captures: u16,
    /// The move saves an own chain in atari next to it: it captures one of the chain's
    /// attackers or extends it to two liberties or more (ladders not read).
    pub escapes_atari: bool,
    /// The move puts an opponent chain next to it into atari (and is no self-atari).
    pub makes_atari: bool,
    /// After the move its own chain has a single liberty (a capture counts as a liberty).
    pub self_atari: bool,
    /// The self-atari may be a nakade: a chain of at most three stones filling a space the
    /// opponent alone encloses (see [`tactics::is_nakade_self_atari`]).
    pub nakade: bool,
    /// The point's 3x3 neighbourhood matches a playout shape for the mover.
    pub shape: bool,
    /// Distance to the last move: `|dx| + |dy| + max(|dx|, |dy|)` (2 = orthogonally
    /// adjacent, 3 = a diagonal neighbour, 4 = two points along a line, 5 = a knight's
    /// move, ...); `u8::MAX` when there is no last move (pass or start).
    pub distance_to_last: u8,
    /// The same distance to the move before the last one.
    pub distance_to_last2: u8,
    /// Line of the point counted from the nearest edge: 1 for the edge, 2 for the second
    /// line, and so on.
    pub line: u8,
}

/// The distance measure of [`MoveFeatures::distance_to_last`] between two points.
pub fn move_distance(board: &Board, a: Point, b: Point) -> u8 {
    if a == NO_POINT || b == NO_POINT {
        return u8::MAX;
    }
    let (ax, ay) = board.col_row(a);
    let (bx, by) = board.col_row(b);
    let dx = ax.abs_diff(bx);
    let dy = ay.abs_diff(by);
    (dx + dy + dx.max(dy)).min(u8::MAX as usize) as u8
}

/// Line of an on-board point from the nearest edge (1 = first line).
pub fn line_of(board: &Board, p: Point) -> u8 {
    let (x, y) = board.col_row(p);
    let n = board.size();
    (x.min(y).min(n - 1 - x).min(n - 1 - y) + 1) as u8
}

/// The [`MoveFeatures`] of `c` playing the empty on-board point `p` on `board` (legality is
/// the caller's business). Allocation-free; costs a few dozen array reads, more only when
/// chains with one or two liberties must be walked.
pub fn move_features(board: &Board, c: Color, p: Point) -> MoveFeatures {
    let self_atari = tactics::is_self_atari(board, p, c);
    MoveFeatures {
        captures: tactics::capture_count(board, p, c).min(u16::MAX as usize) as u16,
        escapes_atari: tactics::escapes_atari(board, p, c),
        makes_atari: tactics::makes_atari(board, p, c),
        self_atari,
        nakade: self_atari && tactics::is_nakade_self_atari(board, p, c),
        shape: matches_shape(board, p, c),
        distance_to_last: move_distance(board, p, board.last_move()),
        distance_to_last2: move_distance(board, p, board.last_move2()),
        line: line_of(board, p),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::test_support::{board_from, pt};

    #[test]
    fn neighbourhood_code_reads_the_ring_in_order() {
        let b = board_from(&[
            ". . . . .", //
            ". X O . .",
            ". . . X .",
            ". . . . .",
            ". . . . .",
        ]);
        // Around C3: NW = B4 black, N = C4 white, NE = D4 empty, W = B3 empty, E = D3 black,
        // SW, S, SE empty.
        let e = Cell::Empty as u16;
        let expected = (Cell::Black as u16)
            | (Cell::White as u16) << 2
            | e << 4
            | e << 6
            | (Cell::Black as u16) << 8
            | e << 10
            | e << 12
            | e << 14;
        assert_eq!(neighbourhood_code(&b, pt(&b, "C3")), expected);
        // A1's south and west are off the board.
        let code = neighbourhood_code(&b, pt(&b, "A1"));
        assert_eq!(code >> 10 & 3, Cell::Border as u16);
        assert_eq!(code >> 6 & 3, Cell::Border as u16);
    }

    #[test]
    fn hane_matches_in_every_orientation_and_for_both_colours() {
        // Two black stones with a white one between them, the move under the white one.
        let north = board_from(&[
            ". . . . .", //
            ". X O X .",
            ". . . . .",
            ". . . . .",
            ". . . . .",
        ]);
        let east = board_from(&[
            ". . . . .", //
            ". . . X .",
            ". . . O .",
            ". . . X .",
            ". . . . .",
        ]);
        for b in [&north, &east] {
            assert!(matches_shape(b, pt(b, "C3"), Color::Black));
            assert!(matches_shape(b, pt(b, "C3"), Color::White));
        }
        // The point beside it, away from the stones, matches nothing.
        assert!(!matches_shape(&north, pt(&north, "C1"), Color::Black));
    }

    #[test]
    fn a_lone_stone_or_an_empty_neighbourhood_is_no_shape() {
        let b = board_from(&[
            ". . . . . . .", //
            ". . . . . . .",
            ". . . X . . .",
            ". . . . . . .",
            ". . . . . . .",
            ". . . . . . .",
            ". . . . . . .",
        ]);
        for name in ["D4", "D2", "F2", "B6"] {
            for c in Color::BOTH {
                assert!(!matches_shape(&b, pt(&b, name), c), "{name} {c}");
            }
        }
    }

    #[test]
    fn edge_shapes_match_on_the_first_line_only() {
        // Black E2 above the move E1, white F1 beside it: blocking on the edge.
        let b = board_from(&[
            ". . . . . . .", //
            ". . . . . . .",
            ". . . . . . .",
            ". . . . . . .",
            ". . . . . . .",
            ". . . . X . .",
            ". . . . . O .",
        ]);
        assert!(matches_shape(&b, pt(&b, "E1"), Color::Black));
        // A lone black stone on the second line: descending to the edge (sagari) is a
        // shape, while the same relation one line up (a lone stone) is none.
        let b = board_from(&[
            ". . . . . . .", //
            ". . . . . . .",
            ". . . . . . .",
            ". . . . X . .",
            ". . . . . . .",
            ". . . . X . .",
            ". . . . . . .",
        ]);
        assert!(matches_shape(&b, pt(&b, "E1"), Color::Black));
        assert!(!matches_shape(&b, pt(&b, "E3"), Color::Black));
    }

    #[test]
    fn features_of_capture_escape_and_distance() {
        let mut b = board_from(&[
            ". . . . .", //
            ". . O . .",
            ". O X O .",
            ". . . . .",
            ". . . . .",
        ]);
        let c2 = pt(&b, "C2");
        let f = move_features(&b, Color::Black, c2);
        assert!(f.escapes_atari && !f.self_atari && !f.nakade && !f.makes_atari);
        assert_eq!(f.captures, 0);
        assert_eq!(f.line, 2);
        assert_eq!(f.distance_to_last, u8::MAX);
        let f = move_features(&b, Color::White, c2);
        assert_eq!(f.captures, 1);
        assert!(!f.escapes_atari && !f.self_atari);
        // After white E5 and black A1, distances from C2: to A1 dx 2 dy 1 -> 2 + 1 + 2 = 5;
        // to E5 dx 2 dy 3 -> 2 + 3 + 3 = 8.
        b.play(pt(&b, "E5"), Color::White);
        b.play(pt(&b, "A1"), Color::Black);
        let f = move_features(&b, Color::White, c2);
        assert_eq!(f.distance_to_last, 5);
        assert_eq!(f.distance_to_last2, 8);
        assert_eq!(move_features(&b, Color::White, pt(&b, "B1")).line, 1);
        assert_eq!(
            move_features(&b, Color::White, pt(&b, "B2")).distance_to_last,
            3
        );
        assert_eq!(
            move_features(&b, Color::White, pt(&b, "B1")).distance_to_last,
            2
        );
    }
}
